//! Manifest validation: every error names the file, the line, the key and the problem.

use super::*;
use std::fs;

/// A manifest file in a fresh directory holding `a.c` and `b.c`.
struct Fixture {
    dir: tempfile::TempDir,
}

impl Fixture {
    fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        fs::write(
            dir.path().join("a.c"),
            "void fa(void *arg) { (void)arg; }\n",
        )
        .unwrap();
        fs::write(
            dir.path().join("b.c"),
            "void fb(void *arg) { (void)arg; }\n",
        )
        .unwrap();
        fs::create_dir(dir.path().join("inc")).unwrap();
        Fixture { dir }
    }

    fn parse(&self, text: &str) -> Result<Manifest, ManifestError> {
        let path = self.dir.path().join("m.toml");
        fs::write(&path, text).unwrap();
        Manifest::load(&path)
    }

    /// The error's (line, key, problem); panics if the manifest is valid.
    fn error(&self, text: &str) -> (Option<usize>, String, String) {
        match self.parse(text) {
            Err(ManifestError::Invalid {
                file,
                line,
                key,
                problem,
            }) => {
                assert!(file.ends_with("m.toml"), "error names the file: {file}");
                (line, key, problem)
            }
            other => panic!("expected a validation error, got {other:?}"),
        }
    }
}

const GOOD: &str = r#"[firmware]
name = "fw"
cflags = ["-DX=1"]
include = ["inc"]

[kernel]
stack = "static"
tick_hz = 1000
slice_ticks = 2
target = "qemu"

[[task]]
name = "a"
sources = ["a.c"]
entry = "fa"
priority = 5
stack = 500
period_ms = 10
deadline_ms = 5
start_delay_ms = 3
on_fault = "restart"
arg = -1

[[task]]
name = "b"
sources = ["b.c"]
entry = "fb"
priority = 31
stack = 1024
"#;

#[test]
fn a_full_manifest_parses_with_every_value() {
    let f = Fixture::new();
    let m = f.parse(GOOD).unwrap();
    assert_eq!(m.name, "fw");
    assert_eq!(m.cflags, ["-DX=1"]);
    assert_eq!(m.include, [f.dir.path().join("inc")]);
    assert_eq!(m.kernel.stack, StackStrategy::Static);
    assert_eq!(m.kernel.target, Target::Qemu);
    assert_eq!((m.kernel.tick_hz, m.kernel.slice_ticks), (1000, 2));
    let a = &m.tasks[0];
    assert_eq!(a.sources, [f.dir.path().join("a.c")]);
    assert_eq!(
        (a.priority, a.stack),
        (5, 512),
        "stacks round up to 16 bytes"
    );
    assert_eq!(
        (a.period_ms, a.deadline_ms, a.start_delay_ms),
        (Some(10), Some(5), 3)
    );
    assert_eq!((a.on_fault, a.arg), (FaultPolicy::Restart, -1));
    let b = &m.tasks[1];
    assert_eq!(
        (b.period_ms, b.on_fault, b.start_delay_ms),
        (None, FaultPolicy::Kill, 0)
    );
}

#[test]
fn defaults_fill_an_absent_kernel_table() {
    let f = Fixture::new();
    let text = "[firmware]\nname = \"fw\"\n[[task]]\nname = \"a\"\nsources = [\"a.c\"]\n\
                entry = \"fa\"\npriority = 1\nstack = 256\n";
    let m = f.parse(text).unwrap();
    assert_eq!(
        m.kernel,
        KernelOptions {
            stack: StackStrategy::Static,
            tick_hz: 1000,
            slice_ticks: 1,
            target: Target::Sim,
            pool_kib: None,
            ram_kib: None,
            kstack: None,
            checks: Default::default(),
            mtss_page: None,
            mtss_worst_case: false,
            stacklet_min: None,
            stacklet_cache: None,
            stacklet_learn: None,
            stacklet_pool: None,
            stack_bound: false,
            switch_check: true,
            variants: Vec::new(),
            preempt_traps: None,
            switch: Default::default(),
            switch_poison: None,
            switch_mutate: None,
            switch_budget: None,
            reg_pool: None,
            isolate: false,
            window: Default::default(),
            copier: None,
        }
    );
}

#[test]
fn an_unknown_key_names_its_line_and_path() {
    let f = Fixture::new();
    let text = GOOD.replace("priority = 31", "priority = 31\nprioity = 4");
    let (line, key, problem) = f.error(&text);
    assert_eq!(line, Some(29));
    assert_eq!(key, "task[1].prioity");
    assert!(problem.contains("unknown field `prioity`"), "{problem}");
}

#[test]
fn a_missing_entry_names_the_task() {
    let f = Fixture::new();
    let (line, key, problem) = f.error(&GOOD.replace("entry = \"fb\"\n", ""));
    assert_eq!((line, key.as_str()), (Some(24), "task[1]"));
    assert!(problem.contains("missing field `entry`"), "{problem}");
}

#[test]
fn a_priority_out_of_range_is_refused() {
    let f = Fixture::new();
    let (line, key, problem) = f.error(&GOOD.replace("priority = 31", "priority = 32"));
    assert_eq!((line, key.as_str()), (Some(28), "task[1].priority"));
    assert_eq!(problem, "32 is out of range (0..=31)");
    let (_, key, problem) = f.error(&GOOD.replace("priority = 31", "priority = \"high\""));
    assert_eq!(key, "task[1].priority");
    assert!(problem.contains("invalid type"), "{problem}");
}

#[test]
fn an_unknown_strategy_lists_the_known_ones() {
    let f = Fixture::new();
    let (line, key, problem) = f.error(&GOOD.replace("\"static\"", "\"heapless\""));
    assert_eq!((line, key.as_str()), (Some(7), "kernel.stack"));
    assert_eq!(
        problem,
        "unknown stack strategy \"heapless\"; known strategies: \"static\", \"mtss\", \"chunks\", \"segmented\", \"mtss+split\", \"relocate\""
    );
}

#[test]
fn the_mtss_strategy_needs_mtss_checks() {
    let f = Fixture::new();
    let mtss = GOOD.replace("\"static\"", "\"mtss\"");
    // No checks key: the error names kernel.checks at the strategy's line.
    let (line, key, problem) = f.error(&mtss);
    assert_eq!((line, key.as_str()), (Some(7), "kernel.checks"));
    assert!(problem.contains("needs checks = \"mtss\""), "{problem}");
    assert!(problem.contains("not \"none\""), "{problem}");
    // A wrong checks value: named at its own line.
    let detect = mtss.replace(
        "target = \"qemu\"",
        "target = \"qemu\"\nchecks = \"detect\"",
    );
    let (line, key, problem) = f.error(&detect);
    assert_eq!((line, key.as_str()), (Some(11), "kernel.checks"));
    assert!(problem.contains("not \"detect\""), "{problem}");
    let m = f
        .parse(&mtss.replace("target = \"qemu\"", "target = \"qemu\"\nchecks = \"mtss\""))
        .unwrap();
    assert_eq!(m.kernel.stack, StackStrategy::Mtss);
    assert_eq!(m.kernel.checks, CheckMode::Mtss);
    assert_eq!(m.kernel.usable_pool_bytes(), 48 * 1024 - 128);
    // mtss regions are whole pages: these budgets fit static's 49088 bytes, not mtss's pages.
    let tight = GOOD.replace("stack = 1024", "stack = 48576");
    f.parse(&tight).unwrap();
    let (_, key, problem) = f.error(
        &tight
            .replace("target = \"qemu\"", "target = \"qemu\"\nchecks = \"mtss\"")
            .replace("\"static\"", "\"mtss\""),
    );
    assert_eq!(key, "task");
    assert!(
        problem
            .starts_with("the task stacks total 49152 bytes; the mtss strategy's pool holds 49024"),
        "{problem}"
    );
}

