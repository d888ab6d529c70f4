//! Every kind of bad input to `cactus run` gives exit code 2 and one clear line naming the
//! file and the problem, never a panic.

use crate::support::*;
use std::path::Path;

fn assert_bad_input(out: &std::process::Output, names: &str, problem: &str) {
    let err = stderr(out);
    assert_eq!(code(out), 2, "stderr:\n{err}");
    assert!(err.contains(names), "{names:?} not named in:\n{err}");
    assert!(
        err.to_lowercase().contains(&problem.to_lowercase()),
        "{problem:?} not in:\n{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    assert!(stdout(out).is_empty(), "nothing may run: {}", stdout(out));
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

#[test]
fn a_missing_file() {
    let dir = scratch("missing");
    let elf = dir.join("no-such.elf");
    assert_bad_input(&cactus_run(&elf, &[]), path_str(&elf), "cannot read");
}

#[test]
fn a_file_that_is_not_elf() {
    let dir = scratch("not-elf");
    let elf = dir.join("notes.txt");
    std::fs::write(&elf, "just some text\n").unwrap();
    assert_bad_input(&cactus_run(&elf, &[]), path_str(&elf), "not an ELF");
}

#[test]
fn a_64_bit_elf() {
    let dir = scratch("rv64");
    let elf = dir.join("rv64.elf");
    run_ok(
        std::process::Command::new(CC)
            .args(["-march=rv64imac", "-mabi=lp64", "-nostdlib", "-T"])
            .arg(fixtures().join("link.ld"))
            .arg(fixtures().join("rv64.S"))
            .arg("-o")
            .arg(&elf),
    );
    assert_bad_input(&cactus_run(&elf, &[]), path_str(&elf), "class");
}

#[test]
fn an_elf_for_another_machine() {
    let dir = scratch("x86");
    let good = build(&dir, "hello");
    let mut bytes = std::fs::read(&good).unwrap();
    bytes[18..20].copy_from_slice(&3u16.to_le_bytes()); // e_machine = EM_386
    let elf = dir.join("x86.elf");
    std::fs::write(&elf, bytes).unwrap();
    assert_bad_input(&cactus_run(&elf, &[]), path_str(&elf), "machine 3");
}

#[test]
fn segments_outside_memory() {
    let dir = scratch("far");
    let elf = build_with(&dir, "hello", "far.ld");
    assert_bad_input(&cactus_run(&elf, &[]), path_str(&elf), "0x40000000");
}

#[test]
fn an_unknown_profile_name() {
    let dir = scratch("unknown-profile");
    let elf = build(&dir, "hello");
    let out = cactus_run(&elf, &["--profile", "nosuch"]);
    assert_bad_input(&out, "nosuch", "unknown profile");
    assert!(
        stderr(&out).contains("mcu"),
        "built-in names listed: {}",
        stderr(&out)
    );
}

#[test]
fn a_profile_file_with_an_unknown_key() {
    let dir = scratch("bad-profile");
    let elf = build(&dir, "hello");
    let mcu = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../profiles/mcu.toml"),
    )
    .expect("profiles/mcu.toml");
    let profile = dir.join("bad.toml");
    std::fs::write(&profile, format!("bogus_key = 1\n{mcu}")).unwrap();
    let out = cactus_run(&elf, &["--profile", path_str(&profile)]);
    assert_bad_input(&out, path_str(&profile), "bogus_key");
}

#[test]
fn a_missing_uart_input_file() {
    let dir = scratch("uart-in");
    let elf = build(&dir, "hello");
    let input = dir.join("no-such.in");
    let out = cactus_run(&elf, &["--uart-in", path_str(&input)]);
    assert_bad_input(&out, path_str(&input), "cannot read the UART input file");
}

#[test]
fn a_missing_profile_file() {
    let dir = scratch("missing-profile");
    let elf = build(&dir, "hello");
    let profile = dir.join("none.toml");
    let out = cactus_run(&elf, &["--profile", path_str(&profile)]);
    assert_bad_input(&out, path_str(&profile), "cannot read");
}

#[test]
fn an_empty_file() {
    let dir = scratch("empty-elf");
    let elf = dir.join("empty.elf");
    std::fs::write(&elf, b"").unwrap();
    assert_bad_input(&cactus_run(&elf, &[]), path_str(&elf), "not an ELF");
}

#[test]
fn truncated_elfs() {
    let dir = scratch("truncated");
    let good = std::fs::read(build(&dir, "hello")).unwrap();
    // Cut inside the ELF header, inside the program headers, and inside the loaded segment.
    for len in [10, 60, good.len() / 2] {
        let elf = dir.join(format!("cut{len}.elf"));
        std::fs::write(&elf, &good[..len]).unwrap();
        let out = cactus_run(&elf, &[]);
        let err = stderr(&out);
        assert_eq!(code(&out), 2, "cut at {len}: {err}");
        assert!(err.contains(path_str(&elf)), "cut at {len}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// A small deterministic generator (xorshift32), so a failing mutation can be replayed.
fn next(state: &mut u32) -> u32 {
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    *state
}

#[test]
fn forty_randomly_mutated_elfs_are_refused_or_run_to_a_verdict() {
    let dir = scratch("mutated");
    let good = std::fs::read(build(&dir, "hello")).unwrap();
    let mut state = 0x2545_f491;
    for case in 0..40 {
        let mut bytes = good.clone();
        // Headers are where a mutation changes the most: half the edits land in the first
        // 256 bytes (ELF and program headers), the rest anywhere.
        for _ in 0..1 + next(&mut state) % 4 {
            let span = if next(&mut state).is_multiple_of(2) {
                256
            } else {
                bytes.len()
            };
            let at = next(&mut state) as usize % span.min(bytes.len());
            bytes[at] = next(&mut state) as u8;
        }
        let elf = dir.join(format!("m{case}.elf"));
        std::fs::write(&elf, &bytes).unwrap();
        let out = cactus_run(&elf, &["--stats", "none", "--max-cycles", "200000"]);
        let err = stderr(&out);
        let exit = out.status.code();
        assert!(exit.is_some(), "case {case}: killed by a signal:\n{err}");
        assert!(!err.contains("panicked"), "case {case}:\n{err}");
        if err.contains("error:") {
            assert_eq!(exit, Some(2), "case {case}: {err}");
            assert!(err.contains(path_str(&elf)), "case {case}: {err}");
        }
    }
}
