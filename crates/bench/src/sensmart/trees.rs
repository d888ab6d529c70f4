//! The `trees` part of `cactus bench sensmart`: SenSmart's binary-tree "sense-and-send"
//! scenario (paper 003, section V-D; bench/sensmart/trees.c, docs/sensmart.md "The
//! binary-tree scenario").
//!
//! Every point is one stack strategy on one [`Scenario`] (tree size and stack pool): a search
//! over the number of search tasks for the largest that still runs correctly (exit 0, the
//! firmware's own replay of every search agreeing, the ownership oracle silent), each probe a
//! build of a manifest generated from bench/sensmart/trees.toml's settings with that many
//! search tasks and a run on cactus-sim. Figure 7 is the `relocate` (hardware window) point
//! of each tree size, with the stack pool shrinking as the trees grow (one total memory);
//! Figure 8, extended, is every strategy on one scenario.
//!
//! Guarantees: every figure comes from a build and a run made here; a probe that cannot be
//! built, does not fit its pool, or runs incorrectly counts as failing, with its reason kept.

use super::{Part, SensmartRow};
use crate::mcu_run::{exited_cleanly, run_mcu};
use crate::Size;
use cactus_firmware::{BuildOptions, Manifest, StackStrategy};
use cactus_sim::{Event, EventKind};
use cactus_sweep::search::largest_passing;
use cactus_sweep::{Point, Progress};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The scenario's manifest (its directory anchors the generated manifests' sources).
pub const MANIFEST: &str = "bench/sensmart/trees.toml";

/// Simulated cycles after which a probe is stopped (and fails).
pub const MAX_CYCLES: u64 = 100_000_000;

/// The feeding task's stack, bytes (the same under every strategy; whole MTSS pages).
pub const FEEDER_STACK: u32 = 512;

/// Searches each search task makes.
pub const SEARCHES: u32 = 32;

/// Trees the feeder builds (the paper's six).
pub const TREES: u32 = 6;

/// Bytes of one tree node (key, value, two links).
pub const NODE_BYTES: u32 = 16;

/// The first stacklet of a search task under `segmented`, bytes: its entry frames and a few
/// levels; the rest of the pool is the heap its linked stacklets come from.
pub const SEGMENTED_FIRST: u32 = 256;

/// The MTSS page of every build here (the kernel's default), bytes.
pub const PAGE: u32 = 128;

/// Figure 7's total memory (stack pool plus tree heap), KiB: the pool is what the trees leave.
pub const FIG7_TOTAL_KIB: u32 = 16;

/// Figure 8's scenario: tree size and pool (the paper used the same memory for SenSmart and
/// LiteOS; the strategies here share one pool).
pub const FIG8: Scenario = Scenario {
    nodes: 128,
    pool_kib: 4,
};

/// A stack strategy as the scenario is built under it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Strategy {
    /// One fixed stack per task, no checks (the oracle catches an overflow).
    Static,
    /// SenSmart's relocation with cactus-sim's stack window.
    RelocateHw,
    /// SenSmart's relocation with the logical-stack pass (software window, `mtss` checks).
    RelocateSw,
    /// Multi-task stack sharing (`mtss` checks).
    Mtss,
    /// Segmented stacks (`split` checks), first stacklets of [`SEGMENTED_FIRST`] bytes.
    Segmented,
    /// MTSS loans with heap stacklets as the fallback (`split` checks), a quarter of the pool
    /// as the stacklet heap.
    MtssSplit,
}

impl Strategy {
    /// Every strategy, in table order.
    pub const ALL: [Strategy; 6] = [
        Strategy::Static,
        Strategy::RelocateHw,
        Strategy::RelocateSw,
        Strategy::Mtss,
        Strategy::Segmented,
        Strategy::MtssSplit,
    ];

