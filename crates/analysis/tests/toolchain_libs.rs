//! The machine-code analysis on the real toolchain libraries (picolibc `libc.a`, `libgcc.a`),
//! cross-checked against GNU objdump's independent disassembly: well-known leaves have depth
//! 0; every bounded function's depth covers its largest single `sp` decrement; every function
//! objdump shows as a leaf that never writes `sp` has depth 0. Also the JSON cache: reused
//! while valid, recomputed when an archive changes.

use crate::common;
use cactus_analysis::machine::toolchain::{archive_depths_cached, CACHE_FILE, GCC};
use cactus_analysis::machine::{
    analyze_files, toolchain_archives, toolchain_library_depths, MachineAnalysis, MachineDepth,
};
use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

fn libraries() -> MachineAnalysis {
    let libs = toolchain_archives(GCC).unwrap();
    analyze_files(&[libs.libc, libs.libgcc]).unwrap()
}

#[test]
fn finds_the_rv32imac_libraries() {
    let libs = toolchain_archives(GCC).unwrap();
    assert!(libs.libc.is_file() && libs.libgcc.is_file(), "{libs:?}");
    assert!(
        libs.libc.to_string_lossy().contains("rv32imac/ilp32"),
        "{libs:?}"
    );
    assert!(
        libs.libgcc.to_string_lossy().contains("rv32imac/ilp32"),
        "{libs:?}"
    );
}

#[test]
fn well_known_functions_have_plausible_depths() {
    let a = libraries();
    for leaf in [
        "memcpy",
        "memset",
        "strlen",
        "strcmp",
        "__udivdi3",
        "__umodsi3",
    ] {
        assert_eq!(a.depths[leaf], MachineDepth::Bytes(0), "{leaf}");
    }
    // malloc saves registers through libgcc's __riscv_save_N and calls the allocator's
    // helpers: bounded, deeper than its own frame.
    let malloc = a.functions.iter().find(|f| f.names[0] == "malloc").unwrap();
    let MachineDepth::Bytes(d) = malloc.depth else {
        panic!("{malloc:?}")
    };
    assert!(malloc.frame > 0 && d > malloc.frame, "{malloc:?}");
    // printf-family functions call the FILE's put function through a pointer.
    match &a.depths["snprintf"] {
        MachineDepth::Unbounded(why) => assert!(why.starts_with("indirect call"), "{why}"),
        d => panic!("snprintf: {d:?}"),
    }
    // qsort calls the comparison function through a pointer.
    assert!(matches!(&a.depths["qsort"], MachineDepth::Unbounded(w) if w.contains("qsort")));
}

/// One function as objdump shows it.
#[derive(Default)]
struct Shown {
    /// Largest N of `addi sp,sp,-N` (any encoding).
    largest_decrement: u32,
    /// Some instruction other than a store or branch names `sp` first (writes it).
    writes_sp: bool,
    /// A call, indirect jump or jump/branch relocated to a symbol that is not a local label.
    leaves_function: bool,
}

const NOT_WRITING_FIRST: &[&str] = &[
    "sw", "sh", "sb", "beq", "bne", "blt", "bge", "bltu", "bgeu", "beqz", "bnez", "blez", "bgez",
    "bltz", "bgtz", "bgt", "ble", "bgtu", "bleu", "jr",
];

/// Parses `objdump -d -r` of an archive into functions keyed by (member, name).
fn objdump(archive: &Path) -> HashMap<(String, String), Shown> {
    let out = Command::new("riscv64-unknown-elf-objdump")
        .args(["-d", "-r", "--no-show-raw-insn"])
        .arg(archive)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let mut map = HashMap::new();
    let mut member = String::new();
    let mut current: Option<(String, String)> = None;
    for line in text.lines() {
        if let Some(m) = line.strip_suffix(":     file format elf32-littleriscv") {
            member = m.to_string();
            current = None;
        } else if line.starts_with("Disassembly of section") {
            current = None;
        } else if let Some(name) = line
            .split_once(" <")
            .filter(|(addr, _)| !addr.starts_with(' ') && !addr.is_empty())
            .and_then(|(_, rest)| rest.strip_suffix(">:"))
        {
            if !name.starts_with(".L") && !name.starts_with('$') {
                let key = (member.clone(), name.to_string());
                map.insert(key.clone(), Shown::default());
                current = Some(key);
            }
        } else if let Some(key) = &current {
            let f = map.get_mut(key).unwrap();
            let fields: Vec<&str> = line.split('\t').map(str::trim).collect();
            if let Some(reloc) = fields.iter().find(|f| f.contains(": R_RISCV_")) {
                let kind = reloc.split(": ").nth(1).unwrap_or("");
                let target = fields.last().unwrap_or(&"");
                let control = [
                    "R_RISCV_CALL",
                    "R_RISCV_JAL",
                    "R_RISCV_RVC_JUMP",
                    "R_RISCV_BRANCH",
                    "R_RISCV_RVC_BRANCH",
                ]
                .iter()
                .any(|k| kind == *k || kind == format!("{k}_PLT"));
                if control && !target.starts_with(".L") {
                    f.leaves_function = true;
                }
                continue;
            }
            if fields.len() < 3 || !fields[0].ends_with(':') {
                continue;
            }
            let (mnemonic, operands) = (fields[1], fields.get(2).copied().unwrap_or(""));
            let ops: Vec<&str> = operands.split(',').collect();
            if ops[0] == "sp" && !NOT_WRITING_FIRST.contains(&mnemonic) {
                f.writes_sp = true;
                if (mnemonic == "addi" || mnemonic == "add") && ops.len() == 3 && ops[1] == "sp" {
                    if let Some(n) = ops[2].strip_prefix('-').and_then(|n| n.parse::<u32>().ok()) {
                        f.largest_decrement = f.largest_decrement.max(n);
                    }
                }
            }
            let jumps_out = match mnemonic {
                "jal" | "jalr" | "call" | "tail" => true,
                "jr" => operands != "ra",
                _ => false,
            };
            if jumps_out {
                f.leaves_function = true;
            }
        }
    }
    map
}

