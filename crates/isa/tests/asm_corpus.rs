//! Assembly round trips on real GCC 12 output and a hand-written list:
//! `print(parse(s)) == s` for every instruction line GCC emits, and agreement with GNU as
//! on what each numeric statement encodes to (when the toolchain is installed).

use cactus_isa::asm::{parse_line, parse_statements, Piece, Statement};
use cactus_isa::encode;
use std::path::{Path, PathBuf};
use std::process::Command;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// Counts of what `check_gcc_output` verified.
#[derive(Default, Debug)]
struct Counts {
    verbatim: usize,
    inline_asm: usize,
}

/// Checks every instruction line of a GCC `.s` file. Lines GCC writes itself must print
/// back verbatim (GCC separates mnemonic and operands by a tab; we print a space). Lines
/// of inline assembly (between `#APP` and `#NO_APP`) are the programmer's spelling: they
/// must parse, and their printed form must parse back to the same statements.
fn check_gcc_output(name: &str, text: &str) -> Counts {
    let mut counts = Counts::default();
    let mut in_app = false;
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        match trimmed {
            "#APP" => in_app = true,
            "#NO_APP" => in_app = false,
            _ => {}
        }
        let is_instruction =
            line.starts_with('\t') && !trimmed.starts_with('.') && !trimmed.starts_with('#');
        if !is_instruction {
            continue;
        }
        let where_ = format!("{name}:{}: `{trimmed}`", n + 1);
        let stmts = parse_line(trimmed).unwrap_or_else(|e| panic!("{where_}: {e}"));
        let printed = join(&stmts);
        if in_app {
            let again = parse_line(&printed).unwrap_or_else(|e| panic!("{where_}: {e}"));
            assert_eq!(again, stmts, "{where_}: printed as `{printed}`");
            counts.inline_asm += 1;
        } else {
            let expected = trimmed.replacen('\t', " ", 1);
            assert_eq!(printed, expected, "{where_}");
            counts.verbatim += 1;
        }
    }
    counts
}

fn join(pieces: &[Piece]) -> String {
    pieces
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

#[test]
fn stored_gcc12_output_round_trips() {
    let mut total = Counts::default();
    let mut files = 0;
    for entry in std::fs::read_dir(data("gcc12")).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let c = check_gcc_output(&path.display().to_string(), &text);
        total.verbatim += c.verbatim;
        total.inline_asm += c.inline_asm;
        files += 1;
    }
    assert_eq!(files, 6, "expected kernelish/workload at -O0/-O2/-Os");
    assert!(total.verbatim > 2000, "{total:?}");
    assert!(total.inline_asm > 20, "{total:?}");
}

#[test]
fn handwritten_lines_round_trip_verbatim() {
    let text = std::fs::read_to_string(data("handwritten.s")).unwrap();
    let mut n = 0;
    for line in text.lines() {
        let stmts = parse_statements(line).unwrap_or_else(|e| panic!("{e}"));
        let printed = stmts
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ");
        assert_eq!(printed, line);
        n += 1;
    }
    assert!(n > 140);
}

fn tool(name: &str) -> Option<PathBuf> {
    let ok = Command::new(name)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    ok.then(|| PathBuf::from(name))
}

fn scratch_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cactus-isa-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn fresh_gcc_output_round_trips_when_gcc_is_installed() {
    let Some(gcc) = tool("riscv64-unknown-elf-gcc") else {
        eprintln!("riscv64-unknown-elf-gcc not found; only the stored corpus was checked");
        return;
    };
    let dir = scratch_dir("gcc");
    for src in ["kernelish", "workload"] {
        for opt in ["-O0", "-O1", "-O2", "-O3", "-Os"] {
            let out = dir.join(format!("{src}{opt}.s"));
            let status = Command::new(&gcc)
                .args([
                    "--specs=picolibc.specs",
                    "-march=rv32imac_zicsr_zifencei",
                    "-mabi=ilp32",
                    opt,
                    "-S",
                ])
                .arg(data(&format!("corpus/{src}.c")))
                .arg("-o")
                .arg(&out)
                .status()
                .unwrap();
            assert!(status.success(), "gcc {src} {opt}");
            let text = std::fs::read_to_string(&out).unwrap();
            let c = check_gcc_output(&out.display().to_string(), &text);
            assert!(c.verbatim > 50, "{src}{opt}: {c:?}");
        }
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// Every numeric hand-written statement expands to exactly the words GNU as emits for it.
#[test]
fn expansions_match_gnu_as_when_installed() {
    let (Some(as_), Some(objcopy)) = (
        tool("riscv64-unknown-elf-as"),
        tool("riscv64-unknown-elf-objcopy"),
    ) else {
        eprintln!("binutils not found; skipped the comparison with GNU as");
        return;
    };
    let text = std::fs::read_to_string(data("handwritten.s")).unwrap();
    let mut source = String::from(".option norvc\n.option norelax\n");
    let mut expected: Vec<u8> = Vec::new();
    let mut count = 0;
    for line in text.lines() {
        let stmts = parse_statements(line).unwrap();
        let Ok(words) = stmts
            .iter()
            .map(Statement::expand)
            .collect::<Result<Vec<_>, _>>()
        else {
            continue;
        };
        for (stmt, insts) in stmts.iter().zip(&words) {
            if let Statement::Compressed(c) = stmt {
                source.push_str(&format!(".option rvc\n{stmt}\n.option norvc\n"));
                expected.extend(cactus_isa::encode_compressed(c).unwrap().to_le_bytes());
            } else {
                source.push_str(&format!("{stmt}\n"));
                for inst in insts {
                    expected.extend(encode(inst).unwrap().to_le_bytes());
                }
            }
            count += 1;
        }
    }
    let dir = scratch_dir("as");
    let (src, obj, bin) = (dir.join("t.s"), dir.join("t.o"), dir.join("t.bin"));
    std::fs::write(&src, &source).unwrap();
    let out = Command::new(&as_)
        .arg("-march=rv32imac_zicsr_zifencei")
        .arg(&src)
        .arg("-o")
        .arg(&obj)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "as failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ok = Command::new(&objcopy)
        .args(["-O", "binary", "-j", ".text"])
        .arg(&obj)
        .arg(&bin)
        .status()
        .unwrap();
    assert!(ok.success());
    let actual = std::fs::read(&bin).unwrap();
    std::fs::remove_dir_all(dir).unwrap();
    assert!(count > 100, "only {count} numeric statements");
    if actual != expected {
        // Find the first differing statement for a useful message.
        let pos = actual
            .iter()
            .zip(&expected)
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        panic!(
            "GNU as differs at byte {pos}: as {:02x?} ours {:02x?}",
            &actual[pos..actual.len().min(pos + 8)],
            &expected[pos..expected.len().min(pos + 8)]
        );
    }
}
