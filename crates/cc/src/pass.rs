//! The instrumentation entry point: parse every unit, run the check pass with the rolling
//! optimization over them together, print the result.

use crate::cfi;
use crate::checks::generate;
use crate::emit::splice;
use crate::margins;
use crate::plan::{sites, stub_point};
use crate::program::Program;
use crate::rolling::{decide, Context, Decisions, Rule};
use crate::thunks::{thunk, thunk_name};
use crate::{CcError, CheckMode, FunctionReport, PassOptions, Report, Reserve, Reserves};
use cactus_asm::callgraph::Target;
use cactus_asm::{AsmFile, Entry};
use std::collections::BTreeMap;

/// One compilation unit's assembly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// Where the text came from (used in messages and the report).
    pub origin: String,
    /// GNU-as assembly as the compiler wrote it.
    pub text: String,
    /// Library code (the kernel, runtimes): K is `k_lib` instead of `k_app`.
    pub library: bool,
}

/// Instruments `units` together under `opts`; returns the new text of each unit (same order)
/// and the report. With `CheckMode::None` every text is returned unchanged. A unit the pass
/// leaves untouched is returned byte for byte; an instrumented one is the parsed file
/// printed back with the checks inserted (docs/asm-ir.md, "Round trip").
///
/// With [`PassOptions::preempt_traps`] the preempt-traps pass (`crate::preempt`) then counts
/// the backward branches of every application unit (not [`Unit::library`]): it runs after the
/// checks, so their stubs are never mistaken for code to count.
pub fn instrument_units(
    units: &[Unit],
    opts: &PassOptions,
    reserves: &Reserves,
) -> Result<(Vec<String>, Report), CcError> {
    // Functions where the counter or isolation code must spill registers below sp: the
    // checks cover those bytes (the larger need when both passes spill in one function).
    let mut red_zone = std::collections::BTreeMap::new();
    // The logical-stack pass runs first: the checks it precedes compare the physical sp.
    let logical;
    let units = if opts.logical_stack {
        logical = logical_units(units, &mut red_zone, opts)?;
        &logical[..]
    } else {
        units
    };
    if opts.preempt_traps.is_some() || opts.isolate {
        for (u, unit) in units.iter().enumerate().filter(|(_, u)| !u.library) {
            let file =
                AsmFile::parse(&unit.text, &unit.origin).map_err(|error| CcError::Parse {
                    origin: unit.origin.clone(),
                    error,
                })?;
            if opts.preempt_traps.is_some() {
                for name in crate::preempt::red_zone_functions(&file) {
                    red_zone.insert((u, name), crate::preempt::RED_ZONE);
                }
            }
            if opts.isolate {
                for name in crate::isolate::red_zone_functions(&file) {
                    let bytes = red_zone.entry((u, name)).or_insert(0);
                    *bytes = (*bytes).max(crate::isolate::RED_ZONE);
                }
            }
        }
    }
    let (mut texts, report) = check_units(units, opts, reserves, &red_zone)?;
    if let Some(period) = opts.preempt_traps {
        if period == 0 {
            return Err(CcError::Usage(
                "--preempt-traps: the period N must be at least 1".into(),
            ));
        }
        let mut next = 0usize;
        for (u, text) in texts.iter_mut().enumerate() {
            if units[u].library {
                continue;
            }
            if units[u].text.contains(".Lcactus_pt_") {
                return Err(CcError::Usage(format!(
                    "{}: already instrumented (it contains .Lcactus_pt_ labels)",
                    units[u].origin
                )));
            }
            let mut file =
                AsmFile::parse(text, &units[u].origin).map_err(|error| CcError::Parse {
                    origin: units[u].origin.clone(),
                    error,
                })?;
            let stats = crate::preempt::instrument(&mut file, period, &mut next);
            if stats.sites > 0 {
                *text = file.to_string();
            }
        }
    }
    if opts.isolate {
        isolate_units(units, &mut texts)?;
    }
    Ok((texts, report))
}

/// The logical-stack pass (`crate::logical`) over every application unit of `units`: the
/// units with their new texts; the functions whose translations spill get their red zone.
fn logical_units(
    units: &[Unit],
    red_zone: &mut BTreeMap<(usize, String), u32>,
    opts: &PassOptions,
) -> Result<Vec<Unit>, CcError> {
    if opts.isolate {
        return Err(CcError::Usage(
            "--logical-stack and --isolate cannot be combined (isolate needs static stacks)".into(),
        ));
    }
    let mut next = 0usize;
    let mut out = units.to_vec();
    for (u, unit) in out.iter_mut().enumerate() {
        if unit.library {
            continue;
        }
        if unit.text.contains(".Lcactus_ls") {
            return Err(CcError::Usage(format!(
                "{}: already instrumented (it contains .Lcactus_ls labels)",
                unit.origin
            )));
        }
        let mut file =
            AsmFile::parse(&unit.text, &unit.origin).map_err(|error| CcError::Parse {
                origin: unit.origin.clone(),
                error,
            })?;
        for name in crate::logical::red_zone_functions(&file) {
            red_zone.insert((u, name), crate::logical::RED_ZONE);
        }
        let stats = crate::logical::instrument(&mut file, &mut next).map_err(|reason| {
            CcError::Usage(format!("{}: logical-stack: {reason}", unit.origin))
        })?;
        if stats != crate::logical::LogicalStats::default() {
            unit.text = file.to_string();
        }
    }
    Ok(out)
}

