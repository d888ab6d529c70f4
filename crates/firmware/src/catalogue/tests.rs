use super::*;

/// A scratch workloads tree: `suite/NAME.toml` manifests with one C source each.
fn tree(manifests: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (rel, text) in manifests {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(
            p.parent().unwrap().join("t.c"),
            "void f(void *a) { (void)a; }\n",
        )
        .unwrap();
        std::fs::write(&p, text).unwrap();
    }
    dir
}

fn manifest(name: &str, size: u8) -> String {
    format!(
        "[firmware]\nname = \"{name}\"\ncflags = [\"-DWL_SIZE={size}\"]\n\n\
         [[task]]\nname = \"a\"\nsources = [\"t.c\"]\nentry = \"f\"\npriority = 5\nstack = 1000\n\n\
         [[task]]\nname = \"b\"\nsources = [\"t.c\"]\nentry = \"f\"\npriority = 30\nstack = 512\n\
         period_ms = 2\n"
    )
}

#[test]
fn discovers_manifests_by_suite_sorted_with_sizes_and_stack_totals() {
    let t = tree(&[
        ("zeta/one.toml", &manifest("one", 1)),
        ("alpha/two-small.toml", &manifest("two_small", 0)),
        ("alpha/sub/three.toml", &manifest("three", 1)),
    ]);
    let e = discover(t.path()).unwrap();
    let names: Vec<_> = e.iter().map(|x| x.manifest.display().to_string()).collect();
    assert_eq!(
        names,
        [
            "alpha/sub/three.toml",
            "alpha/two-small.toml",
            "zeta/one.toml"
        ]
    );
    assert_eq!(e[0].suite, "alpha");
    assert_eq!(e[2].suite, "zeta");
    assert_eq!(e[1].size, Some(SizeClass::Small));
    assert_eq!(e[2].size, Some(SizeClass::Full));
    // 1000 rounds up to 1008 (multiples of 16).
    assert_eq!(e[2].tasks[0].stack, 1008);
    assert_eq!(e[2].total_stack, 1008 + 512);
    assert_eq!(e[2].tasks[1].period_ms, Some(2));
    assert_eq!(e[2].tasks[1].priority, 30);
}

#[test]
fn select_filters_by_suite_and_size() {
    let t = tree(&[
        ("zeta/one.toml", &manifest("one", 1)),
        ("alpha/two-small.toml", &manifest("two_small", 0)),
        ("alpha/three.toml", &manifest("three", 1)),
    ]);
    let all = discover(t.path()).unwrap();
    assert_eq!(select(all.clone(), Some("alpha"), None).len(), 2);
    let small = select(all.clone(), None, Some(SizeClass::Small));
    assert_eq!(small.len(), 1);
    assert_eq!(small[0].firmware, "two_small");
    assert!(select(all, Some("nope"), None).is_empty());
}

#[test]
fn a_broken_manifest_is_an_error_naming_it() {
    let t = tree(&[("s/bad.toml", "[firmware]\nname = \"x\"\nbogus = 1\n")]);
    let err = discover(t.path()).unwrap_err().to_string();
    assert!(err.contains("bad.toml"), "{err}");
    assert!(err.contains("bogus"), "{err}");
}

#[test]
fn size_class_comes_from_the_last_wl_size_flag() {
    let f = |v: &[&str]| SizeClass::of_flags(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    assert_eq!(f(&["-O2"]), None);
    assert_eq!(f(&["-DWL_SIZE=0"]), Some(SizeClass::Small));
    assert_eq!(f(&["-DWL_SIZE=0", "-DWL_SIZE=1"]), Some(SizeClass::Full));
    assert_eq!(f(&["-DWL_SIZE=7"]), None);
}

#[test]
fn render_shows_suite_headers_and_task_lines() {
    let t = tree(&[("alpha/three.toml", &manifest("three", 1))]);
    let text = render(&discover(t.path()).unwrap());
    assert!(text.contains("suite alpha (1 manifests)"), "{text}");
    assert!(text.contains("three.toml"), "{text}");
    assert!(text.contains("period   2 ms"), "{text}");
    assert!(text.contains("total stack   1520 B"), "{text}");
}
