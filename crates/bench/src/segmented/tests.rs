//! Host tests of the pure parts: the points, the trace figures, the tables and the summary.

use super::points::{build_of, experiments, WORKER};
use super::*;
use crate::Size;
use cactus_sim::{Event, EventKind};

fn task(name: &str, stack: u32, budget: u32, hwm: u32) -> TaskStack {
    TaskStack {
        name: name.into(),
        stack,
        budget,
        hwm: Some(hwm),
        cycles: 0,
    }
}

fn run(active: u64, iterations: u64, links: u64, worker_hwm: u32, peak: Option<u32>) -> Run {
    Run {
        cycles: active + 1000,
        active_cycles: active,
        instructions: active / 2,
        iterations,
        links,
        heap_peak: peak,
        tasks: vec![
            TaskStack {
                cycles: active - active / 10,
                ..task(WORKER, 256, 912, worker_hwm)
            },
            task("feeder", 448, 448, 200),
            task("coordinator", 576, 576, 300),
        ],
        core_live_peak: None,
        core_peak_at: None,
        overhead: None,
    }
}

fn row(experiment: Experiment, run: Result<Run, String>) -> PointResult {
    PointResult {
        experiment,
        manifest: "m.toml".into(),
        allocated_core_bytes: None,
        run,
    }
}

fn cm(config: Config, r: Result<Run, String>) -> PointResult {
    row(Experiment::Coremark { config }, r)
}

fn crazyflie(first: Option<u32>, peak: Option<u32>) -> PointResult {
    let tasks = CORE_TASKS
        .iter()
        .enumerate()
        .map(|(i, n)| task(n, first.unwrap_or(700), 700, 100 + 10 * i as u32))
        .collect();
    PointResult {
        experiment: Experiment::Crazyflie {
            first,
            learn: first.is_some(),
        },
        manifest: "cf.toml".into(),
        allocated_core_bytes: Some(Ok(9600)),
        run: Ok(Run {
            tasks,
            core_live_peak: peak,
            core_peak_at: peak.map(|bytes| LivePeak {
                bytes,
                cycle: 1234,
                tasks: vec![HeldAtPeak {
                    task: 1,
                    name: "sensors".into(),
                    stacklets: 3,
                    bytes,
                    largest: 224,
                    state: TaskState::Preempted,
                    blocked_max: 96,
                }],
            }),
            ..run(1000, 8, 0, 0, None)
        }),
    }
}

fn overhead() -> PointResult {
    row(
        Experiment::Overhead,
        Ok(Run {
            overhead: Some(Overhead {
                links: 17,
                heap_growth: 17 * 64,
                frame: 48,
                region_bytes: 17 * 52,
            }),
            ..run(500, 0, 17, 0, Some(1200))
        }),
    )
}

fn report() -> Vec<PointResult> {
    vec![
        cm(Config::Contiguous, Ok(run(1_000_000, 400, 0, 468, None))),
        cm(
            Config::CheckOnly,
            Ok(run(1_010_000, 400, 0, 500, Some(2000))),
        ),
        cm(Config::Naive, Err("exit code 3: overflow caught".into())),
        cm(
            Config::Optimized,
            Ok(run(1_020_000, 400, 12, 920, Some(1800))),
        ),
        cm(
            Config::HardwareBound,
            Ok(run(1_010_000, 400, 12, 920, Some(1800))),
        ),
        row(
            Experiment::HotSplit {
                first: 64,
                cache: false,
                learn: false,
            },
            Ok(run(2_000_000, 400, 5000, 600, Some(1500))),
        ),
        crazyflie(None, None),
        crazyflie(Some(64), Some(448)),
        overhead(),
    ]
}

#[test]
fn the_summary_has_the_four_headline_figures() {
    let rows = report();
    // 400 / 1.02 M against 400 / 1.0 M.
    let pct = table::coremark_pct(&rows).unwrap();
    assert!((pct - 100.0 / 1.02).abs() < 1e-9, "{pct}");
    assert_eq!(
        summary(&rows, None).line(),
        "segmented: coremark_pct=98.0 stacklet_bytes=16 crazyflie_peak_bytes=448 \
         hybrid_prs_pct=n/a"
    );
    // With a hybrid PRS store read (its figures in the parameters), the figure is its mean.
    let h = serde_json::json!({ "store": "p.json", "stacklet_pool": 1024, "prs_hw_pct": 31.4,
                                "workloads": 6, "failed": 0 });
    assert!(summary(&rows, Some(&h))
        .line()
        .ends_with("hybrid_prs_pct=31.4"));
    let md = markdown(&rows, Some(&h));
    assert!(md.contains("**31.4 %** on average over 6 workloads"));
    assert!(
        md.contains(
            "| 64 | on | 1234 | sensors | preempted by an interrupt | 3 | 224 | 448 | 36 | 96 |"
        ),
        "{md}"
    );
    assert_eq!(cactus_sweep::evaluation::verdicts(&rows), (8, 1));
}