    /// The name in tables and keys.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Static => "static",
            Strategy::RelocateHw => "relocate-hw",
            Strategy::RelocateSw => "relocate-sw",
            Strategy::Mtss => "mtss",
            Strategy::Segmented => "segmented",
            Strategy::MtssSplit => "mtss+split",
        }
    }

    fn stack(self) -> StackStrategy {
        match self {
            Strategy::Static => StackStrategy::Static,
            Strategy::RelocateHw | Strategy::RelocateSw => StackStrategy::Relocate,
            Strategy::Mtss => StackStrategy::Mtss,
            Strategy::Segmented => StackStrategy::Segmented,
            Strategy::MtssSplit => StackStrategy::MtssSplit,
        }
    }

    /// The `[kernel]` lines beyond the common ones.
    fn kernel_lines(self, pool_kib: u32) -> String {
        let (checks, extra) = match self {
            Strategy::Static | Strategy::RelocateHw => ("none", String::new()),
            Strategy::RelocateSw => ("mtss", "window = \"sw\"\n".to_string()),
            Strategy::Mtss => ("mtss", String::new()),
            Strategy::Segmented => ("split", String::new()),
            Strategy::MtssSplit => (
                "split",
                format!("stacklet_pool = {}\n", hybrid_heap(pool_kib)),
            ),
        };
        format!(
            "stack = \"{}\"\nchecks = \"{checks}\"\n{extra}",
            self.stack().name()
        )
    }
}

/// The `mtss+split` stacklet heap for a pool of `pool_kib` KiB: a quarter, in whole pages.
pub fn hybrid_heap(pool_kib: u32) -> u32 {
    (pool_kib * 1024 / 4 / PAGE).max(2) * PAGE
}

/// One workload: tree size and stack pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Scenario {
    /// Nodes per tree.
    pub nodes: u32,
    /// The stack pool, KiB.
    pub pool_kib: u32,
}

impl Scenario {
    /// The trees' heap, bytes.
    pub fn heap_bytes(self) -> u32 {
        TREES * self.nodes * NODE_BYTES
    }

    /// Figure 7's scenario for `nodes` per tree: the pool is [`FIG7_TOTAL_KIB`] less the heap
    /// (whole KiB); None when the heap leaves less than 2 KiB.
    pub fn fig7(nodes: u32) -> Option<Scenario> {
        let heap_kib = (TREES * nodes * NODE_BYTES).div_ceil(1024);
        let pool_kib = FIG7_TOTAL_KIB.checked_sub(heap_kib)?;
        (pool_kib >= 2).then_some(Scenario { nodes, pool_kib })
    }

    /// The most search tasks a search of this scenario asks about: every task at 128 bytes.
    pub fn most_tasks(self) -> u32 {
        ((self.pool_kib * 1024).saturating_sub(FEEDER_STACK + 64) / 128).clamp(1, 128)
    }
}

/// Figure 7's tree sizes at `size`.
pub fn fig7_sizes(size: Size) -> &'static [u32] {
    match size {
        Size::Small => &[128],
        Size::Full => &[16, 32, 64, 128],
    }
}

/// The budget each search task gets under `s` with `tasks` of them in `pool_kib` KiB: an
/// equal share of what the feeder leaves (whole pages for `mtss` and `mtss+split`, whose
/// heap is taken first), or [`SEGMENTED_FIRST`] under `segmented`. Err when they do not fit.
pub fn budget(s: Strategy, pool_kib: u32, tasks: u32) -> Result<u32, String> {
    let st = s.stack();
    let usable = st.region_pool_bytes(pool_kib, PAGE, hybrid_heap(pool_kib));
    let left = usable.saturating_sub(st.region_bytes(FEEDER_STACK, PAGE));
    let unit = if st.has_pages() { PAGE } else { 16 };
    let b = if s == Strategy::Segmented {
        SEGMENTED_FIRST
    } else {
        left / tasks.max(1) / unit * unit
    };
    if b < 128 || b * tasks > left {
        return Err(format!(
            "{tasks} search tasks do not fit: {left} bytes of pool for them, {b} each"
        ));
    }
    Ok(b)
}

