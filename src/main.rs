//! The `uberlazy` command line (temporary: run and compare only).

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "uberlazy")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    Run(uberlazy::cli::run::RunArgs),
    Compare(uberlazy::cli::compare::CompareArgs),
}

fn main() {
    let cli = Cli::parse();
    let r = match &cli.cmd {
        Cmd::Run(a) => uberlazy::cli::run::run(a),
        Cmd::Compare(a) => uberlazy::cli::compare::run(a),
    };
    if let Err(e) = r {
        eprintln!("error: {e}");
        std::process::exit(e.exit_code());
    }
}