#[test]
fn missing_figures_are_dashes_never_numbers() {
    let rows = vec![cm(Config::Optimized, Err("build failed".into()))];
    assert_eq!(
        summary(&rows, None).line(),
        "segmented: coremark_pct=- stacklet_bytes=- crazyflie_peak_bytes=- hybrid_prs_pct=n/a"
    );
}

#[test]
fn overhead_splits_into_metadata_and_padding() {
    let o = Overhead {
        links: 4,
        heap_growth: 4 * 64,
        frame: 48,
        region_bytes: 4 * 52,
    };
    assert_eq!(o.per_stacklet(), Some(16.0));
    assert_eq!(o.metadata(), Some(12.0));
    let none = Overhead { links: 0, ..o };
    assert_eq!(none.per_stacklet(), None);
}

#[test]
fn the_markdown_puts_the_paper_beside_ours() {
    let md = markdown(&report(), None);
    assert!(
        md.contains("| contiguous | 400 | 900000 | 444.44 | 100.0 % | 1000000 | 400.00 | 0 | 379 | 100.0 % |"),
        "{md}"
    );
    assert!(md.contains(
        "| optimized | 400 | 918000 | 435.73 | 98.0 % | 1020000 | 392.16 | 12 | 357 | 94.2 % |"
    ));
    assert!(md.contains("| naive | failed | - | - | - | - | - | - | 147 | 38.8 % |"));
    assert!(
        md.contains(
            "| hardware-bound | 400 | 909000 | 440.04 | 99.0 % | 1010000 | 396.04 | 12 | - | - |"
        ),
        "{md}"
    );
    assert!(md.contains("| check-only, hardware-bound | failed | - | - | - | - | - | - | - | - |"));
    assert!(md.contains("| optimized | 256 | 920 | 1.97x | 912 | 1420 | 1800 | 1936 | 920 |"));
    assert!(md.contains("| overhead.toml | 17 | 1088 | 48 | 884 | 16 | 12 | 60 / 12 |"));
    assert!(md.contains("| 64 | 1800000 | 5000 | 50.0 % |"), "{md}");
    assert!(
        md.contains("| stabilizer | 384 | 3600 | 700 | 100 | 100 |"),
        "{md}"
    );
    assert!(
        md.contains("| *Sum* | 1076 | 9600 | 2800 | 460 | 460 |"),
        "{md}"
    );
    assert!(md.contains(
        "| segmented, first stacklets 64 B, learning on: peak of the summed live stacklets | 448 | \
         4.7 % | ~500 |"
    ));
    assert!(md.contains("- coremark naive: exit code 3: overflow caught"));
    assert!(md.contains("hybrid") && md.contains("`n/a`"));
}

#[test]
fn the_json_round_trips() {
    let rows = report();
    let text = serde_json::to_string(&rows).unwrap();
    let back: Vec<PointResult> = serde_json::from_str(&text).unwrap();
    assert_eq!(back, rows);
}

fn ev(kind: EventKind) -> Event {
    Event {
        cycle: 0,
        instret: 0,
        pc: 0,
        kind,
    }
}

#[test]
fn the_core_live_peak_follows_assigned_and_released_regions() {
    let assign = |base, size, owner| ev(EventKind::RegionAssign { base, size, owner });
    let release = |base, size| ev(EventKind::RegionRelease { base, size });
    let events = vec![
        assign(0x100, 52, 0),  // task 0's first stacklet: 64
        assign(0x200, 116, 9), // not a core task
        assign(0x300, 52, 1),  // task 1: 128 in all
        assign(0x400, 100, 0), // linked: 240
        release(0x400, 100),   // 128
        assign(0x500, 20, 1),  // 160
        release(0x200, 116),
    ];
    assert_eq!(core_live_peak(&events, &[0, 1]), 240);
    assert_eq!(core_live_peak(&events, &[9]), 128);
}