#[test]
fn overriding_the_strategy_to_mtss_needs_mtss_checks() {
    let f = Fixture::new();
    let mut m = f.parse(GOOD).unwrap();
    let mut implied = m.clone();
    implied
        .apply(&Overrides {
            stack: Some("mtss".into()),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(
        implied.kernel.checks,
        CheckMode::Mtss,
        "--stack mtss alone implies --checks mtss"
    );
    let err = m
        .apply(&Overrides {
            stack: Some("mtss".into()),
            target: None,
            checks: Some("detect".into()),
            ..Default::default()
        })
        .unwrap_err();
    assert!(err.to_string().starts_with("--checks: "), "{err}");
    m.apply(&Overrides {
        stack: Some("mtss".into()),
        target: None,
        checks: Some("mtss".into()),
        ..Default::default()
    })
    .unwrap();
    assert_eq!(
        (m.kernel.stack, m.kernel.checks),
        (StackStrategy::Mtss, CheckMode::Mtss)
    );
}

#[test]
fn a_missing_source_file_is_named() {
    let f = Fixture::new();
    let (line, key, problem) = f.error(&GOOD.replace("\"b.c\"", "\"nope.c\""));
    assert_eq!((line, key.as_str()), (Some(26), "task[1].sources[0]"));
    assert!(
        problem.starts_with("no such file: ") && problem.ends_with("nope.c"),
        "{problem}"
    );
}

#[test]
fn time_values_must_be_whole_ticks_and_consistent() {
    let f = Fixture::new();
    let (_, key, problem) = f.error(&GOOD.replace("deadline_ms = 5", "deadline_ms = 11"));
    assert_eq!(key, "task[0].deadline_ms");
    assert_eq!(problem, "11 ms is longer than the period (10 ms)");
    let (_, key, problem) = f.error(
        &GOOD
            .replace("tick_hz = 1000", "tick_hz = 100")
            .replace("period_ms = 10", "period_ms = 15"),
    );
    assert_eq!(key, "task[0].period_ms");
    assert_eq!(
        problem,
        "15 ms is not a whole number of ticks at tick_hz = 100"
    );
    let (_, key, _) = f.error(&GOOD.replace("tick_hz = 1000", "tick_hz = 3"));
    assert_eq!(key, "kernel.tick_hz");
    let (_, key, problem) = f.error(
        &GOOD
            .replace("start_delay_ms = 3\n", "")
            .replace("priority = 31", "priority = 31\ndeadline_ms = 1"),
    );
    assert_eq!(key, "task[1].deadline_ms");
    assert!(
        problem.starts_with("a deadline needs a period_ms"),
        "{problem}"
    );
}

#[test]
fn names_targets_and_policies_are_checked() {
    let f = Fixture::new();
    let (_, key, problem) = f.error(&GOOD.replace("name = \"b\"", "name = \"A\""));
    assert_eq!(key, "task[1].name");
    assert!(problem.contains("used twice"), "{problem}");
    let (_, key, _) = f.error(&GOOD.replace("name = \"b\"", "name = \"two words\""));
    assert_eq!(key, "task[1].name");
    let (_, key, problem) = f.error(&GOOD.replace("\"qemu\"", "\"fpga\""));
    assert_eq!(
        (key.as_str(), problem.as_str()),
        (
            "kernel.target",
            "unknown target \"fpga\"; known targets: \"sim\", \"qemu\""
        )
    );
    let (_, key, _) = f.error(&GOOD.replace("\"restart\"", "\"ignore\""));
    assert_eq!(key, "task[0].on_fault");
    let (_, key, _) = f.error(&GOOD.replace("include = [\"inc\"]", "include = [\"nodir\"]"));
    assert_eq!(key, "firmware.include[0]");
}

#[test]
fn a_shared_source_needs_the_same_flags_in_every_task() {
    let f = Fixture::new();
    let shared = GOOD.replace("\"b.c\"", "\"a.c\"");
    assert!(f.parse(&shared).is_ok(), "same flags: compiled once");
    let (line, key, problem) =
        f.error(&shared.replace("stack = 1024", "stack = 1024\ncflags = [\"-O3\"]"));
    assert_eq!((line, key.as_str()), (Some(26), "task[1].sources[0]"));
    assert!(
        problem.contains("is also a source of task \"a\""),
        "{problem}"
    );
}

#[test]
fn stacks_must_fit_the_pool_together() {
    let f = Fixture::new();
    let (line, key, problem) = f.error(&GOOD.replace("stack = 1024", "stack = 49000"));
    assert_eq!((line, key.as_str()), (None, "task"));
    assert_eq!(
        problem,
        "the task stacks total 49520 bytes; the static strategy's pool holds 49088 \
         (a larger pool: kernel.pool_kib)"
    );
}

#[test]
fn a_larger_pool_takes_larger_stacks_and_ram_is_checked() {
    let f = Fixture::new();
    let big = GOOD.replace("stack = 1024", "stack = 49000");
    let with = |extra: &str| big.replacen("[kernel]", &format!("[kernel]\n{extra}"), 1);
    let m = f.parse(&with("pool_kib = 64\nram_kib = 2048")).unwrap();
    assert_eq!(
        (m.kernel.pool_kib, m.kernel.ram_kib),
        (Some(64), Some(2048))
    );
    assert_eq!(m.kernel.usable_pool_bytes(), 64 * 1024 - 64);
    let (_, key, problem) = f.error(&with("pool_kib = 2"));
    assert_eq!(key, "kernel.pool_kib");
    assert!(problem.contains("out of range (4..=16384)"), "{problem}");
    let (_, key, _) = f.error(&with("pool_kib = 64\nram_kib = 100"));
    assert_eq!(key, "kernel.ram_kib");
}

#[test]
fn the_kernel_stack_is_a_link_option_in_multiples_of_16() {
    let f = Fixture::new();
    let with = |extra: &str| GOOD.replacen("[kernel]", &format!("[kernel]\n{extra}"), 1);
    let m = f.parse(GOOD).unwrap();
    assert_eq!(m.kernel.kstack, None);
    assert!(m.kernel.link_flags().is_empty(), "link.ld's default");
    let m = f.parse(&with("kstack = 768")).unwrap();
    assert_eq!(m.kernel.kstack, Some(768));
    assert_eq!(
        m.kernel.link_flags(),
        ["-Wl,--defsym=cactus_kstack_size=768"]
    );
    let (_, key, problem) = f.error(&with("kstack = 100"));
    assert_eq!(key, "kernel.kstack");
    assert!(problem.contains("out of range (256..=65536)"), "{problem}");
    let (_, key, problem) = f.error(&with("kstack = 1000"));
    assert_eq!(key, "kernel.kstack");
    assert!(problem.contains("not a multiple of 16"), "{problem}");
}

#[test]
fn overrides_are_validated_like_manifest_values() {
    let f = Fixture::new();
    let mut m = f.parse(GOOD).unwrap();
    m.apply(&Overrides {
        stack: None,
        target: Some("sim".into()),
        checks: None,
        ..Default::default()
    })
    .unwrap();
    assert_eq!(m.kernel.target, Target::Sim);
    let err = m
        .apply(&Overrides {
            stack: Some("heapless".into()),
            target: None,
            checks: None,
            ..Default::default()
        })
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "--stack: unknown stack strategy \"heapless\"; known strategies: \"static\", \"mtss\", \"chunks\", \"segmented\", \"mtss+split\", \"relocate\""
    );
}

#[test]
fn the_error_text_reads_file_line_key_problem() {
    let err = ManifestError::Invalid {
        file: "demo.toml".into(),
        line: Some(12),
        key: "task[1].priority".into(),
        problem: "40 is out of range (0..=31)".into(),
    };
    assert_eq!(
        err.to_string(),
        "demo.toml:12: `task[1].priority`: 40 is out of range (0..=31)"
    );
}

#[test]
fn shrink_and_page_overrides() {
    let f = Fixture::new();
    let mut m = f.parse(GOOD).unwrap();
    let before: Vec<u32> = m.tasks.iter().map(|t| t.stack).collect();
    let err = m
        .apply(&Overrides {
            mtss_page: Some(64),
            ..Default::default()
        })
        .unwrap_err();
    assert!(
        err.to_string().starts_with("--mtss-page: only the mtss"),
        "{err}"
    );
    let err = m
        .apply(&Overrides {
            stack: Some("mtss".into()),
            mtss_page: Some(96),
            ..Default::default()
        })
        .unwrap_err();
    assert!(err.to_string().contains("not a power of two"), "{err}");
    let err = m
        .apply(&Overrides {
            shrink: Some("99%".parse().unwrap()),
            ..Default::default()
        })
        .unwrap_err();
    assert!(err.to_string().starts_with("--shrink: "), "{err}");
    assert_eq!(m.kernel.stack, StackStrategy::Static, "refused: unchanged");
    m.apply(&Overrides {
        stack: Some("mtss".into()),
        mtss_page: Some(64),
        shrink: Some("40".parse().unwrap()),
        ..Default::default()
    })
    .unwrap();
    assert_eq!(m.kernel.page(), 64);
    assert_eq!(m.kernel.variant_defines(), ["-DCACTUS_MTSS_PAGE=64"]);
    for (t, b) in m.tasks.iter().zip(before) {
        assert_eq!(t.stack, crate::shrink_budget(b, 40));
        assert!(
            t.stack <= b * 60 / 100 && t.stack % 16 == 0,
            "{} from {b}",
            t.stack
        );
    }
}

#[test]
fn shrinking_rounds_down_to_16_and_keeps_the_floor() {
    assert_eq!(crate::shrink_budget(1000, 40), 592);
    assert_eq!(crate::shrink_budget(200, 90), 128);
    assert_eq!(crate::shrink_budget(100, 50), 100);
}

#[test]
fn the_chunks_strategy_needs_mtss_checks_and_reserves_one_chunk() {
    let f = Fixture::new();
    let chunks = GOOD.replace("\"static\"", "\"chunks\"");
    let (_, key, problem) = f.error(&chunks);
    assert_eq!(key, "kernel.checks");
    assert!(
        problem.contains("the chunks stack strategy needs checks = \"mtss\""),
        "{problem}"
    );
    let m = f
        .parse(&chunks.replace("target = \"qemu\"", "target = \"qemu\"\nchecks = \"mtss\""))
        .unwrap();
    assert_eq!(m.kernel.stack, StackStrategy::Chunks);
    assert_eq!(m.kernel.usable_pool_bytes(), 48 * 1024 - 64);
    assert_eq!(StackStrategy::Chunks.region_bytes(4096, 128), 256);
    assert!(StackStrategy::Chunks.moves_frames() && !StackStrategy::Static.moves_frames());
}

#[test]
fn shrinking_one_task_leaves_the_others() {
    let f = Fixture::new();
    let mut m = f.parse(GOOD).unwrap();
    let name = m.tasks[0].name.clone();
    let before: Vec<u32> = m.tasks.iter().map(|t| t.stack).collect();
    let err = m
        .apply(&Overrides {
            shrink: Some("nosuch=10%".parse().unwrap()),
            ..Default::default()
        })
        .unwrap_err();
    assert!(err.to_string().contains("no task \"nosuch\""), "{err}");
    m.apply(&Overrides {
        shrink: Some(format!("{name}=50%").parse().unwrap()),
        ..Default::default()
    })
    .unwrap();
    assert_eq!(m.tasks[0].stack, crate::shrink_budget(before[0], 50));
    assert_eq!(
        m.tasks[1..].iter().map(|t| t.stack).collect::<Vec<_>>(),
        before[1..]
    );
    assert!("x=y".parse::<crate::manifest::Shrink>().is_err());
}

#[test]
fn an_unreadable_manifest_names_the_path_and_the_cause_once() {
    let dir = std::env::temp_dir();
    let e = Manifest::load(&dir).unwrap_err();
    // As a chain printer (anyhow's `{:#}`, the CLI's) shows it.
    let mut text = e.to_string();
    let mut cur = std::error::Error::source(&e);
    while let Some(c) = cur {
        text += &format!(": {c}");
        cur = c.source();
    }
    let cause = std::fs::read_to_string(&dir).unwrap_err().to_string();
    assert_eq!(
        text,
        format!("cannot read manifest {}: {cause}", dir.display())
    );
}

fn tasks_text(n: usize, stack: &str) -> String {
    let checks = if stack == "mtss" { "mtss" } else { "none" };
    let mut t = format!(
        "[firmware]\nname = \"many\"\n[kernel]\nstack = \"{stack}\"\nchecks = \"{checks}\"\n"
    );
    for i in 0..n {
        t += &format!(
            "[[task]]\nname = \"t{i}\"\nsources = [\"a.c\"]\nentry = \"f\"\npriority = 1\nstack = 128\n"
        );
    }
    t
}

#[test]
fn task_slots_follow_the_manifest_up_to_256() {
    let f = Fixture::new();
    let m = f.parse(&tasks_text(256, "static")).unwrap();
    assert!(m
        .kernel_defines()
        .contains(&"-DCACTUS_MAX_TASKS=256".to_string()));
    let e = f.parse(&tasks_text(257, "static")).unwrap_err().to_string();
    assert!(
        e.ends_with("`task`: 257 tasks; a firmware has at most 256"),
        "{e}"
    );
    // mtss takes 256 too (its region indices are 9 bits wide): 256 may fail for other
    // reasons (mtss wants `checks = "mtss"`), not for the count.
    if let Err(e) = f.parse(&tasks_text(256, "mtss")) {
        assert!(!e.to_string().contains("at most"), "{e}");
    }
    let e = f.parse(&tasks_text(257, "mtss")).unwrap_err().to_string();
    assert!(e.ends_with("a firmware has at most 256"), "{e}");
}

#[test]
fn stacklet_knobs_select_a_segmented_kernel_variant() {
    let f = Fixture::new();
    let seg = GOOD.replace(
        "stack = \"static\"",
        "stack = \"segmented\"\nchecks = \"split\"\nstacklet_min = 64\nstacklet_cache = false\n\
         stacklet_learn = true",
    );
    let m = f.parse(&seg).unwrap();
    assert_eq!(
        (
            m.kernel.stacklet_min,
            m.kernel.stacklet_cache,
            m.kernel.stacklet_learn
        ),
        (Some(64), Some(false), Some(true))
    );
    assert_eq!(
        m.kernel.variant_defines(),
        [
            "-DCACTUS_STACKLET_MIN=64",
            "-DCACTUS_STACKLET_CACHE=0",
            "-DCACTUS_STACKLET_LEARN=1"
        ]
    );
    assert_eq!(
        m.kernel.variant_dir().as_deref(),
        Some("stacklet-64-cache-off-learn-on")
    );
    let m = f
        .parse(&seg.replace("stacklet_learn = true", "stacklet_learn = false"))
        .unwrap();
    assert!(m
        .kernel
        .variant_defines()
        .contains(&"-DCACTUS_STACKLET_LEARN=0".to_string()));
    // Unset knobs leave the kernel's defaults: no define at all.
    let plain = GOOD.replace(
        "stack = \"static\"",
        "stack = \"segmented\"\nchecks = \"split\"",
    );
    let m = f.parse(&plain).unwrap();
    assert!(m.kernel.variant_defines().is_empty());
    assert_eq!(m.kernel.stacklet_cache, None);
}

#[test]
fn stacklet_knobs_are_checked_and_only_for_segmented() {
    let f = Fixture::new();
    let seg = |knob: &str| {
        GOOD.replace(
            "stack = \"static\"",
            &format!("stack = \"segmented\"\nchecks = \"split\"\n{knob}"),
        )
    };
    let (line, key, problem) = f.error(&seg("stacklet_min = 72"));
    assert_eq!((line, key.as_str()), (Some(9), "kernel.stacklet_min"));
    assert!(problem.contains("not a multiple of 16"), "{problem}");
    let (_, key, problem) = f.error(&seg("stacklet_min = 48"));
    assert_eq!(key, "kernel.stacklet_min");
    assert!(problem.contains("out of range (64..=4096)"), "{problem}");
    let (_, _, problem) = f.error(&seg("stacklet_min = 4112"));
    assert!(problem.contains("out of range"), "{problem}");
    f.parse(&seg("stacklet_min = 4096")).unwrap();
    let (_, key, problem) = f.error(&seg("stacklet_cache = 1"));
    assert_eq!(key, "kernel.stacklet_cache");
    assert!(problem.contains("invalid type"), "{problem}");
    for (knob, key) in [
        ("stacklet_min = 128", "kernel.stacklet_min"),
        ("stacklet_cache = true", "kernel.stacklet_cache"),
        ("stacklet_learn = false", "kernel.stacklet_learn"),
    ] {
        let text = GOOD.replace("stack = \"static\"", &format!("stack = \"static\"\n{knob}"));
        let (line, k, problem) = f.error(&text);
        assert_eq!((line, k.as_str()), (Some(8), key), "{problem}");
        assert!(
            problem.contains("only the segmented and mtss+split stack strategies have stacklets")
                && problem.contains("\"static\""),
            "{problem}"
        );
    }
}

#[test]
fn switching_away_from_segmented_drops_the_stacklet_knobs() {
    let f = Fixture::new();
    let seg = GOOD.replace(
        "stack = \"static\"",
        "stack = \"segmented\"\nchecks = \"split\"\nstacklet_min = 256\nstacklet_learn = false",
    );
    let mut m = f.parse(&seg).unwrap();
    m.apply(&Overrides {
        stack: Some("static".into()),
        checks: Some("none".into()),
        ..Default::default()
    })
    .unwrap();
    assert_eq!(
        (m.kernel.stacklet_min, m.kernel.stacklet_learn),
        (None, None)
    );
    assert!(m.kernel.variant_defines().is_empty());
}

#[test]
fn mtss_split_takes_split_checks_pages_and_a_stacklet_pool_from_the_same_budget() {
    let f = Fixture::new();
    let hybrid = GOOD.replace(
        "stack = \"static\"",
        "stack = \"mtss+split\"\nchecks = \"split\"\nstacklet_pool = 8192\nmtss_page = 64",
    );
    let m = f.parse(&hybrid).unwrap();
    assert_eq!(m.kernel.stack, StackStrategy::MtssSplit);
    assert_eq!(m.kernel.stack.file_name(), "hybrid");
    assert_eq!(m.kernel.stacklet_pool, Some(8192));
    // The pool less its red zone (one 64-byte page) and the heap.
    assert_eq!(m.kernel.usable_pool_bytes(), 48 * 1024 - 64 - 8192);
    assert_eq!(
        m.kernel.variant_defines(),
        ["-DCACTUS_MTSS_PAGE=64", "-DCACTUS_STACKLET_POOL=8192"]
    );
    assert_eq!(m.kernel.variant_dir().as_deref(), Some("page-64-heap-8192"));
    // The default heap counts too: a plain mtss+split manifest has 4 KiB less for regions.
    let m = f
        .parse(&GOOD.replace(
            "stack = \"static\"",
            "stack = \"mtss+split\"\nchecks = \"split\"",
        ))
        .unwrap();
    assert_eq!(
        m.kernel.usable_pool_bytes(),
        48 * 1024 - 128 - StackStrategy::STACKLET_POOL
    );
    // A heap that leaves too little for the budgets is refused, naming the heap.
    let e = f
        .parse(&hybrid.replace("stacklet_pool = 8192", "stacklet_pool = 48000"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("stacklet heap (kernel.stacklet_pool)"), "{e}");
    // Only mtss+split has a stacklet pool.
    let (_, key, problem) = f.error(&GOOD.replace(
        "stack = \"static\"",
        "stack = \"segmented\"\nchecks = \"split\"\nstacklet_pool = 4096",
    ));
    assert_eq!(key, "kernel.stacklet_pool");
    assert!(problem.contains("only the mtss+split"), "{problem}");
    // --stack mtss+split defaults the checks to split, like segmented.
    let mut m = f.parse(GOOD).unwrap();
    m.apply(&Overrides {
        stack: Some("mtss+split".into()),
        ..Default::default()
    })
    .unwrap();
    assert_eq!(
        (m.kernel.stack, m.kernel.checks),
        (StackStrategy::MtssSplit, CheckMode::Split)
    );
    // Away from mtss+split the heap knob goes.
    let mut m = f
        .parse(&hybrid.replace("mtss_page = 64", "mtss_page = 128"))
        .unwrap();
    m.apply(&Overrides {
        stack: Some("mtss".into()),
        ..Default::default()
    })
    .unwrap();
    assert_eq!(
        (m.kernel.stacklet_pool, m.kernel.mtss_page),
        (None, Some(128))
    );
    // --stacklet-pool: mtss+split only, and the budgets must still fit beside the heap.
    let e = m
        .apply(&Overrides {
            stacklet_pool: Some(8192),
            ..Default::default()
        })
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("--stacklet-pool: only the mtss+split"), "{e}");
    let mut m = f.parse(&hybrid).unwrap();
    m.apply(&Overrides {
        stacklet_pool: Some(12288),
        ..Default::default()
    })
    .unwrap();
    assert_eq!(m.kernel.stacklet_pool, Some(12288));
    let e = m
        .apply(&Overrides {
            stacklet_pool: Some(48000),
            ..Default::default()
        })
        .unwrap_err()
        .to_string();
    assert!(e.contains("stacklet heap"), "{e}");
    assert_eq!(m.kernel.stacklet_pool, Some(12288), "refused: unchanged");
}

#[test]
fn the_stack_bound_needs_the_simulator_and_selects_its_kernel_variant() {
    let f = Fixture::new();
    let (line, key, problem) = f.error(&GOOD.replace(
        "stack = \"static\"",
        "stack = \"static\"\nstack_bound = true",
    ));
    assert_eq!((line, key.as_str()), (Some(8), "kernel.stack_bound"));
    assert!(problem.contains("cactus-sim extension"), "{problem}");
    let sim = GOOD
        .replace("target = \"qemu\"", "target = \"sim\"")
        .replace(
            "stack = \"static\"",
            "stack = \"static\"\nstack_bound = true",
        );
    let m = f.parse(&sim).unwrap();
    assert!(m.kernel.stack_bound);
    assert_eq!(m.kernel.variant_defines(), ["-DCACTUS_STACK_BOUND=1"]);
    assert_eq!(m.kernel.variant_dir().as_deref(), Some("bound"));
    // The command line: --stack-bound with a QEMU target is refused, naming the option.
    let mut q = f.parse(GOOD).unwrap();
    let err = q
        .apply(&Overrides {
            stack_bound: true,
            ..Default::default()
        })
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("--stack-bound") && err.contains("QEMU"),
        "{err}"
    );
    q.apply(&Overrides {
        stack_bound: true,
        target: Some("sim".into()),
        ..Default::default()
    })
    .unwrap();
    assert!(q.kernel.stack_bound);
}

