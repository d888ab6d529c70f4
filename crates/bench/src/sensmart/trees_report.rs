//! The tables, summary pairs and reading of the `trees` part ([`super::trees`]): Figure 7
//! (`relocate` against tree size) and Figure 8 extended (every strategy on one scenario).

use super::trees::{budget, Scenario, Strategy, TreeSearch, FIG7_TOTAL_KIB, FIG8, SEARCHES};
use super::SensmartRow;
use cactus_sweep::table::{or_dash, Table};

fn searches(rows: &[SensmartRow]) -> Vec<&TreeSearch> {
    rows.iter().filter_map(|r| r.trees.as_ref()).collect()
}

fn find(rows: &[SensmartRow], s: Strategy, sc: Scenario) -> Option<&SensmartRow> {
    rows.iter().find(|r| {
        r.trees
            .as_ref()
            .is_some_and(|t| t.strategy == s && t.scenario == sc)
    })
}

fn result(r: &SensmartRow) -> String {
    if r.passed {
        "ok".to_string()
    } else {
        format!("FAIL: {}", r.note.as_deref().unwrap_or("?"))
    }
}

/// The most search tasks, `≥ N` when the ceiling itself passed.
fn max_text(t: &TreeSearch) -> String {
    match t.max_tasks {
        Some(n) if n == t.ceiling => format!("≥ {n}"),
        Some(n) => n.to_string(),
        None => "0".to_string(),
    }
}

fn depth(mean100: u32) -> String {
    format!("{}.{:02}", mean100 / 100, mean100 % 100)
}

/// A failure without its register details (the kernel line's `: pc=...` tail) and without
/// the "exit code 3: cactus: " prefix every halt has.
fn short(e: &str) -> &str {
    let e = e.strip_prefix("exit code 3: cactus: ").unwrap_or(e);
    e.split(": pc=").next().unwrap_or(e)
}

fn why_more_fail(t: &TreeSearch) -> String {
    let above = t.max_tasks.unwrap_or(0);
    t.probes
        .iter()
        .filter(|p| p.tasks > above)
        .min_by_key(|p| p.tasks)
        .and_then(|p| {
            p.run
                .as_ref()
                .err()
                .map(|e| format!("{}: {}", p.tasks, short(e)))
        })
        .unwrap_or_else(|| "-".to_string())
        .replace('|', "/")
}

