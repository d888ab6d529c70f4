//! The bare-metal runtime `cactus cc` links into an executable unless told not to
//! (docs/cc.md, "The runtime"): `crt0.S` (sets `sp`, `tp` and the stack descriptor, calls
//! `main`, exits through the finisher), `rt.c` (UART stdio for picolibc, `_exit`, the trap
//! report) and `link.ld` (QEMU virt's RAM, the stack, the trap stack). They are compiled for
//! the link's own `-march`/`-mabi` into the scratch directory on every link.
//!
//! The link is done twice: the first ELF's function symbols become a table
//! ([`super::symtab`]) that the second link appends after everything else, so that the trap
//! report can name the function; the driver checks that every function kept its address.
//!
//! Not linked when the user brings a runtime: `--no-runtime`, `-nostartfiles`, `-nostdlib`,
//! a linker script (`-T`, `-Wl,-T`), `-shared` or `-r`.

use super::args::{parse, Item, Stage};
use super::files::io_error;
use super::gcc::{Captured, Gcc};
use super::plan::words;
use super::symtab;
use crate::CcError;
use std::path::{Path, PathBuf};

/// The runtime's sources, embedded in the binary.
const CRT0: &str = include_str!("../../runtime/crt0.S");
const RT_C: &str = include_str!("../../runtime/rt.c");
const LINK_LD: &str = include_str!("../../runtime/link.ld");
/// The bare-metal entry of `--preempt-traps` code: included by `crt0.S` here and by the other
/// kernel-less runtimes (the fuzz runtime), so there is one copy.
pub const PREEMPT_S: &str = include_str!("../../runtime/preempt.S");
/// The stack-check contract's header (one definition, shared with the kernel).
const STACKCHECK_H: &str = include_str!("../../../../kernel/include/cactus/stackcheck.h");

/// Options after which the user's own start-up code or linker script is in charge.
const OPT_OUTS: &[&str] = &["-nostartfiles", "-nostdlib", "-shared", "-r", "-static-pie"];

/// True when `args` (response files expanded) link an executable that should get the
/// runtime: no `-c`/`-S`/`-E`, no query, at least one input, and none of the opt-outs.
pub fn wanted(args: &[String]) -> Result<bool, CcError> {
    Ok(wanted_items(&parse(args)?))
}

/// [`wanted`] for a parsed command line.
pub(super) fn wanted_items(items: &[Item]) -> bool {
    let mut inputs = 0;
    for item in items {
        match item {
            Item::Stage(s) if *s != Stage::Link => return false,
            Item::Query(_) => return false,
            Item::Input { .. } => inputs += 1,
            Item::Link(w) | Item::Other(w) => {
                let first = w[0].as_str();
                if OPT_OUTS.contains(&first)
                    || first.starts_with("-T")
                    || (first.starts_with("-Wl,") && first.split(',').any(|p| p.starts_with("-T")))
                {
                    return false;
                }
            }
            _ => {}
        }
    }
    inputs > 0
}

/// The option the C compile steps of a runtime link need so that picolibc's headers are
/// found (`<stdio.h>`): `--specs=picolibc.specs`, unless the user chose specs.
pub(super) fn compile_specs(items: &[Item]) -> Option<String> {
    (!has_specs(items)).then(|| PICOLIBC_SPECS.to_string())
}

/// The specs the runtime links with when the user names none.
const PICOLIBC_SPECS: &str = "--specs=picolibc.specs";

fn has_specs(items: &[Item]) -> bool {
    items.iter().any(|i| {
        matches!(i, Item::Other(w) if w[0].starts_with("--specs") || w[0].starts_with("-specs"))
    })
}

