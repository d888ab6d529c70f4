//! The kernel library's C sources and the exact flags kernel/Makefile compiles them with,
//! asked of the Makefile itself (its `CFLAGS` and `COMMON_SRCS` variables), so that the stack
//! analysis sees the same code the firmware links.

use crate::error::BuildError;
use crate::manifest::{StackStrategy, Target};
use crate::toolchain::{run, transcript, Toolchain};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Kernel sources a firmware links only when its manifest declares an `[[interrupt]]`: their
/// strong definitions replace weak defaults of the core (`core/irq.c` replaces `time.c`'s idle
/// loop with one that runs handlers, `arch/rv32/irq.S` the fault default of the software and
/// external vectors), so linking them into every firmware would change its behaviour, not only
/// its size. The prebuilt libraries get the same choice from archive linking: nothing there
/// pulls these members in but `cactus_irq_attach`. Paths relative to `kernel/`.
pub const INTERRUPT_ONLY: [&str; 2] = ["core/irq.c", "arch/rv32/irq.S"];

/// Kernel sources of the direct handlers (docs/interrupts.md, "Direct handlers"): the
/// assembly jumps to the firmware's `cactus_direct_isr_software`, which only a firmware with a
/// direct handler defines (`direct = true` in its `[[interrupt]]`), so only such a firmware
/// links them. Paths relative to `kernel/`.
pub const DIRECT_ONLY: [&str; 2] = ["core/irq_direct.c", "arch/rv32/irq_direct.S"];

/// Kernel sources only an SRP firmware (`kernel.scheduler = "srp"`) links: the dispatcher and
/// its preemption trampoline. Their strong definitions fill weak references of the core
/// (`time.c`'s release clock), so other firmware must not link them. Paths relative to
/// `kernel/`.
pub const SRP_ONLY: [&str; 2] = ["core/srp.c", "arch/rv32/srp.S"];

/// Kernel sources only a Carousel firmware (`kernel.carousel`) links, beside the SRP ones:
/// the Carousel operations, the SRP dispatcher's Carousel invoker and the stack switch they
/// use. They are not in the kernel library's sources. Paths relative to `kernel/`.
pub const CAROUSEL_C: [&str; 2] = ["carousel/carousel.c", "carousel/srp_carousel.c"];
/// The Carousel firmware's assembly source (relative to `kernel/`).
pub const CAROUSEL_ASM: &str = "carousel/carousel_call.S";

/// The yield's assembly source (relative to `kernel/`). It is not in the Makefile's
/// `COMMON_SRCS`: kernel/Makefile assembles it once per library with [`yield_defines`], and a
/// manifest firmware links it assembled the same way.
pub const YIELD_ASM: &str = "arch/rv32/yield.S";

/// The `-D` options the yield (`YIELD_ASM`) is assembled with for a kernel of `strategy` and
/// `target`: with the `static` strategy it runs the common case in assembly with that
/// strategy's switch-time check (`CACTUS_YIELD_STATIC`); on cactus-sim it writes the trace
/// device's task-switch event itself (`CACTUS_TRACE_SIM`), as `trace_sim.c` does for the C
/// paths. docs/kernel.md, "The yield's assembly path".
pub fn yield_defines(strategy: StackStrategy, target: Target) -> Vec<String> {
    let mut d = Vec::new();
    if strategy == StackStrategy::Static {
        d.push("-DCACTUS_YIELD_STATIC=1".to_string());
    }
    if target.trace_backend() == "sim" {
        d.push("-DCACTUS_TRACE_SIM=1".to_string());
    }
    d
}