/// The manifest text of `tasks` search tasks under `s` on `sc`.
pub fn manifest_text(s: Strategy, sc: Scenario, tasks: u32) -> Result<String, String> {
    let b = budget(s, sc.pool_kib, tasks)?;
    let mut t = format!(
        "# Generated by `cactus bench sensmart --parts trees` from {MANIFEST}: {} under {}.\n\
         [firmware]\nname = \"sensmart_trees\"\n\
         cflags = [\"-DTREE_NODES={}\", \"-DSEARCHES={SEARCHES}\", \"-DTREES={TREES}\"]\n\n\
         [kernel]\n{}target = \"sim\"\ntick_hz = 10000\npool_kib = {}\n\n\
         [[task]]\nname = \"feed\"\nsources = [\"trees.c\"]\nentry = \"feed_main\"\n\
         priority = 20\nstack = {FEEDER_STACK}\non_fault = \"halt\"\n",
        tasks,
        s.name(),
        sc.nodes,
        s.kernel_lines(sc.pool_kib),
        sc.pool_kib
    );
    for i in 1..=tasks {
        t.push_str(&format!(
            "\n[[task]]\nname = \"search{i}\"\nsources = [\"trees.c\"]\nentry = \"search_main\"\n\
             priority = 10\nstack = {b}\narg = {i}\non_fault = \"halt\"\n"
        ));
    }
    Ok(t)
}

/// What one correct run measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TreeRun {
    /// Awake cycles of the whole run (not asleep in `wfi`).
    pub cycles: u64,
    /// Cycles of the search tasks (the kernel's work in their context included), summed.
    pub search_cycles: u64,
    /// Stack growths the strategy made (OVERFLOW events with action "grown": relocations,
    /// moved frames, linked stacklets).
    pub growths: u32,
    /// `relocate` only: the time average of a search task's region while all are live, bytes
    /// (from the first switch to a search task to the first one's exit).
    pub avg_stack: Option<u32>,
    /// The deepest search, levels below the root.
    pub depth_max: u32,
    /// The mean search depth x 100.
    pub depth_mean100: u32,
    /// The firmware's checksum of every search's report.
    pub checksum: u32,
}

impl TreeRun {
    /// Search-task cycles per search.
    pub fn cycles_per_search(&self, tasks: u32) -> Option<u64> {
        (tasks > 0).then(|| self.search_cycles / u64::from(tasks * SEARCHES))
    }
}

/// One probe of the search.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Probe {
    /// Search tasks.
    pub tasks: u32,
    /// The run, or why it does not count.
    pub run: Result<TreeRun, String>,
}

/// One strategy's search on one scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TreeSearch {
    /// The strategy.
    pub strategy: Strategy,
    /// The workload.
    pub scenario: Scenario,
    /// The most search tasks that ran correctly (0: not even one); None until searched.
    pub max_tasks: Option<u32>,
    /// The largest count asked about (an answer equal to it is a lower bound).
    pub ceiling: u32,
    /// Every probe, in the order made.
    pub probes: Vec<Probe>,
}

impl TreeSearch {
    /// The run at the maximum.
    pub fn at_max(&self) -> Option<&TreeRun> {
        let n = self.max_tasks?;
        self.probes
            .iter()
            .find(|p| p.tasks == n)
            .and_then(|p| p.run.as_ref().ok())
    }

    /// Why the smallest failing count asked about failed.
    pub fn first_failure(&self) -> Option<(u32, &str)> {
        self.probes
            .iter()
            .filter_map(|p| p.run.as_ref().err().map(|e| (p.tasks, e.as_str())))
            .min_by_key(|p| p.0)
    }
}

/// Where the part runs.
pub struct TreeOptions {
    /// The Cactus tree (empty: the current directory).
    pub root: PathBuf,
    /// Size class.
    pub size: Size,
    /// Parent of the build directories.
    pub build_dir: Option<PathBuf>,
}

/// The (strategy, scenario) pairs measured at `size`: Figure 7's `relocate-hw` points, then
/// Figure 8's strategies (the shared pair once).
pub fn pairs(size: Size) -> Vec<(Strategy, Scenario)> {
    let mut out: Vec<(Strategy, Scenario)> = fig7_sizes(size)
        .iter()
        .filter_map(|&n| Scenario::fig7(n))
        .map(|sc| (Strategy::RelocateHw, sc))
        .collect();
    for s in Strategy::ALL {
        if !out.contains(&(s, FIG8)) {
            out.push((s, FIG8));
        }
    }
    out
}

/// The row name of a pair (also its key).
pub fn row_name(s: Strategy, sc: Scenario) -> String {
    format!("trees {} n={} pool={}k", s.name(), sc.nodes, sc.pool_kib)
}

