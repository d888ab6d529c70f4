//! Multi-task mode: several judged programs as preemptive tasks of one Cactus kernel
//! firmware, each with a tight stack, under a time slice chosen from the seed. Every task
//! must print its single-task checksum, the firmware must exit 0 and the oracle must see no
//! store outside the running task's stack.

use crate::fuzz::case::{CaseOutcome, CaseStatus, FuzzOptions, ProgramProfile};
use crate::fuzz::csmith::CSMITH_INCLUDE;
use crate::fuzz::error::{io_at, FuzzError};
use crate::fuzz::run::{simulate, FuzzRun};
use crate::fuzz::saved::keep_case;
use crate::fuzz::variant::{Variant, LIBGCC_RESERVE};
use crate::fuzz::verdict::{behaviour_difference, violation, Finding, FindingKind};
use crate::sim_run::SimEnding;
use crate::toolchain::GCC;
use cactus_cc::{Reserve, Reserves};
use cactus_firmware::{build, BuildOptions, CheckOptions, Manifest};
use rand::{Rng, SeedableRng};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The shared C of the multi-task firmware (`fuzz-runtime/multitask.c`).
pub const MULTITASK_C: &str = include_str!("../../fuzz-runtime/multitask.c");
/// Where picolibc's headers are (csmith programs include `<string.h>` and friends).
pub const PICOLIBC_INCLUDE: &str = "/usr/lib/picolibc/riscv64-unknown-elf/include";
/// Tick rates a group may get (each divides the kernel's 10 MHz timer). With the default
/// profile's 100 MHz clock and a slice of one to three ticks, equal-priority tasks are
/// preempted every 1 000 to 30 000 cycles.
pub const TICK_RATES: [u32; 6] = [10_000, 20_000, 25_000, 40_000, 50_000, 100_000];
/// Bytes added to a task's single-task stack high water to make its budget: the kernel's
/// task wrapper, the output formatter, the static strategy's 16-byte guard, and what the
/// single-task run under the bare-metal runtime does not show (a program interrupted by a tick
/// deep in a libgcc call, the kernel calls of the task wrapper).
pub const STACK_MARGIN: u32 = 512;
/// Bytes more for an instrumented build: a check asks for its function's effective size,
/// which over-approximates what is used (a [`LIBGCC_RESERVE`] per libgcc call where libgcc
/// uses at most 96; a rolled child's size even when a smaller child is called), so a
/// budget that fits the uninstrumented build exactly can fail a check without any overflow.
pub const CHECK_SLACK: u32 = LIBGCC_RESERVE + 512;

/// A task's stack budget from its single-task high water: `hwm` + [`STACK_MARGIN`] (+
/// [`CHECK_SLACK`] when `instrumented`), rounded up to 16, at least 128.
pub fn budget(hwm: u32, instrumented: bool) -> u32 {
    let slack = if instrumented { CHECK_SLACK } else { 0 };
    ((hwm + STACK_MARGIN + slack).div_ceil(16) * 16).max(128)
}

/// One group of programs run together.
#[derive(Clone, Debug)]
pub struct GroupOutcome {
    /// The programs' seeds, task 0 first.
    pub seeds: Vec<u64>,
    /// Kernel tick rate and time slice in ticks chosen for the group.
    pub preemption: (u32, u32),
    /// Problems found (variant names are `mt-<variant>`).
    pub findings: Vec<Finding>,
    /// Firmware builds made.
    pub builds: u32,
    /// Where the group's files were kept (only when something failed).
    pub saved: Option<PathBuf>,
}

/// The tick rate and time slice for a group whose first seed is `seed`.
pub fn preemption(seed: u64) -> (u32, u32) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let tick = TICK_RATES[rng.random_range(0..TICK_RATES.len())];
    (tick, rng.random_range(1..=3))
}