/// The isolate pass (`crate::isolate`) over every application unit of `texts` (the output of
/// the earlier passes), in place.
fn isolate_units(units: &[Unit], texts: &mut [String]) -> Result<(), CcError> {
    let mut next = 0usize;
    for (u, text) in texts.iter_mut().enumerate() {
        if units[u].library {
            continue;
        }
        if units[u].text.contains(".Lcactus_iso_") {
            return Err(CcError::Usage(format!(
                "{}: already instrumented (it contains .Lcactus_iso_ labels)",
                units[u].origin
            )));
        }
        let mut file = AsmFile::parse(text, &units[u].origin).map_err(|error| CcError::Parse {
            origin: units[u].origin.clone(),
            error,
        })?;
        let stats = crate::isolate::instrument(&mut file, &mut next);
        if stats.stores + stats.jumps + stats.writers > 0 {
            *text = file.to_string();
        }
    }
    Ok(())
}

/// The stack-check pass alone (docs/stack-checks.md); the functions in `red_zone` need
/// the bytes given below their `sp` besides their frame.
fn check_units(
    units: &[Unit],
    opts: &PassOptions,
    reserves: &Reserves,
    red_zone: &std::collections::BTreeMap<(usize, String), u32>,
) -> Result<(Vec<String>, Report), CcError> {
    if opts.mode == CheckMode::None {
        return Ok((
            units.iter().map(|u| u.text.clone()).collect(),
            Report::default(),
        ));
    }
    let mut files = Vec::with_capacity(units.len());
    for u in units {
        if u.text.contains(".Lcactus_ok_") {
            return Err(CcError::Usage(format!(
                "{}: already instrumented (it contains .Lcactus_ labels)",
                u.origin
            )));
        }
        let file = AsmFile::parse(&u.text, &u.origin).map_err(|error| CcError::Parse {
            origin: u.origin.clone(),
            error,
        })?;
        files.push(file);
    }
    let program = Program::build(&files);
    let origins: Vec<String> = units.iter().map(|u| u.origin.clone()).collect();
    let library: Vec<bool> = units.iter().map(|u| u.library).collect();
    let cx = Context {
        opts,
        reserves,
        origins: &origins,
        library: &library,
        red_zone,
    };
    let decisions = decide(&program, &cx);
    let mut report = Report {
        functions: Vec::new(),
        warnings: decisions.warnings.clone(),
    };
    // Per-resume-point lending margins need every caller: whole-program MTSS builds only.
    let reach = (opts.mode.relocates() && opts.whole_program).then(|| {
        // With the hardware bound, a function past its bound-only entry writes nothing below
        // its sp: what a lender must keep comes from the inline checks alone.
        let checked: Vec<u32> = (0..program.funcs.len())
            .map(|f| {
                if opts.hardware_bound && crate::plan::bound_entry(&program, f, &decisions) {
                    0
                } else {
                    decisions.effective[f]
                }
            })
            .collect();
        margins::reach(&program, &checked)
    });
    let mut texts = Vec::with_capacity(units.len());
    for (u, file) in files.iter_mut().enumerate() {
        let unit = UnitJob {
            u,
            p: &program,
            d: &decisions,
            reach: reach.as_deref(),
        };
        let edits = instrument_unit(file, &unit, opts, reserves, &mut report)?;
        texts.push(if edits == 0 {
            units[u].text.clone()
        } else {
            file.to_string()
        });
    }
    Ok((texts, report))
}

/// One unit to instrument and the program-wide facts it needs.
struct UnitJob<'a> {
    u: usize,
    p: &'a Program,
    d: &'a Decisions,
    /// Per function R(f) for the margin table (`margins::reach`), when it is emitted.
    reach: Option<&'a [Option<i64>]>,
}

