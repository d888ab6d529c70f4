//! The TOML format: a full file, defaults, every kind of error with its file, line and key, and
//! the round trip through [`to_toml`].

use super::*;

const FULL: &str = r#"# a comment
[system]
cs1 = 401
cs2 = 387
carousel_cs = 4321
clock_hz = 100000000

[[task]]
name = "a"
wcet = 3000
period = 7000
priority = 3

[[task]]
name = "b"
wcet = 3000
period = 12000
deadline = 11000
priority = 2
blocking = 17
offset = 5

[[task.critical]]
resource = "uart"
cycles = 200
"#;

/// (line, key, a word of the problem) of the error `text` gives.
fn error(text: &str) -> (Option<usize>, String, String) {
    match parse(text, "set.toml").unwrap_err() {
        InputError::Invalid {
            file,
            line,
            key,
            problem,
        } => {
            assert_eq!(file, "set.toml");
            (line, key, problem)
        }
        e => panic!("not an Invalid error: {e}"),
    }
}

#[test]
fn a_full_file_parses_with_its_defaults() {
    let s = parse(FULL, "set.toml").unwrap();
    assert_eq!(
        s.system(),
        &System {
            cs1: 401,
            cs2: 387,
            carousel_cs: Some(4321),
            clock_hz: Some(100_000_000),
        }
    );
    let a = &s.tasks()[0];
    assert_eq!(
        (a.wcet, a.period, a.deadline, a.priority),
        (3000, 7000, 7000, 3)
    );
    assert_eq!((a.blocking, a.offset, a.critical.len()), (None, 0, 0));
    let b = &s.tasks()[1];
    assert_eq!((b.deadline, b.blocking, b.offset), (11000, Some(17), 5));
    assert_eq!(
        b.critical,
        [CriticalSection {
            resource: "uart".into(),
            cycles: 200
        }]
    );
}

#[test]
fn without_a_system_table_every_cost_is_zero() {
    let s = parse(
        "[[task]]\nname = \"a\"\nwcet = 1\nperiod = 2\npriority = 0\n",
        "f",
    )
    .unwrap();
    assert_eq!(s.system(), &System::default());
}

#[test]
fn errors_name_the_line_and_key() {
    // A value of the wrong type: toml's own message, at its line.
    let (line, key, problem) = error(&FULL.replace(
        "wcet = 3000\nperiod = 12000",
        "wcet = \"x\"\nperiod = 12000",
    ));
    assert_eq!((line, key.as_str()), (Some(16), "task[1].wcet"));
    assert!(problem.contains("expected i64"), "{problem}");
    // An unknown key.
    let (line, _, problem) = error(&FULL.replace("offset = 5", "ofset = 5"));
    assert_eq!(line, Some(21));
    assert!(problem.contains("ofset"), "{problem}");
    // A missing key.
    let (_, _, problem) = error("[[task]]\nname = \"a\"\nwcet = 1\npriority = 0\n");
    assert!(problem.contains("period"), "{problem}");
    // Negative and zero values.
    let (line, key, _) = error(&FULL.replace("cs2 = 387", "cs2 = -1"));
    assert_eq!((line, key.as_str()), (Some(4), "system.cs2"));
    let (line, key, problem) = error(&FULL.replace("period = 7000", "period = 0"));
    assert_eq!((line, key.as_str()), (Some(11), "task[0].period"));
    assert!(problem.contains("at least 1"), "{problem}");
    // Rules of the set, located at the offending value.
    let (line, key, problem) = error(&FULL.replace("deadline = 11000", "deadline = 13000"));
    assert_eq!((line, key.as_str()), (Some(18), "task[1].deadline"));
    assert!(problem.contains("D <= T"), "{problem}");
    let (line, key, _) = error(&FULL.replace("priority = 2", "priority = 3"));
    assert_eq!((line, key.as_str()), (Some(19), "task[1].priority"));
    let (line, key, _) = error(&FULL.replace("name = \"b\"", "name = \"a\""));
    assert_eq!((line, key.as_str()), (Some(15), "task[1].name"));
    let (line, key, _) = error(&FULL.replace("cycles = 200", "cycles = 3001"));
    assert_eq!(
        (line, key.as_str()),
        (Some(25), "task[1].critical[0].cycles")
    );
    let (line, key, _) = error(&FULL.replace("offset = 5", "offset = 12001"));
    assert_eq!((line, key.as_str()), (Some(21), "task[1].offset"));
    let (line, key, _) = error(&FULL.replace("clock_hz = 100000000", "clock_hz = 0"));
    assert_eq!((line, key.as_str()), (Some(6), "system.clock_hz"));
    // No task at all.
    let (line, key, _) = error("[system]\ncs1 = 1\n");
    assert_eq!((line, key.as_str()), (None, "task"));
    // Not TOML.
    let (line, _, _) = error("[[task]\n");
    assert_eq!(line, Some(1));
}

#[test]
fn the_message_reads_file_line_key_problem() {
    let e = parse(&FULL.replace("period = 7000", "period = 0"), "dir/set.toml").unwrap_err();
    assert_eq!(
        e.to_string(),
        "dir/set.toml:11: `task[0].period`: 0 is out of range (at least 1)"
    );
    let e = load(Path::new("/nonexistent/set.toml")).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("cannot read task set /nonexistent/set.toml: "),
        "{e}"
    );
}

#[test]
fn to_toml_reads_back_to_the_same_set() {
    let s = parse(FULL, "set.toml").unwrap();
    let text = to_toml(&s);
    assert_eq!(parse(&text, "again.toml").unwrap(), s, "{text}");
    let bare = parse(
        "[[task]]\nname = \"a b\\\"\"\nwcet = 1\nperiod = 2\npriority = 0\n",
        "f",
    )
    .unwrap();
    assert_eq!(parse(&to_toml(&bare), "f").unwrap(), bare);
}