/// Splits the passed cases of a batch (no baseline disagreement) into groups of `tasks`
/// (a last, smaller group is kept if it has at least two programs).
pub fn groups(outcomes: &[CaseOutcome], tasks: usize) -> Vec<Vec<(u64, &ProgramProfile)>> {
    let usable: Vec<(u64, &ProgramProfile)> = outcomes
        .iter()
        .filter(|o| o.status == CaseStatus::Passed && o.baseline.is_empty())
        .filter_map(|o| Some((o.seed?, o.program.as_ref()?)))
        .collect();
    usable
        .chunks(tasks.max(2))
        .filter(|c| c.len() >= 2)
        .map(<[_]>::to_vec)
        .collect()
}

/// Builds and runs `members` as one firmware for every variant of `options` whose pass the
/// firmware build can express, keeping the group under `options.out` if anything failed.
pub fn run_group(
    members: &[(u64, &ProgramProfile)],
    options: &FuzzOptions,
    root: &Path,
) -> Result<GroupOutcome, FuzzError> {
    run_group_with(members, options, root, &|_, hwm, instrumented| {
        budget(hwm, instrumented)
    })
}

/// [`run_group`] with the stack budgets of `budget_of(task index, single-task high water,
/// instrumented)` instead of [`budget`] (tests starve one task with it).
pub fn run_group_with(
    members: &[(u64, &ProgramProfile)],
    options: &FuzzOptions,
    root: &Path,
    budget_of: &dyn Fn(usize, u32, bool) -> u32,
) -> Result<GroupOutcome, FuzzError> {
    let seeds: Vec<u64> = members.iter().map(|(s, _)| *s).collect();
    let preempt = preemption(seeds[0]);
    let work = tempfile::tempdir().map_err(io_at(&std::env::temp_dir()))?;
    let dir = work.path();
    write_sources(dir, members)?;
    let mut outcome = GroupOutcome {
        seeds: seeds.clone(),
        preemption: preempt,
        findings: Vec::new(),
        builds: 0,
        saved: None,
    };
    let expected = expected_output(members);
    // Four times the programs' own cycles, plus room for the kernel and its tick interrupts.
    let max_cycles = members
        .iter()
        .map(|(_, p)| p.cycles)
        .sum::<u64>()
        .saturating_mul(4)
        .saturating_add(5_000_000);
    for variant in &options.variants {
        let Some((mode, rolling)) = variant.pass.firmware_checks() else {
            continue;
        };
        let name = format!("mt-{}", variant.name());
        let budgets: Vec<u32> = members
            .iter()
            .enumerate()
            .map(|(k, (_, p))| {
                let hwm = p.hwm.get(&variant.opt).copied().unwrap_or(1024);
                budget_of(k, hwm, variant.pass.instruments())
            })
            .collect();
        let manifest_text = manifest(
            members,
            variant,
            preempt,
            crate::fuzz::variant::mode_name(mode),
            &budgets,
        );
        let manifest_path = dir.join(format!("{}.toml", variant.name()));
        std::fs::write(&manifest_path, &manifest_text).map_err(io_at(&manifest_path))?;
        let finding = |kind, detail| Finding {
            variant: name.clone(),
            kind,
            detail,
        };
        let m =
            Manifest::parse(&manifest_text, &manifest_path).map_err(|e| FuzzError::BadCase {
                path: manifest_path.clone(),
                reason: e.to_string(),
            })?;
        let build_options = BuildOptions {
            root: Some(root.to_path_buf()),
            out_root: Some(dir.join("build")),
            checks: CheckOptions {
                reserves: libgcc_symbols()?,
                rolling,
                ..CheckOptions::default()
            },
            ..BuildOptions::default()
        };
        outcome.builds += 1;
        let built = match build(&m, &build_options) {
            Ok(built) => built,
            Err(e) => {
                outcome
                    .findings
                    .push(finding(FindingKind::BuildFailed, e.to_string()));
                continue;
            }
        };
        let run = simulate(&built.elf, max_cycles, |_| Ok(()))?;
        let out = dir.join(format!("{}-output.txt", variant.name()));
        std::fs::write(&out, &run.uart).map_err(io_at(&out))?;
        let want = FuzzRun {
            uart: expected.clone().into_bytes(),
            ending: SimEnding::Exited(0),
            ..run.clone()
        };
        if let Some(diff) = behaviour_difference(&want, &run) {
            outcome.findings.push(finding(FindingKind::Mismatch, diff));
        }
        if let Some(v) = violation(&run) {
            outcome
                .findings
                .push(finding(FindingKind::OracleViolation, v));
        }
    }
    if !outcome.findings.is_empty() {
        let mut report = format!(
            "multi-task group of seeds {seeds:?}, tick {} Hz, slice {} tick(s)\n",
            preempt.0, preempt.1
        );
        for f in &outcome.findings {
            let _ = write!(report, "  {f}");
        }
        let path = dir.join("report.txt");
        std::fs::write(&path, report).map_err(io_at(&path))?;
        let _ = std::fs::remove_dir_all(dir.join("build"));
        let target = options.out.join(format!("multi-{}", seeds[0]));
        keep_case(dir, &target)?;
        outcome.saved = Some(target);
    }
    Ok(outcome)
}