/// A link-time kernel variant (`kernel/variants/<name>.c`, docs/kernel.md "Footprint"): a
/// file that replaces the kernel sources of one feature, chosen by `kernel.variants`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    /// Its name in the manifest and its file's stem.
    pub name: &'static str,
    /// The kernel sources it replaces (relative to `kernel/`), left out of the link.
    pub replaces: &'static [&'static str],
    /// Whether only the `static` stack strategy can link it.
    pub static_only: bool,
    /// Whether it is a file, `kernel/variants/<name>.c`, linked in place of `replaces`.
    pub file: bool,
    /// The `-D` options the kernel is compiled with when it is chosen: a feature that sits
    /// inline on the switch paths (C and assembly) is left out by a constant condition, not
    /// by a file (the kernel variant's directory then carries the name: it is another build).
    pub defines: &'static [&'static str],
}

/// The link-time variants a manifest can choose, in the order they are linked.
pub const VARIANTS: [Variant; 4] = [
    // Every fault halts: no per-task fault policy, no trap-time stack handling.
    Variant {
        name: "fault_halt",
        replaces: &["core/policy.c", "core/stackfault.c"],
        static_only: true,
        file: true,
        defines: &[],
    },
    // No console reports (the exit codes stay).
    Variant {
        name: "quiet",
        replaces: &["core/halt.c", "arch/rv32/report.S"],
        static_only: false,
        file: true,
        defines: &[],
    },
    // A task that ends halts the system.
    Variant {
        name: "exit_halt",
        replaces: &["core/exit.c"],
        static_only: false,
        file: true,
        defines: &[],
    },
    // No switch counter (`cactus_get_stats` reports 0 switches): the FreeRTOS-equal
    // configuration of the measured switch paths (docs/kernel.md "Switch cost").
    Variant {
        name: "nostats",
        replaces: &[],
        static_only: false,
        file: false,
        defines: &["-DCACTUS_SWITCH_STATS=0"],
    },
];

/// The `-D` options of the variants named in `names` (unknown names give none).
pub fn variant_defines(names: &[String]) -> Vec<String> {
    VARIANTS
        .iter()
        .filter(|v| names.iter().any(|n| n == v.name))
        .flat_map(|v| v.defines.iter().map(|d| d.to_string()))
        .collect()
}

/// The sources `name` replaces, or None if no variant has that name.
pub fn variant_sources(name: &str) -> Option<&'static [&'static str]> {
    VARIANTS.iter().find(|v| v.name == name).map(|v| v.replaces)
}

/// Whether the variant `name` is for the `static` stack strategy only.
pub fn variant_needs_static(name: &str) -> bool {
    VARIANTS.iter().any(|v| v.name == name && v.static_only)
}

/// The kernel features a firmware links beyond the core, chosen by its manifest.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Links {
    /// It declares interrupt handlers ([`INTERRUPT_ONLY`]).
    pub interrupts: bool,
    /// It runs the SRP scheduler ([`SRP_ONLY`]).
    pub srp: bool,
    /// It declares a direct handler ([`DIRECT_ONLY`]).
    pub direct: bool,
    /// It invokes its SRP jobs through Carousel ([`CAROUSEL_C`], [`CAROUSEL_ASM`]).
    pub carousel: bool,
    /// Which of [`VARIANTS`] it links (`kernel.variants`), by index.
    pub variants: [bool; VARIANTS.len()],
}

impl Links {
    /// What the manifest `m` links.
    pub fn of(m: &crate::Manifest) -> Links {
        Links {
            interrupts: !m.interrupts.is_empty(),
            direct: m.interrupts.iter().any(|i| i.direct),
            srp: m.srp.is_some(),
            carousel: m.srp.as_ref().is_some_and(|s| s.carousel),
            variants: VARIANTS.map(|v| m.kernel.variants.iter().any(|n| n == v.name)),
        }
    }
}

/// Whether a firmware with the features `links` links the kernel source `source` (absolute,
/// under `kernel_dir`).
pub fn links_source(kernel_dir: &Path, source: &Path, links: Links) -> bool {
    let among = |list: &[&str]| list.iter().any(|rel| source == kernel_dir.join(rel));
    (links.interrupts || !among(&INTERRUPT_ONLY))
        && (links.srp || !among(&SRP_ONLY))
        && (links.direct || !among(&DIRECT_ONLY))
        && !VARIANTS
            .iter()
            .zip(links.variants)
            .any(|(v, on)| on && among(v.replaces))
}

