//! A reader that stops reading (`cactus workloads list | head -1`, `... | true`) closes
//! standard output; Rust's `print!` then panics with a broken pipe. Every command runs under
//! [`quiet_on_closed_stdout`], which turns exactly that panic into a quiet exit 0: the reader
//! took what it wanted, as with any Unix filter. Every other panic is reported as usual.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;

/// The message `print!` panics with when writing to standard output fails.
const PRINT_FAILED: &str = "failed printing to stdout";

/// True for the panic payload of a `print!` to a closed pipe.
fn is_closed_stdout(payload: &(dyn Any + Send)) -> bool {
    let text = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("");
    text.starts_with(PRINT_FAILED) && text.contains("Broken pipe")
}

/// Runs `command`; a write to a closed standard output ends it with exit code 0 and no
/// message. Any other panic keeps the default report and unwinds on.
pub fn quiet_on_closed_stdout(command: impl FnOnce() -> ExitCode) -> ExitCode {
    let default_hook = panic::take_hook();
    panic::set_hook(Box::new(move |info| {
        if !is_closed_stdout(info.payload()) {
            default_hook(info);
        }
    }));
    match panic::catch_unwind(AssertUnwindSafe(command)) {
        Ok(code) => code,
        Err(payload) if is_closed_stdout(payload.as_ref()) => ExitCode::SUCCESS,
        Err(payload) => panic::resume_unwind(payload),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_stdout_broken_pipe_is_quiet() {
        let pipe: Box<dyn Any + Send> =
            Box::new(format!("{PRINT_FAILED}: Broken pipe (os error 32)"));
        assert!(is_closed_stdout(pipe.as_ref()));
        let other: Box<dyn Any + Send> = Box::new("index out of bounds");
        assert!(!is_closed_stdout(other.as_ref()));
        let full: Box<dyn Any + Send> =
            Box::new(format!("{PRINT_FAILED}: No space left on device"));
        assert!(!is_closed_stdout(full.as_ref()));
    }

    #[test]
    fn a_normal_exit_code_passes_through() {
        assert_eq!(
            quiet_on_closed_stdout(|| ExitCode::from(7)),
            ExitCode::from(7)
        );
    }
}