/// The part's points.
pub fn points(o: &TreeOptions) -> Vec<Point<'_, SensmartRow>> {
    pairs(o.size)
        .into_iter()
        .map(|(s, sc)| {
            let name = row_name(s, sc);
            Point::new(
                format!("trees/{}/{}/{}", s.name(), sc.nodes, sc.pool_kib),
                name.clone(),
                move |_, progress: &Progress| {
                    let row = search(o, s, sc, &name);
                    if let Some(note) = &row.note {
                        progress.note(&format!("cactus: sensmart {name}: {note}"));
                    }
                    row
                },
            )
        })
        .collect()
}

/// Searches the most search tasks `s` accommodates on `sc` (bisection, assuming that a count
/// that fails makes every larger one fail; the probes are kept, so a contradiction shows).
pub fn search(o: &TreeOptions, s: Strategy, sc: Scenario, name: &str) -> SensmartRow {
    search_with(s, sc, name, &mut |n| probe(o, s, sc, n))
}

/// [`search`] with the probe given: `run(n)` builds and runs `n` search tasks. The row passes
/// when at least one search task ran and the run at the maximum is kept.
pub fn search_with(
    s: Strategy,
    sc: Scenario,
    name: &str,
    run: &mut dyn FnMut(u32) -> Result<TreeRun, String>,
) -> SensmartRow {
    let mut row = SensmartRow::new(Part::Trees, name);
    let ceiling = sc.most_tasks();
    let mut order: Vec<Probe> = Vec::new();
    let max = largest_passing(ceiling, &mut |n| {
        if n == 0 {
            return true; // no search task: nothing to run
        }
        let p = Probe {
            tasks: n,
            run: run(n),
        };
        let ok = p.run.is_ok();
        order.push(p);
        ok
    });
    let found = TreeSearch {
        strategy: s,
        scenario: sc,
        max_tasks: max,
        ceiling,
        probes: order,
    };
    match found.max_tasks {
        Some(n) if n > 0 && found.at_max().is_some() => row.passed = true,
        _ => {
            row.note = Some(match found.first_failure() {
                Some((n, why)) => format!("not even one search task runs ({n}: {why})"),
                None => "no probe made".to_string(),
            })
        }
    }
    row.trees = Some(found);
    row
}

/// Builds and runs `tasks` search tasks under `s` on `sc`.
pub fn probe(o: &TreeOptions, s: Strategy, sc: Scenario, tasks: u32) -> Result<TreeRun, String> {
    let root = if o.root.as_os_str().is_empty() {
        std::env::current_dir().unwrap_or_default()
    } else {
        o.root.clone()
    };
    probe_in(o, s, sc, tasks).map_err(|e| in_tree(&e, &root))
}

/// `msg` with the checkout's absolute path taken out of the file names it gives, so that
/// reasons read the same in every checkout.
pub fn in_tree(msg: &str, root: &std::path::Path) -> String {
    msg.replace(&format!("{}/", root.display()), "")
}

fn probe_in(o: &TreeOptions, s: Strategy, sc: Scenario, tasks: u32) -> Result<TreeRun, String> {
    let text = manifest_text(s, sc, tasks)?;
    let path = o.root.join(MANIFEST);
    let m = Manifest::parse(&text, &path).map_err(|e| first_line(&e.to_string()))?;
    let options = BuildOptions {
        root: (!o.root.as_os_str().is_empty()).then(|| o.root.clone()),
        out_root: o.build_dir.clone(),
        ..BuildOptions::default()
    };
    let built = cactus_firmware::build(&m, &options)
        .map_err(|e| format!("build failed: {}", first_line(&e.to_string())))?;
    let (mut machine, outcome) = run_mcu(&built.elf, MAX_CYCLES)?;
    let uart = String::from_utf8_lossy(&machine.take_uart_output()).into_owned();
    if let Err(e) = exited_cleanly(outcome) {
        // The kernel's own line says why (a refused growth, an overflow caught).
        return Err(match uart.lines().find(|l| l.starts_with("cactus:")) {
            Some(line) => format!("{e}: {}", line.trim()),
            None => e,
        });
    }
    let stats = machine.stats();
    if stats.oracle_violations > 0 {
        return Err(format!("{} oracle violation(s)", stats.oracle_violations));
    }
    let events = machine.events();
    let marker = |id| crate::mcu_run::last_marker(events, id).ok_or(format!("no marker {id}"));
    if marker(5)? != tasks {
        return Err(format!("the firmware reports {} search tasks", marker(5)?));
    }
    let searchers = 1..=tasks;
    Ok(TreeRun {
        cycles: stats.cycles - stats.sleep_cycles,
        search_cycles: stats
            .tasks
            .iter()
            .filter(|t| searchers.contains(&t.id))
            .map(|t| t.cycles)
            .sum(),
        growths: growths(events),
        avg_stack: (s.stack() == StackStrategy::Relocate)
            .then(|| average_region(events, 1, tasks))
            .flatten(),
        depth_max: marker(3)?,
        depth_mean100: marker(4)?,
        checksum: marker(2)?,
    })
}

