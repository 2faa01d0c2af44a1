fn main() {
    std::process::exit(kosumi_cli::main());
}
