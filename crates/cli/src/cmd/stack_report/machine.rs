//! Machine-code depths for the callees a firmware's C assembly does not define: the kernel
//! library's hand-written assembly (`.S`: `port_syscall`, `port_yield`, ...), analysed from the
//! library archive the firmware links, and the toolchain libraries (libgcc, picolibc),
//! analysed once and cached under `build/cache/` of the project (of the checkout for a
//! manifest inside one); the kernel library is built into the project's `build/kernel/`.

use anyhow::{Context, Result};
use cactus_analysis::machine::{self, load_path, toolchain_library_depths, MachineDepth};
use cactus_asm::{AsmFile, Item};
use cactus_firmware::{find_root, toolchain::Toolchain, Manifest};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Kernel assembly reached only on the kernel stack, from a routine that otherwise runs on
/// the stack of the code it interrupts: `port_irq_entry` (kernel/arch/rv32/irq.S) branches to
/// `port_irq_nested` only when `tp` is the kernel's descriptor, that is when the interrupted
/// code is a handler (handlers run on the kernel stack, docs/interrupts.md). So a task's stack
/// carries none of it; the interrupt stack's row counts it ([`super::irq`]).
pub(super) const KERNEL_STACK_ONLY: [&str; 1] = ["port_irq_nested"];

/// The depths and where they came from.
pub(super) struct MachineDepths {
    /// Depth by global symbol: the kernel library's definitions over the toolchain's.
    pub depths: BTreeMap<String, MachineDepth>,
    /// The kernel library archive that was analysed.
    pub kernel_library: PathBuf,
}

/// Brings the firmware's kernel library up to date (as `cactus build` does), analyses its
/// machine code with the toolchain libraries' depths for the names it calls but does not
/// define (the fault and halt hooks counted as 0, [`super::irq::HOOK_CALLERS`]; the nested
/// interrupt entry on the kernel stack, [`KERNEL_STACK_ONLY`]), and returns both sets of
/// depths, the kernel's first.
/// A function the firmware's assembly declares `.weak` but defines nowhere (`files`), and no
/// machine code defines either, links as address 0: the kernel calls such a function only
/// where the feature that defines it is present (`k_srp_clock_fired` without core/srp.c), and
/// a call to 0 would trap into the kernel, so it counts as 0 bytes on the calling stack.
pub(super) fn machine_depths(
    m: &Manifest,
    root: &Path,
    tc: &Toolchain,
    files: &[AsmFile],
) -> Result<MachineDepths> {
    let project = match m.path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let build = cactus_firmware::home::default_build_dir(root, project);
    let cache = build.join("cache");
    std::fs::create_dir_all(&cache)
        .with_context(|| format!("cannot create {}", cache.display()))?;
    let toolchain = toolchain_library_depths(&cache)
        .context("computing the toolchain libraries' stack depths")?;
    let k = &m.kernel;
    let library = tc
        .kernel_library(root, &build, k)
        .context("building the kernel library")?;
    let units = load_path(&library)?;
    let assume = machine::Assumptions {
        elsewhere: KERNEL_STACK_ONLY.iter().map(|s| s.to_string()).collect(),
        hooks: super::irq::HOOK_CALLERS
            .iter()
            .map(|s| s.to_string())
            .collect(),
    };
    let analysis = machine::analyze_assuming(&units, &toolchain, &assume)
        .with_context(|| format!("analysing {}", library.display()))?;
    // Only the hand-written assembly (`X.S.o` members): the firmware compiles the kernel's C
    // itself (analysed as assembly), so a C function it does not define is one it does not
    // link (a weak reference such as `k_srp_clock_fired` without core/srp.c).
    let assembly: std::collections::BTreeSet<&str> = analysis
        .functions
        .iter()
        .filter(|f| f.origin.ends_with(".S.o)"))
        .flat_map(|f| f.names.iter().map(String::as_str))
        .collect();
    let kernel: BTreeMap<String, MachineDepth> = analysis
        .depths
        .iter()
        .filter(|(name, _)| assembly.contains(name.as_str()))
        .map(|(n, d)| (n.clone(), d.clone()))
        .collect();
    let mut depths = toolchain;
    depths.extend(kernel);
    for name in weak_undefined(files) {
        depths.entry(name).or_insert(MachineDepth::Bytes(0));
    }
    Ok(MachineDepths {
        depths,
        kernel_library: library,
    })
}

/// The names `files` declare `.weak` and define nowhere.
fn weak_undefined(files: &[AsmFile]) -> Vec<String> {
    let mut weak = std::collections::BTreeSet::new();
    let mut defined = std::collections::BTreeSet::new();
    for f in files {
        for e in &f.entries {
            match &e.item {
                Item::Directive { name, text } if name == ".weak" => {
                    let list = text.trim_start_matches(".weak");
                    weak.extend(list.split(',').map(|w| w.trim().to_string()));
                }
                Item::Label(l) => {
                    defined.insert(l.clone());
                }
                _ => {}
            }
        }
    }
    weak.into_iter()
        .filter(|w| !w.is_empty() && !defined.contains(w))
        .collect()
}

/// Depths for callees of plain assembly files: the functions of `files` (objects, archives,
/// linked ELFs) analysed together, over (with `toolchain`) the toolchain libraries' depths,
/// cached in `build/cache/` of the Cactus checkout around the current directory (or computed
/// afresh outside one).
pub(super) fn external_depths(
    files: &[PathBuf],
    toolchain: bool,
) -> Result<BTreeMap<String, MachineDepth>> {
    let base = if toolchain {
        let here = Path::new(".");
        match find_root(here) {
            // Only a checkout around the current directory: never an installed data directory.
            Ok(root) if cactus_firmware::home::contains(&root, here) => {
                toolchain_library_depths(&root.join("build").join("cache"))?
            }
            _ => {
                let dir = tempfile::tempdir().context("creating a cache directory")?;
                toolchain_library_depths(dir.path())?
            }
        }
    } else {
        BTreeMap::new()
    };
    if files.is_empty() {
        return Ok(base);
    }
    let mut units = Vec::new();
    for f in files {
        units.extend(load_path(f)?);
    }
    let own = machine::analyze(&units, &base)?.depths;
    let mut depths = base;
    depths.extend(own);
    Ok(depths)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    /// `--machine FILE` depths come from the file's code, over `--toolchain-libs` depths
    /// (a name the file calls resolves in the toolchain libraries).
    #[test]
    fn stack_report_machine_inputs_serve_externals() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("k.s");
        std::fs::write(
            &src,
            "\t.text\n\t.globl k\n\t.type k,@function\nk:\n\taddi sp,sp,-24\n\tsw ra,20(sp)\n\
             \tcall memcpy\n\tlw ra,20(sp)\n\taddi sp,sp,24\n\tret\n\t.size k,.-k\n",
        )
        .unwrap();
        let obj = dir.path().join("k.o");
        let ok = Command::new("riscv64-unknown-elf-gcc")
            .args(["-march=rv32imac", "-mabi=ilp32", "-c"])
            .arg(&src)
            .arg("-o")
            .arg(&obj)
            .status()
            .unwrap()
            .success();
        assert!(ok);
        let alone = external_depths(std::slice::from_ref(&obj), false).unwrap();
        assert!(
            matches!(&alone["k"], MachineDepth::Unbounded(w) if w.contains("memcpy")),
            "{alone:?}"
        );
        let with_libs = external_depths(&[obj], true).unwrap();
        assert_eq!(with_libs["k"], MachineDepth::Bytes(24));
        assert_eq!(with_libs["memcpy"], MachineDepth::Bytes(0));
    }
}
