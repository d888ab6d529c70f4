//! The kernel library's C sources and the exact flags kernel/Makefile compiles them with,
//! asked of the Makefile itself (its `CFLAGS` and `COMMON_SRCS` variables), so that the stack
//! analysis sees the same code the firmware links.

use crate::error::BuildError;
use crate::manifest::{StackStrategy, Target};
use crate::toolchain::{run, transcript, Toolchain};
use std::path::{Path, PathBuf};
use std::process::Command;

/// One C source of the kernel library and the complete flags it is compiled with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelUnit {
    /// The C file (absolute).
    pub source: PathBuf,
    /// Every flag of its compilation (the Makefile's `CFLAGS`), without `-c`/`-o`.
    pub flags: Vec<String>,
}

/// The C sources of `libcactus-<strategy>-<trace>.a` (the Makefile's `COMMON_SRCS` C files,
/// then `stack/<strategy>.c` and `trace/trace_<backend>.c`, as its library rules list them)
/// with the Makefile's `CFLAGS` for that library (with `defines`, the kernel variant's
/// `-D` options of [`crate::KernelOptions::variant_defines`], as its `EXTRA_CFLAGS`). The kernel's assembly (`.S`) sources are not C
/// units and are not listed. Flags are split on whitespace (the tree path must hold none).
pub fn kernel_units(
    tc: &Toolchain,
    root: &Path,
    strategy: StackStrategy,
    target: Target,
    defines: &[String],
) -> Result<Vec<KernelUnit>, BuildError> {
    let kernel = root.join("kernel");
    let mut make = Command::new("make");
    make.arg("-s")
        .arg("--no-print-directory")
        .arg("-C")
        .arg(&kernel)
        .arg(format!("STRATEGY={}", strategy.file_name()))
        .arg(format!("CROSS={}", tc.prefix));
    if !defines.is_empty() {
        make.arg(format!("EXTRA_CFLAGS={}", defines.join(" ")));
    }
    make.arg("--eval=cactus-print-cflags: ; @echo $(CFLAGS)")
        .arg("--eval=cactus-print-srcs: ; @echo $(filter %.c,$(COMMON_SRCS))")
        .arg("cactus-print-cflags")
        .arg("cactus-print-srcs");
    let out = run(&mut make, "make")?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut lines = text.lines();
    let (Some(cflags), Some(srcs), true) = (lines.next(), lines.next(), out.status.success())
    else {
        return Err(BuildError::Kernel {
            library: format!(
                "libcactus-{}-{}.a",
                strategy.file_name(),
                target.trace_backend()
            ),
            output: format!("cannot read CFLAGS and COMMON_SRCS: {}", transcript(&out)),
        });
    };
    let flags: Vec<String> = cflags.split_whitespace().map(str::to_string).collect();
    let mut sources: Vec<PathBuf> = srcs.split_whitespace().map(|s| kernel.join(s)).collect();
    sources.push(kernel.join(format!("stack/{}.c", strategy.file_name())));
    sources.push(kernel.join(format!("trace/trace_{}.c", target.trace_backend())));
    Ok(sources
        .into_iter()
        .map(|source| KernelUnit {
            source,
            flags: flags.clone(),
        })
        .collect())
}

/// The kernel's assembly sources (the Makefile's `COMMON_SRCS` `.S` files), absolute, in the
/// Makefile's order: hand-written code no pass rewrites.
pub fn kernel_asm_sources(tc: &Toolchain, root: &Path) -> Result<Vec<PathBuf>, BuildError> {
    let kernel = root.join("kernel");
    let mut make = Command::new("make");
    make.arg("-s")
        .arg("--no-print-directory")
        .arg("-C")
        .arg(&kernel)
        .arg(format!("CROSS={}", tc.prefix))
        .arg("--eval=cactus-print-asm: ; @echo $(filter %.S,$(COMMON_SRCS))")
        .arg("cactus-print-asm");
    let out = run(&mut make, "make")?;
    if !out.status.success() {
        return Err(BuildError::Kernel {
            library: "kernel assembly sources".to_string(),
            output: transcript(&out),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .map(|s| kernel.join(s))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
    }

    #[test]
    fn lists_the_library_sources_with_the_makefile_flags() {
        let tc = Toolchain::default();
        let units = kernel_units(&tc, &root(), StackStrategy::Static, Target::Sim, &[]).unwrap();
        let names: Vec<String> = units
            .iter()
            .map(|u| u.source.display().to_string())
            .collect();
        assert!(units.iter().all(|u| u.source.is_file()), "{names:?}");
        assert!(
            names.iter().any(|n| n.ends_with("kernel/core/sched.c")),
            "{names:?}"
        );
        assert!(
            names.iter().any(|n| n.ends_with("kernel/stack/static.c")),
            "{names:?}"
        );
        assert!(
            names
                .iter()
                .any(|n| n.ends_with("kernel/trace/trace_sim.c")),
            "{names:?}"
        );
        assert!(!names.iter().any(|n| n.ends_with(".S")), "{names:?}");
        let flags = &units[0].flags;
        assert!(
            flags.iter().any(|f| f == "-march=rv32imac_zicsr_zifencei"),
            "{flags:?}"
        );
        assert!(flags.iter().any(|f| f == "-Werror"), "{flags:?}");
        assert!(!flags
            .iter()
            .any(|f| f.starts_with("-DCACTUS_STACK_POOL_SIZE")));
    }

    #[test]
    fn lists_the_kernel_assembly_sources() {
        let tc = Toolchain::default();
        let srcs = kernel_asm_sources(&tc, &root()).unwrap();
        assert!(srcs
            .iter()
            .all(|s| s.is_file() && s.extension().unwrap() == "S"));
        assert!(
            srcs.iter().any(|s| s.ends_with("arch/rv32/trap.S")),
            "{srcs:?}"
        );
    }

    #[test]
    fn pool_variant_gets_its_extra_flag() {
        let tc = Toolchain::default();
        let defines = [
            "-DCACTUS_STACK_POOL_SIZE=8192".to_string(),
            "-DCACTUS_MTSS_PAGE=64".into(),
        ];
        let units = kernel_units(&tc, &root(), StackStrategy::Mtss, Target::Sim, &defines).unwrap();
        let flags = &units[0].flags;
        assert!(
            flags.iter().any(|f| f == "-DCACTUS_STACK_POOL_SIZE=8192"),
            "{flags:?}"
        );
        assert!(
            flags.iter().any(|f| f == "-DCACTUS_MTSS_PAGE=64"),
            "{flags:?}"
        );
    }
}
