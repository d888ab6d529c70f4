//! Part `rmcs` of `cactus bench ccs`: the paper's Tables VI and VII (live register pages that
//! exceed the pool) for the task sets A2-A4 and B2-B4, before and after `cactus cc`'s rmcs
//! renaming pass (docs/ccs.md "rmcs").
//!
//! A task's pages are the mappable pages of cactus-sim's register-page extension (8 registers
//! each, x8-x31) that hold a register of the state at its **worst** switch point (block): the
//! largest page count over the loops of the functions defined in the task's own sources (its
//! program: `lu.c` for `lu`). The paper's worst case: every task preempted at its most
//! demanding point at once, each holding its pages in the pool; the pages that exceed a pool
//! of P pages are `max(0, sum - P)` (P = 1, 2, 3 for 25, 50, 75 % of the 32-entry file).
//!
//! Beside them, measured: each set's `kernel.switch = "rmcs"` build with each pool size, in
//! poison mode under the first jitter seed (its output must be the full build's), and the pages
//! the kernel spilled to memory against the preemptions that held pages (inside a range).

use super::CcsOptions;
use cactus_cc::switch::rename::{pack_pages, pages};
use cactus_cc::switch::{switch_report, TaskSwitches};
use cactus_isa::{parse_reg, RegSet};
use cactus_sweep::table::Table;
use serde::{Deserialize, Serialize};

/// Pool sizes of the tables: (percent of the 32-entry file, pages of 8).
pub const POOLS: [(u32, u32); 3] = [(25, 1), (50, 2), (75, 3)];

/// One task's worst page counts.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TaskPages {
    /// The task.
    pub task: String,
    /// Loops of its program.
    pub loops: u32,
    /// Worst pages at a switch point: (as compiled, renamed).
    pub point: (u32, u32),
    /// Worst pages for a switch block: (as compiled, renamed).
    pub block: (u32, u32),
    /// Pages at the switch point averaged over the loops: (as compiled, renamed).
    #[serde(default)]
    pub point_avg: (f64, f64),
}

/// One task set's pages.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SetPages {
    /// The worker tasks (entry `wl_worker_main`) in manifest order.
    pub tasks: Vec<TaskPages>,
    /// Functions the renaming pass renamed (whole program).
    pub renamed: u32,
    /// The kernel's rmcs switch on the set, one run per pool size ([`POOLS`] order).
    #[serde(default)]
    pub measured: Vec<PoolRun>,
}

/// One run of a task set's `kernel.switch = "rmcs"` build (poison mode, the first jitter
/// seed) with one pool size.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PoolRun {
    /// Pool, percent of the 32-entry register file.
    pub pct: u32,
    /// Timer preemptions inside a switch range (pages held).
    pub partial: u64,
    /// Pages the preempted task stored itself (no page free, no holder less critical).
    pub own_spills: u64,
    /// Pages stolen from a less critical holder (stored to its context).
    pub stolen: u64,
}

impl PoolRun {
    /// Pages stored to memory: the spills.
    pub fn spilled(&self) -> u64 {
        self.own_spills + self.stolen
    }
}

/// The rmcs runs of `manifest`, one per pool size, each checked against the full build's
/// output (poison mode: a page lost or mapped wrong shows).
fn pool_runs(o: &CcsOptions, manifest: &str) -> Result<Vec<PoolRun>, String> {
    let seed = o.seeds()[0];
    let (output, exit, _, _) = super::reference(o, manifest, &[seed])?;
    let mut out = Vec::new();
    for (pct, _) in POOLS {
        let v = super::run::Variant {
            switch: cactus_firmware::SwitchMode::Rmcs,
            poison: Some(super::POISON_SEED),
            mutate: None,
            reg_pool: Some(pct as u8),
        };
        let fw = super::run::build(&o.root, o.build_dir.as_deref(), manifest, v)?;
        let ran = super::run::run(&fw, Some(seed))?;
        if ran.output != output || ran.exit != exit {
            return Err(format!(
                "the rmcs build with a {pct} % pool differs from the full build ({:?})",
                ran.exit
            ));
        }
        let c = ran.rmcs.ok_or("the rmcs build has no register pages")?;
        let partial = ran
            .preemptions
            .iter()
            .filter(|p| super::run::lookup(&fw.table, p.pc).is_some())
            .count() as u64;
        out.push(PoolRun {
            pct,
            partial,
            own_spills: c.own_spills,
            stolen: c.stolen,
        });
    }
    Ok(out)
}

