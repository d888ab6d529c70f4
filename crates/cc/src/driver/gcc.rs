//! Running gcc: one process per step, in the driver's working directory, with its output
//! either passed straight through (inherited) or collected for an in-process caller.

use crate::CcError;
use std::path::Path;
use std::process::{Command, Stdio};

/// How gcc's standard output and error reach the user.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Captured {
    /// gcc's standard output, when captured (`-E` or `-S -o -` write here).
    pub stdout: Vec<u8>,
    /// gcc's diagnostics, when captured, every step's in order.
    pub stderr: Vec<u8>,
}

/// One way to start gcc.
pub(super) struct Gcc<'a> {
    /// The compiler program.
    pub program: &'a Path,
    /// The directory the arguments are relative to (`None`: this process's).
    pub cwd: Option<&'a Path>,
    /// Collect output into a [`Captured`] instead of inheriting this process's streams.
    pub capture: bool,
}

impl Gcc<'_> {
    /// Runs gcc with `args`; returns its exit code (128 + the signal number when it was
    /// killed). Fails only when gcc cannot be started.
    pub fn run(&self, args: &[String], out: &mut Captured) -> Result<i32, CcError> {
        let mut cmd = Command::new(self.program);
        cmd.args(args).stdin(Stdio::inherit());
        if let Some(dir) = self.cwd {
            cmd.current_dir(dir);
        }
        let cannot = |e: std::io::Error| {
            CcError::Tool(format!("{}: cannot run: {e}", self.program.display()))
        };
        let status = if self.capture {
            let o = cmd.output().map_err(cannot)?;
            out.stdout.extend_from_slice(&o.stdout);
            out.stderr.extend_from_slice(&o.stderr);
            o.status
        } else {
            cmd.status().map_err(cannot)?
        };
        Ok(code(status))
    }
}

/// The exit code a shell would report for `status`.
fn code(status: std::process::ExitStatus) -> i32 {
    if let Some(c) = status.code() {
        return c;
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return 128 + sig;
        }
    }
    1
}
