use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = kairos::cli::Cli::parse();
    // Ctrl-C asks the running search to stop with `unknown` and its
    // statistics; a second Ctrl-C ends the process at once.
    let _ = ctrlc::set_handler(|| {
        if kairos::engine::limits::interrupt() {
            std::process::exit(130);
        }
    });
    // A generous stack: expression nesting is bounded (256), but typing and
    // compiling walk it recursively with large frames in debug builds.
    let worker = std::thread::Builder::new().stack_size(256 << 20).spawn(move || kairos::cli::run(cli));
    match worker.map(|w| w.join()) {
        Ok(Ok(code)) => ExitCode::from(code),
        _ => {
            eprintln!("kairos: internal error (please report it with the input that caused it)");
            ExitCode::from(101)
        }
    }
}