/// Stands for the kernel directory in the flags the Makefile prints.
const KERNEL_DIR_MARK: &str = "@CACTUS_KERNEL_DIR@";

/// Make splits target names on spaces, so the Makefile's output rules (under `ROOT`, the
/// kernel's parent) break when that path holds one. The variables read here need none of
/// them: for such a kernel `ROOT` is pointed at a path that cannot exist (below `/dev/null`),
/// where nothing is read or written.
fn away_from_spaces(make: &mut Command, kernel: &Path) {
    if kernel.to_string_lossy().contains(char::is_whitespace) {
        make.arg("ROOT=/dev/null/cactus-root");
    }
}

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
/// units and are not listed. Without `links.interrupts` (the manifest declares no handler)
/// the [`INTERRUPT_ONLY`] sources are left out, without `links.srp` the [`SRP_ONLY`] ones. Flags are split on whitespace; the kernel directory
/// in them may hold spaces (it is kept whole), `defines` may not.
pub fn kernel_units(
    tc: &Toolchain,
    root: &Path,
    strategy: StackStrategy,
    target: Target,
    defines: &[String],
    links: Links,
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
    away_from_spaces(&mut make, &kernel);
    // The kernel directory may hold spaces (an install prefix): it is printed as a placeholder
    // so that the flags split on whitespace, then put back.
    make.arg(format!(
        "--eval=cactus-print-cflags: ; @echo $(subst $(CURDIR),{KERNEL_DIR_MARK},$(CFLAGS))"
    ))
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
    let kernel_text = kernel.display().to_string();
    let flags: Vec<String> = cflags
        .split_whitespace()
        .map(|f| f.replace(KERNEL_DIR_MARK, &kernel_text))
        .collect();
    let mut sources: Vec<PathBuf> = srcs.split_whitespace().map(|s| kernel.join(s)).collect();
    sources.retain(|s| links_source(&kernel, s, links));
    for (v, _) in VARIANTS
        .iter()
        .zip(links.variants)
        .filter(|(v, on)| *on && v.file)
    {
        sources.push(kernel.join(format!("variants/{}.c", v.name)));
    }
    sources.push(kernel.join(format!("stack/{}.c", strategy.file_name())));
    sources.push(kernel.join(format!("trace/trace_{}.c", target.trace_backend())));
    if links.carousel {
        sources.extend(CAROUSEL_C.iter().map(|rel| kernel.join(rel)));
    }
    Ok(sources
        .into_iter()
        .map(|source| KernelUnit {
            source,
            flags: flags.clone(),
        })
        .collect())
}