/// The part's tables.
pub fn markdown(rows: &[SensmartRow]) -> String {
    let mut f7 = Table::new(&[
        ">nodes per tree",
        ">tree heap bytes",
        ">stack pool KiB",
        ">most search tasks",
        ">probes",
        ">relocations",
        ">average stack per search task",
        ">search depth mean",
        ">max",
        ">cycles per search",
        "result",
    ]);
    let mut fig7: Vec<&TreeSearch> = searches(rows)
        .into_iter()
        .filter(|t| {
            t.strategy == Strategy::RelocateHw
                && Scenario::fig7(t.scenario.nodes) == Some(t.scenario)
        })
        .collect();
    fig7.sort_by_key(|t| t.scenario.nodes);
    for t in fig7 {
        let Some(r) = find(rows, t.strategy, t.scenario) else {
            continue;
        };
        let run = t.at_max();
        f7.row([
            t.scenario.nodes.to_string(),
            t.scenario.heap_bytes().to_string(),
            t.scenario.pool_kib.to_string(),
            max_text(t),
            t.probes.len().to_string(),
            or_dash(run.map(|r| r.growths)),
            or_dash(run.and_then(|r| r.avg_stack)),
            run.map_or("-".into(), |r| depth(r.depth_mean100)),
            or_dash(run.map(|r| r.depth_max)),
            or_dash(run.and_then(|x| x.cycles_per_search(t.max_tasks.unwrap_or(0)))),
            result(r),
        ]);
    }
    let mut f8 = Table::new(&[
        "strategy",
        ">most search tasks",
        ">probes",
        ">stack per search task",
        ">stack growths",
        ">cycles per search",
        ">awake cycles",
        "one more task",
        "result",
    ]);
    for s in Strategy::ALL {
        let Some(r) = find(rows, s, FIG8) else {
            continue;
        };
        let Some(t) = r.trees.as_ref() else { continue };
        let run = t.at_max();
        let n = t.max_tasks.unwrap_or(0);
        f8.row([
            s.name().to_string(),
            max_text(t),
            t.probes.len().to_string(),
            if n > 0 {
                budget(s, FIG8.pool_kib, n).map_or("-".into(), |b| b.to_string())
            } else {
                "-".into()
            },
            or_dash(run.map(|r| r.growths)),
            or_dash(run.and_then(|x| x.cycles_per_search(n))),
            or_dash(run.map(|r| r.cycles)),
            why_more_fail(t),
            result(r),
        ]);
    }
    format!(
        "### The binary-tree scenario (Figures 7 and 8)\n\n\
         Figure 7: `relocate` (hardware window) against tree size, {FIG7_TOTAL_KIB} KiB of \
         stack pool and tree heap together; figures of the run at the most search tasks:\n\n\
         {}\n\
         Paper (SenSmart on a MICA2, 4 KB of RAM; Figure 7's plotted values are not in its \
         text): searches recurse 12 levels on average, some 15, 15 bytes a level, so a search \
         task needs about 180 bytes at most; the average stack allocation stays at or below \
         130 bytes; fewer than 50 relocations in every case; the most search tasks fall as the \
         trees grow.\n\n\
         Figure 8, extended: the most search tasks each strategy accommodates in one stack \
         pool of {} KiB ({} nodes per tree, {SEARCHES} searches per task; figures of the run \
         at the most search tasks; \"one more task\": the smallest failing count asked and why):\n\n\
         {}\n\
         Paper (Figure 8: SenSmart against LiteOS with two trees in LiteOS's stack memory; \
         its values are not in its text): SenSmart accommodates more concurrent search tasks. \
         No paper compares the strategies above.\n\n",
        f7.render(),
        FIG8.pool_kib,
        FIG8.nodes,
        f8.render()
    )
}

/// The summary key of strategy `s`'s maximum.
pub fn key(s: Strategy) -> &'static str {
    match s {
        Strategy::Static => "trees_max_static",
        Strategy::RelocateHw => "trees_max_relocate_hw",
        Strategy::RelocateSw => "trees_max_relocate_sw",
        Strategy::Mtss => "trees_max_mtss",
        Strategy::Segmented => "trees_max_segmented",
        Strategy::MtssSplit => "trees_max_mtss_split",
    }
}

