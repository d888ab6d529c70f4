//! `cactus bench sensmart --parts relocate` end to end on the real tree: the relocation
//! firmware moves exactly the live stack each probe sets up (256 B to 4 KiB) under either
//! window and copy, its cycles grow with the bytes, the summary line names the 1 KiB
//! relocations (`relocation_cycles`: the software window's, with the copy engine), each has its
//! breakdown, the copy engine beats the CPU copy, the JSON store holds the nine runs (three
//! relocation builds, three switches, three builds of the Table II firmware) and the hardware
//! window gets no translation cost. Skipped (with a message) only when
//! riscv64-unknown-elf-gcc is missing.

use crate::support::*;

#[test]
fn the_relocation_and_switch_runs_give_the_summary_and_the_store() {
    if no_cross_compiler() {
        return;
    }
    let dir = scratch("bench_sensmart");
    let json = dir.join("sensmart.json");
    let build = dir.join("b");
    let out = cactus(&[
        "bench",
        "sensmart",
        "--size",
        "small",
        "--parts",
        "relocate",
        "--build-dir",
        build.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    let text = stdout(&out);
    let last = text.lines().last().unwrap_or("");
    assert!(
        last.starts_with("sensmart: relocation_cycles=") && last.ends_with(" passed=9 failed=0"),
        "{text}"
    );
    let store: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let rows = store["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 9);
    let row = |name: &str| {
        rows.iter()
            .map(|k| &k["row"])
            .find(|r| r["name"] == name)
            .unwrap()
    };
    // Each relocation build: the five sizes, cycles growing with them, every one broken down.
    let relocations = |name: &str| -> (Vec<u64>, Vec<u64>) {
        let rel = row(name)["relocations"].as_array().unwrap();
        assert!(
            rel.iter()
                .all(|r| r["breakdown"].as_array().is_some_and(|b| b.len() == 7)),
            "{name}: {rel:?}"
        );
        let field = |k: &str| rel.iter().map(|r| r[k].as_u64().unwrap()).collect();
        (field("bytes"), field("cycles"))
    };
    let (bytes, sw) = relocations("relocation sw");
    assert_eq!(bytes, [256, 512, 1024, 2048, 4096]);
    assert!(sw.windows(2).all(|w| w[0] < w[1]), "{sw:?}");
    let (cpu_bytes, cpu) = relocations("relocation sw cpu");
    let (hw_bytes, hw) = relocations("relocation");
    assert_eq!((&cpu_bytes, &hw_bytes), (&bytes, &bytes));
    assert!(sw.iter().zip(&cpu).all(|(e, c)| e < c), "{sw:?} {cpu:?}");
    for (key, c) in [
        ("relocation_cycles", sw[2]),
        ("relocation_cpu_cycles", cpu[2]),
        ("relocation_hw_cycles", hw[2]),
    ] {
        assert!(last.contains(&format!("{key}={c} ")), "{last}");
    }
    // Table II: the hardware window adds nothing to an access; the software one translates.
    let ops = |name: &str| -> Vec<u64> {
        row(name)["ops"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap())
            .collect()
    };
    let (st, sw, hw) = (
        ops("ops static"),
        ops("ops relocate-sw"),
        ops("ops relocate-hw"),
    );
    assert_eq!(st.len(), 6);
    assert_eq!(st[..3], hw[..3], "{st:?} {hw:?}");
    assert!(sw[1] > st[1] && sw[2] > st[2], "{st:?} {sw:?}");
}
