//! `cactus bench segmented` pieces on real firmware at `--size small`: the overhead scenario
//! measures its links, frame and heap growth (and so the bytes per stacklet), and the
//! CoreMark-like contiguous and optimized configurations pass with iterations, the worker's
//! cycles and high water. (The whole small sweep, thirteen builds, is `cactus bench segmented
//! --size small`: docs/results/segmented.md.) Skipped (with a message) only when
//! riscv64-unknown-elf-gcc is not installed.

use crate::support::{have_cross_gcc, repo_root};
use cactus_bench::segmented::{
    build_of, measure, Config, Experiment, SegmentedOptions, Size, STACKLET_META, WORKER,
};

#[test]
fn overhead_and_coremark_points_measure_on_real_firmware() {
    if !have_cross_gcc() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let options = SegmentedOptions {
        root: repo_root(),
        size: Size::Small,
        // Empty reserves: library calls are checked against the blind margin.
        reserves: Default::default(),
        build_dir: Some(out.path().to_path_buf()),
    };
    let run = |e: Experiment| {
        let b = build_of(&options, &e);
        measure(&b, &options.reserves, options.build_dir.clone())
            .unwrap_or_else(|err| panic!("{}: {err}", e.name()))
    };
    let o = run(Experiment::Overhead).overhead.unwrap();
    assert!(o.links >= 8 && o.frame >= 16 && o.frame % 16 == 0, "{o:?}");
    // Every link holds its frame plus the same few bytes: metadata and alignment padding.
    let per = o.per_stacklet().unwrap();
    assert!(per >= f64::from(STACKLET_META) && per < 32.0, "{o:?}");
    assert_eq!(o.metadata(), Some(f64::from(STACKLET_META)), "{o:?}");
    let contiguous = run(Experiment::Coremark {
        config: Config::Contiguous,
    });
    let optimized = run(Experiment::Coremark {
        config: Config::Optimized,
    });
    for r in [&contiguous, &optimized] {
        assert_eq!(r.iterations, 4, "{r:?}");
        let w = r.task(WORKER).unwrap();
        assert!(w.cycles > 0 && w.hwm.is_some(), "{r:?}");
        assert!(r.per_mcycle().unwrap() > 0.0);
    }
    assert_eq!(contiguous.heap_peak, None);
    assert!(
        optimized.heap_peak.unwrap() > 0 && optimized.links > 0,
        "{optimized:?}"
    );
}
