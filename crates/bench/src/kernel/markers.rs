//! Pairing the benchmark firmware's markers (bench/kernel/marked.h): consecutive markers with
//! no trap between them are a sample, corrected by the calibration pair (ids 0x100, 0x101) the
//! firmware stores before any measured pair. Shared by the fast-path and task-control benches;
//! the switch bench keeps its own walk because its timer path is measured from a trap.

use crate::kernel::KernelBenchError;
use cactus_sim::{Event, EventKind};

/// The calibration pair's first marker id (bench/kernel/ids.h).
pub const CAL_FIRST: u32 = 0x100;
/// The calibration pair's second marker id.
pub const CAL_SECOND: u32 = 0x101;

/// Samples of `N` kinds of marked paths and the marker cost they were corrected by.
#[derive(Clone, Debug, PartialEq)]
pub struct MarkedSamples<const N: usize> {
    /// (cycles, instructions) of each sample of each kind, the marker stores subtracted.
    pub samples: [Vec<(u64, u64)>; N],
    /// (cycles, instructions) of the two marker stores around a measured path.
    pub marker_cost: (u64, u64),
}

/// Walks `events`' markers: for two consecutive markers `prev_id`, `id` with no trap between
/// them, `kind(prev_id, id)` says which of the `N` kinds of sample they bracket (None: not a
/// sample). A sample kind before the calibration pair is an error, so is a run without the
/// calibration pair or without the marker `done` (the firmware stores it after checking every
/// result). Errors start with `what` (the firmware's name).
pub fn marked_samples<const N: usize>(
    events: &[Event],
    what: &str,
    done: u32,
    mut kind: impl FnMut(u32, u32) -> Option<usize>,
) -> Result<MarkedSamples<N>, KernelBenchError> {
    let mut cal: Option<(u64, u64)> = None;
    let mut samples: [Vec<(u64, u64)>; N] = std::array::from_fn(|_| Vec::new());
    let mut last: Option<(&Event, u32)> = None;
    let mut trapped = false;
    let mut seen_done = false;
    for event in events {
        let id = match event.kind {
            EventKind::Trap { .. } => {
                trapped = true;
                continue;
            }
            EventKind::Marker { id, .. } => id,
            _ => continue,
        };
        seen_done |= id == done;
        if let Some((prev, prev_id)) = last {
            let span = (
                event.cycle.saturating_sub(prev.cycle),
                event.instret.saturating_sub(prev.instret),
            );
            if (prev_id, id) == (CAL_FIRST, CAL_SECOND) {
                cal.get_or_insert(span);
            }
            if let Some(slot) = kind(prev_id, id) {
                let (c, i) = cal.ok_or_else(|| {
                    KernelBenchError::Events(format!(
                        "{what}: a measured pair before the calibration pair"
                    ))
                })?;
                if !trapped {
                    samples[slot].push((span.0.saturating_sub(c), span.1.saturating_sub(i)));
                }
            }
        }
        last = Some((event, id));
        trapped = false;
    }
    if !seen_done {
        return Err(KernelBenchError::Events(format!(
            "{what}: no done marker {done:#x}"
        )));
    }
    let marker_cost = cal.ok_or_else(|| {
        KernelBenchError::Events(format!(
            "{what}: no calibration pair (ids {CAL_FIRST:#x}, {CAL_SECOND:#x})"
        ))
    })?;
    Ok(MarkedSamples {
        samples,
        marker_cost,
    })
}

/// Builders of synthetic events for the benches' unit tests.
#[cfg(test)]
pub(crate) mod test_events {
    use cactus_sim::{Event, EventKind};

    /// A marker `id` (value 0) stamped at `cycle` and `instret`.
    pub(crate) fn marker(cycle: u64, instret: u64, id: u32) -> Event {
        Event {
            cycle,
            instret,
            pc: 0x8000_0000,
            kind: EventKind::Marker { id, value: 0 },
        }
    }

    /// A trap of `cause` taken at `cycle` and `instret`.
    pub(crate) fn trap(cycle: u64, instret: u64, cause: u32) -> Event {
        Event {
            cycle,
            instret,
            pc: 0x8000_0100,
            kind: EventKind::Trap { cause, tval: 0 },
        }
    }

    /// The id of the marker `task` stores before a call of `kind`.
    pub(crate) const fn call(kind: u32, task: u32) -> u32 {
        kind | task << 1
    }

    /// The id of the marker `task` stores after its call of `kind` returns.
    pub(crate) const fn back(kind: u32, task: u32) -> u32 {
        kind | task << 1 | 1
    }
}

#[cfg(test)]
mod tests {
    use super::test_events::{marker, trap};
    use super::*;

    fn kind(prev: u32, id: u32) -> Option<usize> {
        (prev == 0x200 && id == 0x201).then_some(0)
    }

    #[test]
    fn pairs_without_traps_become_calibrated_samples() {
        let events = [
            marker(10, 5, CAL_FIRST),
            marker(12, 7, CAL_SECOND),
            marker(100, 50, 0x200),
            marker(150, 80, 0x201), // 48 cycles, 28 instructions
            marker(200, 100, 0x200),
            trap(210, 105, 7),
            marker(300, 150, 0x201), // a trap between: not a sample
            marker(400, 200, 0x2FF),
        ];
        let m = marked_samples::<1>(&events, "t", 0x2FF, kind).unwrap();
        assert_eq!(m.marker_cost, (2, 2));
        assert_eq!(m.samples[0], [(48, 28)]);
    }

    #[test]
    fn calibration_and_done_are_required() {
        let events = [marker(100, 50, 0x200), marker(150, 80, 0x201)];
        let err = marked_samples::<1>(&events, "t", 0x2FF, kind).unwrap_err();
        assert!(
            err.to_string().contains("t: a measured pair before"),
            "{err}"
        );
        let events = [marker(10, 5, CAL_FIRST), marker(12, 7, CAL_SECOND)];
        let err = marked_samples::<1>(&events, "t", 0x2FF, kind).unwrap_err();
        assert!(err.to_string().contains("t: no done marker 0x2ff"), "{err}");
        let err = marked_samples::<1>(&[marker(1, 1, 0x2FF)], "t", 0x2FF, kind).unwrap_err();
        assert!(err.to_string().contains("no calibration pair"), "{err}");
    }
}