#[test]
fn relocate_needs_the_simulator_and_always_builds_the_window_variant() {
    let f = Fixture::new();
    let (line, key, problem) = f.error(&GOOD.replace("stack = \"static\"", "stack = \"relocate\""));
    assert_eq!((line, key.as_str()), (Some(7), "kernel.stack"));
    assert!(problem.contains("stack window"), "{problem}");
    let sim = GOOD
        .replace("target = \"qemu\"", "target = \"sim\"")
        .replace("stack = \"static\"", "stack = \"relocate\"");
    let m = f.parse(&sim).unwrap();
    assert_eq!(m.kernel.stack, StackStrategy::Relocate);
    assert!(!m.kernel.stack.moves_frames());
    // On the simulator the copy engine is on by default.
    assert_eq!(
        m.kernel.variant_defines(),
        ["-DCACTUS_STACK_WINDOW=1", "-DCACTUS_COPIER=1"]
    );
    assert_eq!(m.kernel.variant_dir().as_deref(), Some("window-copier"));
    assert_eq!(StackStrategy::Relocate.region_bytes(500, 128), 512);
    assert_eq!(
        StackStrategy::Relocate.usable_bytes(48, 128),
        48 * 1024 - 64
    );
    // The command line: --stack relocate on a QEMU target is refused, naming the option.
    let mut q = f.parse(GOOD).unwrap();
    let err = q
        .apply(&Overrides {
            stack: Some("relocate".into()),
            ..Default::default()
        })
        .unwrap_err()
        .to_string();
    assert!(err.contains("--stack") && err.contains("QEMU"), "{err}");
    assert_eq!(q.kernel.stack, StackStrategy::Static, "refused: unchanged");
    q.apply(&Overrides {
        stack: Some("relocate".into()),
        target: Some("sim".into()),
        ..Default::default()
    })
    .unwrap();
    assert_eq!(q.kernel.stack, StackStrategy::Relocate);
}