/// Inserts the checks of unit `u`'s functions, their margin table and its thunks; returns
/// the number of edits.
fn instrument_unit(
    file: &mut AsmFile,
    job: &UnitJob,
    opts: &PassOptions,
    reserves: &Reserves,
    report: &mut Report,
) -> Result<usize, CcError> {
    let (u, p, d) = (job.u, job.p, job.d);
    let mut inserts: BTreeMap<usize, Vec<Entry>> = BTreeMap::new();
    let mut n = 0usize;
    let mut edits = 0usize;
    let mut tables: Vec<Entry> = Vec::new();
    let mut labels = 0usize;
    for f in (0..p.funcs.len()).filter(|&f| p.funcs[f].unit == u) {
        let info = &p.funcs[f];
        let planned = sites(file, p, f, d, opts.mode, opts.hardware_bound);
        let stub_at = stub_point(file, p, f);
        for pl in &planned {
            let code = generate(&pl.site, n, opts.mode.calls_runtime()).map_err(|reason| {
                CcError::Function {
                    origin: file.origin.clone(),
                    function: info.func.name.clone(),
                    reason,
                }
            })?;
            n += 1;
            inserts.entry(pl.at).or_default().extend(code.inline);
            let mut stub = code.stub;
            if !pl.site.bound {
                // After the stub's first label: the frame as it is at the check.
                let frame = cfi::stub_directives(file, info.func.start, info.func.end, pl.at);
                stub.splice(1..1, frame);
            }
            inserts.entry(stub_at).or_default().extend(stub);
        }
        edits += planned.len();
        if let Some(reach) = job.reach {
            let ranges = margins::ranges(p, f, reach[f], stub_at);
            let first = labels;
            let label = |k: usize| format!(".Lcactus_margin_{}", first + k);
            for (at, e) in margins::emit(&ranges, &label) {
                inserts.entry(at).or_default().push(e);
            }
            tables.extend(margins::table(&ranges, &label));
            labels += ranges.len();
            edits += ranges.len();
        }
        report.functions.push(FunctionReport {
            unit: file.origin.clone(),
            name: info.func.name.clone(),
            frame: info.frame.static_size,
            dynamic: info.frame.dynamic || !info.stack.dynamic_sites.is_empty(),
            effective: if d.checked(f) { d.effective[f] } else { 0 },
            checked: d.checked(f),
            rule: rule_text(&d.rule[f]),
            sites: planned.len() as u32,
            dynamic_need: planned
                .iter()
                .filter(|pl| pl.site.kind == crate::checks::KIND_DYNAMIC)
                .map(|pl| pl.site.need)
                .max()
                .unwrap_or(0),
            // Only a check after the frame's allocation is followed, on every path, by the
            // code that uses the frame (a check at the entry may precede an early return).
            lowest_write: if planned.iter().all(|pl| pl.site.f1 > 0) {
                info.stack
                    .lowest_write
                    .map_or(0, |l| l.unsigned_abs().min(info.frame.static_size))
            } else {
                0
            },
            callees: callee_names(p, f),
            indirect: p.graph.calls[f]
                .iter()
                .any(|e| matches!(e.target, Target::Indirect)),
            pinned: planned
                .iter()
                .any(|pl| pl.site.kind == crate::checks::KIND_PINNED)
                .then(|| {
                    crate::plan::pin_reason(p, f)
                        .unwrap_or("pinned")
                        .to_string()
                }),
        });
    }
    let mut thunked: Vec<(String, u32)> = Vec::new();
    for (idx, sym) in &p.external_refs[u] {
        let need = match reserves.get(sym) {
            Some(Reserve::Bytes(b)) => *b,
            Some(Reserve::Unbounded(why)) => {
                if !thunked.iter().any(|(s, _)| s == sym) {
                    report.warnings.push(format!(
                        "{}: address of `{sym}` taken, depth unbounded ({why}); thunk assumes {} bytes",
                        file.origin, opts.blind_margin
                    ));
                }
                opts.blind_margin
            }
            None => continue,
        };
        crate::refs::redirect(file, *idx, sym, &thunk_name(sym));
        edits += 1;
        if !thunked.iter().any(|(s, _)| s == sym) {
            thunked.push((sym.clone(), need));
        }
    }
    let mut tail = Vec::new();
    for (sym, need) in &thunked {
        let entries =
            thunk(sym, *need, n, opts.mode.relocates()).map_err(|reason| CcError::Function {
                origin: file.origin.clone(),
                function: thunk_name(sym),
                reason,
            })?;
        n += 1;
        tail.extend(entries);
        report.functions.push(FunctionReport {
            unit: file.origin.clone(),
            name: thunk_name(sym),
            frame: 0,
            dynamic: false,
            effective: *need,
            checked: true,
            rule: format!("kept: thunk for uninstrumented `{sym}`"),
            sites: 1,
            dynamic_need: 0,
            lowest_write: 0,
            callees: vec![sym.clone()],
            indirect: false,
            pinned: opts
                .mode
                .relocates()
                .then(|| "thunk: the callee's stack arguments are unknown".to_string()),
        });
    }
    splice(file, inserts);
    file.entries.extend(tail);
    file.entries.extend(tables);
    Ok(edits)
}

/// The names `f` calls directly, each once, in order of first call.
fn callee_names(p: &Program, f: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for e in &p.graph.calls[f] {
        let name = match &e.target {
            Target::Func(t) => p.funcs[*t].func.name.clone(),
            Target::External(x) => x.clone(),
            Target::Indirect => continue,
        };
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// The report's text for a rule.
fn rule_text(rule: &Rule) -> String {
    match rule {
        Rule::Kept(why) => format!("kept: {why}"),
        Rule::ZeroSize => "zero-size".into(),
        Rule::Certainty => "certainty".into(),
        Rule::LimitedSize => "limited-size".into(),
    }
}
