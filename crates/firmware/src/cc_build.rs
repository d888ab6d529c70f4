//! The firmware build through `cactus cc`: every C unit (the tasks', the generated glue and
//! the kernel's) is compiled to assembly, the units are instrumented together as one program
//! (docs/stack-checks.md; so the rolling optimization sees every caller), then assembled and
//! linked with the kernel's own assembly sources. No LTO: the passes work on the machine code
//! GCC emits for each unit.

use crate::compile_units::{stem, units};
use crate::error::BuildError;
use crate::kernel_units::{kernel_asm_sources, kernel_units};
use crate::manifest::{Manifest, StackStrategy, StackWindow};
use crate::toolchain::{Toolchain, ARCH_FLAGS};
use crate::unit_cache::UnitCache;
use cactus_cc::{instrument_units, PassOptions, Report, Reserves, RollingRules, Unit};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// How `cactus build` configures the passes beyond the manifest's `kernel.checks`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckOptions {
    /// Stack depths of the uninstrumented code the firmware links (libgcc, the kernel's
    /// assembly), from `cactus_analysis`; empty means every such call costs the blind margin.
    pub reserves: Reserves,
    /// Rolling rules in force.
    pub rolling: RollingRules,
    /// K for application code in bytes; None: 10 % of the smallest task stack (the paper's
    /// default).
    pub k_app: Option<u32>,
    /// K for the kernel (library code) in bytes.
    pub k_lib: u32,
    /// Bytes assumed for calls whose depth is unknown or unbounded.
    pub blind_margin: u32,
}

impl Default for CheckOptions {
    fn default() -> Self {
        let pass = PassOptions::default();
        CheckOptions {
            reserves: Reserves::default(),
            rolling: RollingRules::ALL,
            k_app: None,
            k_lib: pass.k_lib,
            blind_margin: pass.blind_margin,
        }
    }
}

/// File name of the pass report in a build directory.
pub const REPORT_NAME: &str = "checks-report.json";

/// The pass options for `m` under `opts`.
pub fn pass_options(m: &Manifest, opts: &CheckOptions) -> PassOptions {
    let smallest = m.tasks.iter().map(|t| t.stack).min().unwrap_or(1280);
    PassOptions {
        mode: m.kernel.checks,
        rolling: opts.rolling,
        k_app: opts.k_app.unwrap_or(smallest / 10),
        k_lib: opts.k_lib,
        whole_program: true,
        blind_margin: opts.blind_margin,
        hardware_bound: m.kernel.stack_bound,
        preempt_traps: m.kernel.preempt_traps,
        isolate: m.kernel.isolate,
        logical_stack: m.kernel.stack == StackStrategy::Relocate
            && m.kernel.window == StackWindow::Sw,
    }
}

