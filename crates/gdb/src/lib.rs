//! `cactus-gdb`: a GDB remote-serial-protocol stub for a [`cactus_sim::Machine`], built on the
//! `gdbstub` crate with the `riscv:rv32` register layout (x0..x31, pc) and the machine-mode
//! CSRs of trap handling ([`arch`]).
//!
//! What a debugger can do through it: read and write registers and memory (debug accesses
//! that have no side effect on devices or on the cost model), single-step, continue, set and
//! clear software breakpoints, interrupt a running guest with Ctrl-C, and see the guest end:
//! an exit through the test finisher or `tohost` is reported as an exit with the guest's code
//! (a `W` packet); a fault, a cycle-limit stop or an ownership-oracle violation is reported as
//! a stop with a signal (see [`signal_for`]). Continuing past such a stop with the signal
//! (gdb's default for SIGSEGV, SIGILL, SIGBUS...) terminates the target, like a real process.
//! With a Cactus kernel's [`TaskTable`] ([`serve_tasks`]), every live task is a thread.
//! Watchpoints (`watch`, `rwatch`, `awatch`) stop the guest after the access (`watch.rs`).
//!
//! The stub runs in the caller's thread ([`serve`] blocks until the session ends). While the
//! guest runs, the connection is polled every [`POLL_INTERVAL`] instructions for a Ctrl-C.
//! Continue is a loop of `Machine::run_for` slices, with gdb's breakpoints set in the machine
//! for the duration (blocks that reach a breakpoint are not chained, so code around
//! breakpoints runs somewhat slower than under `Machine::run`).

pub mod arch;
mod event_loop;
mod exec;
mod target;
pub mod tasks;
mod watch;

pub use exec::{signal_for, POLL_INTERVAL};
pub use target::DebugTarget;
pub use tasks::{TaskTable, TaskTableError};

use cactus_sim::{Machine, RunOutcome};
use gdbstub::stub::{DisconnectReason, GdbStub};
use std::net::TcpStream;

/// How a debugging session ended.
#[derive(Debug)]
pub enum SessionEnd {
    /// The guest ended while the debugger was attached: an exit (reported to gdb with its code)
    /// or a fault, cycle limit or oracle violation that gdb let terminate the target. Carries
    /// the machine's outcome so the caller can report it as it would for a free run.
    Ended(RunOutcome),
    /// gdb detached; the guest has not ended and can go on running (breakpoints are removed).
    Detached,
    /// gdb killed the target; the guest has not ended and must not run further.
    Killed,
}

/// Why a session could not be served.
#[derive(Debug, thiserror::Error)]
pub enum GdbError {
    /// gdb closed the connection without detaching or killing the target.
    #[error("gdb closed the connection without detaching or killing the target")]
    Closed,
    /// The connection to gdb failed (read or write error).
    #[error("gdb connection failed")]
    Connection(#[source] std::io::Error),
    /// The stub itself failed (malformed packet from the client, internal protocol error).
    #[error("gdb remote protocol error: {0}")]
    Protocol(String),
}

/// Serves one gdb session over `stream` for `machine`, blocking until gdb detaches or kills
/// the target, or the guest ends. Guarantees: the machine only executes on gdb's requests;
/// gdb's breakpoints are kept by the stub and set in the machine only while it continues, so
/// after the session `machine.run()` runs freely.
pub fn serve(machine: &mut Machine, stream: TcpStream) -> Result<SessionEnd, GdbError> {
    serve_tasks(machine, stream, None)
}

/// [`serve`] for a firmware whose Cactus kernel's task table is `tasks`: every live task is a
/// gdb thread (`info threads` shows its name, state and priority; `thread N` then `bt` walks its
/// stack from the context the kernel saved).
pub fn serve_tasks(
    machine: &mut Machine,
    stream: TcpStream,
    tasks: Option<TaskTable>,
) -> Result<SessionEnd, GdbError> {
    let mut target = DebugTarget::new(machine).with_tasks(tasks);
    let stub = GdbStub::new(stream);
    let result = stub.run_blocking::<event_loop::SessionLoop<'_>>(&mut target);
    let reason = match result {
        Ok(reason) => reason,
        Err(err) => {
            if err.is_connection_error() {
                if let Some((io, _kind)) = err.into_connection_error() {
                    if io.kind() == std::io::ErrorKind::UnexpectedEof {
                        return Err(GdbError::Closed);
                    }
                    return Err(GdbError::Connection(io));
                }
                return Err(GdbError::Protocol("connection error".to_string()));
            }
            return Err(GdbError::Protocol(err.to_string()));
        }
    };
    let end = match reason {
        DisconnectReason::TargetExited(_) | DisconnectReason::TargetTerminated(_) => {
            match target.take_final_outcome() {
                Some(outcome) => SessionEnd::Ended(outcome),
                None => {
                    return Err(GdbError::Protocol(
                        "gdb reported the target ended but the machine has no outcome".to_string(),
                    ))
                }
            }
        }
        DisconnectReason::Disconnect => SessionEnd::Detached,
        DisconnectReason::Kill => SessionEnd::Killed,
    };
    Ok(end)
}
