//! The physical limit of stack sharing (issue #14, part 1): from a run of the workload as
//! written, instruction by instruction, each task's live stack (its stack top less its `sp`,
//! while `sp` is in the task's own stack region; kept while the task is switched out), the
//! **peak of the simultaneous sum** of the program tasks' live stacks (no sharing scheme can
//! give them less memory at that instant) and the **sum of their peaks** (what perfectly
//! sized static stacks need). The gap between the two is the most any stack sharing could
//! save on this run.
//!
//! Guarantees: every figure comes from one simulated run of the built workload that exited 0;
//! `sp` is sampled after every instruction, so no dip is missed; a run that does not pass is
//! an error naming the workload.

use super::HARNESS_TASKS;
use crate::elf_facts::first_line;
use cactus_firmware::{BuildOptions, Manifest};
use cactus_sim::{EventKind, Machine, MachineConfig, Profile, RunOutcome, NOBODY};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// What one run showed about the program tasks' stacks over time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Occupancy {
    /// Max over time of Σ program tasks' live stack bytes.
    pub peak_of_sum: u32,
    /// Σ over program tasks of each one's peak live stack bytes.
    pub sum_of_peaks: u32,
    /// Instructions the run retired.
    pub instructions: u64,
}

impl Occupancy {
    /// The most any sharing could save, as a percentage of the sum of the peaks.
    pub fn possible_pct(&self) -> Option<f64> {
        (self.sum_of_peaks > 0).then(|| {
            f64::from(self.sum_of_peaks - self.peak_of_sum.min(self.sum_of_peaks)) * 100.0
                / f64::from(self.sum_of_peaks)
        })
    }
}

/// The tracker: regions, the running task and each task's live and peak depth.
#[derive(Default)]
struct Tracker {
    /// Stack regions by owner: (first byte, end).
    regions: BTreeMap<u32, Vec<(u32, u32)>>,
    /// Tasks counted (program tasks, by id).
    counted: BTreeMap<u32, bool>,
    running: Option<u32>,
    live: BTreeMap<u32, u32>,
    peak: BTreeMap<u32, u32>,
    sum: u64,
    peak_of_sum: u64,
}

impl Tracker {
    fn event(&mut self, kind: &EventKind) {
        match kind {
            EventKind::TaskCreate { task, name, .. } => {
                let program = !HARNESS_TASKS.contains(&name.as_str());
                self.counted.insert(*task, program);
            }
            EventKind::TaskSwitch { task } => {
                self.running = (*task != NOBODY).then_some(*task);
            }
            EventKind::TaskExit { task, .. } => self.set_live(*task, 0),
            EventKind::RegionAssign { base, size, owner } if *owner != NOBODY => {
                let end = base.wrapping_add(*size);
                self.regions.entry(*owner).or_default().push((*base, end));
            }
            EventKind::RegionRelease { base, .. } => {
                for list in self.regions.values_mut() {
                    list.retain(|(b, _)| b != base);
                }
            }
            _ => {}
        }
    }

    /// The running task's live depth if `sp` is in one of its regions.
    fn sample(&mut self, sp: u32) {
        let Some(task) = self.running else { return };
        let Some(list) = self.regions.get(&task) else {
            return;
        };
        if let Some(&(_, end)) = list.iter().find(|(b, e)| (*b..*e).contains(&sp)) {
            self.set_live(task, end - sp);
        }
    }

    fn set_live(&mut self, task: u32, depth: u32) {
        if !self.counted.get(&task).copied().unwrap_or(false) {
            return;
        }
        let old = self.live.insert(task, depth).unwrap_or(0);
        if old == depth {
            return;
        }
        self.sum = self.sum + u64::from(depth) - u64::from(old);
        self.peak_of_sum = self.peak_of_sum.max(self.sum);
        let peak = self.peak.entry(task).or_insert(0);
        *peak = (*peak).max(depth);
    }
}

/// Builds the manifest at `path` as written (the baseline build) and measures its
/// [`Occupancy`] on the `mcu` profile within `max_cycles`.
pub fn measure(path: &Path, max_cycles: u64) -> Result<Occupancy, String> {
    let manifest = Manifest::load(path).map_err(|e| e.to_string())?;
    let built = cactus_firmware::build(&manifest, &BuildOptions::default())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let elf = std::fs::read(&built.elf).map_err(|e| format!("{}: {e}", built.elf.display()))?;
    let mut config = MachineConfig::new(Profile::builtin("mcu").ok_or("no profile `mcu`")?);
    config.max_cycles = Some(max_cycles);
    config.record_events = true;
    let mut machine = Machine::new(config);
    machine.load_elf(&elf).map_err(|e| e.to_string())?;
    let mut tracker = Tracker::default();
    let mut seen = 0;
    let outcome = loop {
        let ended = machine.step();
        let events = machine.events();
        for e in &events[seen..] {
            tracker.event(&e.kind);
        }
        seen = events.len();
        tracker.sample(machine.reg(2));
        if let Some(o) = ended {
            break o;
        }
    };
    match outcome {
        RunOutcome::Exited { code: 0 } => {}
        other => {
            return Err(format!(
                "{}: the occupancy run did not pass: {}",
                manifest.name,
                first_line(&format!("{other:?}"))
            ))
        }
    }
    Ok(Occupancy {
        peak_of_sum: u32::try_from(tracker.peak_of_sum).unwrap_or(u32::MAX),
        sum_of_peaks: tracker.peak.values().sum(),
        instructions: machine.stats().instructions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn create(task: u32, name: &str) -> EventKind {
        EventKind::TaskCreate {
            task,
            priority: 1,
            name: name.into(),
        }
    }

    #[test]
    fn the_peak_of_the_sum_is_below_the_sum_of_the_peaks_when_peaks_do_not_meet() {
        let mut t = Tracker::default();
        for (id, name) in [(0, "a"), (1, "b"), (2, "feeder")] {
            t.event(&create(id, name));
            t.event(&EventKind::RegionAssign {
                base: 0x1000 * (id + 1),
                size: 0x1000,
                owner: id,
            });
        }
        // a goes 0x300 deep and comes back to 0x100; b then goes 0x200 deep.
        t.event(&EventKind::TaskSwitch { task: 0 });
        t.sample(0x2000 - 0x300);
        t.sample(0x2000 - 0x100);
        t.event(&EventKind::TaskSwitch { task: 1 });
        t.sample(0x3000 - 0x200);
        // The kernel's own stack is nobody's: not counted.
        t.sample(0x9000);
        // The harness is never counted.
        t.event(&EventKind::TaskSwitch { task: 2 });
        t.sample(0x4000 - 0x800);
        assert_eq!(t.peak_of_sum, 0x300);
        assert_eq!(t.peak.values().sum::<u32>(), 0x500);
        let o = Occupancy {
            peak_of_sum: 0x300,
            sum_of_peaks: 0x500,
            instructions: 0,
        };
        assert_eq!(o.possible_pct(), Some(40.0));
        // An exit frees the task's stack.
        t.event(&EventKind::TaskExit { task: 1, reason: 0 });
        assert_eq!(t.sum, 0x100);
    }
}