#[test]
fn the_copier_is_the_simulators_and_the_relocate_strategys_only() {
    let f = Fixture::new();
    let sw = GOOD.replace(
        "stack = \"static\"",
        "stack = \"relocate\"\nwindow = \"sw\"\nchecks = \"mtss\"",
    );
    // QEMU: the CPU copies; asking for the engine there is an error naming the key.
    assert!(!f.parse(&sw).unwrap().kernel.copier_on());
    let (line, key, problem) =
        f.error(&sw.replace("window = \"sw\"", "window = \"sw\"\ncopier = true"));
    assert_eq!((line, key.as_str()), (Some(9), "kernel.copier"));
    assert!(problem.contains("QEMU"), "{problem}");
    // The simulator: on unless turned off, and its own kernel variant either way.
    let sim = sw.replace("target = \"qemu\"", "target = \"sim\"");
    let on = f.parse(&sim).unwrap();
    assert!(on.kernel.copier_on());
    assert_eq!(on.kernel.variant_dir().as_deref(), Some("window-sw-copier"));
    let off = f
        .parse(&sim.replace("window = \"sw\"", "window = \"sw\"\ncopier = false"))
        .unwrap();
    assert!(!off.kernel.copier_on());
    assert!(!off
        .kernel
        .variant_defines()
        .contains(&"-DCACTUS_COPIER=1".to_string()));
    assert_eq!(off.kernel.variant_dir().as_deref(), Some("window-sw"));
    // Another strategy copies no stacks.
    let (_, key, _) =
        f.error(&GOOD.replace("stack = \"static\"", "stack = \"static\"\ncopier = true"));
    assert_eq!(key, "kernel.copier");
    // --target qemu over an engine build is refused.
    let mut m = f
        .parse(&sim.replace("window = \"sw\"", "window = \"sw\"\ncopier = true"))
        .unwrap();
    let err = m
        .apply(&Overrides {
            target: Some("qemu".into()),
            ..Default::default()
        })
        .unwrap_err()
        .to_string();
    assert!(err.contains("--target") && err.contains("copier"), "{err}");
}