/// OVERFLOW events whose action is "grown" (3).
pub fn growths(events: &[Event]) -> u32 {
    events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Overflow { action: 3, .. }))
        .count() as u32
}

/// The time average, over cycles, of a search task's region while all of tasks
/// `first..=last` are live (from the first switch to one of them to the first one's exit):
/// each task's region is the size of its latest REGION_ASSIGN. None without such a span.
pub fn average_region(events: &[Event], first: u32, last: u32) -> Option<u32> {
    let ours = |t: u32| (first..=last).contains(&t);
    let everyone = (last + 1).saturating_sub(first) as usize;
    let mut region: BTreeMap<u32, u64> = BTreeMap::new();
    let (mut started, mut at) = (false, 0u64);
    let (mut area, mut span) = (0f64, 0f64);
    for e in events {
        if started && region.len() == everyone {
            let dt = e.cycle.saturating_sub(at) as f64;
            area += dt * region.values().sum::<u64>() as f64;
            span += dt * everyone as f64;
        }
        at = e.cycle;
        match e.kind {
            EventKind::RegionAssign { size, owner, .. } if ours(owner) => {
                region.insert(owner, u64::from(size));
            }
            EventKind::TaskExit { task, .. } if ours(task) && started => break,
            EventKind::TaskSwitch { task } if ours(task) => started = true,
            _ => {}
        }
    }
    (span > 0.0).then(|| (area / span).round() as u32)
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn run(checksum: u32) -> TreeRun {
        TreeRun {
            cycles: 1000,
            search_cycles: 640,
            growths: 2,
            avg_stack: Some(300),
            depth_max: 9,
            depth_mean100: 512,
            checksum,
        }
    }

    #[test]
    fn budgets_share_the_pool_the_feeder_leaves() {
        // 4 KiB - 64 (red zone) - 512 (feeder) = 3520 for the search tasks.
        assert_eq!(budget(Strategy::Static, 4, 4), Ok(880));
        assert_eq!(budget(Strategy::RelocateHw, 4, 3), Ok(1168));
        // mtss: the red zone is a whole page; shares in whole pages.
        assert_eq!(budget(Strategy::Mtss, 4, 4), Ok(768));
        // mtss+split: a quarter of the pool is the stacklet heap first.
        assert_eq!(hybrid_heap(4), 1024);
        assert_eq!(budget(Strategy::MtssSplit, 4, 4), Ok(512));
        assert_eq!(budget(Strategy::Segmented, 4, 4), Ok(SEGMENTED_FIRST));
        assert!(budget(Strategy::Segmented, 4, 14).is_err());
        let e = budget(Strategy::Static, 4, 28).unwrap_err();
        assert!(e.contains("28 search tasks do not fit"), "{e}");
    }

    #[test]
    fn generated_manifests_are_valid_for_every_strategy() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(MANIFEST);
        for s in Strategy::ALL {
            let text = manifest_text(s, FIG8, 5).unwrap();
            let m = Manifest::parse(&text, &path).unwrap_or_else(|e| panic!("{}: {e}", s.name()));
            assert_eq!(m.tasks.len(), 6, "{}", s.name());
            assert_eq!(m.kernel.stack, s.stack());
            assert_eq!(m.kernel.pool_kib, Some(FIG8.pool_kib));
            let sw = s == Strategy::RelocateSw;
            assert_eq!(m.kernel.window.name() == "sw", sw);
            let b = budget(s, FIG8.pool_kib, 5).unwrap();
            assert!(m.tasks[1..]
                .iter()
                .all(|t| t.stack == b && t.on_fault == cactus_firmware::FaultPolicy::Halt));
            assert_eq!(m.tasks[5].arg, 5);
        }
        assert!(manifest_text(Strategy::Static, FIG8, 40).is_err());
    }

    #[test]
    fn the_checked_in_manifest_is_the_generated_one_for_eight_tasks() {
        // bench/sensmart/trees.toml is what `cactus run` shows; the bench's own text for the
        // same settings must describe the same firmware.
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let file = Manifest::load(&root.join(MANIFEST)).unwrap();
        assert_eq!(file.tasks.len(), 9);
        assert_eq!(file.kernel.stack, StackStrategy::Relocate);
        assert!(file.tasks[1..].iter().all(|t| t.entry == "search_main"));
    }

    #[test]
    fn figure_7_shrinks_the_pool_as_the_trees_grow() {
        assert_eq!(Scenario::fig7(16).map(|s| s.pool_kib), Some(14));
        assert_eq!(Scenario::fig7(128), Some(FIG8));
        assert_eq!(Scenario::fig7(256), None);
        let small = pairs(Size::Small);
        assert_eq!(small.len(), Strategy::ALL.len());
        assert!(small.iter().all(|p| p.1 == FIG8));
        let full = pairs(Size::Full);
        assert_eq!(full.len(), 3 + Strategy::ALL.len());
    }

    #[test]
    fn reasons_name_files_inside_the_tree() {
        let root = Path::new("/work/x");
        assert_eq!(
            in_tree("build failed: /work/x/kernel/core/halt.c: k_panic", root),
            "build failed: kernel/core/halt.c: k_panic"
        );
    }

    #[test]
    fn growths_count_only_grown_overflows() {
        let o = |action| EventKind::Overflow {
            task: 1,
            sp: 0,
            requested: 16,
            action,
        };
        let events = [
            Event::at(1, 0, o(3)),
            Event::at(2, 0, o(0)),
            Event::at(3, 0, o(3)),
        ];
        assert_eq!(growths(&events), 2);
    }

    #[test]
    fn the_average_region_runs_while_every_search_task_is_live() {
        let assign = |owner, size| EventKind::RegionAssign {
            base: 0,
            size,
            owner,
        };
        let events = [
            Event::at(0, 0, assign(0, 512)),
            Event::at(0, 0, assign(1, 100)),
            Event::at(0, 0, assign(2, 100)),
            Event::at(10, 0, EventKind::TaskSwitch { task: 0 }),
            Event::at(20, 0, EventKind::TaskSwitch { task: 1 }),
            // 20..30: 100 + 100; 30..50: 200 + 60.
            Event::at(30, 0, assign(1, 200)),
            Event::at(30, 0, assign(2, 60)),
            Event::at(50, 0, EventKind::TaskExit { task: 1, reason: 0 }),
            Event::at(90, 0, assign(2, 4000)),
        ];
        // (10 * 200 + 20 * 260) / (30 * 2) = 120.
        assert_eq!(average_region(&events, 1, 2), Some(120));
        assert_eq!(average_region(&events[..3], 1, 2), None);
    }

    #[test]
    fn the_search_finds_the_largest_count_and_keeps_its_run() {
        let mut asked = Vec::new();
        let row = search_with(Strategy::Mtss, FIG8, "x", &mut |n| {
            asked.push(n);
            if n <= 7 {
                Ok(run(n))
            } else {
                Err(format!("{n} fail"))
            }
        });
        let t = row.trees.as_ref().unwrap();
        assert!(row.passed);
        assert_eq!(t.max_tasks, Some(7));
        assert_eq!(t.at_max().map(|r| r.checksum), Some(7));
        assert_eq!(t.probes.len(), asked.len());
        assert!(asked.len() <= 6, "{asked:?}");
        assert_eq!(t.first_failure().map(|f| f.0), Some(8));
    }

    #[test]
    fn a_scenario_where_nothing_runs_fails_with_the_reason() {
        let row = search_with(Strategy::Static, FIG8, "x", &mut |_| Err("halted".into()));
        assert!(!row.passed);
        let note = row.note.unwrap();
        assert!(
            note.contains("not even one") && note.contains("halted"),
            "{note}"
        );
        assert_eq!(row.trees.unwrap().max_tasks, Some(0));
    }
}
