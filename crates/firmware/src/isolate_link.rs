//! The link script of an isolated firmware (`kernel.isolate`, docs/sensmart.md "Memory
//! isolation"): the kernel's script with each task's globals and code gathered into regions of
//! their own and a table of them for the kernel (`cactus_iso_table`, kernel/core/isolate.c).
//!
//! A source unit that exactly one task lists, that defines no other task's entry function and
//! whose functions no code of another owner calls directly, is that task's: its `.data`,
//! `.sdata`, `.sbss`, `.bss` and common symbols go into the task's data region, its `.text`
//! into the task's code region. Other units (listed by several tasks, running as another task's
//! entry, or a library other tasks call) and the generated glue are shared (writable and callable
//! by every task); libgcc's code is shared too. Everything else (the kernel, its data, the task
//! stacks' pool) stays where the kernel's script puts it. Guarantee: the regions are inserted
//! right before the kernel script's catch-all input rules of the same output sections, so
//! nothing else moves between output sections; a script without those rules is an error.

use crate::manifest::Manifest;
use std::path::PathBuf;

/// The catch-all input rules the regions go before.
const TEXT_RULE: &str = "*(.text .text.*)";
const DATA_RULE: &str = "*(.data .data.*)";
const RODATA_RULE: &str = "*(.rodata .rodata.*";

/// Input sections of a data region.
const DATA_INPUTS: &str = "(.data .data.* .sdata .sdata.* .sbss .sbss.* .bss .bss.* COMMON)";

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

/// `kernel_script` with the isolation regions of `m` and their table; `asm` as for
/// [`ownership`].
pub fn script(kernel_script: &str, m: &Manifest, asm: &[String]) -> Result<String, String> {
    let (per_task, shared) = ownership(m, asm);
    let mut text = String::new();
    let mut data = String::new();
    for (t, files) in per_task.iter().enumerate() {
        region(
            &mut text,
            &format!("__cactus_iso_t{t}_lo"),
            &format!("__cactus_iso_t{t}_hi"),
            files,
            "(.text .text.*)",
        );
        region(
            &mut data,
            &format!("__cactus_iso_d{t}_lo"),
            &format!("__cactus_iso_d{t}_hi"),
            files,
            DATA_INPUTS,
        );
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
    region(
        &mut data,
        "__cactus_iso_sd_lo",
        "__cactus_iso_sd_hi",
        &shared,
        DATA_INPUTS,
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
    let mut out = String::with_capacity(kernel_script.len() + text.len() + data.len());
    let mut found = [false; 3];
    for line in kernel_script.lines() {
        let rule = line.trim();
        if rule == TEXT_RULE && !found[0] {
            out.push_str(&text);
            found[0] = true;
        } else if rule == DATA_RULE && !found[1] {
            out.push_str(&data);
            found[1] = true;
        } else if rule.starts_with(RODATA_RULE) && !found[2] {
            out.push_str(&table);
            found[2] = true;
        }
        out.push_str(line);
        out.push('\n');
    }
    if found != [true; 3] {
        return Err(format!(
            "expected the input rules `{TEXT_RULE}`, `{DATA_RULE}` and `{RODATA_RULE} ...)` \
             in the kernel's link script"
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
        let ok = script(
            "SECTIONS {\n .text : {\n *(.text .text.*)\n }\n .rodata : {\n *(.rodata .rodata.* .srodata)\n }\n .data : {\n *(.data .data.*)\n }\n}\n",
            &m,
            &[],
        )
        .unwrap();
        assert!(ok.contains("*/00-Cargo.o(.text .text.*)"), "{ok}");
        assert!(ok.contains("__cactus_iso_d0_lo = ."), "{ok}");
        assert!(
            ok.contains("cactus_iso_table = .;\n        LONG(1)"),
            "{ok}"
        );
    }
}
