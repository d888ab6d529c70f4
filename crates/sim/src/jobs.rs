//! Each task's jobs in a run of a Cactus kernel firmware, from the events the run records with
//! the task probe ([`crate::MachineConfig::task_probe`]): the task switches (`TaskSwitch`: who
//! runs from which cycle), the kernel's task states the probe samples just before each switch
//! and just after each `mret` (`TaskSample`, state numbers as documented there), and task
//! exits. `cactus rta --manifest` takes C_i from it; an evaluation can take BCET, WCET and
//! preemption counts.
//!
//! A job ends when its task is switched away while the kernel says it is sleeping (the
//! periodic wrapper's `cactus_sleep_until`, or any sleep), or when the task exits. Its
//! execution time is the CPU time the task got since its previous job ended: the sum of its
//! running intervals (switched in to switched out), so time while it was preempted, blocked or
//! asleep is not counted. What the CPU does while the task is switched in is counted: its
//! code, the kernel calls it makes, the part of a context switch on either side of the
//! switch event, and interrupt handlers that run meanwhile (the tick). Its response is from
//! its wake-up (the sample where it went from sleeping to ready, after the tick's handler) to
//! its end; a job with no wake-up before it (the first) has none. It was preempted each time
//! its task was switched away while ready. A job still unfinished when the run ends, or ended
//! by another task killing it, is not a job.

use crate::events::{Event, EventKind, NOBODY};
use std::collections::BTreeMap;

/// The kernel's state numbers (`enum cactus_task_state`, as [`EventKind::TaskSample`] says).
const READY: u32 = 1;
const RUNNING: u32 = 2;
const SLEEPING: u32 = 4;

/// One finished job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// CPU cycles the task ran in this job.
    pub execution: u64,
    /// Cycles from its wake-up to its end (None for a job with no wake-up before it).
    pub response: Option<u64>,
    /// The cycle it ended.
    pub end: u64,
    /// Times it was switched away while ready (preempted).
    pub preemptions: u32,
}

#[derive(Default)]
struct TaskState {
    state: u32,
    exited: bool,
    cpu: u64,
    preemptions: u32,
    woken_at: Option<u64>,
    jobs: Vec<Job>,
}

/// One task's jobs in a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TaskJobs {
    /// Its finished jobs, in order.
    pub jobs: Vec<Job>,
    /// The run ended inside a job of it: it had run, or had been woken, since its last job
    /// ended, and had neither gone back to sleep nor exited.
    pub unfinished: bool,
}

/// Every task's jobs in `events` (a run's, in order), by kernel task id.
pub fn jobs(events: &[Event]) -> BTreeMap<u32, TaskJobs> {
    let mut tasks: BTreeMap<u32, TaskState> = BTreeMap::new();
    let mut running: Option<(u32, u64)> = None;
    for e in events {
        match &e.kind {
            EventKind::TaskSample { task, state, .. } => {
                let t = tasks.entry(*task).or_default();
                if t.state == SLEEPING && (*state == READY || *state == RUNNING) {
                    t.woken_at = Some(e.cycle);
                }
                t.state = *state;
            }
            EventKind::TaskExit { task, .. } => tasks.entry(*task).or_default().exited = true,
            EventKind::TaskSwitch { task } => {
                if let Some((old, since)) = running.take() {
                    let t = tasks.entry(old).or_default();
                    t.cpu += e.cycle - since;
                    if t.state == SLEEPING || t.exited {
                        let job = Job {
                            execution: std::mem::take(&mut t.cpu),
                            response: t.woken_at.take().map(|w| e.cycle - w),
                            end: e.cycle,
                            preemptions: std::mem::take(&mut t.preemptions),
                        };
                        t.jobs.push(job);
                    } else if t.state == READY || t.state == RUNNING {
                        t.preemptions += 1;
                    }
                }
                if *task != NOBODY && !tasks.get(task).is_some_and(|t| t.exited) {
                    running = Some((*task, e.cycle));
                }
            }
            _ => {}
        }
    }
    if let Some((id, since)) = running {
        let end = events.last().map_or(since, |e| e.cycle);
        tasks.entry(id).or_default().cpu += end - since;
    }
    tasks
        .into_iter()
        .map(|(id, t)| {
            let unfinished = !t.exited && (t.cpu > 0 || t.woken_at.is_some());
            (
                id,
                TaskJobs {
                    jobs: t.jobs,
                    unfinished,
                },
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(cycle: u64, kind: EventKind) -> Event {
        Event {
            cycle,
            instret: cycle,
            pc: 0,
            kind,
        }
    }

    fn sample(task: u32, state: u32) -> EventKind {
        EventKind::TaskSample {
            task,
            state,
            prio: 1,
            wait_on: 0,
            sp: 0,
        }
    }

    fn switch(task: u32) -> EventKind {
        EventKind::TaskSwitch { task }
    }

    /// Task 0 (low) runs 0..10, is preempted by task 1 (woken at 10) which runs 10..14 and
    /// sleeps; task 0 runs 14..20 and sleeps (job: 10 + 6 = 16 cycles, no wake-up before it),
    /// idle 20..30; task 0 wakes at 30, runs 32..35, blocks on something 35..40 (not CPU
    /// time), runs 40..41 and sleeps: 3 + 1 = 4 cycles, response 41 − 30 = 11, not preempted
    /// (the first job was, once). Task 1 then
    /// runs 41..50 and exits: a job of 9 (its first of 4 had no wake-up either; this one was
    /// woken at 20). Task 0 runs from 50 to the end of the run: unfinished, not a job.
    #[test]
    fn jobs_by_hand() {
        let events = vec![
            ev(0, switch(0)),
            ev(10, sample(1, 1)),
            ev(10, sample(0, 1)),
            ev(10, switch(1)),
            ev(14, sample(1, SLEEPING)),
            ev(14, sample(0, 2)),
            ev(14, switch(0)),
            ev(20, sample(0, SLEEPING)),
            ev(20, switch(NOBODY)),
            ev(20, sample(1, 1)),
            ev(30, sample(0, 1)),
            ev(32, switch(0)),
            ev(35, sample(0, 3)),
            ev(35, switch(NOBODY)),
            ev(40, sample(0, 1)),
            ev(40, switch(0)),
            ev(41, sample(0, SLEEPING)),
            ev(41, switch(1)),
            ev(50, EventKind::TaskExit { task: 1, reason: 0 }),
            ev(50, sample(1, 0)),
            ev(50, switch(0)),
            ev(60, EventKind::Marker { id: 1, value: 0 }),
        ];
        let j = jobs(&events);
        let job = |execution, response, end, preemptions| Job {
            execution,
            response,
            end,
            preemptions,
        };
        assert_eq!(j[&0].jobs, [job(16, None, 20, 1), job(4, Some(11), 41, 0)]);
        assert!(j[&0].unfinished, "task 0 runs at the end");
        assert_eq!(j[&1].jobs, [job(4, None, 14, 0), job(9, Some(30), 50, 0)]);
        assert!(!j[&1].unfinished, "task 1 exited");
    }
}
