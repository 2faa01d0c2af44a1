//! The Go Text Protocol: pure command parsing and the engine that runs commands.
