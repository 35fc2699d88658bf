//! Printing that outlives its reader: `kairos check ... | head -1` ends
//! quietly. Rust ignores SIGPIPE, so writing to a closed pipe fails with
//! `BrokenPipe`, on which `println!` panics. The macros below shadow
//! `print!`, `println!`, `eprint!` and `eprintln!` in the whole `cli`
//! module (declared first, they are in scope in every command's file): once
//! a stream fails, its output is dropped and the command runs on to its
//! exit code. A failure other than a closed pipe (a full disk) is said once
//! on stderr.

use std::fmt::Arguments;
use std::io::{ErrorKind, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether stdout, stderr failed (nothing more is written there).
static OUT_FAILED: AtomicBool = AtomicBool::new(false);
static ERR_FAILED: AtomicBool = AtomicBool::new(false);

pub(super) fn out(args: Arguments<'_>) {
    if let Err(e) = write(&OUT_FAILED, &mut std::io::stdout().lock(), args)
        && e.kind() != ErrorKind::BrokenPipe
    {
        err(format_args!("kairos: cannot write the output: {e}\n"));
    }
}

pub(super) fn err(args: Arguments<'_>) {
    // Nowhere left to say anything.
    let _ = write(&ERR_FAILED, &mut std::io::stderr().lock(), args);
}

/// `args` written to `w` unless it already failed; its first failure.
fn write(failed: &AtomicBool, w: &mut impl Write, args: Arguments<'_>) -> std::io::Result<()> {
    if failed.load(Ordering::Relaxed) {
        return Ok(());
    }
    // Line-buffered stdout writes at each newline; flush the rest too, so
    // the failure is seen here and not at exit.
    let result = w.write_fmt(args).and_then(|()| w.flush());
    if result.is_err() {
        failed.store(true, Ordering::Relaxed);
    }
    result
}

macro_rules! print {
    ($($arg:tt)*) => { $crate::cli::output::out(format_args!($($arg)*)) };
}

macro_rules! println {
    () => { $crate::cli::output::out(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::cli::output::out(format_args!("{}\n", format_args!($($arg)*))) };
}

macro_rules! eprint {
    ($($arg:tt)*) => { $crate::cli::output::err(format_args!($($arg)*)) };
}

macro_rules! eprintln {
    () => { $crate::cli::output::err(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::cli::output::err(format_args!("{}\n", format_args!($($arg)*))) };
}
