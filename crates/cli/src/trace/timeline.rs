//! A run's events as a timeline: tracks (the firmware, the CPU, one per task, counters) and
//! what happened on them (slices, instants, counter values, wake-up flows), in cycle order.
//! The Perfetto and Chrome writers encode this; neither looks at the raw events.
//!
//! Guarantees: every slice that begins ends (at the last event's cycle if the run stopped
//! inside it), and on one track slices never overlap, so each writer's nesting is valid; a
//! track exists only if an event is on it.

use cactus_sim::{Event, EventKind};
use std::collections::BTreeMap;

/// What a counter counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Bytes.
    Bytes,
    /// A plain count.
    Count,
}

/// One track.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Track {
    /// Unique id (never 0).
    pub uuid: u64,
    /// Shown name.
    pub name: String,
    /// The track it belongs under (None: the top level).
    pub parent: Option<u64>,
    /// What it holds.
    pub kind: TrackKind,
}

/// The kinds of track.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrackKind {
    /// The firmware (a process, pid 1).
    Process,
    /// A thread-like track of slices and instants (`tid` unique in the process).
    Thread {
        /// Thread id.
        tid: u32,
    },
    /// Values over time.
    Counter(Unit),
}

/// The arguments of a slice or instant: named numbers.
pub type Args = Vec<(String, u64)>;

/// What happened at one point of a track.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum What {
    /// A slice starts.
    Begin {
        /// Its name.
        name: String,
        /// Its arguments.
        args: Args,
    },
    /// The track's open slice ends.
    End,
    /// Something without duration, with the flows it starts (`flows`) and ends (`ends`).
    Instant {
        /// Its name.
        name: String,
        /// Its arguments.
        args: Args,
        /// Flow ids starting here.
        flows: Vec<u64>,
        /// Flow ids ending here.
        ends: Vec<u64>,
    },
    /// A counter's new value.
    Value(i64),
}

/// One point of the timeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Point {
    /// Simulated cycle.
    pub cycle: u64,
    /// The track's uuid.
    pub track: u64,
    /// What happened.
    pub what: What,
}

/// A whole run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Timeline {
    /// The profile's clock (cycles per second), for real time units.
    pub clock_hz: u64,
    /// Every track, parents before children.
    pub tracks: Vec<Track>,
    /// Every point, in cycle order (stable: points of one cycle keep their order).
    pub points: Vec<Point>,
}

impl Timeline {
    /// Nanoseconds at `cycle`.
    pub fn ns(&self, cycle: u64) -> u64 {
        (u128::from(cycle) * 1_000_000_000 / u128::from(self.clock_hz.max(1))) as u64
    }

    /// The track called `name`, if there is one.
    #[cfg(test)]
    pub fn track(&self, name: &str) -> Option<&Track> {
        self.tracks.iter().find(|t| t.name == name)
    }