impl SetPages {
    /// Pages exceeding a pool of `pool` pages at the points and for the blocks, renamed
    /// (`renamed`) or as compiled.
    pub fn exceeding(&self, pool: u32, renamed: bool) -> (u32, u32) {
        let pick = |p: (u32, u32)| if renamed { p.1 } else { p.0 };
        let sp: u32 = self.tasks.iter().map(|t| pick(t.point)).sum();
        let sb: u32 = self.tasks.iter().map(|t| pick(t.block)).sum();
        (sp.saturating_sub(pool), sb.saturating_sub(pool))
    }
}

/// The task sets of the tables, in column order: (column, manifest stem).
pub const SETS: [(&str, &str); 6] = [
    ("A2", "ccs-a2"),
    ("B2", "ccs-b2"),
    ("A3", "ccs-a3"),
    ("B3", "ccs-b3"),
    ("A4", "ccs-a4"),
    ("B4", "ccs-b4"),
];

/// The paper's figures (Tables VI and VII, one-cluster rows, SP/SB), per pool size in
/// [`POOLS`] order and set in [`SETS`] order: aggressive, then scalar-only.
pub const PAPER: [[&str; 6]; 6] = [
    ["0/0", "0/0", "1/2", "0/2", "3/5", "3/5"],
    ["0/0", "0/0", "0/0", "0/0", "1/3", "1/3"],
    ["0/0", "0/0", "0/0", "0/0", "0/1", "0/1"],
    ["0/0", "0/0", "0/2", "0/0", "2/4", "3/3"],
    ["0/0", "0/0", "0/0", "0/0", "0/2", "1/1"],
    ["0/0", "0/0", "0/0", "0/0", "0/0", "0/0"],
];

