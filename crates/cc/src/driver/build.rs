//! Carrying out a [`Build`]: every C source to assembly, the pass over all of them together,
//! each result assembled (or written as `.s`), the other inputs compiled by gcc, and the
//! link. Outputs are staged as temporary files beside their destinations and renamed into
//! place together once every source is through, so a driver error leaves none of them; the
//! report is written last, only when the whole command succeeded.

use super::args::Stage;
use super::files::{commit, io_error, resolve, temp_beside, write_atomic, write_stdout};
use super::gcc::Gcc;
use super::plan::{stem, Build, Source};
use super::runtime;
use super::{Driver, DriverOutcome};
use crate::{instrument_units, CcError, CheckMode, Report, Unit};
use std::path::{Path, PathBuf};
use tempfile::TempPath;

/// Outputs finished but not yet renamed into place.
#[derive(Default)]
struct Staged {
    files: Vec<(TempPath, PathBuf)>,
}

impl Staged {
    /// Stages `data` as the future content of `dest`.
    fn write(&mut self, dest: PathBuf, data: &[u8]) -> Result<(), CcError> {
        let temp = temp_beside(&dest, ".tmp")?;
        std::fs::write(&temp, data).map_err(|e| io_error(&dest, e))?;
        self.files.push((temp, dest));
        Ok(())
    }

    /// Renames every staged file into place, in staging order.
    fn commit(self, outcome: &mut DriverOutcome) -> Result<(), CcError> {
        for (temp, dest) in self.files {
            commit(temp, &dest)?;
            outcome.outputs.push(dest);
        }
        Ok(())
    }
}

/// One source compiled to assembly by gcc.
struct Compiled<'b> {
    source: &'b Source,
    text: String,
    dep: PathBuf,
}

/// One build in progress: the driver, the plan, gcc and the scratch directory.
struct Job<'a> {
    d: &'a Driver,
    plan: &'a Build,
    gcc: &'a Gcc<'a>,
    tmp: &'a Path,
}

/// Runs `plan` (see the module documentation); gcc failures set `outcome.status`.
pub(super) fn run(
    d: &Driver,
    plan: &Build,
    gcc: &Gcc,
    outcome: &mut DriverOutcome,
) -> Result<(), CcError> {
    let scratch = tempfile::tempdir().map_err(|e| io_error(&std::env::temp_dir(), e))?;
    let job = Job {
        d,
        plan,
        gcc,
        tmp: scratch.path(),
    };
    let mut status = 0;
    let mut compiled = Vec::new();
    let runtime = d.runtime && plan.stage == Stage::Link && runtime::wanted_items(plan.items());
    let specs = runtime
        .then(|| runtime::compile_specs(plan.items()))
        .flatten();
    for (k, source) in plan.sources.iter().enumerate() {
        let asm = job.tmp.join(format!("{k}.s"));
        let dep = job.tmp.join(format!("{k}.d"));
        let mut args = plan.compile_args(source, &asm, &dep);
        if let Some(specs) = &specs {
            args.insert(0, specs.clone()); // picolibc's headers, as the runtime links it
        }
        if d.options.mode != CheckMode::None {
            // Interprocedural register allocation lets a caller keep t0-t6 live across a call
            // into a function GCC saw not clobbering them; the check needs one of them.
            // (Placed before the input, after every user option.)
            args.insert(args.len() - 1, crate::NO_IPA_RA.to_string());
        }
        let code = gcc.run(&args, &mut outcome.captured)?;
        if code != 0 {
            status = first(status, code);
            continue;
        }
        let text = std::fs::read_to_string(&asm).map_err(|e| io_error(&asm, e))?;
        compiled.push(Compiled { source, text, dep });
    }
    let (texts, report) = instrument(d, &compiled)?;
    let mut staged = Staged::default();
    let mut objects = Vec::new();
    for (k, (unit, text)) in compiled.iter().zip(&texts).enumerate() {
        let code = job.deliver(k, unit, text, &mut staged, &mut objects, outcome)?;
        status = first(status, code);
    }
    if let Some(args) = plan.rest_args() {
        status = first(status, gcc.run(&args, &mut outcome.captured)?);
    }
    staged.commit(outcome)?;
    if plan.stage == Stage::Link && status == 0 {
        let objs: Vec<&Path> = objects.iter().map(PathBuf::as_path).collect();
        let link = plan.link_args(&objs);
        status = if runtime {
            runtime::link(gcc, &link, job.tmp, &mut outcome.captured)?
        } else {
            gcc.run(&link, &mut outcome.captured)?
        };
    }
    if let (Some(path), 0) = (&d.report, status) {
        let path = resolve(d.cwd.as_deref(), path);
        let json = serde_json::to_string_pretty(&report)
            .map_err(|e| CcError::Tool(format!("{}: {e}", path.display())))?;
        write_atomic(&path, json.as_bytes())?;
        outcome.outputs.push(path);
    }
    outcome.report = Some(report);
    outcome.status = status;
    Ok(())
}