/// Links `args` (a complete link command line, the user's `-o` included) with the runtime;
/// `tmp` is a scratch directory. Returns gcc's exit code (0, or the first failing step's).
pub(super) fn link(
    gcc: &Gcc,
    args: &[String],
    tmp: &Path,
    out: &mut Captured,
) -> Result<i32, CcError> {
    let dir = tmp.join("cactus-rt");
    let include = dir.join("include/cactus");
    std::fs::create_dir_all(&include).map_err(|e| io_error(&include, e))?;
    let write = |name: &Path, text: &str| std::fs::write(name, text).map_err(|e| io_error(name, e));
    write(&dir.join("crt0.S"), CRT0)?;
    write(&dir.join("preempt.S"), PREEMPT_S)?;
    write(&dir.join("rt.c"), RT_C)?;
    write(&dir.join("link.ld"), LINK_LD)?;
    write(&include.join("stackcheck.h"), STACKCHECK_H)?;

    let items = parse(args)?;
    let has_specs = has_specs(&items);
    let mut target: Vec<String> = items
        .iter()
        .filter_map(|i| match i {
            Item::Other(w)
                if w[0].starts_with("-march=")
                    || w[0].starts_with("-mabi=")
                    || w[0].starts_with("-mcmodel=") =>
            {
                Some(w[0].clone())
            }
            _ => None,
        })
        .collect();
    if !has_specs {
        target.push(PICOLIBC_SPECS.into());
    }
    let mut objects = Vec::new();
    for (source, object) in [("crt0.S", "crt0.o"), ("rt.c", "rt.o")] {
        let mut compile = target.clone();
        compile.extend(
            ["-O2", "-Wall", "-Wextra", "-ffunction-sections", "-c"]
                .iter()
                .map(|s| s.to_string()),
        );
        compile.push(format!("-I{}", dir.join("include").display()));
        let (src, obj) = (dir.join(source), dir.join(object));
        compile.extend([text(&src), "-o".into(), text(&obj)]);
        let code = gcc.run(&compile, out)?;
        if code != 0 {
            return Err(CcError::Tool(format!(
                "cactus cc runtime: {source} did not compile for {} (exit {code}); \
                 link with --no-runtime and your own start-up code",
                target.join(" ")
            )));
        }
        objects.push(obj);
    }

    let mut base: Vec<String> = Vec::new();
    if !has_specs {
        base.push(PICOLIBC_SPECS.into());
    }
    base.extend([
        "-nostartfiles".into(),
        "-T".into(),
        text(&dir.join("link.ld")),
    ]);
    base.extend(objects.iter().map(|o| text(o)));
    let first = dir.join("pass1.elf");
    let mut pass1 = base.clone();
    pass1.extend(with_output(&items, Some(&first)));
    let code = gcc.run(&pass1, out)?;
    if code != 0 {
        return Ok(code);
    }
    let functions = symtab::functions(&resolve(gcc, &first))?;
    let table_s = dir.join("functions.s");
    write(&table_s, &symtab::assembly(&functions))?;
    let table_o = dir.join("functions.o");
    let mut assemble = target.clone();
    assemble.extend(["-c".into(), text(&table_s), "-o".into(), text(&table_o)]);
    let code = gcc.run(&assemble, out)?;
    if code != 0 {
        return Err(CcError::Tool(format!(
            "{}: the runtime's function table did not assemble (exit {code})",
            table_s.display()
        )));
    }
    let mut pass2 = base;
    pass2.extend(with_output(&items, None));
    pass2.push(text(&table_o));
    let code = gcc.run(&pass2, out)?;
    if code != 0 {
        return Ok(code);
    }
    let product = resolve(gcc, Path::new(&output_of(&items)));
    if symtab::functions(&product)? != functions {
        return Err(CcError::Tool(format!(
            "{}: adding the runtime's function table moved code (a bug of cactus cc's runtime \
             link; --no-runtime avoids it)",
            product.display()
        )));
    }
    Ok(0)
}

fn text(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// The words of `items` with the output replaced by `output` (`None`: as given).
fn with_output(items: &[Item], output: Option<&Path>) -> Vec<String> {
    let mut args = Vec::new();
    let mut replaced = false;
    for item in items {
        match (item, output) {
            (Item::Output(_), Some(o)) => {
                args.extend(["-o".into(), text(o)]);
                replaced = true;
            }
            _ => args.extend(words(item)),
        }
    }
    if let (Some(o), false) = (output, replaced) {
        args.extend(["-o".into(), text(o)]);
    }
    args
}

/// The executable gcc writes for `items`: the last `-o`, else `a.out`.
fn output_of(items: &[Item]) -> String {
    items
        .iter()
        .rev()
        .find_map(|i| match i {
            Item::Output(o) => Some(o.clone()),
            _ => None,
        })
        .unwrap_or_else(|| "a.out".into())
}

/// `path` as gcc sees it (relative to its working directory).
fn resolve(gcc: &Gcc, path: &Path) -> PathBuf {
    match gcc.cwd {
        Some(dir) if path.is_relative() => dir.join(path),
        _ => path.to_path_buf(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn an_executable_link_gets_the_runtime() {
        assert!(wanted(&args("-march=rv32imac -mabi=ilp32 main.c -o m.elf")).unwrap());
        assert!(wanted(&args("main.o util.o -o m.elf")).unwrap());
    }

    #[test]
    fn a_user_runtime_or_no_link_opts_out() {
        for line in [
            "-c main.c -o main.o",
            "-S main.c",
            "main.c -nostartfiles -o m.elf",
            "main.c -nostdlib crt0.S -o m.elf",
            "main.c crt0.S -T link.ld -o m.elf",
            "main.c -Tlink.ld -o m.elf",
            "main.c -Wl,-T,link.ld -o m.elf",
            "--version",
            "",
        ] {
            assert!(!wanted(&args(line)).unwrap(), "{line}");
        }
    }
}
