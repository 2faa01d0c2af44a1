//! The Go Text Protocol: pure command parsing and the engine that runs commands.

pub mod parse;

pub use parse::{
    format_failure, format_response, format_success, parse_color, parse_float, parse_int,
    parse_line, parse_move, parse_vertex, preprocess, too_long_reply, ArgError, Command, InputLine,
    LineReader, MAX_LINE_LEN,
};
pub mod engine;