impl Job<'_> {
    /// Stages unit `k`'s outputs (its `.s` or object, kept assembly, dependency file); in a
    /// link, assembles its object into the scratch directory and appends it to `objects`.
    /// Returns the assembler's exit code.
    fn deliver(
        &self,
        k: usize,
        unit: &Compiled,
        text: &str,
        staged: &mut Staged,
        objects: &mut Vec<PathBuf>,
        outcome: &mut DriverOutcome,
    ) -> Result<i32, CcError> {
        let (plan, cwd) = (self.plan, self.d.cwd.as_deref());
        let product = plan.product(unit.source);
        let base = product
            .clone()
            .or_else(|| plan.dump_base(unit.source))
            .unwrap_or_else(|| stem(&unit.source.path));
        if self.d.keep_s && plan.stage != Stage::Assemble {
            staged.write(resolve(cwd, format!("{base}.cactus.s")), text.as_bytes())?;
        }
        if plan.stage == Stage::Assemble {
            match product.as_deref() {
                Some("-") => deliver_stdout(self.d, text.as_bytes(), outcome)?,
                Some(p) => staged.write(resolve(cwd, p), text.as_bytes())?,
                None => {}
            }
        } else {
            let asm = self.tmp.join(format!("{k}.cactus.s"));
            std::fs::write(&asm, text).map_err(|e| io_error(&asm, e))?;
            let (temp, dest) = match &product {
                Some(p) => {
                    let dest = resolve(cwd, p);
                    (Some(temp_beside(&dest, ".o")?), dest)
                }
                None => (None, self.tmp.join(format!("{k}.o"))),
            };
            let obj = temp.as_deref().unwrap_or(&dest).to_path_buf();
            let code = self
                .gcc
                .run(&plan.assemble_args(&asm, &obj), &mut outcome.captured)?;
            if code != 0 {
                if !self.d.options.instruments() {
                    return Ok(code);
                }
                return Err(self.assembly_failed(unit.source, text, &base, code));
            }
            match temp {
                Some(temp) => staged.files.push((temp, dest)),
                None => objects.push(dest),
            }
        }
        if let Some(dest) = plan.dep_file(unit.source) {
            let data = std::fs::read(&unit.dep).map_err(|e| io_error(&unit.dep, e))?;
            staged.write(resolve(cwd, dest), &data)?;
        }
        Ok(0)
    }

    /// The assembler rejected the instrumented assembly of `source`: a bug of the pass, so
    /// the assembly is kept as `<base>.cactus.s` for the report and the run fails.
    fn assembly_failed(&self, source: &Source, text: &str, base: &str, code: i32) -> CcError {
        let kept = resolve(self.d.cwd.as_deref(), format!("{base}.cactus.s"));
        if let Err(e) = write_atomic(&kept, text.as_bytes()) {
            return e;
        }
        CcError::Tool(format!(
            "{}: the assembler rejected the instrumented assembly (exit {code}); it is kept in {}",
            source.path,
            kept.display()
        ))
    }
}

/// The earlier failure wins, as in gcc.
fn first(status: i32, code: i32) -> i32 {
    if status != 0 {
        status
    } else {
        code
    }
}

/// The passes over every compiled unit together (skipped when none is on).
fn instrument(d: &Driver, compiled: &[Compiled]) -> Result<(Vec<String>, Report), CcError> {
    if !d.options.instruments() || compiled.is_empty() {
        return Ok((
            compiled.iter().map(|c| c.text.clone()).collect(),
            Report::default(),
        ));
    }
    let units: Vec<Unit> = compiled
        .iter()
        .map(|c| Unit {
            origin: c.source.path.clone(),
            text: c.text.clone(),
            library: d.library,
        })
        .collect();
    instrument_units(&units, &d.options, &d.reserves)
}

/// `-S -o -`: the assembly goes to standard output (or the capture).
fn deliver_stdout(d: &Driver, data: &[u8], outcome: &mut DriverOutcome) -> Result<(), CcError> {
    if d.capture {
        outcome.captured.stdout.extend_from_slice(data);
        Ok(())
    } else {
        write_stdout(data)
    }
}
