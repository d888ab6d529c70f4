//! Printing an unmodified file gives text that assembles to the same object: every C file
//! of the repo, compiled by GCC 12 at each of -O0/-O1/-O2/-Os, parsed, printed, and both texts
//! assembled; section contents, relocations and symbols must be identical.

use crate::common;
use cactus_asm::AsmFile;
use std::path::Path;
use std::process::Command;

/// `objdump -s -r -t` of the object assembled from `text`, without the file-name header.
fn object_dump(text: &str, dir: &Path, name: &str) -> Result<String, String> {
    let s = dir.join(format!("{name}.s"));
    let o = dir.join(format!("{name}.o"));
    std::fs::write(&s, text).map_err(|e| e.to_string())?;
    let out = Command::new("riscv64-unknown-elf-as")
        .args(["-march=rv32imac_zicsr_zifencei", "-mabi=ilp32", "-o"])
        .arg(&o)
        .arg(&s)
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let dump = Command::new("riscv64-unknown-elf-objdump")
        .args(["-s", "-r", "-t"])
        .arg(&o)
        .output()
        .map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&dump.stdout);
    Ok(text
        .lines()
        .filter(|l| !l.contains("file format"))
        .collect::<Vec<_>>()
        .join("\n"))
}

#[test]
fn printed_files_assemble_to_identical_objects() {
    if !common::toolchain_present() {
        return;
    }
    let dir = common::scratch("roundtrip");
    let corpus = common::corpus();
    assert!(!corpus.is_empty(), "no C files found under the repo");
    let results = common::par_map(corpus, |e| {
        let Some(c) = &e.compiled else {
            return Ok(None);
        };
        let origin = format!("{}{}", e.source.display(), e.opt);
        let parsed = AsmFile::parse(&c.asm, &origin).map_err(|e| e.to_string())?;
        let tag = origin.replace(['/', '.'], "_");
        let a = object_dump(&c.asm, &dir, &format!("{tag}_orig"))?;
        let b = object_dump(&parsed.to_string(), &dir, &format!("{tag}_printed"))?;
        if a != b {
            return Err(format!("{origin}: printed text assembles differently"));
        }
        Ok(Some((parsed.entries.len(), parsed.functions().len())))
    });
    let (mut ok, mut skipped, mut items, mut functions) = (0, 0, 0, 0);
    let mut errors = Vec::new();
    for r in results {
        match r {
            Ok(Some((n, f))) => {
                ok += 1;
                items += n;
                functions += f;
            }
            Ok(None) => skipped += 1,
            Err(e) => errors.push(e),
        }
    }
    eprintln!(
        "round trip: {ok} compilations identical ({items} items, {functions} functions), {skipped} did not compile standalone, {} failed",
        errors.len()
    );
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    assert!(
        ok > skipped * 3,
        "too few files compile standalone: {ok} ok, {skipped} skipped"
    );
    // Negative control: the comparison does see a one-bit difference.
    let one = object_dump("\t.text\n\taddi a0,a0,1\n", &dir, "control_a").unwrap();
    let two = object_dump("\t.text\n\taddi a0,a0,2\n", &dir, "control_b").unwrap();
    assert_ne!(one, two);
    let _ = std::fs::remove_dir_all(&dir);
}
