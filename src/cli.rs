//! What the binaries share about their command lines (parsed with clap).

use std::process::ExitCode;

/// Exit status of a usage error (BSD `EX_USAGE`): clap's own 2 would read
/// as "invalid input" for the offline checker.
pub const EXIT_USAGE: u8 = 64;

/// The command line parsed as `P`, or the exit status to end with:
/// `--help` and `--version` print on stdout and end with 0, usage errors
/// print on stderr and end with [`EXIT_USAGE`].
pub fn parse<P: clap::Parser>() -> Result<P, ExitCode> {
    P::try_parse().map_err(|error| {
        let _ = error.print();
        if error.use_stderr() {
            ExitCode::from(EXIT_USAGE)
        } else {
            ExitCode::SUCCESS
        }
    })
}
