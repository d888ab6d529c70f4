use super::*;

fn row(name: &str, rel: Vec<Relocation>, switch: Option<u64>) -> SensmartRow {
    SensmartRow {
        part: "relocate".into(),
        name: name.into(),
        manifest: "m.toml".into(),
        passed: true,
        note: None,
        relocations: rel,
        switch_cycles: switch,
    }
}

#[test]
fn fit_recovers_a_line_and_refuses_one_size() {
    let rel: Vec<Relocation> = [256u32, 1024, 4096]
        .iter()
        .map(|&b| Relocation {
            bytes: b,
            cycles: 200 + 3 * u64::from(b / 4),
        })
        .collect();
    let (a, b) = fit(&rel).unwrap();
    assert!(
        (a - 200.0).abs() < 1e-6 && (b - 3.0).abs() < 1e-9,
        "{a} {b}"
    );
    assert_eq!(fit(&rel[..1]), None);
    assert_eq!(fit(&[]), None);
}

#[test]
fn summary_names_the_kib_relocation_and_both_switches() {
    let rows = vec![
        row(
            "relocation",
            vec![
                Relocation {
                    bytes: 512,
                    cycles: 700,
                },
                Relocation {
                    bytes: 1024,
                    cycles: 900,
                },
            ],
            None,
        ),
        row("switch static", vec![], Some(90)),
        row("switch relocate", vec![], Some(95)),
    ];
    let line = summary(&rows).line();
    assert!(
        line.starts_with("sensmart: relocation_cycles=900 "),
        "{line}"
    );
    assert!(line.contains("relocation_per_word=1.56"), "{line}");
    assert!(
        line.contains("switch_static=90 switch_relocate=95"),
        "{line}"
    );
    let mut failed = rows.clone();
    failed[0].passed = false;
    assert!(summary(&failed).line().contains("relocation_cycles=- "));
    assert!(markdown(&rows).contains("| 1024 |"));
}
