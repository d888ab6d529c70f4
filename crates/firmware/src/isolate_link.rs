//! The link script of an isolated firmware (`kernel.isolate`, docs/sensmart.md "Memory
//! isolation"): the kernel's script with each task's globals and code gathered into regions of
//! their own and a table of them for the kernel (`cactus_iso_table`, kernel/core/isolate.c).
//!
//! A source unit that exactly one task lists, that defines no other task's entry function and
//! whose functions no code of another owner calls directly, is that task's: its `.data`,
//! `.sdata`, `.sbss`, `.bss` and common symbols go into the task's data region, its `.text`
//! into the task's code region. A data region is two output sections in a load segment of its
//! own: the initialised data, then the zero-initialised part (`NOLOAD`, so the image carries no
//! zeros; crt0 clears every such part at start-up from the table `cactus_iso_bss`), one span
//! `[lo, hi)` for the kernel's window. Other units (listed by several tasks, running as another task's
//! entry, or a library other tasks call) and the generated glue are shared (writable and callable
//! by every task); libgcc's code is shared too. Everything else (the kernel, its data, the task
//! stacks' pool) stays where the kernel's script puts it. Guarantee: the code regions are
//! inserted right before the kernel script's catch-all `.text` input rule, the data regions'
//! sections right before its `.data` output section (their segments right after its text
//! segment, in address order), so nothing else moves between output sections; a script
//! without those lines is an error.

use crate::manifest::Manifest;
use std::path::PathBuf;

/// The catch-all input rules the code regions and the tables go before.
const TEXT_RULE: &str = "*(.text .text.*)";
const RODATA_RULE: &str = "*(.rodata .rodata.*";
/// The kernel's writable data section, which the data regions go before.
const DATA_SECTION: &str = ".data :";
/// The kernel's text segment, which the data regions' segments follow (they lie between it
/// and the kernel's data segment, so the program headers stay in address order).
const TEXT_PHDR: &str = "text PT_LOAD";

/// Input sections of a data region's initialised part.
const DATA_INPUTS: &str = "(.data .data.* .sdata .sdata.*)";
/// Input sections of its zero-initialised part.
const BSS_INPUTS: &str = "(.sbss .sbss.* .bss .bss.* COMMON)";