/// What the firmware must print: `task K exit 0: <checksum line>` per task.
fn expected_output(members: &[(u64, &ProgramProfile)]) -> String {
    members
        .iter()
        .enumerate()
        .map(|(k, (_, p))| format!("task {k} exit 0: {}\n", p.checksum))
        .collect()
}

/// `progK.c` (the program), `taskK.c` (it with main and printf renamed), `multitask.c` and
/// the generated `fuzz_tasks.c`.
fn write_sources(dir: &Path, members: &[(u64, &ProgramProfile)]) -> Result<(), FuzzError> {
    let write = |name: String, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(io_at(&path))
    };
    let mut glue = String::from(
        "/* Generated by cactus fuzz: one printf and one task entry per program. */\n\
         #include \"multitask.c\"\n",
    );
    for (k, (_, program)) in members.iter().enumerate() {
        write(format!("prog{k}.c"), &program.source)?;
        write(
            format!("task{k}.c"),
            &format!(
                "#define main fuzz_main_{k}\n#define printf fuzz_printf_{k}\n#include \"prog{k}.c\"\n"
            ),
        )?;
        let _ = write!(
            glue,
            "int fuzz_main_{k}(int argc, char **argv);\n\
             int fuzz_printf_{k}(const char *fmt, ...);\n\
             int fuzz_printf_{k}(const char *fmt, ...)\n{{\n    va_list ap;\n    \
             va_start(ap, fmt);\n    fuzz_vprintf({k}, fmt, ap);\n    va_end(ap);\n    \
             return 0;\n}}\n\
             void fuzz_task_{k}(void *arg);\n\
             void fuzz_task_{k}(void *arg)\n{{\n    (void)arg;\n    \
             fuzz_run({k}, fuzz_main_{k});\n}}\n"
        );
    }
    write("multitask.c".into(), MULTITASK_C)?;
    write("fuzz_tasks.c".into(), &glue)
}

/// The manifest of the group under `variant`: equal priorities, task k's stack `budgets[k]`.
fn manifest(
    members: &[(u64, &ProgramProfile)],
    variant: &Variant,
    (tick_hz, slice): (u32, u32),
    checks: &str,
    budgets: &[u32],
) -> String {
    let mut text = format!(
        "[firmware]\nname = \"fuzzmt\"\n\n[kernel]\nstack = \"static\"\ntick_hz = {tick_hz}\n\
         slice_ticks = {slice}\ntarget = \"sim\"\nchecks = \"{checks}\"\n"
    );
    let cflags = format!(
        "[\"-w\", \"{}\", \"-std=gnu11\", \"-isystem\", \"{PICOLIBC_INCLUDE}\"]",
        variant.opt.flag()
    );
    for (k, (seed, _)) in members.iter().enumerate() {
        let stack = budgets.get(k).copied().unwrap_or(128);
        let _ = write!(
            text,
            "\n# csmith seed {seed}\n[[task]]\nname = \"t{k}\"\nsources = [\"task{k}.c\", \
             \"fuzz_tasks.c\"]\nentry = \"fuzz_task_{k}\"\npriority = 5\nstack = {}\n\
             cflags = {cflags}\ninclude = [\"{CSMITH_INCLUDE}\"]\n",
            stack.max(128)
        );
    }
    text
}

