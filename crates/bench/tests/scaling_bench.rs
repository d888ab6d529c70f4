//! `cactus bench scaling` at `--size small` on real firmware for two task counts: both rows
//! are measured, every operation has samples and positive costs, every measured request
//! moved its frame, and the report ends with the summary line. Skipped (with a message) only
//! when riscv64-unknown-elf-gcc is not installed.

use crate::support::{have_cross_gcc, repo_root};
use cactus_bench::scaling::events::Op;
use cactus_bench::scaling::report::Scaling;
use cactus_bench::scaling::{points, ScalingOptions, SAMPLES_SMALL};
use cactus_sim::Profile;
use cactus_sweep::evaluation::Evaluation;

#[test]
fn small_bench_measures_every_operation_at_two_task_counts() {
    if !have_cross_gcc() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let options = ScalingOptions {
        root: repo_root(),
        tasks: vec![4, 16],
        samples: SAMPLES_SMALL,
        // Empty reserves: library calls are checked against the blind margin (the command
        // uses the toolchain's measured reserves; the measured paths are the same).
        reserves: Default::default(),
        profile: Profile::builtin("mcu").unwrap(),
        out_dir: Some(out.path().to_path_buf()),
    };
    let rows: Vec<_> = points(&options)
        .iter()
        .map(|p| (p.work)(None, &cactus_sweep::Progress::hidden()))
        .collect();
    assert_eq!(rows.len(), 2);
    for row in &rows {
        let costs = row
            .costs
            .as_ref()
            .unwrap_or_else(|e| panic!("{} tasks: {e}", row.tasks));
        assert_eq!(costs.tasks as usize, row.tasks);
        assert_eq!(costs.moved, costs.requested);
        assert_eq!(costs.requested, SAMPLES_SMALL);
        assert_eq!(costs.ops.len(), Op::ALL.len());
        for (op, samples, spread) in &costs.ops {
            assert!(
                *samples > 0,
                "{} tasks: no {} samples",
                row.tasks,
                op.name()
            );
            assert!(spread.min > 0, "{} tasks: {} costs 0", row.tasks, op.name());
            assert!(spread.min as f64 <= spread.avg && spread.avg <= spread.max as f64);
        }
    }
    let report = Scaling::render(
        &rows,
        &cactus_sweep::Meta::current("scaling", Default::default()),
    );
    assert_eq!(report.failed, 0);
    let line = report.summary_line();
    assert!(line.starts_with("scaling: switch_growth_pct="), "{line}");
    assert!(line.ends_with("passed=2 failed=0"), "{line}");
}