#[test]
fn the_software_window_runs_relocate_on_qemu_with_stack_checks() {
    let f = Fixture::new();
    let sw = GOOD.replace(
        "stack = \"static\"",
        "stack = \"relocate\"\nwindow = \"sw\"\nchecks = \"mtss\"",
    );
    let m = f.parse(&sw).unwrap();
    assert_eq!(m.kernel.window, StackWindow::Sw);
    assert_eq!(
        m.kernel.variant_defines(),
        ["-DCACTUS_STACK_WINDOW=1", "-DCACTUS_STACK_WINDOW_SW=1"]
    );
    assert_eq!(m.kernel.variant_dir().as_deref(), Some("window-sw"));
    // Without checks nothing would catch sp running past its bound.
    let (line, key, problem) = f.error(&sw.replace("checks = \"mtss\"\n", ""));
    assert_eq!((line, key.as_str()), (Some(8), "kernel.window"));
    assert!(problem.contains("checks"), "{problem}");
    // A window that is not one, and a window for another strategy.
    let (_, key, problem) = f.error(&sw.replace("\"sw\"", "\"soft\""));
    assert_eq!(key, "kernel.window");
    assert!(problem.contains("\"hw\" or \"sw\""), "{problem}");
    let (_, key, problem) =
        f.error(&GOOD.replace("stack = \"static\"", "stack = \"static\"\nwindow = \"sw\""));
    assert_eq!(key, "kernel.window");
    assert!(problem.contains("only the relocate"), "{problem}");
    // The command line: --stack relocate --window sw on QEMU, the checks implied.
    let mut q = f.parse(GOOD).unwrap();
    q.apply(&Overrides {
        stack: Some("relocate".into()),
        window: Some("sw".into()),
        ..Default::default()
    })
    .unwrap();
    assert_eq!(
        (q.kernel.window, q.kernel.checks),
        (StackWindow::Sw, CheckMode::Mtss)
    );
    let err = f
        .parse(GOOD)
        .unwrap()
        .apply(&Overrides {
            window: Some("sw".into()),
            ..Default::default()
        })
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("--window") && err.contains("relocate"),
        "{err}"
    );
    // The hardware window (the default) still needs the simulator.
    let (_, key, problem) = f.error(&sw.replace("window = \"sw\"", "window = \"hw\""));
    assert_eq!(key, "kernel.stack");
    assert!(problem.contains("window = \"sw\""), "{problem}");
}

#[test]
fn interrupts_parse_with_their_source_and_priority() {
    let f = Fixture::new();
    let text = format!(
        "{GOOD}\n[[interrupt]]\nsource = 10\nhandler = \"uart_isr\"\npriority = 3\n\n\
         [[interrupt]]\nsource = \"software\"\nhandler = \"kick\"\n"
    );
    let m = f.parse(&text).unwrap();
    assert_eq!(
        m.interrupts,
        vec![
            Interrupt {
                source: InterruptSource::Plic(10),
                handler: "uart_isr".into(),
                priority: 3,
                direct: false
            },
            Interrupt {
                source: InterruptSource::Software,
                handler: "kick".into(),
                priority: 0,
                direct: false
            },
        ]
    );
    assert!(f.parse(GOOD).unwrap().interrupts.is_empty());
    let direct = format!(
        "{GOOD}\n[[interrupt]]\nsource = \"software\"\nhandler = \"kick\"\ndirect = true\n"
    );
    assert!(f.parse(&direct).unwrap().interrupts[0].direct);
}

#[test]
fn bad_interrupts_name_the_key_and_line() {
    let f = Fixture::new();
    let irq = |body: &str| format!("{GOOD}\n[[interrupt]]\n{body}");
    // The [[interrupt]] header is line 31 (GOOD has 29 lines).
    let cases = [
        (
            "source = 0\nhandler = \"h\"\npriority = 1\n",
            32,
            "interrupt[0].source",
            "PLIC source 0 is out of range (1..=31)",
        ),
        (
            "source = 32\nhandler = \"h\"\npriority = 1\n",
            32,
            "interrupt[0].source",
            "PLIC source 32 is out of range (1..=31)",
        ),
        (
            "source = \"uart\"\nhandler = \"h\"\npriority = 1\n",
            32,
            "interrupt[0].source",
            "\"uart\" is not a source: give a PLIC source number or \"software\"",
        ),
        (
            "source = 10\nhandler = \"h\"\npriority = 8\n",
            34,
            "interrupt[0].priority",
            "8 is out of range (1..=7)",
        ),
        (
            "source = 10\nhandler = \"h\"\n",
            32,
            "interrupt[0].priority",
            "a PLIC source needs a priority (1..=7)",
        ),
        (
            "source = \"software\"\nhandler = \"h\"\npriority = 2\n",
            34,
            "interrupt[0].priority",
            "the software interrupt has no priority: it is below every PLIC source",
        ),
        (
            "source = 10\nhandler = \"not a name\"\npriority = 2\n",
            33,
            "interrupt[0].handler",
            "\"not a name\" is not a C function name",
        ),
        (
            "source = 10\nhandler = \"h\"\npriority = 2\ndirect = true\n",
            35,
            "interrupt[0].direct",
            "only the software interrupt can have a direct handler",
        ),
    ];
    for (body, want_line, want_key, want_problem) in cases {
        let (line, key, problem) = f.error(&irq(body));
        assert_eq!(
            (line, key.as_str(), problem.as_str()),
            (Some(want_line), want_key, want_problem),
            "{body}"
        );
    }
    let twice = format!(
        "{}\n[[interrupt]]\nsource = 10\nhandler = \"g\"\npriority = 1\n",
        irq("source = 10\nhandler = \"h\"\npriority = 1\n")
    );
    let (line, key, problem) = f.error(&twice);
    assert_eq!((line, key.as_str()), (Some(37), "interrupt[1].source"));
    assert!(problem.contains("already has a handler"), "{problem}");
    let (_, key, problem) = f.error(&irq(
        "source = 10\nhandler = \"h\"\npriority = 1\nvector = 3\n",
    ));
    assert_eq!(key, "interrupt[0].vector");
    assert!(problem.contains("unknown field `vector`"), "{problem}");
}

/// GOOD with two timers (one periodic autostart) after its tasks.
fn with_timers(kernel_extra: &str) -> String {
    format!(
        "{}\n[[timer]]\nname = \"blink\"\nperiod_ms = 10\ncallback = \"blink_cb\"\n\
         periodic = true\nautostart = true\n\n[[timer]]\nname = \"once\"\nperiod_ms = 3\n\
         callback = \"once_cb\"\n",
        GOOD.replace(
            "target = \"qemu\"",
            &format!("target = \"qemu\"\n{kernel_extra}")
        )
    )
}

#[test]
fn timers_and_their_task_parse_with_defaults() {
    let f = Fixture::new();
    let m = f.parse(&with_timers("")).unwrap();
    assert_eq!(
        m.timers,
        [
            Timer {
                name: "blink".into(),
                period_ms: 10,
                callback: "blink_cb".into(),
                periodic: true,
                autostart: true,
            },
            Timer {
                name: "once".into(),
                period_ms: 3,
                callback: "once_cb".into(),
                periodic: false,
                autostart: false,
            },
        ]
    );
    assert_eq!(
        m.timer_task,
        Some(TimerTask {
            priority: TimerTask::DEFAULT_PRIO,
            stack: TimerTask::DEFAULT_STACK
        })
    );
    assert_eq!(m.kernel_tasks(), 3, "two tasks and the timer task");
    assert!(m
        .kernel_defines()
        .contains(&"-DCACTUS_MAX_TASKS=3".to_string()));
    let m = f
        .parse(&with_timers("timer_task_prio = 7\ntimer_task_stack = 500"))
        .unwrap();
    assert_eq!(
        m.timer_task,
        Some(TimerTask {
            priority: 7,
            stack: 512
        })
    );
    // A timer task for run-time timers only, and none at all without timers.
    let m = f
        .parse(&GOOD.replace(
            "target = \"qemu\"",
            "target = \"qemu\"\ntimer_task_prio = 3",
        ))
        .unwrap();
    assert!(m.timers.is_empty());
    assert_eq!(m.timer_task.map(|t| t.priority), Some(3));
    let m = f.parse(GOOD).unwrap();
    assert_eq!((m.timer_task, m.kernel_tasks()), (None, 2));
}