/// A reserve of [`LIBGCC_RESERVE`] bytes for every function libgcc defines (the firmware
/// links no other uninstrumented C), read once with `nm`.
fn libgcc_symbols() -> Result<Reserves, FuzzError> {
    static NAMES: OnceLock<Result<Vec<String>, String>> = OnceLock::new();
    let names = NAMES.get_or_init(|| {
        let lib = Command::new(GCC)
            .args(["-march=rv32imac", "-mabi=ilp32", "-print-libgcc-file-name"])
            .output()
            .map_err(|e| format!("{GCC}: {e}"))?;
        let lib = String::from_utf8_lossy(&lib.stdout).trim().to_string();
        let nm = Command::new("riscv64-unknown-elf-nm")
            .args(["--defined-only", "-g"])
            .arg(&lib)
            .output()
            .map_err(|e| format!("riscv64-unknown-elf-nm: {e}"))?;
        Ok(String::from_utf8_lossy(&nm.stdout)
            .lines()
            .filter_map(|l| {
                let mut w = l.split_whitespace();
                match (w.next(), w.next(), w.next()) {
                    (Some(_), Some("T"), Some(name)) => Some(name.to_string()),
                    _ => None,
                }
            })
            .collect())
    });
    match names {
        Ok(names) => Ok(names
            .iter()
            .map(|n| (n.clone(), Reserve::Bytes(LIBGCC_RESERVE)))
            .collect()),
        Err(e) => Err(FuzzError::Tool {
            tool: "riscv64-unknown-elf-nm",
            path: "libgcc.a".into(),
            stderr: e.clone(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preemption_is_seeded_and_valid() {
        assert_eq!(preemption(5), preemption(5));
        let all: Vec<(u32, u32)> = (0..50).map(preemption).collect();
        assert!(all
            .iter()
            .all(|(t, s)| 10_000_000 % t == 0 && (1..=3).contains(s)));
        assert!(all.iter().any(|p| p != &all[0]), "{all:?}");
    }

    #[test]
    fn manifest_gives_each_task_its_high_water_plus_the_margin() {
        let p = ProgramProfile {
            source: "int main(void){return 0;}".into(),
            checksum: "checksum = 1".into(),
            hwm: [(crate::fuzz::variant::OptLevel::O2, 200)]
                .into_iter()
                .collect(),
            cycles: 1000,
        };
        let v = Variant::baseline(crate::fuzz::variant::OptLevel::O2);
        assert_eq!(budget(200, false), 720);
        assert_eq!(budget(200, true), 720 + CHECK_SLACK);
        let text = manifest(&[(1, &p), (2, &p)], &v, (20_000, 2), "detect", &[720, 64]);
        assert!(text.contains("stack = 720\n"), "{text}");
        assert!(text.contains("stack = 128\n"), "at least 128: {text}");
        assert!(
            text.contains("tick_hz = 20000\nslice_ticks = 2\n"),
            "{text}"
        );
        assert!(text.contains("entry = \"fuzz_task_1\""), "{text}");
        assert_eq!(
            expected_output(&[(1, &p), (2, &p)]),
            "task 0 exit 0: checksum = 1\ntask 1 exit 0: checksum = 1\n"
        );
    }
}