/// The kernel's assembly sources (the Makefile's `COMMON_SRCS` `.S` files), absolute, in the
/// Makefile's order: hand-written code no pass rewrites. Sources of features `links` leaves
/// out are not listed.
pub fn kernel_asm_sources(
    tc: &Toolchain,
    root: &Path,
    links: Links,
) -> Result<Vec<PathBuf>, BuildError> {
    let kernel = root.join("kernel");
    let mut make = Command::new("make");
    make.arg("-s")
        .arg("--no-print-directory")
        .arg("-C")
        .arg(&kernel)
        .arg(format!("CROSS={}", tc.prefix));
    away_from_spaces(&mut make, &kernel);
    make.arg("--eval=cactus-print-asm: ; @echo $(filter %.S,$(COMMON_SRCS))")
        .arg("cactus-print-asm");
    let out = run(&mut make, "make")?;
    if !out.status.success() {
        return Err(BuildError::Kernel {
            library: "kernel assembly sources".to_string(),
            output: transcript(&out),
        });
    }
    let mut sources: Vec<PathBuf> = String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .map(|s| kernel.join(s))
        .filter(|s| links_source(&kernel, s, links))
        .collect();
    if links.carousel {
        sources.push(kernel.join(CAROUSEL_ASM));
    }
    Ok(sources)
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
        let units = kernel_units(
            &tc,
            &root(),
            StackStrategy::Static,
            Target::Sim,
            &[],
            Links::default(),
        )
        .unwrap();
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
        assert!(
            !names.iter().any(|n| n.ends_with("kernel/core/irq.c")),
            "no [[interrupt]], no handler dispatch: {names:?}"
        );
        let irq = Links {
            interrupts: true,
            srp: false,
            direct: false,
            carousel: false,
            variants: Default::default(),
        };
        let with_irq =
            kernel_units(&tc, &root(), StackStrategy::Static, Target::Sim, &[], irq).unwrap();
        assert!(with_irq
            .iter()
            .any(|u| u.source.ends_with("kernel/core/irq.c")));
        assert_eq!(with_irq.len(), units.len() + 1);
        let direct = Links {
            direct: true,
            ..irq
        };
        let with_direct = kernel_units(
            &tc,
            &root(),
            StackStrategy::Static,
            Target::Sim,
            &[],
            direct,
        )
        .unwrap();
        assert!(with_direct
            .iter()
            .any(|u| u.source.ends_with("kernel/core/irq_direct.c")));
        assert_eq!(with_direct.len(), units.len() + 2);
        assert!(!names.iter().any(|n| n.ends_with("kernel/core/srp.c")));
        let srp = Links {
            interrupts: false,
            srp: true,
            direct: false,
            carousel: false,
            variants: Default::default(),
        };
        let with_srp =
            kernel_units(&tc, &root(), StackStrategy::Static, Target::Sim, &[], srp).unwrap();
        assert!(with_srp
            .iter()
            .any(|u| u.source.ends_with("kernel/core/srp.c")));
        assert_eq!(with_srp.len(), units.len() + 1);
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
    fn a_variant_replaces_the_sources_of_its_feature() {
        let tc = Toolchain::default();
        let units = |links| {
            kernel_units(&tc, &root(), StackStrategy::Static, Target::Sim, &[], links)
                .unwrap()
                .into_iter()
                .map(|u| u.source)
                .collect::<Vec<_>>()
        };
        let plain = units(Links::default());
        let plain_asm = kernel_asm_sources(&tc, &root(), Links::default()).unwrap();
        let has = |list: &[PathBuf], rel: &str| list.iter().any(|s| s.ends_with(rel));
        for v in VARIANTS {
            assert_eq!(
                root()
                    .join("kernel/variants")
                    .join(format!("{}.c", v.name))
                    .is_file(),
                v.file,
                "{}",
                v.name
            );
            assert!(
                v.file || !v.defines.is_empty(),
                "{}: a file or defines",
                v.name
            );
            for rel in v.replaces {
                assert!(
                    has(&plain, rel) || has(&plain_asm, rel),
                    "{rel} is a kernel source"
                );
            }
        }
        let quiet = units(Links {
            variants: VARIANTS.map(|v| v.name == "quiet"),
            ..Links::default()
        });
        assert!(has(&quiet, "kernel/variants/quiet.c"));
        assert!(!has(&quiet, "kernel/core/halt.c"));
        assert_eq!(quiet.len(), plain.len());
        let quiet_asm = kernel_asm_sources(
            &tc,
            &root(),
            Links {
                variants: VARIANTS.map(|v| v.name == "quiet"),
                ..Links::default()
            },
        )
        .unwrap();
        assert!(has(&plain_asm, "kernel/arch/rv32/report.S"));
        assert!(!has(&quiet_asm, "kernel/arch/rv32/report.S"));
        assert_eq!(quiet_asm.len(), plain_asm.len() - 1);
        let all = units(Links {
            variants: [true; VARIANTS.len()],
            ..Links::default()
        });
        assert_eq!(all.len(), plain.len() - 4 + 3);
        assert!(!has(&all, "kernel/core/exit.c") && !has(&all, "kernel/core/policy.c"));
        assert_eq!(variant_sources("nope"), None);
        assert!(variant_needs_static("fault_halt") && !variant_needs_static("quiet"));
        assert_eq!(
            variant_defines(&["nostats".to_string(), "quiet".to_string()]),
            ["-DCACTUS_SWITCH_STATS=0"]
        );
        assert!(
            !has(&quiet_asm, "kernel/arch/rv32/yield.S"),
            "assembled apart"
        );
    }

    #[test]
    fn the_yield_is_assembled_for_the_strategy_and_target() {
        assert_eq!(
            yield_defines(StackStrategy::Static, Target::Sim),
            ["-DCACTUS_YIELD_STATIC=1", "-DCACTUS_TRACE_SIM=1"]
        );
        assert_eq!(
            yield_defines(StackStrategy::Static, Target::Qemu),
            ["-DCACTUS_YIELD_STATIC=1"]
        );
        assert!(yield_defines(StackStrategy::Mtss, Target::Qemu).is_empty());
        assert!(root().join("kernel").join(YIELD_ASM).is_file());
    }

    /// Copies the directory tree `from` to `to`.
    fn copy_tree(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                copy_tree(&e.path(), &to.join(e.file_name()));
            } else {
                std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
            }
        }
    }

    #[test]
    fn a_kernel_under_a_path_with_spaces_keeps_its_include_flags_whole() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("my cactus home");
        copy_tree(&root().join("kernel"), &home.join("kernel"));
        let tc = Toolchain::default();
        let units = kernel_units(
            &tc,
            &home,
            StackStrategy::Static,
            Target::Sim,
            &[],
            Links::default(),
        )
        .unwrap();
        let want = format!("-I{}", home.join("kernel/include").display());
        let flags = &units[0].flags;
        assert!(flags.contains(&want), "{want:?} not in {flags:?}");
        assert!(units.iter().all(|u| u.source.starts_with(&home)));
        assert!(units.iter().all(|u| u.source.is_file()));
        let asm = kernel_asm_sources(&tc, &home, Links::default()).unwrap();
        assert!(!asm.is_empty() && asm.iter().all(|s| s.starts_with(&home) && s.is_file()));
    }

    #[test]
    fn lists_the_kernel_assembly_sources() {
        let tc = Toolchain::default();
        let srcs = kernel_asm_sources(&tc, &root(), Links::default()).unwrap();
        assert!(srcs
            .iter()
            .all(|s| s.is_file() && s.extension().unwrap() == "S"));
        assert!(
            srcs.iter().any(|s| s.ends_with("arch/rv32/trap.S")),
            "{srcs:?}"
        );
        assert!(!srcs.iter().any(|s| s.ends_with("arch/rv32/irq.S")));
        assert!(!srcs.iter().any(|s| s.ends_with("arch/rv32/srp.S")));
        let with_irq = kernel_asm_sources(
            &tc,
            &root(),
            Links {
                interrupts: true,
                srp: true,
                direct: false,
                carousel: false,
                variants: Default::default(),
            },
        )
        .unwrap();
        assert!(with_irq.iter().any(|s| s.ends_with("arch/rv32/srp.S")));
        assert!(with_irq.iter().any(|s| s.ends_with("arch/rv32/irq.S")));
        assert!(!with_irq
            .iter()
            .any(|s| s.ends_with("arch/rv32/irq_direct.S")));
    }

    #[test]
    fn pool_variant_gets_its_extra_flag() {
        let tc = Toolchain::default();
        let defines = [
            "-DCACTUS_STACK_POOL_SIZE=8192".to_string(),
            "-DCACTUS_MTSS_PAGE=64".into(),
        ];
        let units = kernel_units(
            &tc,
            &root(),
            StackStrategy::Mtss,
            Target::Sim,
            &defines,
            Links::default(),
        )
        .unwrap();
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
