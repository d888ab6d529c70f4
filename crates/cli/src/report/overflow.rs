//! Stack overflows the firmware could not absorb: a task's check (or the stack bound) failed
//! and its fault policy ran (killed, restarted or halted; a frame a strategy moved is no
//! failure). Each one fails a manifest run (exit code 3) whatever code the firmware then
//! exited with, and gets a message on stderr naming the task, the function, how many bytes it
//! was over and what to change in the manifest.

use cactus_firmware::Manifest;
use cactus_sim::{Event, EventKind, TaskStats};
use std::fmt::Write;

/// mcause of a failed check's `ecall` (M-mode) and of the stack-bound exception.
const CHECK_CAUSES: [u32; 2] = [11, cactus_sim::CAUSE_STACK_BOUND];

/// One overflow that a fault policy handled, as far as the run recorded it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StackFault {
    /// Kernel task id.
    pub task: u32,
    /// The task's name (from the trace device; empty if never reported).
    pub name: String,
    /// pc of the failed check (its `ecall`, or the refused `sp` write), when events were kept.
    pub pc: Option<u32>,
    /// Bytes the frame reached below the task's stack limit, when events were kept.
    pub over: Option<u32>,
    /// 0 killed, 1 restarted, 2 halted.
    pub action: u32,
}

/// The overflows of a run (`tasks`: the statistics' task rows): from the events when they
/// were recorded (one per fault, with pc and bytes over), else one per task with a nonzero
/// `stack_faults` count.
pub fn stack_faults(tasks: &[TaskStats], events: &[Event]) -> Vec<StackFault> {
    let name = |task: u32| {
        tasks
            .iter()
            .find(|t| t.id == task)
            .map(|t| t.name.clone())
            .unwrap_or_default()
    };
    let mut faults = Vec::new();
    let mut last_check_pc = None;
    let mut limits = std::collections::BTreeMap::new();
    for e in events {
        match &e.kind {
            EventKind::Trap { cause, .. } if CHECK_CAUSES.contains(cause) => {
                last_check_pc = Some(e.pc);
            }
            EventKind::RegionAssign { base, owner, .. } => {
                let low: &mut u32 = limits.entry(*owner).or_insert(*base);
                *low = (*low).min(*base);
            }
            EventKind::Overflow {
                task,
                sp,
                requested,
                action,
            } if *action <= 2 => {
                let over = limits
                    .get(task)
                    .map(|limit| limit.saturating_sub(sp.saturating_sub(*requested)));
                faults.push(StackFault {
                    task: *task,
                    name: name(*task),
                    pc: last_check_pc.take(),
                    over,
                    action: *action,
                });
            }
            _ => {}
        }
    }
    if faults.is_empty() {
        for t in tasks.iter().filter(|t| t.stack_faults > 0) {
            faults.push(StackFault {
                task: t.id,
                name: t.name.clone(),
                pc: None,
                over: None,
                action: 0,
            });
        }
    }
    faults
}

/// The stderr message for `fault`: `function` names the code at its pc (`name+0xoff`), and
/// with the manifest the advice names its file, the task and a `stack` value that covers
/// this frame.
pub fn render(fault: &StackFault, function: Option<&str>, manifest: Option<&Manifest>) -> String {
    let mut s = String::new();
    let action = ["killed it", "restarted it", "halted the system"]
        .get(fault.action as usize)
        .copied()
        .unwrap_or("ran");
    let _ = write!(
        s,
        "cactus: stack overflow: task {} '{}'",
        fault.task, fault.name
    );
    match (function, fault.pc) {
        (Some(f), Some(pc)) => {
            let _ = write!(s, " in {f} (pc {pc:#010x})");
        }
        (None, Some(pc)) => {
            let _ = write!(s, " at pc {pc:#010x}");
        }
        _ => {}
    }
    match fault.over {
        Some(over) => {
            let _ = write!(s, ": the frame needed {over} bytes more than the stack has");
        }
        None => s.push_str(": (run with --trace FILE for the function and the bytes)"),
    }
    let _ = writeln!(s, "; its on_fault policy {action}");
    let task = manifest.and_then(|m| m.tasks.get(fault.task as usize).map(|t| (m, t)));
    match (task, fault.over) {
        (Some((m, t)), Some(over)) => {
            let at_least = (t.stack + over).div_ceil(16) * 16;
            let _ = writeln!(
                s,
                "cactus:   fix: in {}, raise `stack` of task '{}' from {} to at least {} (more \
                 if deeper calls follow: `cactus stack-report {}` gives the worst case)",
                m.path.display(),
                t.name,
                t.stack,
                at_least,
                m.path.display()
            );
        }
        (Some((m, t)), None) => {
            let _ = writeln!(
                s,
                "cactus:   fix: in {}, raise `stack` of task '{}' (now {}); `cactus \
                 stack-report {}` gives the worst case",
                m.path.display(),
                t.name,
                t.stack,
                m.path.display()
            );
        }
        (None, _) => {
            let _ = writeln!(
                s,
                "cactus:   fix: give the task a larger stack (its budget in the task table)"
            );
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    fn event(pc: u32, kind: EventKind) -> Event {
        Event {
            cycle: 0,
            instret: 0,
            pc,
            kind,
        }
    }

    fn stats(faults: u64) -> Vec<TaskStats> {
        vec![TaskStats {
            id: 1,
            name: "deep".into(),
            stack_faults: faults,
            ..Default::default()
        }]
    }

    #[test]
    fn a_killed_overflow_names_pc_and_bytes_over() {
        let events = [
            event(
                0,
                EventKind::RegionAssign {
                    base: 0x1000,
                    size: 496,
                    owner: 1,
                },
            ),
            event(0x8000_0572, EventKind::Trap { cause: 11, tval: 0 }),
            event(
                0x8000_0100,
                EventKind::Overflow {
                    task: 1,
                    sp: 0x0fe0,
                    requested: 8,
                    action: 0,
                },
            ),
        ];
        let faults = stack_faults(&stats(1), &events);
        assert_eq!(
            faults,
            vec![StackFault {
                task: 1,
                name: "deep".into(),
                pc: Some(0x8000_0572),
                over: Some(0x20 + 8),
                action: 0
            }]
        );
        let text = render(&faults[0], Some("descend+0x12"), None);
        assert!(text.contains("task 1 'deep' in descend+0x12"), "{text}");
        assert!(text.contains("40 bytes more"), "{text}");
    }

    #[test]
    fn a_moved_frame_is_no_fault() {
        let events = [event(
            0,
            EventKind::Overflow {
                task: 1,
                sp: 0,
                requested: 8,
                action: 3,
            },
        )];
        assert!(stack_faults(&stats(0), &events).is_empty());
    }

    #[test]
    fn without_events_the_counts_still_fail_the_run() {
        let faults = stack_faults(&stats(2), &[]);
        assert_eq!(faults.len(), 1);
        assert!(render(&faults[0], None, None).contains("--trace"));
    }
}