#[test]
fn bad_timer_values_name_the_timer_key_and_line() {
    let f = Fixture::new();
    let text = with_timers("");
    let line_of = |needle: &str| text[..text.find(needle).unwrap()].matches('\n').count() + 1;
    let (line, key, problem) = f.error(&text.replace("period_ms = 3\n", "period_ms = 0\n"));
    assert_eq!(
        (line, key.as_str(), problem.as_str()),
        (
            Some(line_of("period_ms = 3\n")),
            "timer[1].period_ms",
            "0 ms must be at least one tick"
        )
    );
    let (_, key, problem) = f.error(
        &text
            .replace("tick_hz = 1000", "tick_hz = 100")
            .replace("deadline_ms = 5\n", "")
            .replace("start_delay_ms = 3\n", "")
            .replace("period_ms = 3\n", "period_ms = 15\n"),
    );
    assert_eq!(key, "timer[1].period_ms");
    assert_eq!(
        problem,
        "15 ms is not a whole number of ticks at tick_hz = 100"
    );
    let (_, key, problem) = f.error(&text.replace("name = \"once\"", "name = \"Blink\""));
    assert_eq!(key, "timer[1].name");
    assert!(problem.contains("used twice"), "{problem}");
    let (_, key, problem) = f.error(&text.replace("\"once_cb\"", "\"once-cb\""));
    assert_eq!(key, "timer[1].callback");
    assert_eq!(problem, "\"once-cb\" is not a C function name");
    let (_, key, problem) = f.error(&text.replace("periodic = true", "periodic = \"yes\""));
    assert_eq!(key, "timer[0].periodic");
    assert!(problem.contains("expected a boolean"), "{problem}");
    let (_, key, problem) =
        f.error(&text.replace("autostart = true", "autostart = true\nprio = 3"));
    assert_eq!(key, "timer[0].prio");
    assert!(problem.contains("unknown field `prio`"), "{problem}");
    let (_, key, problem) = f.error(&with_timers("timer_task_prio = 32"));
    assert_eq!(key, "kernel.timer_task_prio");
    assert_eq!(problem, "32 is out of range (0..=31)");
    let (_, key, problem) = f.error(&with_timers("timer_task_stack = 64"));
    assert_eq!(key, "kernel.timer_task_stack");
    assert_eq!(problem, "64 is out of range (128..=49088)");
    let no_timers = GOOD.replace(
        "target = \"qemu\"",
        "target = \"qemu\"\ntimer_task_stack = 512",
    );
    let (line, key, problem) = f.error(&no_timers);
    assert_eq!(key, "kernel.timer_task_stack");
    let at = no_timers.find("timer_task_stack").unwrap();
    assert_eq!(line, Some(no_timers[..at].matches('\n').count() + 1));
    assert!(problem.contains("there is no timer task"), "{problem}");
    // The timer task's stack counts against the pool.
    let (_, key, problem) = f.error(&with_timers("timer_task_stack = 48000"));
    assert_eq!(key, "task");
    assert!(problem.contains("the task stacks total"), "{problem}");
}

#[test]
fn a_task_starts_ready_or_suspended() {
    let f = Fixture::new();
    let m = f
        .parse(&GOOD.replace("priority = 31", "priority = 31\nstart = \"suspended\""))
        .unwrap();
    assert_eq!(
        (m.tasks[0].start_suspended, m.tasks[1].start_suspended),
        (false, true)
    );
    let m = f
        .parse(&GOOD.replace("priority = 31", "priority = 31\nstart = \"ready\""))
        .unwrap();
    assert!(!m.tasks[1].start_suspended);
    let later = GOOD.replace("priority = 31", "priority = 31\nstart = \"later\"");
    let (line, key, problem) = f.error(&later);
    assert_eq!(key, "task[1].start");
    let at = later.find("start = \"later\"").unwrap();
    assert_eq!(line, Some(later[..at].matches('\n').count() + 1));
    assert_eq!(
        problem,
        "unknown start \"later\"; known: \"ready\", \"suspended\""
    );
}

/// GOOD with `extra` appended (pools and the like go after the tasks).
fn with(extra: &str) -> String {
    format!("{GOOD}{extra}")
}

#[test]
fn pools_parse_in_order_with_blocks_rounded_to_words() {
    let f = Fixture::new();
    let m = f
        .parse(&with(
            "\n[[pool]]\nname = \"rx\"\nblock = 32\ncount = 8\n\n[[pool]]\nname = \"odd\"\n\
             block = 5\ncount = 1\n",
        ))
        .unwrap();
    assert_eq!(
        m.pools,
        [
            Pool {
                name: "rx".into(),
                block: 32,
                count: 8
            },
            Pool {
                name: "odd".into(),
                block: 5,
                count: 1
            }
        ]
    );
    assert_eq!(
        (m.pools[0].block_bytes(), m.pools[1].block_bytes()),
        (32, 8)
    );
    assert!(f.parse(GOOD).unwrap().pools.is_empty());
}

#[test]
fn bad_pools_name_their_line_and_key() {
    let f = Fixture::new();
    let pool = |body: &str| with(&format!("\n[[pool]]\n{body}\n"));
    // GOOD has 29 lines; "[[pool]]" is line 31.
    let (line, key, problem) = f.error(&pool("name = \"rx\"\nblock = 0\ncount = 8"));
    assert_eq!((line, key.as_str()), (Some(33), "pool[0].block"));
    assert!(
        problem.contains("0 is out of range (1..=65536)"),
        "{problem}"
    );
    let (line, key, problem) = f.error(&pool("name = \"rx\"\nblock = 32\ncount = 0"));
    assert_eq!((line, key.as_str()), (Some(34), "pool[0].count"));
    assert!(
        problem.contains("0 is out of range (1..=65536)"),
        "{problem}"
    );
    let (_, key, problem) = f.error(&pool("name = \"rx\"\nblock = 32\ncount = -3"));
    assert_eq!(key, "pool[0].count");
    assert!(problem.contains("-3 is out of range"), "{problem}");
    let (_, key, problem) = f.error(&pool("name = \"rx\"\nblock = 65537\ncount = 1"));
    assert_eq!(key, "pool[0].block");
    assert!(problem.contains("65537 is out of range"), "{problem}");
    let (_, key, problem) = f.error(&pool("name = \"rx\"\nblock = 65536\ncount = 65536"));
    assert_eq!(key, "pool[0].count");
    assert!(
        problem.contains("a pool takes at most 16777216"),
        "{problem}"
    );
    let (line, key, problem) = f.error(&pool("name = \"2rx\"\nblock = 32\ncount = 1"));
    assert_eq!((line, key.as_str()), (Some(32), "pool[0].name"));
    assert!(problem.contains("not a C identifier"), "{problem}");
    let (_, key, problem) = f.error(&pool("name = \"rx\"\nblock = 32"));
    assert_eq!(key, "pool[0]");
    assert!(problem.contains("missing field `count`"), "{problem}");
    let (_, key, problem) = f.error(&pool("name = \"rx\"\nblock = 32\ncount = 1\nsize = 4"));
    assert_eq!(key, "pool[0].size");
    assert!(problem.contains("unknown field `size`"), "{problem}");
    let (line, key, problem) = f.error(&with(
        "\n[[pool]]\nname = \"rx\"\nblock = 32\ncount = 1\n\n[[pool]]\nname = \"RX\"\nblock = 8\n\
         count = 2\n",
    ));
    assert_eq!((line, key.as_str()), (Some(37), "pool[1].name"));
    assert!(
        problem.contains("pool name \"RX\" is used twice (pool[0]"),
        "{problem}"
    );
}

