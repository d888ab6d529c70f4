//! Machine-code depths for the callees a firmware's C assembly does not define: the kernel
//! library's hand-written assembly (`.S`: `port_syscall`, `port_yield`, ...), analysed from the
//! library archive the firmware links, and the toolchain libraries (libgcc, picolibc),
//! analysed once and cached under `build/cache/` of the project (of the checkout for a
//! manifest inside one); the kernel library is built into the project's `build/kernel/`.

use anyhow::{Context, Result};
use cactus_analysis::machine::{self, load_path, toolchain_library_depths, MachineDepth};
use cactus_firmware::{find_root, toolchain::Toolchain, Manifest};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The depths and where they came from.
pub(super) struct MachineDepths {
    /// Depth by global symbol: the kernel library's definitions over the toolchain's.
    pub depths: BTreeMap<String, MachineDepth>,
    /// The kernel library archive that was analysed.
    pub kernel_library: PathBuf,
}

/// Brings the firmware's kernel library up to date (as `cactus build` does), analyses its
/// machine code with the toolchain libraries' depths for the names it calls but does not
/// define, and returns both sets of depths, the kernel's first.
pub(super) fn machine_depths(m: &Manifest, root: &Path, tc: &Toolchain) -> Result<MachineDepths> {
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
    let kernel = machine::analyze(&units, &toolchain)
        .with_context(|| format!("analysing {}", library.display()))?
        .depths;
    let mut depths = toolchain;
    depths.extend(kernel);
    Ok(MachineDepths {
        depths,
        kernel_library: library,
    })
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
