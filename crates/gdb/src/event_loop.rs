//! The blocking event loop that runs the target between gdb packets in the caller's thread.

use crate::exec::Progress;
use crate::target::DebugTarget;
use gdbstub::common::Signal;
use gdbstub::conn::{Connection, ConnectionExt};
use gdbstub::stub::run_blocking::{BlockingEventLoop, Event, WaitForStopReasonError};
use gdbstub::stub::MultiThreadStopReason;
use gdbstub::target::Target;
use std::marker::PhantomData;
use std::net::TcpStream;

/// Runs a [`DebugTarget`] over a TCP connection; the target is paused whenever the stub is
/// not inside `wait_for_stop_reason`.
pub(crate) struct SessionLoop<'m>(PhantomData<&'m mut ()>);

impl<'m> BlockingEventLoop for SessionLoop<'m> {
    type Target = DebugTarget<'m>;
    type Connection = TcpStream;
    type StopReason = MultiThreadStopReason<u32>;

    #[allow(clippy::type_complexity)]
    fn wait_for_stop_reason(
        target: &mut DebugTarget<'m>,
        conn: &mut TcpStream,
    ) -> Result<
        Event<Self::StopReason>,
        WaitForStopReasonError<<Self::Target as Target>::Error, <TcpStream as Connection>::Error>,
    > {
        // A connection error while polling counts as data: the read below reports it.
        let progress = target.advance(|| conn.peek().map(|b| b.is_some()).unwrap_or(true));
        match progress {
            Progress::Stopped(reason) => Ok(Event::TargetStopped(reason)),
            Progress::IncomingData => {
                let byte = conn.read().map_err(WaitForStopReasonError::Connection)?;
                Ok(Event::IncomingData(byte))
            }
        }
    }

    fn on_interrupt(
        target: &mut DebugTarget<'m>,
    ) -> Result<Option<Self::StopReason>, <Self::Target as Target>::Error> {
        // The guest only runs inside wait_for_stop_reason, so it is already paused.
        Ok(Some(target.stopped_with(Signal::SIGINT)))
    }
}
