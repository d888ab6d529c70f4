//! Per-job execution times of a Carousel firmware (`kernel.carousel`, docs/carousel.md "Under
//! the kernel's SRP dispatcher"), from the run's events: the invoker brackets every job's
//! Carousel invocation with a start and an end marker (`CACTUS_SRP_MARK_JOB_START/END` +
//! job index, kernel/include/cactus/srp_carousel.h). A job's time is from its start marker to
//! its end marker less
//! - every interrupt window that opened while it was the innermost job: from the trap's entry
//!   (the event is stamped after the profile's trap-entry cost, which is taken off) to the
//!   `mret` that returns to the interrupted pc; a trap that starts jobs returns through the SRP
//!   trampoline, so its window holds the trampoline and the jobs nested in it;
//! - every job started nested in it without a trap (a release or unlock from the job): that
//!   job's whole span.
//!
//! So BCET = WCET per task means that no preemption, no interrupt and no other job changed
//! what the job itself took, its invocation included (the paper's zero interference).

use super::text_table::{Align, TextTable};
use cactus_firmware::carousel_link::TaskLayout;
use cactus_firmware::Manifest;
use cactus_sim::{Event, EventKind};
use serde::Serialize;

/// `CACTUS_SRP_MARK_JOB_START` (kernel/include/cactus/srp_carousel.h).
pub const MARK_JOB_START: u32 = 0xCAC7_0500;
/// `CACTUS_SRP_MARK_JOB_END`.
pub const MARK_JOB_END: u32 = 0xCAC7_0600;

/// One task's jobs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct JobTimes {
    /// The task's name.
    pub name: String,
    /// Jobs measured (started and ended in the run).
    pub jobs: u64,
    /// The shortest job, cycles (0 without jobs).
    pub bcet: u64,
    /// The longest job, cycles.
    pub wcet: u64,
    /// Jobs that started while another job was running (nested in it).
    pub nested: u64,
    /// Its Carousel blocks: code, data, stack (Table III), when the ELF has the layout.
    pub blocks: Option<[u32; 3]>,
}

struct Open {
    job: usize,
    start: u64,
    excluded: u64,
    /// An open interrupt window: its start and the pc the job resumes at.
    window: Option<(u64, u32)>,
}

/// The jobs' times of a run (see the module doc); `trap_entry` is the profile's trap-entry
/// cost. Errors name a marker out of order or a run that ended inside a job.
pub fn job_times(
    m: &Manifest,
    events: &[Event],
    trap_entry: u64,
    layout: Option<&[TaskLayout]>,
) -> Result<Vec<JobTimes>, String> {
    let n = m.tasks.len();
    let mut out: Vec<JobTimes> = m
        .tasks
        .iter()
        .enumerate()
        .map(|(i, t)| JobTimes {
            name: t.name.clone(),
            blocks: layout
                .and_then(|l| l.get(i))
                .map(|l| [l.code_blocks, l.data_blocks, l.stack_blocks]),
            ..JobTimes::default()
        })
        .collect();
    let mut stack: Vec<Open> = Vec::new();
    for e in events {
        match e.kind {
            EventKind::Marker { id, .. }
                if (MARK_JOB_START..MARK_JOB_START + n as u32).contains(&id) =>
            {
                let job = (id - MARK_JOB_START) as usize;
                if !stack.is_empty() {
                    out[job].nested += 1;
                }
                stack.push(Open {
                    job,
                    start: e.cycle,
                    excluded: 0,
                    window: None,
                });
            }
            EventKind::Marker { id, .. }
                if (MARK_JOB_END..MARK_JOB_END + n as u32).contains(&id) =>
            {
                let job = (id - MARK_JOB_END) as usize;
                let open = stack
                    .pop()
                    .filter(|o| o.job == job && o.window.is_none())
                    .ok_or_else(|| {
                        format!(
                            "the end of a job of {} at cycle {} is out of order",
                            m.tasks[job].name, e.cycle
                        )
                    })?;
                let span = e.cycle - open.start;
                let time = span - open.excluded;
                let t = &mut out[job];
                t.bcet = if t.jobs == 0 { time } else { t.bcet.min(time) };
                t.wcet = t.wcet.max(time);
                t.jobs += 1;
                if let Some(outer) = stack.last_mut() {
                    if outer.window.is_none() {
                        outer.excluded += span;
                    }
                }
            }
            EventKind::Trap { .. } => {
                if let Some(top) = stack.last_mut() {
                    if top.window.is_none() {
                        top.window = Some((e.cycle.saturating_sub(trap_entry), e.pc));
                    }
                }
            }
            EventKind::Mret { target } => {
                if let Some(top) = stack.last_mut() {
                    if let Some((start, pc)) = top.window {
                        // An interrupt resumes at its pc, an ecall after it.
                        if target == pc || target == pc.wrapping_add(4) {
                            top.excluded += e.cycle - start;
                            top.window = None;
                        }
                    }
                }
            }
            _ => {}
        }
    }
    if let Some(open) = stack.last() {
        // A run ended by a job (cactus_fw_finish) ends inside it: that job is not counted.
        if stack.len() > 1 || open.window.is_some() {
            return Err(format!(
                "the run ended inside {} nested jobs (innermost {})",
                stack.len(),
                m.tasks[open.job].name
            ));
        }
    }
    Ok(out)
}