/// The part's summary pairs: the most search tasks of every strategy on Figure 8's scenario,
/// and the relocations `relocate-hw` made there at its most.
pub fn summary_pairs(rows: &[SensmartRow]) -> Vec<(&'static str, String)> {
    let at = |s: Strategy| find(rows, s, FIG8).and_then(|r| r.trees.as_ref());
    let mut out: Vec<(&'static str, String)> = Strategy::ALL
        .iter()
        .map(|&s| (key(s), or_dash(at(s).and_then(|t| t.max_tasks))))
        .collect();
    out.push((
        "trees_relocations",
        or_dash(
            at(Strategy::RelocateHw)
                .and_then(|t| t.at_max())
                .map(|r| r.growths),
        ),
    ));
    out
}

/// What the part's columns mean.
pub fn reading() -> String {
    format!(
        "**The binary-tree scenario** (docs/sensmart.md; bench/sensmart/trees.c). A feeding \
         task builds six random binary search trees on the heap (a static node array, 16 bytes \
         a node, seeded), then N search tasks of one priority (round robin, 10 kHz tick) each \
         make {SEARCHES} searches for random keys in random trees, recursing one frame per \
         level (a 6-word packet per frame, folded into the parent's through a pointer); the \
         feeder replays every search without recursion and the run passes when every report \
         matches (exit 0) with the ownership oracle silent. Every search task's `on_fault` is \
         `halt`: a task the strategy cannot give stack ends the run. The most search tasks is \
         found by bisection over N (cactus_sweep::search::largest_passing, assuming a count \
         that fails makes every larger one fail), each probe a build and a run; the search \
         stops at 128 bytes of pool per task (shown `≥ N` when that passed). Budgets: every \
         search task gets an equal share of the pool the feeder (512 bytes) leaves (whole \
         128-byte pages under `mtss` and `mtss+split`, whose stacklet heap is a quarter of \
         the pool), except under `segmented`, whose first stacklets are 256 bytes and whose \
         remaining pool is the stacklet heap. Checks: none under `static` and `relocate-hw`, \
         `mtss` under `relocate-sw` and `mtss`, `split` under `segmented` and `mtss+split`. \
         Relocations and stack growths: OVERFLOW events with action \"grown\" (relocations, \
         moved frames, linked stacklets). Average stack per search task: the time average of \
         a search task's region while all N are live, from the first switch to a search task \
         to the first one's end (REGION_ASSIGN events). Cycles per search: the search tasks' cycles \
         (kernel work in their context included) over N x {SEARCHES}. "
    )
}

#[cfg(test)]
mod tests {
    use super::super::trees::{search_with, TreeRun};
    use super::*;

    fn row(s: Strategy, sc: Scenario, most: u32) -> SensmartRow {
        search_with(s, sc, "x", &mut |n| {
            if n <= most {
                Ok(TreeRun {
                    cycles: 5000,
                    search_cycles: u64::from(n) * u64::from(SEARCHES) * 100,
                    growths: n,
                    avg_stack: Some(200),
                    depth_max: 14,
                    depth_mean100: 767,
                    checksum: n,
                })
            } else {
                Err(
                    "exit code 3: cactus: task 1 'search1': stack overflow caught: pc=1 sp=2"
                        .to_string(),
                )
            }
        })
    }

    #[test]
    fn the_summary_names_every_strategy_in_order() {
        let rows = vec![
            row(Strategy::Static, FIG8, 4),
            row(Strategy::RelocateHw, FIG8, 20),
        ];
        let pairs = summary_pairs(&rows);
        let keys: Vec<&str> = pairs.iter().map(|p| p.0).collect();
        assert_eq!(
            keys,
            [
                "trees_max_static",
                "trees_max_relocate_hw",
                "trees_max_relocate_sw",
                "trees_max_mtss",
                "trees_max_segmented",
                "trees_max_mtss_split",
                "trees_relocations"
            ]
        );
        assert_eq!(pairs[0].1, "4");
        assert_eq!(pairs[1].1, "20");
        assert_eq!(pairs[2].1, "-");
        assert_eq!(pairs[6].1, "20");
    }

    #[test]
    fn the_tables_show_both_figures_and_why_one_more_fails() {
        let small = Scenario::fig7(32).unwrap();
        let rows = vec![
            row(Strategy::RelocateHw, FIG8, 20),
            row(Strategy::RelocateHw, small, 50),
            row(Strategy::Mtss, FIG8, 4),
        ];
        let md = markdown(&rows);
        // Figure 7: one row per tree size, smallest first, 100 cycles per search, depth 7.67.
        let f7 = md.find("| 32 | 3072 | 13 | 50 |").expect("the 32-node row");
        let f7b = md
            .find("| 128 | 12288 | 4 | 20 |")
            .expect("the 128-node row");
        assert!(f7 < f7b, "{md}");
        assert!(md.contains("| 200 | 7.67 | 14 | 100 | ok |"), "{md}");
        // Figure 8: the mtss row with its budget and the reason, without the register tail.
        assert!(
            md.contains("| mtss | 4 |")
                && md.contains("5: task 1 'search1': stack overflow caught |"),
            "{md}"
        );
        assert!(!md.contains("pc=1"));
    }
}