fn io(what: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> BuildError {
    let path = path.to_path_buf();
    move |error| BuildError::Io { what, path, error }
}

/// Compiles (through `cache`), instruments and assembles every unit of `m` into `dir/obj`;
/// returns the objects to link (application and glue first, then the kernel's). Writes the
/// instrumented assembly to `dir/asm` and the pass report to `dir/`[`REPORT_NAME`]; debug info
/// names `final_dir` instead of `dir` (the build directory is renamed there).
pub(crate) fn build_objects(
    m: &Manifest,
    root: &Path,
    tc: &Toolchain,
    (dir, final_dir): (&Path, &Path),
    opts: &CheckOptions,
    cache: &mut UnitCache,
) -> Result<Vec<PathBuf>, BuildError> {
    // The build happens in `dir` and is renamed to `final_dir`: debug info must name the
    // generated sources where they will be, not where they were compiled.
    let prefix_map = format!(
        "-ffile-prefix-map={}={}",
        dir.display(),
        final_dir.display()
    );
    let asm_dir = dir.join("asm");
    let obj_dir = dir.join("obj");
    for d in [&asm_dir, &obj_dir] {
        std::fs::create_dir_all(d).map_err(io("cannot create", d))?;
    }
    // (source, flags, library) of every C unit, in link order.
    let mut c_units: Vec<(PathBuf, Vec<String>, bool)> = Vec::new();
    for u in units(m, root, dir) {
        let mut flags: Vec<String> = crate::toolchain::ARCH_FLAGS
            .iter()
            .chain(crate::toolchain::COMPILE_FLAGS)
            .map(|f| f.to_string())
            .collect();
        flags.extend(u.flags);
        c_units.push((u.source, flags, false));
    }
    let (stack, target) = (m.kernel.stack, m.kernel.target);
    let kernel = kernel_units(
        tc,
        root,
        stack,
        target,
        &m.kernel_defines(),
        crate::kernel_units::Links::of(m),
    )?;
    let kernel_flags = kernel.first().map(|k| k.flags.clone()).unwrap_or_default();
    for k in kernel {
        c_units.push((k.source, k.flags, true));
    }
    let mut units_in = Vec::new();
    for (i, (source, flags, library)) in c_units.iter().enumerate() {
        let asm = asm_dir.join(format!("{i:02}-{}.gcc.s", stem(source)));
        let mut flags = flags.clone();
        if m.kernel.checks != cactus_cc::CheckMode::None {
            flags.push(cactus_cc::NO_IPA_RA.to_string());
        }
        flags.push(prefix_map.clone());
        let text = cache.compile(tc, source, &flags, &asm)?;
        units_in.push(Unit {
            origin: source.display().to_string(),
            text,
            library: *library,
        });
    }
    let (texts, report) = instrument_units(&units_in, &pass_options(m, opts), &opts.reserves)
        .map_err(|error| BuildError::Instrument {
            firmware: m.name.clone(),
            error,
        })?;
    write_report(dir, &report)?;
    if m.srp.is_some() {
        check_srp_jobs(m, &c_units, &texts)?;
    }
    // ccs-sw: the switch table over the final code of every unit (docs/ccs.md).
    let mut texts = texts;
    let mut routines = None;
    if m.kernel.switch.has_table() {
        let meta: Vec<(PathBuf, bool)> = c_units.iter().map(|(s, _, l)| (s.clone(), *l)).collect();
        let glue = dir.join(crate::codegen::SOURCE_NAME);
        let (labelled, path) = crate::switch_table::generate(m, &meta, &glue, texts, dir)?;
        texts = labelled;
        routines = Some(path);
    }
    let mut objects = Vec::new();
    for (i, ((source, flags, _), text)) in c_units.iter().zip(texts).enumerate() {
        let asm = asm_dir.join(format!("{i:02}-{}.s", stem(source)));
        std::fs::write(&asm, text).map_err(io("cannot write", &asm))?;
        let obj = obj_dir.join(format!("{i:02}-{}.o", stem(source)));
        tc.assemble(&asm, &obj, &target_flags(flags), source)?;
        objects.push(obj);
    }
    for source in kernel_asm_sources(tc, root, crate::kernel_units::Links::of(m))? {
        let obj = obj_dir.join(format!("k-{}.o", stem(&source)));
        tc.assemble(&source, &obj, &kernel_flags, &source)?;
        objects.push(obj);
    }
    // The yield, assembled for this firmware's strategy and target (kernel/Makefile does the
    // same per library).
    let yield_src = root.join("kernel").join(crate::kernel_units::YIELD_ASM);
    let mut yield_flags = kernel_flags.clone();
    yield_flags.extend(crate::kernel_units::yield_defines(stack, target));
    let obj = obj_dir.join("k-yield.o");
    tc.assemble(&yield_src, &obj, &yield_flags, &yield_src)?;
    objects.push(obj);
    if let Some(source) = routines {
        let obj = obj_dir.join("switch-table.o");
        tc.assemble(&source, &obj, &kernel_flags, &source)?;
        objects.push(obj);
    }
    Ok(objects)
}

/// Refuses an SRP firmware whose job can block (crate::srp_check), over the final assembly of
/// every C unit.
fn check_srp_jobs(
    m: &Manifest,
    units: &[(PathBuf, Vec<String>, bool)],
    texts: &[String],
) -> Result<(), BuildError> {
    let refused = |refusal| BuildError::SrpJob {
        firmware: m.name.clone(),
        refusal,
    };
    let mut files = Vec::new();
    for ((source, _, _), text) in units.iter().zip(texts) {
        let unit = source.display().to_string();
        let file = cactus_asm::AsmFile::parse(text, &unit).map_err(|e| {
            refused(crate::srp_check::JobRefusal::Parse {
                unit: unit.clone(),
                error: e.to_string(),
            })
        })?;
        files.push(file);
    }
    crate::srp_check::check_jobs(m, &files).map_err(refused)
}

/// The flags of a compile that matter when assembling its output: target, debug info and
/// preprocessor options (for `.S`); never `-flto`, warnings or dependency output.
fn target_flags(flags: &[String]) -> Vec<String> {
    let mut out: Vec<String> = ARCH_FLAGS.iter().map(|f| f.to_string()).collect();
    out.extend(
        flags
            .iter()
            .filter(|f| f.starts_with("-g") || f.starts_with("-msmall-data-limit"))
            .cloned(),
    );
    out
}

fn write_report(dir: &Path, report: &Report) -> Result<(), BuildError> {
    let path = dir.join(REPORT_NAME);
    let text = serde_json::to_string_pretty(report).map_err(|e| BuildError::Io {
        what: "cannot encode",
        path: path.clone(),
        error: std::io::Error::other(e),
    })?;
    std::fs::write(&path, text).map_err(io("cannot write", &path))
}
