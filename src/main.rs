//! The `uberlazy` binary: all of it lives in [`uberlazy::cli::main_with`].

fn main() {
    std::process::exit(uberlazy::cli::main_with(std::env::args_os()));
}