#[test]
fn the_live_peak_says_what_each_task_held_and_did() {
    let assign = |base, size, owner| ev(EventKind::RegionAssign { base, size, owner });
    let release = |base, size| ev(EventKind::RegionRelease { base, size });
    let switch = |task| ev(EventKind::TaskSwitch { task });
    let events = vec![
        assign(0x100, 52, 0), // first stacklets: 64 each
        assign(0x200, 52, 1),
        assign(0x300, 52, 2),
        switch(1),
        assign(0x400, 100, 1), // task 1 deep: 176
        ev(EventKind::Trap {
            cause: 0x8000_0007,
            tval: 0,
        }),
        switch(0), // task 1 preempted by the tick
        ev(EventKind::Mret { target: 0 }),
        assign(0x500, 68, 0), // task 0 deep: 80, the peak (64 + 176 + 64 + 80 = 384)
        release(0x500, 68),
        switch(2), // task 0 blocked in a kernel call
        assign(0x600, 20, 2),
    ];
    let p = live_peak(&events, &[0, 1, 2]);
    assert_eq!((p.bytes, p.tasks.len()), (384, 3));
    let t = |i: usize| {
        (
            p.tasks[i].stacklets,
            p.tasks[i].bytes,
            p.tasks[i].largest,
            p.tasks[i].state,
        )
    };
    assert_eq!(t(0), (2, 144, 80, TaskState::Running));
    assert_eq!(t(1), (2, 176, 112, TaskState::Preempted));
    assert_eq!(t(2), (1, 64, 64, TaskState::NotStarted));
    // Task 0 blocked holding its first stacklet only; the others never blocked.
    let blocked: Vec<u32> = p.tasks.iter().map(|h| h.blocked_max).collect();
    assert_eq!(blocked, [64, 0, 0]);
    // After the peak task 0 is switched out in a kernel call (no interrupt): not at the peak.
    assert_eq!(core_live_peak(&events, &[0, 1, 2]), 384);
}

#[test]
fn the_overhead_counts_the_links_between_the_markers() {
    let overflow = |task| {
        ev(EventKind::Overflow {
            task,
            sp: 0,
            requested: 48,
            action: 3,
        })
    };
    let assign = |owner| {
        ev(EventKind::RegionAssign {
            base: 0,
            size: 52,
            owner,
        })
    };
    let events = vec![
        assign(0),
        overflow(0),
        ev(EventKind::Marker { id: 3, value: 48 }),
        ev(EventKind::Marker { id: 1, value: 64 }),
        overflow(0),
        assign(0),
        overflow(1),
        overflow(0),
        assign(0),
        ev(EventKind::Marker { id: 2, value: 128 }),
        overflow(0),
    ];
    let o = overhead_of(&events, 0).unwrap();
    assert_eq!(
        o,
        Overhead {
            links: 2,
            heap_growth: 128,
            frame: 48,
            region_bytes: 104
        }
    );
    assert_eq!(o.frame_bytes(), 96);
    assert!(overhead_of(&events[4..], 0).unwrap_err().contains("frame"));
    let no_start: Vec<Event> = events
        .iter()
        .filter(|e| !matches!(e.kind, EventKind::Marker { id: 1, .. }))
        .cloned()
        .collect();
    assert!(overhead_of(&no_start, 0).unwrap_err().contains("start"));
}

#[test]
fn every_size_has_every_table_and_builds_as_documented() {
    let small = experiments(Size::Small);
    assert_eq!(small.len(), 6 + 3 * 2 + 1 + 2 + 1);
    assert_eq!(experiments(Size::Full).len(), 6 + 12 * 4 + 1 + 3 * 2 + 1);
    let o = SegmentedOptions {
        root: "".into(),
        size: Size::Small,
        reserves: Default::default(),
        build_dir: None,
    };
    let naive = build_of(
        &o,
        &Experiment::Coremark {
            config: Config::Naive,
        },
    );
    assert_eq!(
        (naive.stack, naive.checks, naive.rolling),
        ("segmented", "split", cactus_cc::RollingRules::NONE)
    );
    assert_eq!(naive.first, [(WORKER.to_string(), 64)]);
    assert_eq!(
        (naive.stacklet_min, naive.cache, naive.learn),
        (Some(64), Some(false), Some(false))
    );
    assert_eq!(
        naive.manifest,
        std::path::Path::new("workloads/coremark-like/coremark-single-small.toml")
    );
    let bound = build_of(
        &o,
        &Experiment::Coremark {
            config: Config::HardwareBound,
        },
    );
    let optimized = build_of(
        &o,
        &Experiment::Coremark {
            config: Config::Optimized,
        },
    );
    assert!(bound.stack_bound && !optimized.stack_bound);
    assert_eq!(
        Build {
            stack_bound: false,
            ..bound
        },
        optimized
    );
    let check = build_of(
        &o,
        &Experiment::Coremark {
            config: Config::CheckOnly,
        },
    );
    assert!(check.first.is_empty() && check.cache.is_none());
    for learn in [false, true] {
        let cf = build_of(
            &o,
            &Experiment::Crazyflie {
                first: Some(64),
                learn,
            },
        );
        assert!(cf.core_live && cf.first.len() == 4);
        assert_eq!((cf.cache, cf.learn), (Some(false), Some(learn)));
    }
    let contiguous = build_of(
        &o,
        &Experiment::Crazyflie {
            first: None,
            learn: false,
        },
    );
    assert_eq!((contiguous.stack, contiguous.checks), ("static", "none"));
}
