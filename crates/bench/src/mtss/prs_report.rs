//! The PRS report (Figure 11): the evaluation's rendering of its rows, PRS per workload beside
//! the paper, and the loan statistics at each workload's PRS point.

use super::prs::{WorkloadPrs, PAPER_PRS};
use super::stopper::next_step_cell;
use super::table::failures;
use cactus_sweep::evaluation::{verdicts, Evaluation};
use cactus_sweep::table::{mean, or_dash, pct, Table};
use cactus_sweep::{Meta, Summary, SweepReport};
use std::fmt::Write;

/// The PRS experiment.
pub struct Prs;

impl Evaluation for Prs {
    const NAME: &'static str = "mtss prs";
    const UNIT: &'static str = "workloads";
    type Row = WorkloadPrs;

    fn render(rows: &[WorkloadPrs], _meta: &Meta) -> SweepReport {
        let ok: Vec<&WorkloadPrs> = rows.iter().filter(|r| r.error.is_none()).collect();
        let mut summary = Summary::new("prs");
        summary
            .pct(
                "prs_hw_pct",
                mean(ok.iter().filter_map(|r| r.prs_of_high_water())),
            )
            .pct("possible_pct", mean(ok.iter().filter_map(possible)))
            .pct(
                "of_possible_pct",
                mean(ok.iter().filter_map(|r| r.prs_of_possible())),
            )
            .num(
                "frames_moved",
                mean(ok.iter().filter_map(|r| r.frames_moved().map(|m| m as f64))),
                1,
            )
            .pct("prs", mean(ok.iter().filter_map(|r| r.prs.map(f64::from))))
            .pct(
                "saved_budget",
                mean(ok.iter().filter_map(|r| r.prs_of_budget())),
            );
        let (passed, failed) = verdicts(rows);
        SweepReport {
            tables: prs_markdown(rows),
            reading: READING.to_string(),
            note: String::new(),
            passed,
            failed,
            summary,
        }
    }
}

/// The most any sharing could save on `r`'s workload, percent of the sum of the peaks.
fn possible(r: &&WorkloadPrs) -> Option<f64> {
    r.occupancy.as_ref().and_then(|o| o.possible_pct())
}

