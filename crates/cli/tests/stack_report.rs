//! `cactus stack-report` on real GCC output: two C files compiled with `-S -O2`; the depth of a
//! call chain across both files equals the sum of GCC's own `-fstack-usage` frames along it,
//! and recursion, indirect calls and external callees are reported unbounded with their cause.

use crate::support::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const A_C: &str = r#"
int mid(int x);
int pong(int n);
int top(int x) {
    volatile int buf[8];
    for (int i = 0; i < 8; i++)
        buf[i] = x + i;
    return mid(buf[3]) + buf[5];
}
int ping(int n) {
    volatile int pad[4];
    pad[0] = n;
    return n <= 0 ? pad[0] : pong(n - 1) + pad[0];
}
int via_pointer(int (*f)(int), int x) {
    return f(x) + 1;
}
"#;

const B_C: &str = r#"
extern int external_sink(int x);
int ping(int n);
__attribute__((noinline)) int leaf(int x) {
    volatile int b[6];
    for (int i = 0; i < 6; i++)
        b[i] = x * i;
    return b[2];
}
int mid(int x) {
    volatile int buf[4];
    buf[0] = x;
    buf[1] = leaf(buf[0]);
    return buf[1] + buf[0];
}
int pong(int n) {
    volatile int pad[2];
    pad[0] = n;
    return ping(n) + pad[0];
}
int calls_out(int x) {
    return external_sink(x) + 1;
}
"#;

/// Compiles `name.c` (text `src`) in `dir` to `name.s` with `-fstack-usage`; returns the `.s`
/// path and GCC's static frame sizes by function name.
fn compile(dir: &Path, name: &str, src: &str) -> (PathBuf, BTreeMap<String, u32>) {
    let c = dir.join(format!("{name}.c"));
    std::fs::write(&c, src).unwrap();
    let s = dir.join(format!("{name}.s"));
    run_ok(
        Command::new(CC)
            .current_dir(dir)
            .args(["-S", "-O2", "-fstack-usage", "-Wall", "-Wextra", "-Werror"])
            .args(["-march=rv32imac_zicsr_zifencei", "-mabi=ilp32", "-o"])
            .arg(&s)
            .arg(&c),
    );
    let su = std::fs::read_to_string(dir.join(format!("{name}.su"))).unwrap();
    let frames = su
        .lines()
        .map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            let func = cols[0].rsplit(':').next().unwrap().to_string();
            (func, cols[1].parse().unwrap())
        })
        .collect();
    (s, frames)
}

#[test]
fn chain_depth_is_sum_of_gcc_frames() {
    let dir = scratch("stack_report_chain");
    let (a, su_a) = compile(&dir, "a", A_C);
    let (b, su_b) = compile(&dir, "b", B_C);
    let expected = su_a["top"] + su_b["mid"] + su_b["leaf"];
    assert!(expected > su_a["top"], "frames: {su_a:?} {su_b:?}");

    let args = [a.to_str().unwrap(), b.to_str().unwrap()];
    let out = cactus(&[&["stack-report", "--entry", "top"], &args[..]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains(&format!("entry top: {expected}\n")),
        "want {expected}:\n{text}"
    );

    let out = cactus(&[&["stack-report", "--json", "--entry", "ping"], &args[..]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let funcs = doc["functions"].as_array().unwrap();
    let get = |name: &str| {
        funcs
            .iter()
            .find(|f| f["name"] == name)
            .unwrap_or_else(|| panic!("no {name} in {doc}"))
    };
    assert_eq!(get("top")["depth"]["bounded"], expected);
    assert_eq!(get("leaf")["frame"], su_b["leaf"]);
    assert_eq!(get("leaf")["kind"], "static");
    let unbounded = |name: &str| {
        get(name)["depth"]["unbounded"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert!(unbounded("ping").starts_with("recursion "), "{doc}");
    assert!(unbounded("pong").contains("ping"), "{doc}");
    assert_eq!(unbounded("via_pointer"), "indirect call in via_pointer");
    assert_eq!(
        unbounded("calls_out"),
        "external callee external_sink (called by calls_out)"
    );
    assert_eq!(doc["entries"][0]["name"], "ping");
    assert!(doc["entries"][0]["depth"]["unbounded"].is_string());
}

#[test]
fn unknown_entry_is_bad_input() {
    let dir = scratch("stack_report_bad_entry");
    let (b, _) = compile(&dir, "b", B_C);
    let out = cactus(&["stack-report", "--entry", "nosuch", b.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("nosuch"), "{}", stderr(&out));

    let missing = dir.join("missing.s");
    let out = cactus(&["stack-report", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("missing.s"), "{}", stderr(&out));
}

/// The demo firmware's manifest: every C unit (tasks, generated glue, kernel) compiled to
/// assembly with the build's flags; each of the three tasks is reported with what runs on its
/// stack (the periodic sensor's generated wrapper, which calls its job), its budget and a
/// depth or the reason it has none, in the table and in JSON.
#[test]
fn manifest_reports_every_task_of_the_demo() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../workloads/demo/demo.toml");
    let manifest = manifest.to_str().unwrap();
    let tasks = [
        ("sensor", "sensor_job", "fw_run_sensor", 512),
        ("consumer", "consumer_main", "consumer_main", 1024),
        ("logger", "logger_main", "logger_main", 1024),
    ];

    let out = cactus(&["stack-report", manifest]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for (task, entry, analysed, budget) in tasks {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(task))
            .unwrap_or_else(|| panic!("no row for {task}:\n{text}"));
        if analysed != entry {
            assert!(
                line.contains(&format!("{analysed} (calls {entry})")),
                "{line}"
            );
        }
        let line = line.replace(&format!(" (calls {entry})"), "");
        let cols: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(cols[1], analysed, "{line}");
        assert_eq!(cols[2], budget.to_string(), "{line}");
        let depth_given = cols[4].parse::<u32>().is_ok() && ["yes", "NO"].contains(&cols[3]);
        let reason_given = cols[3] == "unknown" && line.contains("unbounded: ");
        assert!(depth_given || reason_given, "{line}");
    }

    let out = cactus(&["stack-report", "--json", manifest]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let rows = doc["tasks"].as_array().unwrap();
    assert_eq!(rows.len(), tasks.len(), "{doc}");
    for (row, (task, entry, analysed, budget)) in rows.iter().zip(tasks) {
        assert_eq!(row["task"], task);
        assert_eq!(row["entry"], entry);
        assert_eq!(row["analysed_entry"], analysed);
        assert_eq!(row["budget"], budget);
        match (
            row["depth"]["bounded"].as_u64(),
            row["depth"]["unbounded"].as_str(),
        ) {
            (Some(n), None) => assert_eq!(row["covered"], n <= budget as u64, "{row}"),
            (None, Some(why)) => {
                assert!(!why.is_empty(), "{row}");
                assert!(row["covered"].is_null(), "{row}");
            }
            _ => panic!("neither a depth nor a reason: {row}"),
        }
    }
}

#[test]
fn bad_manifest_is_bad_input() {
    let dir = scratch("stack_report_bad_manifest");
    let manifest = dir.join("broken.toml");
    std::fs::write(&manifest, "[firmware]\nname = 3\n").unwrap();
    let out = cactus(&["stack-report", manifest.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("broken.toml"), "{}", stderr(&out));
}