/// The file-name patterns of the firmware's objects: per task the units it owns, and the
/// shared ones (compile_units::units order; objects are `NN-<stem>.o`). `asm[i]` is the
/// assembly of the i-th task source (where entry functions are defined).
pub fn ownership(m: &Manifest, asm: &[String]) -> (Vec<Vec<String>>, Vec<String>) {
    let mut sources: Vec<PathBuf> = Vec::new();
    for t in &m.tasks {
        for s in &t.sources {
            if !sources.contains(s) {
                sources.push(s.clone());
            }
        }
    }
    let pattern = |i: usize, s: &PathBuf| format!("*/{i:02}-{}.o", crate::compile_units::stem(s));
    // The owner of each unit: Some(task) or None (shared).
    let mut owner: Vec<Option<usize>> = sources
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let users: Vec<usize> = (0..m.tasks.len())
                .filter(|&t| m.tasks[t].sources.contains(s))
                .collect();
            let text = asm.get(i).map(String::as_str).unwrap_or("");
            match users.as_slice() {
                [t] if !defines_any(
                    text,
                    m.tasks
                        .iter()
                        .enumerate()
                        .filter(|(u, _)| u != t)
                        .map(|(_, task)| task.entry.as_str()),
                ) =>
                {
                    Some(*t)
                }
                _ => None,
            }
        })
        .collect();
    // A unit whose functions code of another owner calls directly is a library: shared (until
    // nothing changes, as a shared unit's calls reach every task).
    loop {
        let mut changed = false;
        for i in 0..sources.len() {
            let Some(t) = owner[i] else { continue };
            let text = asm.get(i).map(String::as_str).unwrap_or("");
            let called_from_outside = (0..sources.len()).any(|j| {
                owner[j] != Some(t)
                    && calls(asm.get(j).map(String::as_str).unwrap_or(""))
                        .any(|callee| defines_any(text, std::iter::once(callee)))
            });
            if called_from_outside {
                owner[i] = None;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut per_task = vec![Vec::new(); m.tasks.len()];
    let mut shared = Vec::new();
    for (i, s) in sources.iter().enumerate() {
        match owner[i] {
            Some(t) => per_task[t].push(pattern(i, s)),
            None => shared.push(pattern(i, s)),
        }
    }
    // The generated glue follows the task sources.
    shared.push(format!(
        "*/{:02}-{}.o",
        sources.len(),
        crate::compile_units::stem(std::path::Path::new(crate::codegen::SOURCE_NAME))
    ));
    (per_task, shared)
}

/// Whether assembly `text` defines (as a label) one of `names`.
fn defines_any<'a>(text: &str, mut names: impl Iterator<Item = &'a str>) -> bool {
    let labels: std::collections::BTreeSet<&str> =
        text.lines().filter_map(|l| l.strip_suffix(':')).collect();
    names.any(|n| labels.contains(n))
}

/// The symbols assembly `text` calls directly (`call`, `tail`, `jal` to a symbol).
fn calls(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter_map(|l| {
        let mut w = l.split_whitespace();
        match (w.next(), w.next()) {
            (Some("call" | "tail" | "jal"), Some(sym)) => Some(
                sym.rsplit(',')
                    .next()
                    .unwrap_or(sym)
                    .trim_end_matches("@plt"),
            ),
            _ => None,
        }
    })
}

fn region(out: &mut String, lo: &str, hi: &str, files: &[String], inputs: &str) {
    out.push_str(&format!("        . = ALIGN(16);\n        {lo} = .;\n"));
    for f in files {
        out.push_str(&format!("        {f}{inputs}\n"));
    }
    out.push_str(&format!("        . = ALIGN(16);\n        {hi} = .;\n"));
}

/// The output sections of data region `r` (`d<t>` for task t, `sd` for the shared one): its
/// initialised part, then its zero-initialised part (`NOLOAD`: nothing in the image; crt0
/// clears it from `cactus_iso_bss`), both in a load segment of their own, `cactus_iso_<r>`,
/// so that the region is one span `[__cactus_iso_<r>_lo, __cactus_iso_<r>_hi)`.
fn data_region(out: &mut String, r: &str, files: &[String]) {
    out.push_str(&format!(
        "    .cactus_iso_{r} : ALIGN(16) {{\n        __cactus_iso_{r}_lo = .;\n"
    ));
    for f in files {
        out.push_str(&format!("        {f}{DATA_INPUTS}\n"));
    }
    // One word whatever the inputs: a segment without contents gets no address (ld puts it
    // at 0, out of order).
    out.push_str(&format!(
        "        . = ALIGN(4);\n        LONG(0)\n    }} > RAM :cactus_iso_{r}\n    \
         .cactus_iso_{r}_bss (NOLOAD) : {{\n        __cactus_iso_{r}_bss = .;\n"
    ));
    for f in files {
        out.push_str(&format!("        {f}{BSS_INPUTS}\n"));
    }
    out.push_str(&format!(
        "        . = ALIGN(16);\n        __cactus_iso_{r}_hi = .;\n    }} > RAM :cactus_iso_{r}\n"
    ));
}

/// `kernel_script` with the isolation regions of `m` and their table; `asm` as for
/// [`ownership`].
pub fn script(kernel_script: &str, m: &Manifest, asm: &[String]) -> Result<String, String> {
    let (per_task, shared) = ownership(m, asm);
    let mut text = String::new();
    let mut data = String::new();
    let mut phdrs = String::new();
    let mut regions: Vec<(String, &[String])> = per_task
        .iter()
        .enumerate()
        .map(|(t, files)| (format!("d{t}"), files.as_slice()))
        .collect();
    regions.push(("sd".to_string(), shared.as_slice()));
    for (t, files) in per_task.iter().enumerate() {
        region(
            &mut text,
            &format!("__cactus_iso_t{t}_lo"),
            &format!("__cactus_iso_t{t}_hi"),
            files,
            "(.text .text.*)",
        );
    }
    for (r, files) in &regions {
        data_region(&mut data, r, files);
        phdrs.push_str(&format!("    cactus_iso_{r} PT_LOAD FLAGS(6); /* rw- */\n"));
    }
    let mut shared_text = shared.clone();
    shared_text.push("*libgcc.a:*".to_string());
    region(
        &mut text,
        "__cactus_iso_st_lo",
        "__cactus_iso_st_hi",
        &shared_text,
        "(.text .text.*)",
    );
    let mut table = format!(
        "        . = ALIGN(4);\n        cactus_iso_table = .;\n        LONG({})\n        \
         LONG(__cactus_iso_sd_lo) LONG(__cactus_iso_sd_hi) LONG(__cactus_iso_st_lo) \
         LONG(__cactus_iso_st_hi)\n",
        m.tasks.len()
    );
    for t in 0..m.tasks.len() {
        table.push_str(&format!(
            "        LONG(__cactus_iso_d{t}_lo) LONG(__cactus_iso_d{t}_hi) \
             LONG(__cactus_iso_t{t}_lo) LONG(__cactus_iso_t{t}_hi)\n"
        ));
    }
    // The zero-initialised parts crt0 clears: their number, then [start, end) of each.
    table.push_str(&format!(
        "        cactus_iso_bss = .;\n        LONG({})\n",
        regions.len()
    ));
    for (r, _) in &regions {
        table.push_str(&format!(
            "        LONG(__cactus_iso_{r}_bss) LONG(__cactus_iso_{r}_hi)\n"
        ));
    }
    let mut out = String::with_capacity(kernel_script.len() + text.len() + data.len());
    let mut found = [false; 4];
    for line in kernel_script.lines() {
        let rule = line.trim();
        if rule == TEXT_RULE && !found[0] {
            out.push_str(&text);
            found[0] = true;
        } else if rule.starts_with(DATA_SECTION) && !found[1] {
            out.push_str(&data);
            found[1] = true;
        } else if rule.starts_with(RODATA_RULE) && !found[2] {
            out.push_str(&table);
            found[2] = true;
        }
        out.push_str(line);
        out.push('\n');
        if rule.starts_with(TEXT_PHDR) && !found[3] {
            out.push_str(&phdrs);
            found[3] = true;
        }
    }
    if found != [true; 4] {
        return Err(format!(
            "expected the program header `{TEXT_PHDR} ...`, the input rules `{TEXT_RULE}` and \
             `{RODATA_RULE} ...)` and the output section `{DATA_SECTION} ...` in the kernel's \
             link script"
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_without_the_rules_is_an_error() {
        let m = crate::manifest::Manifest::parse(
            "[firmware]\nname = \"x\"\n[[task]]\nname = \"a\"\nsources = [\"Cargo.toml\"]\nentry = \"main\"\npriority = 1\nstack = 512\n",
            &std::env::current_dir().unwrap().join("m.toml"),
        )
        .unwrap();
        assert!(script("SECTIONS { }\n", &m, &[]).is_err());
        let kernel = "PHDRS {\n text PT_LOAD FLAGS(5);\n data PT_LOAD FLAGS(6);\n}\nSECTIONS {\n .text : {\n *(.text .text.*)\n }\n .rodata : {\n *(.rodata .rodata.* .srodata)\n }\n .data : {\n *(.data .data.*)\n }\n}\n";
        // Without the program headers the data regions' segments have nowhere to go.
        assert!(script(&kernel.replace(" text PT_LOAD", " code PT_LOAD"), &m, &[]).is_err());
        let ok = script(kernel, &m, &[]).unwrap();
        assert!(ok.contains("*/00-Cargo.o(.text .text.*)"), "{ok}");
        // The task's data region: initialised part, then a NOLOAD part for its zeros, one span.
        let d0 = ".cactus_iso_d0 : ALIGN(16) {\n        __cactus_iso_d0_lo = .;\n        \
                  */00-Cargo.o(.data .data.* .sdata .sdata.*)\n        . = ALIGN(4);\n        LONG(0)\n    \
                  } > RAM :cactus_iso_d0\n    .cactus_iso_d0_bss (NOLOAD) : {\n        \
                  __cactus_iso_d0_bss = .;\n        */00-Cargo.o(.sbss .sbss.* .bss .bss.* COMMON)\n        \
                  . = ALIGN(16);\n        __cactus_iso_d0_hi = .;\n    } > RAM :cactus_iso_d0\n";
        assert!(ok.contains(d0), "{ok}");
        assert!(ok.contains(".cactus_iso_sd_bss (NOLOAD)"), "{ok}");
        // Their segments between the kernel's text and data segments, the regions before
        // the kernel's data.
        let phdrs = " text PT_LOAD FLAGS(5);\n    cactus_iso_d0 PT_LOAD FLAGS(6); /* rw- */\n    \
                     cactus_iso_sd PT_LOAD FLAGS(6); /* rw- */\n data PT_LOAD";
        assert!(ok.contains(phdrs), "{ok}");
        assert!(ok.find(".cactus_iso_sd_bss").unwrap() < ok.find(" .data : {").unwrap());
        assert!(
            ok.contains("cactus_iso_table = .;\n        LONG(1)"),
            "{ok}"
        );
        let bss = "cactus_iso_bss = .;\n        LONG(2)\n        \
                   LONG(__cactus_iso_d0_bss) LONG(__cactus_iso_d0_hi)\n        \
                   LONG(__cactus_iso_sd_bss) LONG(__cactus_iso_sd_hi)\n";
        assert!(ok.contains(bss), "{ok}");
    }
}
