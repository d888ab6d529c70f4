//! `cactus bench latency` at a reduced size on the real firmware: every run is measured,
//! the distributions are ordered (min <= median <= p99 <= max) and non-negative, the task
//! latency exceeds the handler latency, every wake-up is a task sample, the worst sample is
//! named by a function symbol with interrupts masked, the runs are deterministic for their
//! seed, and the report ends with the summary line. Skipped (with a message) only when
//! riscv64-unknown-elf-gcc is not installed.

use crate::support::{have_cross_gcc, repo_root};
use cactus_bench::latency::attribution::Region;
use cactus_bench::latency::report::{merge, Latency};
use cactus_bench::latency::{build, measure, points, LatencyOptions, Size, DEFAULT_SEED};
use cactus_sim::Profile;
use cactus_sweep::evaluation::Evaluation;

#[test]
fn small_runs_give_ordered_named_latencies() {
    if !have_cross_gcc() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let root = repo_root();
    let elf = build(&root, Some(out.path().to_path_buf())).unwrap();
    let options = LatencyOptions {
        elf: elf.clone(),
        size: Size {
            runs: 3,
            ticks: 300,
        },
        seed: DEFAULT_SEED,
        profile: Profile::builtin("mcu").unwrap(),
    };
    let rows: Vec<_> = points(&options)
        .iter()
        .map(|p| (p.work)(None, &cactus_sweep::Progress::hidden()))
        .collect();
    assert_eq!(rows.len(), 3);
    for row in &rows {
        let r = row
            .result
            .as_ref()
            .unwrap_or_else(|e| panic!("run {}: {e}", row.run));
        assert_eq!(r.wakes, 300);
        assert_eq!(r.unpaired_wakes, 0, "every sleep spans exactly one tick");
        assert_eq!(r.task.samples(), 300, "every wake-up is a task sample");
        assert!(r.handler.samples() >= 300);
    }
    let m = merge(&rows);
    let h = m.handler.percentiles().unwrap();
    let t = m.task.percentiles().unwrap();
    for p in [h, t] {
        assert!(
            p.min <= p.median && p.median <= p.p99 && p.p99 <= p.max,
            "{p:?}"
        );
    }
    let entry = u64::from(Profile::builtin("mcu").unwrap().cycles().trap_entry);
    assert!(h.min >= entry, "a handler starts after trap entry: {h:?}");
    assert!(
        t.min > h.min && t.max > h.max,
        "the task comes after the handler"
    );
    assert!(
        h.max > h.median,
        "some interrupt waited for a masked region: {h:?}"
    );
    let worst = &m.worst_handler[0];
    assert_eq!(worst.handler, h.max);
    assert_ne!(worst.region, Region::Enabled, "{worst:?}");
    let function = worst.pending_at.split('+').next().unwrap();
    assert!(
        !function.is_empty() && !function.starts_with("0x"),
        "named by a symbol: {worst:?}"
    );
    // Deterministic: the same seed gives the same run.
    let bytes = std::fs::read(&elf).unwrap();
    let again = measure(&bytes, rows[0].seed, 300, &options.profile).unwrap();
    assert_eq!(&again, rows[0].result.as_ref().unwrap());
    let report = Latency::render(&rows, &cactus_sweep::Meta::default());
    let line = report.summary_line();
    assert!(
        line.starts_with(&format!(
            "latency: handler_p99_cycles={} handler_max_cycles={} task_p99_cycles={} \
             task_max_cycles={} ",
            h.p99, h.max, t.p99, t.max
        )) && line.ends_with(" passed=3 failed=0"),
        "{line}"
    );
    assert!(report.tables.contains(&format!("`{}`", worst.pending_at)));
    eprintln!("{}\n{}\n{line}", report.tables, report.reading);
}
