//! The per-workload experiments of `cactus bench mtss` beyond MSO: PRS (Figure 11), the
//! worst-case estimate (Figures 12/13) and MSO against the page size (Figure 10). Each is a
//! list of rows, one per workload (and page size), made in parallel, saved atomically after
//! every row, and resumable: a complete row of an earlier run is kept as it is.

use super::prs::{self, ShrinkProbe, WorkloadPrs};
use super::run::ProbeSetup;
use super::wcet::{self, WcetRow};
use super::{baseline, save_atomic, Baseline, MsoError, MsoOptions, MsoReport, Progress};
use super::{CYCLE_FACTOR, MIN_CYCLE_LIMIT};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// What a sweep needs.
#[derive(Clone, Debug)]
pub struct SweepOptions {
    /// Workload manifests.
    pub manifests: Vec<PathBuf>,
    /// Library stack reserves for the check pass.
    pub reserves: cactus_cc::Reserves,
    /// Parent of the build directories.
    pub out_root: Option<PathBuf>,
    /// Rows made at once.
    pub workers: usize,
    /// Rewritten (atomically) after each row.
    pub json: Option<PathBuf>,
    /// MTSS page sizes (PRS: the first; default the kernel's).
    pub pages: Vec<u32>,
}

/// Completes every row `complete` says is not done with `work`, `workers` at a time, saving
/// every row to `json` after each and calling `done` for each row (resumed ones first).
/// Returns the rows in their order.
pub fn run_rows<R>(
    rows: Vec<R>,
    complete: fn(&R) -> bool,
    work: &(dyn Fn(R) -> R + Sync),
    workers: usize,
    json: Option<&Path>,
    done: &(dyn Fn(&R) + Sync),
) -> Result<Vec<R>, MsoError>
where
    R: Clone + Send + Sync + Serialize,
{
    use rayon::prelude::*;
    for r in rows.iter().filter(|r| complete(r)) {
        done(r);
    }
    let todo: Vec<usize> = (0..rows.len()).filter(|&i| !complete(&rows[i])).collect();
    let shared = Mutex::new(rows);
    let saved: Mutex<Result<(), MsoError>> = Mutex::new(Ok(()));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers.max(1))
        .build()?;
    pool.install(|| {
        todo.par_iter().for_each(|&i| {
            let start = lock(&shared)[i].clone();
            let row = work(start);
            done(&row);
            let mut rows = lock(&shared);
            rows[i] = row;
            if let Some(path) = json {
                if let Err(e) = save_atomic(path, &*rows) {
                    *lock(&saved) = Err(e);
                }
            }
        })
    });
    saved.into_inner().unwrap_or_else(|p| p.into_inner())?;
    Ok(shared.into_inner().unwrap_or_else(|p| p.into_inner()))
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The baseline run of `manifest` and its probe setup at `page`, with a cycle limit of
/// `factor` times the baseline's cycles (at least [`MIN_CYCLE_LIMIT`]).
fn setup(
    o: &SweepOptions,
    manifest: &str,
    page: Option<u32>,
    factor: u64,
) -> Result<(ProbeSetup, Baseline), String> {
    let path = Path::new(manifest);
    let base = baseline(path)?;
    let max = (base.cycles * factor).max(MIN_CYCLE_LIMIT);
    let setup = ProbeSetup::new(path, &o.reserves, o.out_root.clone(), max, page)?;
    Ok((setup, base))
}

fn shown(p: &Path) -> String {
    p.display().to_string()
}