    /// The slices of `track`, in order: (name, first cycle, end cycle).
    pub fn slices(&self, track: u64) -> Vec<(String, u64, u64)> {
        let mut out = Vec::new();
        let mut open: Option<(String, u64)> = None;
        for p in self.on(track) {
            match &p.what {
                What::Begin { name, .. } => open = Some((name.clone(), p.cycle)),
                What::End => {
                    if let Some((n, s)) = open.take() {
                        out.push((n, s, p.cycle));
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// The points on `track`.
    pub fn on(&self, track: u64) -> impl Iterator<Item = &Point> {
        self.points.iter().filter(move |p| p.track == track)
    }
}

/// How to name what the events only give as addresses.
pub trait Names {
    /// The data object at `addr` (`block_queue`, `pool+8`), if the ELF names it.
    fn object(&self, addr: u32) -> Option<String>;
    /// The name of a probed kernel call at `pc` with arguments `a0`, `a1` (`sem give go`),
    /// None when `pc` is no kernel API function.
    fn call(&self, _pc: u32, _a0: u32, _a1: u32) -> Option<String> {
        None
    }
}

/// The process track's uuid.
pub const PROCESS: u64 = 1;
/// The CPU track: which task runs.
pub const CPU: u64 = 2;
/// The traps track: each trap from entry to `mret`.
pub const TRAPS: u64 = 3;
/// The kernel's marks (markers, oracle verdicts) with no task of their own.
pub const KERNEL: u64 = 4;
/// Interrupt handlers (`ISR_ENTER` to `ISR_LEAVE`), named by their source.
pub const ISRS: u64 = 5;

/// Task `id`'s state track, and its counters (the 4 after it; room for 7).
fn task_track(id: u32) -> u64 {
    16 + u64::from(id) * 8
}

/// The kernel's task states (`enum cactus_task_state`).
fn state_name(state: u32) -> Option<&'static str> {
    match state {
        1 | 2 => Some("ready"),
        3 => Some("blocked"),
        4 => Some("sleeping"),
        5 => Some("suspended"),
        _ => None,
    }
}

#[derive(Default)]
struct TaskInfo {
    name: String,
    /// The task's first stack region: [base, base + size).
    home: Option<(u32, u32)>,
    /// Regions it holds now (base → size).
    regions: BTreeMap<u32, u32>,
    /// Bytes of other tasks' stacks it holds on loan now.
    borrowed: u32,
    /// The state slice open on its track.
    open: Option<String>,
    state: u32,
    prio: Option<u32>,
    wait_on: u32,
    exited: bool,
}

/// Builds the timeline of `events` (a run's, in order) at `clock_hz`, naming wait objects
/// with `names`.
pub fn build(events: &[Event], clock_hz: u64, names: &dyn Names) -> Timeline {
    let mut b = Builder {
        t: Timeline {
            clock_hz,
            ..Timeline::default()
        },
        tasks: BTreeMap::new(),
        running: None,
        in_trap: 0,
        in_isr: false,
        cpu_open: false,
        next_flow: 1,
        suffixes: BTreeMap::new(),
        used: Default::default(),
    };
    b.track(PROCESS, "firmware", None, TrackKind::Process);
    for e in events {
        b.event(e, names);
    }
    let last = events.last().map_or(0, |e| e.cycle);
    b.finish(last);
    b.t
}

struct Builder {
    t: Timeline,
    tasks: BTreeMap<u32, TaskInfo>,
    running: Option<u32>,
    in_trap: u32,
    in_isr: bool,
    cpu_open: bool,
    next_flow: u64,
    /// Task tracks and counters by uuid: whose, and what follows the task's name.
    suffixes: BTreeMap<u64, (u32, String)>,
    used: std::collections::BTreeSet<u64>,
}

impl Builder {
    fn track(&mut self, uuid: u64, name: &str, parent: Option<u64>, kind: TrackKind) {
        if self.t.tracks.iter().all(|t| t.uuid != uuid) {
            self.t.tracks.push(Track {
                uuid,
                name: name.to_string(),
                parent,
                kind,
            });
        }
    }

    fn push(&mut self, cycle: u64, track: u64, what: What) {
        self.used.insert(track);
        self.t.points.push(Point { cycle, track, what });
    }

    fn cpu(&mut self) {
        self.track(CPU, "CPU", Some(PROCESS), TrackKind::Thread { tid: 1 });
    }

    fn task_name(&self, id: u32) -> String {
        match self.tasks.get(&id) {
            Some(t) if !t.name.is_empty() => t.name.clone(),
            _ => format!("task {id}"),
        }
    }

    /// Task `id`'s track and counters exist (created on first use).
    fn task(&mut self, id: u32) -> u64 {
        let uuid = task_track(id);
        if self.t.tracks.iter().all(|t| t.uuid != uuid) {
            let name = self.task_name(id);
            self.suffixes.insert(uuid, (id, String::new()));
            self.track(
                uuid,
                &name,
                Some(PROCESS),
                TrackKind::Thread { tid: 16 + id },
            );
        }
        self.tasks.entry(id).or_default();
        uuid
    }

    fn counter(&mut self, id: u32, k: u64, what: &str, unit: Unit, cycle: u64, v: i64) {
        let parent = self.task(id);
        let name = format!("{} {what}", self.task_name(id));
        self.suffixes.insert(parent + k, (id, format!(" {what}")));
        self.track(parent + k, &name, Some(parent), TrackKind::Counter(unit));
        self.push(cycle, parent + k, What::Value(v));
    }

    fn instant(&mut self, cycle: u64, track: u64, name: String, args: Args) {
        self.push(
            cycle,
            track,
            What::Instant {
                name,
                args,
                flows: vec![],
                ends: vec![],
            },
        );
    }

    /// Task `id`'s state slice becomes `name` (None: none, the task is gone).
    fn set_state(&mut self, id: u32, cycle: u64, name: Option<String>) {
        let track = self.task(id);
        let info = self.tasks.entry(id).or_default();
        if info.open == name {
            return;
        }
        let was_open = info.open.is_some();
        info.open = name.clone();
        if was_open {
            self.push(cycle, track, What::End);
        }
        if let Some(n) = name {
            self.push(
                cycle,
                track,
                What::Begin {
                    name: n,
                    args: vec![],
                },
            );
        }
    }

    /// The state slice task `id` should show now.
    fn state_of(&self, id: u32, names: &dyn Names) -> Option<String> {
        let info = self.tasks.get(&id)?;
        if info.exited {
            return None;
        }
        if self.running == Some(id) {
            return Some("running".into());
        }
        let s = state_name(info.state)?;
        if info.state == 3 && info.wait_on != 0 {
            let object = names
                .object(info.wait_on)
                .unwrap_or_else(|| format!("{:#010x}", info.wait_on));
            return Some(format!("blocked on {object}"));
        }
        Some(s.to_string())
    }

    fn event(&mut self, e: &Event, names: &dyn Names) {
        let c = e.cycle;
        match &e.kind {
            EventKind::TaskEnergy { task, energy_nj } => {
                let nj = energy_nj.round() as i64;
                self.counter(*task, 4, "energy nJ", Unit::Count, c, nj);
            }
            EventKind::TaskCreate {
                task,
                priority,
                name,
            } => {
                self.tasks.entry(*task).or_default().name = name.clone();
                let track = self.task(*task);
                let info = self.tasks.entry(*task).or_default();
                info.prio = Some(*priority);
                info.state = 1;
                self.instant(
                    c,
                    track,
                    "created".into(),
                    vec![("priority".into(), u64::from(*priority))],
                );
                let s = self.state_of(*task, names);
                self.set_state(*task, c, s);
            }
            EventKind::TaskSwitch { task } => {
                let old = self.running.take();
                let new = (*task != cactus_sim::NOBODY).then_some(*task);
                self.running = new;
                self.cpu();
                if self.cpu_open {
                    self.push(c, CPU, What::End);
                }
                self.cpu_open = true;
                let name = match new {
                    Some(id) => {
                        self.task(id);
                        self.task_name(id)
                    }
                    None => "idle".to_string(),
                };
                self.push(c, CPU, What::Begin { name, args: vec![] });
                for id in [old, new].into_iter().flatten() {
                    let s = self.state_of(id, names);
                    self.set_state(id, c, s);
                }
            }
            EventKind::TaskExit { task, reason } => {
                let track = self.task(*task);
                let how = match reason {
                    0 => "returned",
                    1 => "killed",
                    2 => "faulted",
                    _ => "ended",
                };
                self.instant(c, track, format!("exit: {how}"), vec![]);
                self.tasks.entry(*task).or_default().exited = true;
                self.set_state(*task, c, None);
            }
            EventKind::TaskSample {
                task,
                state,
                prio,
                wait_on,
                sp,
            } => {
                self.sample(c, *task, *state, *prio, *wait_on, *sp, names);
            }
            EventKind::RegionAssign { base, size, owner } => {
                self.release(c, *base);
                if *owner != cactus_sim::NOBODY {
                    let info = self.tasks.entry(*owner).or_default();
                    info.home.get_or_insert((*base, *size));
                    info.regions.insert(*base, *size);
                    let n = info.regions.len() as i64;
                    self.counter(*owner, 2, "stack regions", Unit::Count, c, n);
                }
            }
            EventKind::RegionRelease { base, .. } => self.release(c, *base),
            EventKind::RegionLend {
                base,
                size,
                lender,
                borrower,
                moved,
            } => {
                self.release(c, *base);
                let info = self.tasks.entry(*borrower).or_default();
                info.regions.insert(*base, *size);
                info.borrowed += moved;
                let (n, b) = (info.regions.len() as i64, i64::from(info.borrowed));
                self.counter(*borrower, 2, "stack regions", Unit::Count, c, n);
                self.counter(*borrower, 3, "bytes borrowed", Unit::Bytes, c, b);
                if *lender == cactus_sim::NOBODY {
                    // The region of a task that ended: nobody lends, the borrower takes.
                    let track = self.task(*borrower);
                    let what = format!("borrows {moved} bytes of an ended task's region");
                    self.instant(c, track, what, vec![]);
                } else {
                    let track = self.task(*lender);
                    let to = self.task_name(*borrower);
                    self.instant(c, track, format!("lends {moved} bytes to {to}"), vec![]);
                }
            }
            EventKind::StackHwm { task, used, budget } => {
                let track = self.task(*task);
                self.instant(
                    c,
                    track,
                    format!("high water {used} of {budget} bytes"),
                    vec![
                        ("used".into(), u64::from(*used)),
                        ("budget".into(), u64::from(*budget)),
                    ],
                );
            }
            EventKind::Overflow {
                task,
                requested,
                action,
                ..
            } => {
                let track = self.task(*task);
                let what = match action {
                    0 => "killed",
                    1 => "restarted",
                    2 => "halted",
                    3 => "frame moved",
                    _ => "handled",
                };
                self.instant(
                    c,
                    track,
                    format!("stack overflow caught: {what}"),
                    vec![("requested".into(), u64::from(*requested))],
                );
            }
            EventKind::IsrEnter { source } => {
                self.track(
                    ISRS,
                    "interrupt handlers",
                    Some(PROCESS),
                    TrackKind::Thread { tid: 4 },
                );
                if self.in_isr {
                    self.push(c, ISRS, What::End);
                }
                self.in_isr = true;
                let name = match source {
                    0 => "software interrupt handler".to_string(),
                    s => format!("interrupt source {s} handler"),
                };
                self.push(c, ISRS, What::Begin { name, args: vec![] });
            }
            EventKind::IsrLeave if self.in_isr => {
                self.in_isr = false;
                self.push(c, ISRS, What::End);
            }
            EventKind::Call { a0, a1 } => {
                // A kernel API call: on the handler's track from an interrupt handler, else
                // on the calling task's (the kernel's track before any task runs).
                let Some(name) = names.call(e.pc, *a0, *a1) else {
                    return;
                };
                let track = match self.running {
                    _ if self.in_isr => ISRS,
                    Some(id) => self.task(id),
                    None => {
                        self.track(
                            KERNEL,
                            "markers and verdicts",
                            Some(PROCESS),
                            TrackKind::Thread { tid: 3 },
                        );
                        KERNEL
                    }
                };
                self.instant(c, track, name, vec![]);
            }
            EventKind::Marker { id, value } => {
                self.track(
                    KERNEL,
                    "markers and verdicts",
                    Some(PROCESS),
                    TrackKind::Thread { tid: 3 },
                );
                self.instant(
                    c,
                    KERNEL,
                    format!("marker {id}"),
                    vec![("value".into(), u64::from(*value))],
                );
            }
            EventKind::Trap { cause, tval } => {
                self.track(TRAPS, "traps", Some(PROCESS), TrackKind::Thread { tid: 2 });
                if self.in_trap > 0 {
                    // A trap inside a trap: end the outer slice first (slices do not overlap).
                    self.push(c, TRAPS, What::End);
                }
                self.in_trap = 1;
                self.push(
                    c,
                    TRAPS,
                    What::Begin {
                        name: cactus_sim::cause_name(*cause).to_string(),
                        args: vec![
                            ("mcause".into(), u64::from(*cause)),
                            ("mtval".into(), u64::from(*tval)),
                            ("pc".into(), u64::from(e.pc)),
                        ],
                    },
                );
            }
            EventKind::Mret { .. } if self.in_trap > 0 => {
                self.in_trap = 0;
                self.push(c, TRAPS, What::End);
            }
            EventKind::OracleViolation {
                addr,
                width,
                task,
                owner,
            } => {
                self.track(
                    KERNEL,
                    "markers and verdicts",
                    Some(PROCESS),
                    TrackKind::Thread { tid: 3 },
                );
                let whose = if *owner == cactus_sim::NOBODY {
                    "nobody".to_string()
                } else {
                    self.task_name(*owner)
                };
                let writer = self.task_name(*task);
                self.instant(
                    c,
                    KERNEL,
                    format!("oracle violation: {writer} wrote {whose}'s memory"),
                    vec![
                        ("addr".into(), u64::from(*addr)),
                        ("width".into(), u64::from(*width)),
                    ],
                );
            }
            _ => {}
        }
    }

    /// The region at `base` is no longer held by whoever held it.
    fn release(&mut self, c: u64, base: u32) {
        let holder = self
            .tasks
            .iter()
            .find(|(_, t)| t.regions.contains_key(&base))
            .map(|(id, _)| *id);
        if let Some(id) = holder {
            let info = self.tasks.get_mut(&id).expect("found");
            let size = info.regions.remove(&base).unwrap_or(0);
            let home = info.home.is_some_and(|(b, _)| b == base);
            let lent = !home && info.borrowed > 0;
            if lent {
                info.borrowed = info.borrowed.saturating_sub(size);
            }
            let (n, b) = (info.regions.len() as i64, i64::from(info.borrowed));
            self.counter(id, 2, "stack regions", Unit::Count, c, n);
            if lent {
                self.counter(id, 3, "bytes borrowed", Unit::Bytes, c, b);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn sample(
        &mut self,
        c: u64,
        id: u32,
        state: u32,
        prio: u32,
        wait_on: u32,
        sp: u32,
        names: &dyn Names,
    ) {
        let track = self.task(id);
        let info = self.tasks.entry(id).or_default();
        let (was_state, was_prio) = (info.state, info.prio);
        info.state = state;
        info.wait_on = wait_on;
        info.prio = Some(prio);
        let home = info.home;
        let live = state_name(state).is_some();
        // Stack in use, from the sp saved at its last kernel entry (a switch's samples come
        // before the switch: the task leaving is still the running one), while that sp is in
        // the task's own first region.
        if let Some((base, size)) = home {
            let top = base.wrapping_add(size);
            if live && sp > base && sp <= top {
                self.counter(id, 1, "stack bytes", Unit::Bytes, c, i64::from(top - sp));
            }
        }
        if let Some(p) = was_prio.filter(|p| *p != prio && live) {
            self.instant(c, track, format!("priority {p} -> {prio}"), vec![]);
        }
        // A wake-up: a flow from whoever ran (the trap, or the running task) to the woken.
        if matches!(was_state, 3 | 4) && matches!(state, 1 | 2) {
            let flow = self.next_flow;
            self.next_flow += 1;
            let woken = self.task_name(id);
            let (from, by) = match (self.in_trap > 0, self.running) {
                (true, _) | (false, None) => {
                    self.track(TRAPS, "traps", Some(PROCESS), TrackKind::Thread { tid: 2 });
                    (TRAPS, "an interrupt or the kernel".to_string())
                }
                (false, Some(r)) => (task_track(r), self.task_name(r)),
            };
            self.push(
                c,
                from,
                What::Instant {
                    name: format!("wakes {woken}"),
                    args: vec![],
                    flows: vec![flow],
                    ends: vec![],
                },
            );
            self.push(
                c,
                track,
                What::Instant {
                    name: format!("woken by {by}"),
                    args: vec![],
                    flows: vec![],
                    ends: vec![flow],
                },
            );
        }
        let s = if live { self.state_of(id, names) } else { None };
        if !live {
            if let Some(info) = self.tasks.get_mut(&id) {
                info.exited |= state >= 6;
            }
        }
        self.set_state(id, c, s);
    }

    /// Closes every open slice at `cycle` and drops tracks with nothing on them.
    fn finish(&mut self, cycle: u64) {
        let ids: Vec<u32> = self.tasks.keys().copied().collect();
        for id in ids {
            self.set_state(id, cycle, None);
        }
        if self.cpu_open {
            self.push(cycle, CPU, What::End);
        }
        // A task's name may come after its first region: name its tracks now.
        for track in &mut self.t.tracks {
            if let Some((id, suffix)) = self.suffixes.get(&track.uuid) {
                let name = match self.tasks.get(id) {
                    Some(t) if !t.name.is_empty() => t.name.clone(),
                    _ => format!("task {id}"),
                };
                track.name = format!("{name}{suffix}");
            }
        }
        if self.in_trap > 0 {
            self.push(cycle, TRAPS, What::End);
        }
        let used = &self.used;
        let parents: std::collections::BTreeSet<u64> =
            self.t.tracks.iter().filter_map(|t| t.parent).collect();
        self.t
            .tracks
            .retain(|t| t.uuid == PROCESS || used.contains(&t.uuid) || parents.contains(&t.uuid));
        self.t.points.sort_by_key(|p| p.cycle);
    }
}