/// The jobs' table of `cactus run`.
pub fn render(jobs: &[JobTimes]) -> String {
    use Align::{Left, Right};
    let mut t = TextTable::new(
        2,
        &[
            ("job", Left),
            ("code/data/stack blocks", Right),
            ("jobs", Right),
            ("nested", Right),
            ("BCET", Right),
            ("WCET", Right),
            ("WCET-BCET", Right),
        ],
    );
    for j in jobs {
        t.row([
            j.name.clone(),
            j.blocks
                .map_or("-".to_string(), |b| format!("{}/{}/{}", b[0], b[1], b[2])),
            j.jobs.to_string(),
            j.nested.to_string(),
            j.bcet.to_string(),
            j.wcet.to_string(),
            (j.wcet - j.bcet).to_string(),
        ]);
    }
    format!(
        "── Carousel jobs (cycles per job: its invocation, less interrupts and nested jobs) ──\n{}",
        t.render()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest() -> Manifest {
        let dir = std::env::current_dir().unwrap();
        Manifest::parse(
            "[firmware]\nname = \"x\"\n[kernel]\nscheduler = \"srp\"\ncarousel = true\n\
             [[task]]\nname = \"lo\"\nsources = [\"Cargo.toml\"]\nentry = \"job\"\npriority = 1\n\
             stack = 256\nperiod_ms = 2\n\
             [[task]]\nname = \"hi\"\nsources = [\"Cargo.toml\"]\nentry = \"job\"\npriority = 2\n\
             stack = 256\nperiod_ms = 1\n",
            &dir.join("m.toml"),
        )
        .unwrap()
    }

    fn marker(cycle: u64, id: u32) -> Event {
        Event::at(cycle, 0, EventKind::Marker { id, value: 0 })
    }

    #[test]
    fn interrupts_and_nested_jobs_are_taken_off() {
        let m = manifest();
        let trap = |c, pc| {
            Event::at(
                c,
                pc,
                EventKind::Trap {
                    cause: 0x8000_0007,
                    tval: 0,
                },
            )
        };
        let mret = |c, target| Event::at(c, 0, EventKind::Mret { target });
        let events = vec![
            marker(100, MARK_JOB_START),     // lo starts
            trap(203, 0x500),                // a tick at lo's 0x500 (entry 3: from 200)
            mret(230, 0x9000),               // into the trampoline, not lo
            marker(240, MARK_JOB_START + 1), // hi nested
            trap(263, 0x600),                // a tick in hi: 20 cycles
            mret(280, 0x600),
            marker(300, MARK_JOB_END + 1), // hi: 60 - 20 = 40
            mret(320, 0x500),              // back in lo: its window 200..320
            marker(400, MARK_JOB_END),     // lo: 300 - 120 = 180
            marker(500, MARK_JOB_START),   // lo again, releases hi itself
            marker(550, MARK_JOB_START + 1),
            marker(590, MARK_JOB_END + 1), // hi: 40
            marker(720, MARK_JOB_END),     // lo: 220 - 40 = 180
        ];
        let t = job_times(&m, &events, 3, None).unwrap();
        assert_eq!(
            (t[0].jobs, t[0].bcet, t[0].wcet, t[0].nested),
            (2, 180, 180, 0)
        );
        assert_eq!(
            (t[1].jobs, t[1].bcet, t[1].wcet, t[1].nested),
            (2, 40, 40, 2)
        );
        // One cycle more in one of lo's jobs shows.
        let mut late = events.clone();
        late[12] = marker(721, MARK_JOB_END);
        let t = job_times(&m, &late, 3, None).unwrap();
        assert_eq!((t[0].bcet, t[0].wcet), (180, 181));
    }

    #[test]
    fn markers_out_of_order_are_an_error() {
        let m = manifest();
        let events = vec![marker(10, MARK_JOB_START), marker(20, MARK_JOB_END + 1)];
        assert!(job_times(&m, &events, 3, None).unwrap_err().contains("hi"));
        let nested = vec![marker(10, MARK_JOB_START), marker(20, MARK_JOB_START + 1)];
        assert!(job_times(&m, &nested, 3, None).is_err());
        // The job that ends the run is not counted, and is no error.
        let t = job_times(&m, &[marker(10, MARK_JOB_START)], 3, None).unwrap();
        assert_eq!(t[0].jobs, 0);
    }
}
