use super::search::stack_bytes;
use super::*;
use cactus_sweep::{Evaluation, Meta};

fn reference() -> Reference {
    Reference {
        manifest: "demo.toml".into(),
        stack: "static".into(),
        tasks: vec!["a".into(), "b".into()],
        budgets: vec![1024, 512],
        high_water: vec![Some(300), Some(100)],
        cycles: 1000,
        static_bound: vec![Some(400), Some(200)],
    }
}

fn row(key: &str, strategy: &str, bytes: Option<u32>, cycles: Option<u64>) -> StrategyAdvice {
    StrategyAdvice {
        strategy: strategy.into(),
        key: key.into(),
        heap_bytes: 0,
        page_bytes: None,
        probes: vec![],
        shrink: bytes.map(|_| 50),
        budgets: bytes.map(|b| vec![b - 128, 128]),
        stack_bytes: bytes,
        cycles,
        error: bytes
            .is_none()
            .then(|| "fails at the manifest's budgets".into()),
        complete: true,
    }
}

#[test]
fn stack_bytes_follow_each_strategys_accounting() {
    assert_eq!(stack_bytes(StackStrategy::Static, &[336, 144], 128), 480);
    // MTSS regions are whole pages.
    assert_eq!(
        stack_bytes(StackStrategy::Mtss, &[336, 144], 128),
        384 + 256
    );
}

#[test]
fn default_heaps_are_an_eighth_and_a_quarter_of_the_budgets_in_pages() {
    assert_eq!(default_heaps(2560, 128), vec![384, 640]);
    assert_eq!(default_heaps(100, 128), vec![128], "at least a page, once");
}

#[test]
fn reference_totals_need_every_task() {
    let mut r = reference();
    assert_eq!(r.high_water_total(), Some(400));
    assert_eq!(r.static_bound_total(), Some(600));
    r.static_bound[1] = None;
    assert_eq!(r.static_bound_total(), None, "one unbounded task: no total");
    r.static_bound.clear();
    assert_eq!(r.static_bound_total(), None, "not analysed");
}

#[test]
fn the_summary_names_the_smallest_answer_and_the_references() {
    let rows = vec![
        row("static", "static", Some(512), Some(1100)),
        row("mtss", "mtss", Some(384), Some(1300)),
        row("mtss+split heap 1024", "mtss+split", None, None),
    ];
    let meta = Meta::current(
        "advise",
        serde_json::json!({ "reference": reference(), "seeds": 4, "jitter_cycles": 2000 }),
    );
    let report = Advise::render(&rows, &meta);
    assert_eq!(
        report.summary_line(),
        "advise: static_bytes=512 mtss_bytes=384 mtss_split_bytes=- best=mtss best_bytes=384 \
         high_water_bytes=400 static_bound_bytes=600 passed=2 failed=1"
    );
    assert!(report.tables.contains("+30.00 %"), "{}", report.tables);
    assert!(report.tables.contains("a 256, b 128"), "{}", report.tables);
    assert!(report.tables.contains("No answer"), "{}", report.tables);
    assert!(report.note.contains("4 seeds"), "{}", report.note);
}

#[test]
fn the_plot_is_an_svg_with_a_bar_per_answer_and_the_reference_lines() {
    let rows = vec![
        row("static", "static", Some(512), Some(1100)),
        row("mtss", "mtss", Some(384), Some(1300)),
        row("mtss+split heap 1024", "mtss+split", None, None),
    ];
    let svg = plot_svg(&rows, &reference()).unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..80.min(svg.len())]);
    for text in [
        "static",
        "mtss",
        "(no answer)",
        "measured high water: 400 bytes",
        "static bound: 600 bytes",
        "manifest budgets: 1536 bytes",
    ] {
        assert!(svg.contains(text), "{text} missing");
    }
}

#[test]
fn a_plot_of_one_row_has_one_bar() {
    let svg = plot_svg(&[row("static", "static", Some(512), Some(1))], &reference()).unwrap();
    assert!(svg.contains("static"), "{svg}");
}

#[test]
fn seed_zero_is_on_time_and_the_others_are_late() {
    let s = Seeds {
        count: 3,
        jitter_cycles: 500,
    };
    assert_eq!(s.jitter(0), None);
    assert_eq!(s.jitter(2).map(|j| (j.seed, j.max_cycles)), Some((2, 500)));
}