#[test]
fn switch_check_off_selects_a_kernel_variant_of_static_only() {
    let f = Fixture::new();
    let m = f.parse(GOOD).unwrap();
    assert!(m.kernel.switch_check);
    assert!(!m
        .kernel_defines()
        .iter()
        .any(|d| d.contains("SWITCH_CHECK")));
    let off = GOOD.replace("slice_ticks = 2", "slice_ticks = 2\nswitch_check = false");
    let m = f.parse(&off).unwrap();
    assert!(!m.kernel.switch_check);
    assert!(m
        .kernel
        .variant_defines()
        .contains(&"-DCACTUS_SWITCH_CHECK=0".to_string()));
    assert_eq!(m.kernel.variant_dir().as_deref(), Some("nocheck"));
    let on = GOOD.replace("slice_ticks = 2", "slice_ticks = 2\nswitch_check = true");
    assert_eq!(f.parse(&on).unwrap().kernel.variant_dir(), None);
    let mtss = off.replace("stack = \"static\"", "stack = \"mtss\"\nchecks = \"mtss\"");
    let (line, key, problem) = f.error(&mtss);
    assert_eq!((line, key.as_str()), (Some(11), "kernel.switch_check"));
    assert!(
        problem.contains("only the static stack strategy has a switch-time check"),
        "{problem}"
    );
    let (_, key, problem) =
        f.error(&GOOD.replace("slice_ticks = 2", "slice_ticks = 2\nswitch_check = \"off\""));
    assert_eq!(key, "kernel.switch_check");
    assert!(problem.contains("invalid type"), "{problem}");
    // Another strategy on the command line turns the static-only option back on.
    let mut m = f.parse(&off).unwrap();
    m.apply(&Overrides {
        stack: Some("mtss".into()),
        ..Overrides::default()
    })
    .unwrap();
    assert!(m.kernel.switch_check);
}

#[test]
fn kernel_variants_are_known_names_once_each() {
    let f = Fixture::new();
    assert!(f.parse(GOOD).unwrap().kernel.variants.is_empty());
    let quiet = GOOD.replace(
        "slice_ticks = 2",
        "slice_ticks = 2\nvariants = [\"quiet\", \"exit_halt\", \"fault_halt\"]",
    );
    let m = f.parse(&quiet).unwrap();
    assert_eq!(m.kernel.variants, ["quiet", "exit_halt", "fault_halt"]);
    let (line, key, problem) = f.error(&GOOD.replace(
        "slice_ticks = 2",
        "slice_ticks = 2\nvariants = [\"silent\"]",
    ));
    assert_eq!((line, key.as_str()), (Some(10), "kernel.variants"));
    assert!(
        problem.contains("no kernel variant \"silent\""),
        "{problem}"
    );
    assert!(problem.contains("quiet"), "{problem}");
    let (_, _, problem) = f.error(&GOOD.replace(
        "slice_ticks = 2",
        "slice_ticks = 2\nvariants = [\"quiet\", \"quiet\"]",
    ));
    assert!(problem.contains("listed twice"), "{problem}");
    let mtss = quiet.replace("stack = \"static\"", "stack = \"mtss\"\nchecks = \"mtss\"");
    let (_, key, problem) = f.error(&mtss);
    assert_eq!(key, "kernel.variants");
    assert!(
        problem.contains("\"fault_halt\" is for the static stack strategy"),
        "{problem}"
    );
    assert_eq!(
        f.parse(&mtss.replace(", \"fault_halt\"", ""))
            .unwrap()
            .kernel
            .variants,
        ["quiet", "exit_halt"]
    );
    // Another strategy on the command line drops the static-only variant.
    let mut m = f.parse(&quiet).unwrap();
    m.apply(&Overrides {
        stack: Some("mtss".into()),
        ..Overrides::default()
    })
    .unwrap();
    assert_eq!(m.kernel.variants, ["quiet", "exit_halt"]);
}

#[test]
fn the_nostats_variant_is_a_define_with_its_own_kernel_directory() {
    let f = Fixture::new();
    let plain = f.parse(GOOD).unwrap();
    assert!(!plain
        .kernel_defines()
        .contains(&"-DCACTUS_SWITCH_STATS=0".to_string()));
    let m = f
        .parse(&GOOD.replace(
            "slice_ticks = 2",
            "slice_ticks = 2\nvariants = [\"quiet\", \"nostats\"]",
        ))
        .unwrap();
    assert!(m
        .kernel_defines()
        .contains(&"-DCACTUS_SWITCH_STATS=0".to_string()));
    assert_eq!(m.kernel.variant_dir().as_deref(), Some("nostats"));
    assert_ne!(m.kernel.variant_dir(), plain.kernel.variant_dir());
}

#[test]
fn stack_annotations_are_read_and_checked() {
    let f = Fixture::new();
    let text = GOOD.replace(
        "stack = 1024\n",
        "stack = 1024\nstack_calls = { fb = [\"x\", \"y\"], \"*\" = [\"z\"] }\n\
         stack_recursion = { walk = 8 }\n",
    );
    let m = f.parse(&text).unwrap();
    let b = &m.tasks[1];
    assert_eq!(b.stack_calls["fb"], vec!["x".to_string(), "y".to_string()]);
    assert_eq!(b.stack_calls["*"], vec!["z".to_string()]);
    assert_eq!(b.stack_recursion["walk"], 8);
    assert!(m.tasks[0].stack_calls.is_empty() && m.tasks[0].stack_recursion.is_empty());

    let bad = |from: &str, to: &str| f.error(&text.replace(from, to));
    let (line, key, problem) = bad("walk = 8", "walk = 0");
    assert_eq!(
        (line, key.as_str()),
        (Some(31), "task[1].stack_recursion.walk")
    );
    assert_eq!(problem, "0 is out of range (1..=4096)");
    let (_, key, problem) = bad("\"y\"", "\"y z\"");
    assert_eq!(key, "task[1].stack_calls.fb");
    assert_eq!(problem, "\"y z\" is not a C function name");
    let (_, key, problem) = bad("\"*\" = [\"z\"]", "\"a-b\" = [\"z\"]");
    assert_eq!(key, "task[1].stack_calls.a-b");
    assert!(problem.contains("neither a C function name"), "{problem}");
    let (_, _, problem) = bad("[\"x\", \"y\"]", "[]");
    assert_eq!(problem, "no target given");
}

#[test]
fn preempt_traps_is_read_checked_and_overridden() {
    let f = Fixture::new();
    assert_eq!(f.parse(GOOD).unwrap().kernel.preempt_traps, None);
    let on = GOOD.replace("slice_ticks = 2", "slice_ticks = 2\npreempt_traps = 64");
    assert_eq!(f.parse(&on).unwrap().kernel.preempt_traps, Some(64));
    let (line, key, _) =
        f.error(&GOOD.replace("slice_ticks = 2", "slice_ticks = 2\npreempt_traps = 0"));
    assert_eq!((line, key.as_str()), (Some(10), "kernel.preempt_traps"));
    let mut m = f.parse(GOOD).unwrap();
    m.apply(&Overrides {
        preempt_traps: Some(256),
        ..Overrides::default()
    })
    .unwrap();
    assert_eq!(m.kernel.preempt_traps, Some(256));
    assert!(m
        .apply(&Overrides {
            preempt_traps: Some(0),
            ..Overrides::default()
        })
        .is_err());
}

#[test]
fn switch_is_read_checked_and_overridden() {
    use crate::manifest::SwitchMode;
    let f = Fixture::new();
    let m = f.parse(GOOD).unwrap();
    assert_eq!(m.kernel.switch, SwitchMode::Full);
    assert!(!m.kernel_defines().iter().any(|d| d.contains("SWITCH_CCS")));
    let on = GOOD.replace(
        "slice_ticks = 2",
        "slice_ticks = 2\nswitch = \"ccs-sw\"\nswitch_poison = 7",
    );
    let m = f.parse(&on).unwrap();
    assert_eq!(m.kernel.switch, SwitchMode::CcsSw);
    assert_eq!(m.kernel.switch_poison, Some(7));
    assert!(m
        .kernel_defines()
        .contains(&"-DCACTUS_SWITCH_CCS=1".to_string()));
    // An unknown mode, poison without ccs-sw and ccs-sw with counted branches are refused.
    let (line, key, _) =
        f.error(&GOOD.replace("slice_ticks = 2", "slice_ticks = 2\nswitch = \"fast\""));
    assert_eq!((line, key.as_str()), (Some(10), "kernel.switch"));
    let (_, key, _) =
        f.error(&GOOD.replace("slice_ticks = 2", "slice_ticks = 2\nswitch_poison = 1"));
    assert_eq!(key, "kernel.switch_poison");
    let (_, key, _) = f.error(&GOOD.replace(
        "slice_ticks = 2",
        "slice_ticks = 2\nswitch = \"ccs-sw\"\npreempt_traps = 64",
    ));
    assert_eq!(key, "kernel.switch");
    let mut m = f.parse(GOOD).unwrap();
    m.apply(&Overrides {
        switch: Some("ccs-sw".into()),
        switch_mutate: Some(3),
        ..Overrides::default()
    })
    .unwrap();
    assert_eq!(
        (m.kernel.switch, m.kernel.switch_mutate),
        (SwitchMode::CcsSw, Some(3))
    );
    let mut plain = f.parse(GOOD).unwrap();
    assert!(plain
        .apply(&Overrides {
            switch_poison: Some(1),
            ..Overrides::default()
        })
        .is_err());
}