#[test]
fn libc_depths_agree_with_objdump() {
    let libs = toolchain_archives(GCC).unwrap();
    let a = libraries();
    let shown = objdump(&libs.libc);
    let prefix = format!("{}(", libs.libc.display());
    let (mut leaves, mut bounded) = (0, 0);
    for f in &a.functions {
        let Some(member) = f
            .origin
            .strip_prefix(&prefix)
            .and_then(|m| m.strip_suffix(')'))
        else {
            continue;
        };
        let Some(s) = shown.get(&(member.to_string(), f.names[0].clone())) else {
            continue;
        };
        if let MachineDepth::Bytes(d) = f.depth {
            bounded += 1;
            assert!(d >= f.frame, "{f:?}");
            assert!(
                d >= s.largest_decrement,
                "{}: depth {d} below its own `addi sp,sp,-{}`",
                f.names[0],
                s.largest_decrement
            );
        }
        if !s.writes_sp && !s.leaves_function {
            leaves += 1;
            assert_eq!(
                f.depth,
                MachineDepth::Bytes(0),
                "leaf {} in {member}",
                f.names[0]
            );
            assert_eq!(f.frame, 0, "leaf {}", f.names[0]);
        }
    }
    assert!(
        leaves > 200 && bounded > 600,
        "only {leaves} leaves, {bounded} bounded"
    );
}

#[test]
fn cache_is_reused_while_valid_and_recomputed_when_an_archive_changes() {
    let dir = tempfile::tempdir().unwrap();
    let obj = common::assemble(
        dir.path(),
        "f.s",
        "\t.text\n\t.globl f\n\t.type f,@function\nf:\n\taddi sp,sp,-48\n\taddi sp,sp,48\n\tret\n\t.size f,.-f\n",
    );
    let lib = dir.path().join("libf.a");
    common::run(
        Command::new("riscv64-unknown-elf-ar")
            .arg("rcs")
            .arg(&lib)
            .arg(&obj),
    );
    let cache = dir.path().join("cache");
    let first = archive_depths_cached(&[&lib], &cache).unwrap();
    assert_eq!(first["f"], MachineDepth::Bytes(48));
    // A valid cache is read, not recomputed: a value edited into it comes back.
    let file = cache.join(CACHE_FILE);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("\"Bytes\": 48"), "{text}");
    std::fs::write(&file, text.replace("\"Bytes\": 48", "\"Bytes\": 4800")).unwrap();
    assert_eq!(
        archive_depths_cached(&[&lib], &cache).unwrap()["f"],
        MachineDepth::Bytes(4800)
    );
    // A changed archive (other size) invalidates it.
    let obj2 = common::assemble(
        dir.path(),
        "g.s",
        "\t.text\n\t.globl g\n\t.type g,@function\ng:\n\tret\n\t.size g,.-g\n",
    );
    common::run(
        Command::new("riscv64-unknown-elf-ar")
            .arg("rcs")
            .arg(&lib)
            .arg(&obj2),
    );
    let again = archive_depths_cached(&[&lib], &cache).unwrap();
    assert_eq!(again["f"], MachineDepth::Bytes(48));
    assert_eq!(again["g"], MachineDepth::Bytes(0));
    // A corrupt cache is recomputed, and nothing but the cache file is left behind.
    std::fs::write(&file, "{ not json").unwrap();
    assert_eq!(
        archive_depths_cached(&[&lib], &cache).unwrap()["f"],
        MachineDepth::Bytes(48)
    );
    let names: Vec<_> = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from(CACHE_FILE)]);
}

#[test]
fn toolchain_depths_come_from_the_cache_directory() {
    let dir = tempfile::tempdir().unwrap();
    let depths = toolchain_library_depths(dir.path()).unwrap();
    assert!(dir.path().join(CACHE_FILE).is_file());
    assert_eq!(depths["memcpy"], MachineDepth::Bytes(0));
    assert!(depths.contains_key("__udivdi3") && depths.contains_key("vfprintf"));
}
