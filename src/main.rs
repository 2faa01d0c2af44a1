fn main() {
    std::process::exit(kosumi::cli::main());
}