#[test]
fn ccs_hw_needs_the_simulator_and_carries_its_budget() {
    use crate::manifest::{SwitchMode, DEFAULT_SWITCH_BUDGET};
    let f = Fixture::new();
    let sim = GOOD.replace("target = \"qemu\"", "target = \"sim\"");
    let on = sim.replace("slice_ticks = 2", "slice_ticks = 2\nswitch = \"ccs-hw\"");
    let m = f.parse(&on).unwrap();
    assert_eq!(m.kernel.switch, SwitchMode::CcsHw);
    let d = m.kernel_defines();
    for want in [
        "-DCACTUS_SWITCH_CCS=1".to_string(),
        "-DCACTUS_SWITCH_CCS_HW=1".to_string(),
        format!("-DCACTUS_SWITCH_BUDGET={DEFAULT_SWITCH_BUDGET}"),
    ] {
        assert!(d.contains(&want), "{want} in {d:?}");
    }
    let with_budget = on.replace(
        "switch = \"ccs-hw\"",
        "switch = \"ccs-hw\"\nswitch_budget = 200",
    );
    let m = f.parse(&with_budget).unwrap();
    assert_eq!(m.kernel.switch_budget, Some(200));
    assert!(m
        .kernel_defines()
        .contains(&"-DCACTUS_SWITCH_BUDGET=200".to_string()));
    assert_ne!(
        m.kernel.variant_dir(),
        f.parse(&on).unwrap().kernel.variant_dir(),
        "each budget is its own kernel variant"
    );
    // QEMU has no switch registers; a budget needs ccs-hw and is at least 1.
    let (_, key, msg) =
        f.error(&GOOD.replace("slice_ticks = 2", "slice_ticks = 2\nswitch = \"ccs-hw\""));
    assert_eq!(key, "kernel.switch");
    assert!(msg.contains("target = \"sim\""), "{msg}");
    let (_, key, _) = f.error(&sim.replace(
        "slice_ticks = 2",
        "slice_ticks = 2\nswitch = \"ccs-sw\"\nswitch_budget = 60",
    ));
    assert_eq!(key, "kernel.switch_budget");
    let (_, key, _) = f.error(&with_budget.replace("switch_budget = 200", "switch_budget = 0"));
    assert_eq!(key, "kernel.switch_budget");
    // Overrides: --switch ccs-hw on a QEMU manifest, --switch-budget without ccs-hw or of 0.
    let mut q = f.parse(GOOD).unwrap();
    assert!(q
        .apply(&Overrides {
            switch: Some("ccs-hw".into()),
            ..Overrides::default()
        })
        .is_err());
    let mut s = f.parse(&sim).unwrap();
    for bad in [
        Overrides {
            switch_budget: Some(50),
            ..Overrides::default()
        },
        Overrides {
            switch: Some("ccs-hw".into()),
            switch_budget: Some(0),
            ..Overrides::default()
        },
    ] {
        assert!(s.apply(&bad).is_err(), "{bad:?}");
    }
    s.apply(&Overrides {
        switch: Some("ccs-hw".into()),
        switch_budget: Some(90),
        switch_poison: Some(3),
        ..Overrides::default()
    })
    .unwrap();
    assert_eq!(
        (
            s.kernel.switch,
            s.kernel.switch_budget,
            s.kernel.switch_poison
        ),
        (SwitchMode::CcsHw, Some(90), Some(3))
    );
}

#[test]
fn isolate_is_read_and_refused_off_static_stacks() {
    let f = Fixture::new();
    assert!(!f.parse(GOOD).unwrap().kernel.isolate);
    let on = GOOD.replace("slice_ticks = 2", "slice_ticks = 2\nisolate = true");
    let m = f.parse(&on).unwrap();
    assert!(m.kernel.isolate);
    assert!(m
        .kernel
        .variant_defines()
        .contains(&"-DCACTUS_ISOLATE=1".to_string()));
    let mut m = f.parse(GOOD).unwrap();
    m.apply(&Overrides {
        isolate: true,
        ..Overrides::default()
    })
    .unwrap();
    assert!(m.kernel.isolate);
    let mut m = f.parse(GOOD).unwrap();
    let e = m
        .apply(&Overrides {
            isolate: true,
            stack: Some("mtss".into()),
            ..Overrides::default()
        })
        .unwrap_err()
        .to_string();
    assert!(e.contains("--stack") && e.contains("static"), "{e}");
}

#[test]
fn rmcs_needs_the_simulator_and_carries_its_pool() {
    use crate::manifest::{SwitchMode, DEFAULT_REG_POOL};
    let f = Fixture::new();
    let sim = GOOD.replace("target = \"qemu\"", "target = \"sim\"");
    let on = sim.replace("slice_ticks = 2", "slice_ticks = 2\nswitch = \"rmcs\"");
    let m = f.parse(&on).unwrap();
    assert_eq!(m.kernel.switch, SwitchMode::Rmcs);
    assert_eq!(m.kernel.reg_pool_pages(), DEFAULT_REG_POOL / 25);
    let d = m.kernel_defines();
    for want in [
        "-DCACTUS_SWITCH_CCS=1".to_string(),
        "-DCACTUS_SWITCH_CCS_HW=1".to_string(),
        format!("-DCACTUS_SWITCH_RMCS={}", DEFAULT_REG_POOL / 25),
    ] {
        assert!(d.contains(&want), "{want} in {d:?}");
    }
    let quarter = on.replace("switch = \"rmcs\"", "switch = \"rmcs\"\nreg_pool = 25");
    let m = f.parse(&quarter).unwrap();
    assert_eq!(
        (m.kernel.reg_pool, m.kernel.reg_pool_pages()),
        (Some(25), 1)
    );
    assert_ne!(
        m.kernel.variant_dir(),
        f.parse(&on).unwrap().kernel.variant_dir(),
        "each pool is its own kernel variant"
    );
    // QEMU has no register pages; a pool is 25, 50 or 75 and needs rmcs.
    let (_, key, msg) =
        f.error(&GOOD.replace("slice_ticks = 2", "slice_ticks = 2\nswitch = \"rmcs\""));
    assert_eq!(key, "kernel.switch");
    assert!(
        msg.contains("register-page") && msg.contains("target = \"sim\""),
        "{msg}"
    );
    for bad in ["reg_pool = 30", "reg_pool = 100", "reg_pool = 0"] {
        let (_, key, _) = f.error(&quarter.replace("reg_pool = 25", bad));
        assert_eq!(key, "kernel.reg_pool", "{bad}");
    }
    let (_, key, _) = f.error(&sim.replace("slice_ticks = 2", "slice_ticks = 2\nreg_pool = 50"));
    assert_eq!(key, "kernel.reg_pool");
    // Overrides: --switch rmcs on a QEMU manifest; a pool without rmcs or of a bad size.
    let mut q = f.parse(GOOD).unwrap();
    assert!(q
        .apply(&Overrides {
            switch: Some("rmcs".into()),
            ..Overrides::default()
        })
        .is_err());
    let mut s = f.parse(&sim).unwrap();
    for bad in [
        Overrides {
            reg_pool: Some(50),
            ..Overrides::default()
        },
        Overrides {
            switch: Some("rmcs".into()),
            reg_pool: Some(40),
            ..Overrides::default()
        },
    ] {
        assert!(s.apply(&bad).is_err(), "{bad:?}");
    }
    s.apply(&Overrides {
        switch: Some("rmcs".into()),
        reg_pool: Some(75),
        switch_budget: Some(90),
        ..Overrides::default()
    })
    .unwrap();
    assert_eq!(
        (
            s.kernel.switch,
            s.kernel.reg_pool_pages(),
            s.kernel.switch_budget
        ),
        (SwitchMode::Rmcs, 3, Some(90))
    );
}