/// PRS of every workload (page: the first of `o.pages`, if any). `resume` rows of the same
/// manifest and page are kept when complete; their probes are reused otherwise.
pub fn prs(
    o: &SweepOptions,
    resume: Vec<WorkloadPrs>,
    probe_done: &(dyn Fn(&str, &ShrinkProbe) + Sync),
    row_done: &(dyn Fn(&WorkloadPrs) + Sync),
) -> Result<Vec<WorkloadPrs>, MsoError> {
    let page = o.pages.first().copied();
    let page_bytes = page.unwrap_or(cactus_firmware::StackStrategy::MTSS_PAGE);
    let rows: Vec<WorkloadPrs> = o
        .manifests
        .iter()
        .map(|m| {
            let key = shown(m);
            resume
                .iter()
                .find(|r| r.manifest == key && r.page_bytes == page_bytes)
                .cloned()
                .unwrap_or_else(|| WorkloadPrs {
                    workload: m
                        .file_stem()
                        .map(|s| s.to_string_lossy().into_owned())
                        .unwrap_or_default(),
                    manifest: key,
                    page_bytes,
                    budget_total: 0,
                    high_water_total: None,
                    probes: Vec::new(),
                    prs: None,
                    smallest_total: None,
                    loans: None,
                    error: None,
                    complete: false,
                })
        })
        .collect();
    let work = |row: WorkloadPrs| -> WorkloadPrs {
        let (setup, base) = match setup(o, &row.manifest, page, CYCLE_FACTOR) {
            Ok(s) => s,
            Err(e) => {
                return WorkloadPrs {
                    error: Some(e),
                    complete: true,
                    ..row
                }
            }
        };
        let mut fresh = prs::start_row(&row.manifest, &setup, &base);
        fresh.probes = row.probes;
        let name = fresh.workload.clone();
        prs::search(fresh, &setup, &|p| probe_done(&name, p))
    };
    run_rows(
        rows,
        |r| r.complete,
        &work,
        o.workers,
        o.json.as_deref(),
        row_done,
    )
}

/// The worst-case estimate of every workload at every page of `o.pages` (the kernel's
/// default page when empty), workloads outer, pages inner.
pub fn wcet(
    o: &SweepOptions,
    resume: Vec<WcetRow>,
    row_done: &(dyn Fn(&WcetRow) + Sync),
) -> Result<Vec<WcetRow>, MsoError> {
    let pages: Vec<Option<u32>> = if o.pages.is_empty() {
        vec![None]
    } else {
        o.pages.iter().map(|&p| Some(p)).collect()
    };
    let mut rows = Vec::new();
    for m in &o.manifests {
        let key = shown(m);
        let workload = m
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        for p in &pages {
            let bytes = p.unwrap_or(cactus_firmware::StackStrategy::MTSS_PAGE);
            let row = resume
                .iter()
                .find(|r| r.manifest == key && r.page_bytes == bytes)
                .cloned()
                .unwrap_or_else(|| wcet::start_row(&key, &workload, bytes));
            rows.push(row);
        }
    }
    let work = |row: WcetRow| -> WcetRow {
        let page = Some(row.page_bytes);
        // Every call may move a frame: allow far more cycles than a normal run.
        match setup(o, &row.manifest, page, WCET_CYCLE_FACTOR) {
            Ok((s, base)) => {
                let row = WcetRow {
                    workload: s.manifest.name.clone(),
                    ..row
                };
                wcet::measure(row, &s, &base)
            }
            Err(e) => WcetRow {
                error: Some(e),
                complete: true,
                ..row
            },
        }
    };
    run_rows(
        rows,
        |r| r.complete,
        &work,
        o.workers,
        o.json.as_deref(),
        row_done,
    )
}

/// Cycle limit of a worst-case run, in baseline runs.
pub const WCET_CYCLE_FACTOR: u64 = 200;

/// MSO of the workloads at every page of `o.pages` (Figure 10): one [`MsoReport`] per page,
/// each resumed from the report of the same page in `resume`.
pub fn pages(
    o: &SweepOptions,
    resume: Vec<MsoReport>,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Vec<MsoReport>, MsoError> {
    let mut reports: Vec<MsoReport> = Vec::new();
    for &page in &o.pages {
        let options = MsoOptions {
            manifests: o.manifests.clone(),
            reserves: o.reserves.clone(),
            out_root: o.out_root.clone(),
            workers: o.workers,
            json: None,
            resume: resume.iter().find(|r| r.page_bytes == page).cloned(),
            page: Some(page),
        };
        let report = super::run(&options, progress)?;
        reports.push(report);
        if let Some(path) = &o.json {
            // Earlier pages done, this one done, later ones as resumed.
            let mut all = reports.clone();
            all.extend(
                resume
                    .iter()
                    .filter(|r| !o.pages[..reports.len()].contains(&r.page_bytes))
                    .cloned(),
            );
            save_atomic(path, &all)?;
        }
    }
    Ok(reports)
}