/// Figure 11 (PRS per workload) and the loan statistics at each workload's PRS point.
pub fn prs_markdown(rows: &[WorkloadPrs]) -> String {
    let mut s = String::new();
    let page = rows.first().map(|r| r.page_bytes).unwrap_or(0);
    let heap = rows.iter().map(|r| r.heap_bytes).max().unwrap_or(0);
    let same_heap = rows.iter().all(|r| r.heap_bytes == heap);
    let stack = rows.first().map_or("mtss", |r| r.stack.as_str());
    let _ = write!(
        s,
        "### PRS per workload (Figure 11, `{stack}`, page {page} bytes"
    );
    if heap > 0 && same_heap {
        let _ = write!(
            s,
            ", a {heap}-byte stacklet heap counted in the budgets at PRS and every saving"
        );
    } else if heap > 0 {
        let _ = write!(
            s,
            ", each workload at the best of the stacklet heaps tried (below), its heap counted \
             in the budgets at PRS and every saving"
        );
    }
    let _ = writeln!(s, ")\n");
    let mut head = vec![
        "Workload",
        ">Program budgets (B)",
        ">High water (B)",
        ">Peak of sum (B)",
        ">Sum of peaks (B)",
        ">Possible saving",
        ">PRS (shrink)",
        if heap > 0 {
            ">Budgets + heap at PRS (B)"
        } else {
            ">Budgets at PRS (B)"
        },
        ">Saved of budgets",
        ">Saved of high water",
        ">Of possible",
        ">Frames moved",
        ">Probes",
    ];
    if heap > 0 {
        head.push(">Heap (B)");
    } else {
        head.push("What stops the next step");
    }
    let mut t = Table::new(&head);
    for r in rows {
        let o = r.occupancy.as_ref();
        let mut cells = vec![
            r.workload.clone(),
            r.budget_total.to_string(),
            or_dash(r.high_water_total),
            or_dash(o.map(|o| o.peak_of_sum)),
            or_dash(o.map(|o| o.sum_of_peaks)),
            pct(possible(&r)),
            r.prs
                .map(|p| format!("{p} %"))
                .unwrap_or_else(|| "-".into()),
            or_dash(r.smallest_memory()),
            pct(r.prs_of_budget()),
            pct(r.prs_of_high_water()),
            pct(r.prs_of_possible()),
            or_dash(r.frames_moved()),
            r.probes.len().to_string(),
        ];
        if heap > 0 {
            cells.push(r.heap_bytes.to_string());
        } else {
            cells.push(next_step_cell(r));
        }
        t.row(cells);
    }
    let ok: Vec<&WorkloadPrs> = rows.iter().filter(|r| r.error.is_none()).collect();
    t.row([
        "**average**".to_string(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        pct(mean(ok.iter().filter_map(possible))),
        pct(mean(ok.iter().filter_map(|r| r.prs.map(f64::from)))),
        String::new(),
        pct(mean(ok.iter().filter_map(|r| r.prs_of_budget()))),
        pct(mean(ok.iter().filter_map(|r| r.prs_of_high_water()))),
        pct(mean(ok.iter().filter_map(|r| r.prs_of_possible()))),
    ]);
    t.row([
        "*paper*".to_string(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        format!("{PAPER_PRS:.1} %"),
    ]);
    s.push_str(&t.render());
    failures(&mut s, rows.iter().map(|r| (&r.workload, &r.error)));

    s.push_str("\n### Loans at the PRS point (section 10, \"Additional statistics\")\n\n");
    let mut t = Table::new(&[
        "Workload",
        ">Frames moved",
        ">Pages lent",
        ">Multi-page moves",
        ">Pages leaving a hole",
        ">Holes reused",
        ">Most pages lent at once",
        ">Borrower-lender pairs",
    ]);
    for r in rows {
        let Some(l) = &r.loans else {
            t.row([r.workload.as_str(), "-", "-", "-", "-", "-", "-", "-"]);
            continue;
        };
        let mut cells = vec![r.workload.clone()];
        cells.extend(l.cells());
        t.row(cells);
    }
    let holes = mean(
        rows.iter()
            .filter_map(|r| r.loans.as_ref().and_then(|l| l.hole_percent())),
    );
    t.row([
        "**average**".to_string(),
        String::new(),
        String::new(),
        String::new(),
        pct(holes),
    ]);
    t.row(["*paper*", "", "", "", "< 5 % (telecomm 0)"]);
    s.push_str(&t.render());
    heap_trials(&mut s, rows);
    s
}

/// `mtss+split`: each workload's PRS at every stacklet heap tried (none for `mtss`), then
/// what stops each workload's next step.
fn heap_trials(s: &mut String, rows: &[WorkloadPrs]) {
    if rows.iter().all(|r| r.heap_trials.is_empty()) {
        return;
    }
    s.push_str(
        "\n### Stacklet heaps tried (`mtss+split`: the row above is the least budgets plus heap)\n\n",
    );
    let mut t = Table::new(&[
        "Workload",
        ">Heap (B)",
        "Trial",
        ">PRS (shrink)",
        ">Budgets + heap at PRS (B)",
        ">Saved of high water",
        "Failure, or what stops the next step",
    ]);
    for r in rows {
        for h in &r.heap_trials {
            let saved = match (r.high_water_total, h.memory) {
                (Some(hw), Some(m)) if hw > 0 => {
                    Some((f64::from(hw) - f64::from(m)) * 100.0 / f64::from(hw))
                }
                _ => None,
            };
            let (trial, prs) = match h.probed_at {
                Some(p) => (
                    format!("one probe at {p} %"),
                    if h.prs.is_some() {
                        "passes".to_string()
                    } else {
                        "fails".to_string()
                    },
                ),
                None => (
                    "search".to_string(),
                    h.prs.map_or("-".into(), |p| format!("{p} %")),
                ),
            };
            t.row([
                r.workload.clone(),
                h.heap_bytes.to_string(),
                trial,
                prs,
                or_dash(h.memory),
                pct(saved),
                h.error
                    .clone()
                    .or_else(|| h.limit.as_deref().map(short_reason))
                    .unwrap_or_default(),
            ]);
        }
    }
    s.push_str(&t.render());
    next_step(s, rows);
}

/// Per workload at its row's heap: why its PRS is not one step higher, from the runs.
fn next_step(s: &mut String, rows: &[WorkloadPrs]) {
    s.push_str(
        "\n### What stops the next step (`mtss+split`, each workload at its row's heap)\n\n",
    );
    let mut t = Table::new(&["Workload", ">PRS (shrink)", ">Heap (B)", "What stops it"]);
    for r in rows {
        let why = match (r.prs, &r.error) {
            (_, Some(e)) => format!("failed: {}", short_reason(e)),
            (None, None) => "-".into(),
            (Some(p), None) if p >= super::prs::MAX_SHRINK => {
                // The heap one refinement step smaller that failed at this PRS, if any.
                let smaller = r
                    .heap_trials
                    .iter()
                    .filter(|h| {
                        h.probed_at == Some(p) && h.prs.is_none() && h.heap_bytes < r.heap_bytes
                    })
                    .max_by_key(|h| h.heap_bytes);
                match smaller.and_then(|h| Some((h.heap_bytes, h.limit.as_deref()?))) {
                    Some((b, why)) => format!(
                        "{p} % is the search's ceiling; the heap is most of what is counted, and \
                         {b} B of heap fail at {p} %: {}",
                        short_reason(why)
                    ),
                    None => format!("{p} % is the search's ceiling"),
                }
            }
            (Some(p), None) => match r.next_step_failure() {
                Some(why) => {
                    let at = r
                        .probes
                        .iter()
                        .filter(|q| !q.passed && q.percent > p)
                        .map(|q| q.percent)
                        .min()
                        .unwrap_or(p + 1);
                    format!("at {at} %: {}", short_reason(why))
                }
                None => "-".into(),
            },
        };
        t.row([
            r.workload.clone(),
            r.prs.map_or("-".into(), |p| format!("{p} %")),
            r.heap_bytes.to_string(),
            why,
        ]);
    }
    s.push_str(&t.render());
}

/// A probe's failure as a table cell: for the kernel's stack refusals (exit code 3, `stack
/// overflow caught`), the task, the bytes its frame needs below its limit and why neither a
/// loan nor a stacklet could be had; anything else, its first line cut to 240 characters.
fn short_reason(why: &str) -> String {
    let line = why.lines().next().unwrap_or("").replace('|', "/");
    let between = |from: &str, to: &str| -> Option<&str> {
        let i = line.find(from)? + from.len();
        Some(&line[i..i + line[i..].find(to)?])
    };
    if let (Some(task), Some(need)) = (
        between("task ", ":").and_then(|t| t.split('\'').nth(1)),
        between("the frame needs ", " bytes below the limit"),
    ) {
        if line.contains("the frame is pinned") {
            return format!(
                "{task}: a pinned frame (its address escapes) needs {need} B more than its own \
                 region has, and a pinned frame never moves"
            );
        }
        if let Some(pages) = between("no lender: the frame needs ", " contiguous pages") {
            return format!(
                "{task}: a frame needs {need} B below its limit; the whole frame moves, and no \
                 task can lend its {pages} contiguous pages, nor has the heap a stacklet that \
                 large left"
            );
        }
    }
    match line.char_indices().nth(240) {
        Some((i, _)) => format!("{}...", &line[..i]),
        None => line,
    }
}

/// How to read the PRS tables (no figures: they are in the generated tables).
pub const READING: &str = "How to read these tables. *PRS* (the paper's Proportional \
Reduction Satisfiability) is the largest whole percentage by which every program task's stack \
budget can be shrunk at once (rounded down to 16 bytes, never below 128) with the workload \
still completing correctly under `stack = \"mtss\"`, `checks = \"mtss\"` on cactus-sim (exit 0 \
through its own checksum checks, no ownership-oracle violation), found by bisection over 0..95 %. \
With `--stack mtss+split` the probes build the hybrid instead (`checks = \"split\"`, loans first, \
stacklets from a heap carved out of the stack pool when no task can lend), once per stacklet heap \
tried (`--stacklet-pool`); the heap is stack memory, so it is added to the budgets at the PRS point \
and in every saving, and each workload's row is the heap with the least budgets plus heap (the \
pool grows where the manifest budgets and a large heap do not fit it: the pool's spare bytes are \
not counted). The heaps tried are coarse, so the best one is refined: between the largest heap \
tried below it and itself, a bisection in whole pages (one probe per heap at the best PRS, the \
*one probe* trials) finds the smallest heap that still passes, and a full search at that heap \
replaces the row when it needs less memory. *What stops the next step* is, from the runs, the \
failure of the probe one step above the PRS (the smallest failing percentage), or at the \
search's 95 % ceiling the failure of the largest heap found too small; for `mtss` it is the \
last column of the PRS table, the kernel's refusal of the request that ended that probe \
(`stack_refusal_print`: which task, how many contiguous pages its frame needed and the longest \
free run any switched-out task had below its sp less its margin, or that the frame is pinned). \
The harness tasks (`feeder`, `coordinator`) keep their budgets and are not counted. *Saved of \
budgets* is the bytes saved at the PRS point over the summed budgets; our budgets are the \
measured high water x 1.1 plus a 16-byte guard and the task's check margin (`cactus workloads \
margins`: the most any check its code reaches demands beyond what the high water holds, at most \
384 bytes), so *saved of \
high water* (against the summed high water of the manifest's own run, the paper's baseline) is \
the comparable figure, and negative when the budgets at the PRS point are still above the high \
water. The physical limit comes from one more run of the manifest as written, with `sp` sampled \
after every instruction: a task's *live stack* is its stack top less its `sp` (kept while it is \
switched out); *peak of sum* is the largest sum of the program tasks' live stacks at any instant, \
which no sharing scheme can go below, *sum of peaks* what perfectly sized static stacks need, \
*possible saving* the gap between them as a share of the sum of peaks, and *of possible* the \
saving against the high water as a share of that possible saving. The loan statistics come from one more run at the PRS point with the trace recorded: a \
loan is a `REGION_LEND`, a page *leaves a hole* when it is given back while a page above it in \
the same lender is still lent (the paper's measure: < 5 % of pages, none in telecomm).";

#[cfg(test)]
mod tests {
    use super::super::prs::ShrinkProbe;
    use super::super::LoanStats;
    use super::*;

    #[test]
    fn prs_table_has_rows_averages_and_the_paper() {
        let row = WorkloadPrs {
            workload: "net".into(),
            manifest: "net.toml".into(),
            page_bytes: 128,
            budget_total: 1000,
            high_water_total: Some(800),
            probes: vec![ShrinkProbe {
                percent: 30,
                passed: true,
                moved_frames: 7,
                reason: None,
            }],
            prs: Some(30),
            smallest_total: Some(700),
            loans: Some(LoanStats {
                loans: 7,
                pages: 10,
                multi_page_loans: 2,
                hole_pages: 1,
                hole_reuses: 0,
                peak_pages: 4,
                pairs: 2,
            }),
            occupancy: Some(super::super::occupancy::Occupancy {
                peak_of_sum: 600,
                sum_of_peaks: 800,
                instructions: 1,
            }),
            error: None,
            complete: true,
            stack: "mtss".into(),
            heap_bytes: 0,
            heap_trials: vec![],
        };
        let md = prs_markdown(std::slice::from_ref(&row));
        assert!(!md.contains("Stacklet heaps tried"));
        let mut hybrid = row.with_strategy("mtss+split", 256);
        hybrid.heap_trials = vec![
            super::super::prs::HeapTrial {
                heap_bytes: 256,
                prs: Some(30),
                memory: Some(956),
                error: None,
                probed_at: None,
                limit: Some("exit code 3: fft".into()),
            },
            super::super::prs::HeapTrial {
                heap_bytes: 128,
                prs: None,
                memory: None,
                error: None,
                probed_at: Some(30),
                limit: Some("exit code 3: a|b".into()),
            },
            super::super::prs::HeapTrial {
                heap_bytes: 4096,
                prs: None,
                memory: None,
                error: Some("fails unshrunk".into()),
                probed_at: None,
                limit: None,
            },
        ];
        let hmd = prs_markdown(&[hybrid]);
        assert!(
            hmd.contains("`mtss+split`, page 128 bytes, a 256-byte stacklet heap"),
            "{hmd}"
        );
        assert!(hmd.contains("| 30 % | 956 | 4.4 % | -19.5 % |"), "{hmd}");
        assert!(hmd.contains("| 1 | 256 |\n"), "{hmd}");
        assert!(
            hmd.contains("| net | 256 | search | 30 % | 956 | -19.5 % | exit code 3: fft |"),
            "{hmd}"
        );
        assert!(
            hmd.contains("| net | 4096 | search | - | - | - | fails unshrunk |"),
            "{hmd}"
        );
        assert!(
            hmd.contains("| net | 128 | one probe at 30 % | fails | - | - | exit code 3: a/b |"),
            "{hmd}"
        );
        assert_eq!(
            short_reason(
                "exit code 3: task 3 'susan': stack overflow caught: pc=80001bcc sp=8001b7b0 \
                 limit=80019800: the frame needs 96 bytes below the limit; no lender: the frame \
                 needs 67 contiguous pages of 128 bytes; of 2 switched-out tasks"
            ),
            "susan: a frame needs 96 B below its limit; the whole frame moves, and no task can \
             lend its 67 contiguous pages, nor has the heap a stacklet that large left"
        );
        assert!(short_reason(
            "exit code 3: task 2 'crc32': stack overflow caught: pc=1 sp=2 limit=3: the frame \
             needs 32 bytes below the limit; the frame is pinned (its address escapes) and \
             cannot move"
        )
        .starts_with("crc32: a pinned frame (its address escapes) needs 32 B more"));
        // Its PRS (30 %) is below the ceiling, its probes have no failure above it.
        assert!(hmd.contains("| net | 30 % | 256 | - |"), "{hmd}");
        assert!(
            md.contains(
                "| net | 1000 | 800 | 600 | 800 | 25.0 % | 30 % | 700 | 30.0 % | 12.5 % | 50.0 % | 7 | 1 |"
            ),
            "{md}"
        );
        assert!(
            md.contains("| net | 7 | 10 | 2 (28.6 %) | 1 (10.0 %) | 0 | 4 | 2 |"),
            "{md}"
        );
        assert!(md.contains("| *paper* | | | | | | | | | 15.7 % |"), "{md}");
    }
}