/// The worst page counts of each worker task of `manifest`'s firmware, as compiled and after
/// the renaming pass.
pub fn set_pages(o: &CcsOptions, manifest: &str) -> Result<SetPages, String> {
    let (m, mut files, glue) = super::firmware_asm(o, manifest)?;
    let entries = cactus_firmware::switch_table::task_entries(&m);
    let before = switch_report(&files, &entries, glue).map_err(|e| e.to_string())?;
    let renamed = pack_pages(&mut files, &entries, glue).map_err(|e| e.to_string())?;
    let after = switch_report(&files, &entries, glue).map_err(|e| e.to_string())?;
    let mut tasks = Vec::new();
    for (k, t) in m.tasks.iter().enumerate() {
        if t.entry != "wl_worker_main" {
            continue;
        }
        let stems: Vec<String> = t
            .sources
            .iter()
            .map(|s| {
                std::path::Path::new(s)
                    .file_stem()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        let (pb, bb, avg_b, loops) = worst(&before[k], &stems);
        let (pa, ba, avg_a, _) = worst(&after[k], &stems);
        tasks.push(TaskPages {
            task: t.name.clone(),
            loops,
            point: (pb, pa),
            block: (bb, ba),
            point_avg: (avg_b, avg_a),
        });
    }
    if tasks.is_empty() {
        return Err("no worker task (entry wl_worker_main)".into());
    }
    Ok(SetPages {
        tasks,
        renamed: renamed.len() as u32,
        measured: pool_runs(o, manifest)?,
    })
}

/// The state named by `regs` as a set.
fn set_of(regs: &[&str]) -> RegSet {
    RegSet(
        regs.iter()
            .filter_map(|n| parse_reg(n))
            .fold(0, |m, r| m | 1 << r),
    )
}

/// Worst pages at a point and for a block over the loops of functions defined in units of
/// `stems` (origins `NN-stem.s`), the points' average and the loop count.
fn worst(t: &TaskSwitches, stems: &[String]) -> (u32, u32, f64, u32) {
    let mine = t.loops.iter().filter(|l| {
        let unit = l.function.split(':').next().unwrap_or("");
        stems.iter().any(|s| unit.ends_with(&format!("-{s}.s")))
    });
    let (mut p, mut b, mut n, mut sum) = (0, 0, 0, 0);
    for l in mine {
        let here = pages(set_of(&l.point_regs));
        p = p.max(here);
        sum += here;
        b = b.max(pages(set_of(&l.block_regs)));
        n += 1;
    }
    (p, b, f64::from(sum) / f64::from(n.max(1)), n)
}

/// The rmcs tables: per set the tasks' worst pages, then the pages exceeding each pool
/// (renamed, as compiled in parentheses) beside the paper's.
pub fn markdown(rows: &[super::CcsRow]) -> String {
    let sets: Vec<(&str, &SetPages)> = rows
        .iter()
        .filter_map(|r| r.rmcs.as_ref().map(|p| (r.name.as_str(), p)))
        .collect();
    let failed: Vec<&super::CcsRow> = rows
        .iter()
        .filter(|r| r.part == super::Part::Rmcs && r.rmcs.is_none())
        .collect();
    if sets.is_empty() && failed.is_empty() {
        return String::new();
    }
    let mut s = String::from("\n");
    let mut t = Table::new(&[
        "workload",
        "task",
        ">loops",
        ">SP pages renamed (as compiled)",
        ">SB pages renamed (as compiled)",
        ">SP pages avg renamed (as compiled)",
        ">functions renamed",
    ]);
    for (name, p) in &sets {
        for (k, task) in p.tasks.iter().enumerate() {
            t.row([
                name.to_string(),
                task.task.clone(),
                task.loops.to_string(),
                format!("{} ({})", task.point.1, task.point.0),
                format!("{} ({})", task.block.1, task.block.0),
                format!("{:.2} ({:.2})", task.point_avg.1, task.point_avg.0),
                if k == 0 {
                    p.renamed.to_string()
                } else {
                    String::new()
                },
            ]);
        }
    }
    for r in &failed {
        t.row([
            r.name.clone(),
            "-".into(),
            format!("FAIL: {}", r.note.clone().unwrap_or_default()),
        ]);
    }
    s.push_str(&t.render());
    for (title, unroll, paper_row) in [
        ("Table VII shape, scalar-only (-O2)", false, 3),
        ("Table VI shape, aggressive (-O2 with unrolling)", true, 0),
    ] {
        let suffix = if unroll { "-unroll-small" } else { "-small" };
        if !sets
            .iter()
            .any(|(n, _)| SETS.iter().any(|(_, set)| *n == format!("{set}{suffix}")))
        {
            continue;
        }
        let mut head = vec!["pool".to_string()];
        for (col, _) in SETS {
            head.push(format!(">{col} SP/SB (as compiled)"));
            head.push(format!(">{col} spilled/held"));
            head.push(format!(">{col} paper"));
        }
        let head_refs: Vec<&str> = head.iter().map(String::as_str).collect();
        let mut table = Table::new(&head_refs);
        for (i, (pct, pool)) in POOLS.iter().enumerate() {
            let mut cells = vec![format!(
                "{pct} % ({pool} page{})",
                if *pool == 1 { "" } else { "s" }
            )];
            for (c, (_, set)) in SETS.iter().enumerate() {
                let want = format!("{set}{}-small", if unroll { "-unroll" } else { "" });
                let ours =
                    sets.iter()
                        .find(|(n, _)| *n == want)
                        .map_or("-".to_string(), |(_, p)| {
                            let (sp, sb) = p.exceeding(*pool, true);
                            let (sp0, sb0) = p.exceeding(*pool, false);
                            format!("{sp}/{sb} ({sp0}/{sb0})")
                        });
                cells.push(ours);
                let measured = sets
                    .iter()
                    .find(|(n, _)| *n == want)
                    .and_then(|(_, p)| p.measured.get(i))
                    .map_or("-".to_string(), |r| {
                        format!("{}/{}", r.spilled(), r.partial)
                    });
                cells.push(measured);
                cells.push(PAPER[paper_row + i][c].to_string());
            }
            table.row(cells);
        }
        s.push_str(&format!("\n{title}: register pages exceeding the pool\n\n"));
        s.push_str(&table.render());
    }
    s
}

#[cfg(test)]
mod tests {
    use super::{SetPages, TaskPages};

    fn task(sp: u32, sb: u32) -> TaskPages {
        TaskPages {
            task: "t".into(),
            loops: 1,
            point: (3, sp),
            block: (3, sb),
            point_avg: (3.0, f64::from(sp)),
        }
    }

    #[test]
    fn pages_beyond_the_pool_are_the_sum_less_the_pool() {
        let set = SetPages {
            tasks: vec![task(1, 2), task(2, 3)],
            renamed: 1,
            measured: Vec::new(),
        };
        assert_eq!(set.exceeding(1, true), (2, 4));
        assert_eq!(set.exceeding(3, true), (0, 2));
        assert_eq!(set.exceeding(3, false), (3, 3), "as compiled: 3 + 3 pages");
        assert_eq!(set.exceeding(9, false), (0, 0), "never below zero");
    }
}
