//! `cactus bench mtss pages`: MSO against the MTSS page size (the paper's Figure 10): the MSO
//! search of every task, once per page size, each (page, task) search a point of the sweep.

use super::mso::search_task;
use super::shared::Shared;
use super::table::averages;
use super::task::{task_key, TaskMso};
use cactus_sweep::evaluation::{verdicts, Evaluation};
use cactus_sweep::table::{pct, Table};
use cactus_sweep::{Meta, Point, Progress, Row, Summary, SweepReport};
use serde::{Deserialize, Serialize};

/// The page sizes `cactus bench mtss pages` sweeps by default, bytes.
pub const DEFAULT_PAGES: [u32; 5] = [32, 64, 128, 256, 512];

/// One task's MSO search at one page size (a row of the store).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PagedTask {
    /// MTSS page size of the builds, bytes.
    pub page_bytes: u32,
    /// The search.
    #[serde(flatten)]
    pub task: TaskMso,
}

impl Row for PagedTask {
    fn complete(&self) -> bool {
        self.task.complete
    }
    fn passed(&self) -> bool {
        self.task.passed()
    }
}

/// The page-size experiment.
pub struct Pages;

impl Evaluation for Pages {
    const NAME: &'static str = "mtss pages";
    const UNIT: &'static str = "task searches";
    type Row = PagedTask;

    fn render(rows: &[PagedTask], _meta: &Meta) -> SweepReport {
        let by_page = by_page(rows);
        let mut summary = Summary::new("mtss-pages");
        for (page, tasks) in &by_page {
            let avg = averages(tasks).last().and_then(|a| a.budget);
            summary.pct(&format!("mso_{page}"), avg);
        }
        let (passed, failed) = verdicts(rows);
        SweepReport {
            tables: pages_markdown(&by_page),
            reading: READING.to_string(),
            note: String::new(),
            passed,
            failed,
            summary,
        }
    }
}

/// The rows grouped by page size, ascending; each page's tasks in sweep order.
pub fn by_page(rows: &[PagedTask]) -> Vec<(u32, Vec<TaskMso>)> {
    let mut pages: Vec<u32> = rows.iter().map(|r| r.page_bytes).collect();
    pages.sort_unstable();
    pages.dedup();
    pages
        .into_iter()
        .map(|p| {
            let tasks = rows
                .iter()
                .filter(|r| r.page_bytes == p)
                .map(|r| r.task.clone())
                .collect();
            (p, tasks)
        })
        .collect()
}

/// The store's parameters of a page sweep over `pages`.
pub fn params(pages: &[u32]) -> serde_json::Value {
    serde_json::json!({ "pages": pages })
}

/// One point per page of the options (outer) and task of every manifest (inner).
pub fn points<'s>(shared: &'s Shared<'_>) -> Result<Vec<Point<'s, PagedTask>>, String> {
    let mut points = Vec::new();
    for &page in &shared.options().pages {
        for path in &shared.options().manifests {
            let m = cactus_firmware::Manifest::load(path).map_err(|e| e.to_string())?;
            let manifest = path.display().to_string();
            for (ti, t) in m.tasks.iter().enumerate() {
                let start = PagedTask {
                    page_bytes: page,
                    task: TaskMso::start(&m.name, &manifest, &t.name, t.stack),
                };
                let key = format!("{page}:{}", task_key(&manifest, &t.name, t.stack));
                let label = format!("{} {} {page} B", m.name, t.name);
                points.push(Point::new(
                    key,
                    label,
                    move |resumed, progress: &Progress| {
                        let row = resumed.unwrap_or_else(|| start.clone());
                        PagedTask {
                            page_bytes: page,
                            task: search_task(row.task, ti, shared, Some(page), progress),
                        }
                    },
                ));
            }
        }
    }
    Ok(points)
}

/// Figure 10: each program task's MSO (of its budget) at every page size (`by_page`,
/// ascending), then the averages.
pub fn pages_markdown(by_page: &[(u32, Vec<TaskMso>)]) -> String {
    let mut s = String::from("### MSO of budget against the page size (Figure 10)\n\n");
    let heads: Vec<String> = by_page.iter().map(|(p, _)| format!(">{p} B")).collect();
    let mut columns = vec!["Workload", "Task"];
    columns.extend(heads.iter().map(String::as_str));
    let mut t = Table::new(&columns);
    if let Some((_, first)) = by_page.first() {
        for task in first.iter().filter(|t| !t.harness) {
            let mut cells = vec![task.workload.clone(), task.task.clone()];
            for (_, tasks) in by_page {
                let v = tasks
                    .iter()
                    .find(|u| u.manifest == task.manifest && u.task == task.task)
                    .filter(|u| u.passed())
                    .and_then(|u| u.mso_budget());
                cells.push(pct(v));
            }
            t.row(cells);
        }
        let mut cells = vec!["**average**".to_string(), String::new()];
        for (_, tasks) in by_page {
            cells.push(pct(averages(tasks).last().and_then(|a| a.budget)));
        }
        t.row(cells);
    }
    s.push_str(&t.render());
    s
}

/// How to read the page table (no figures: they are in the generated table).
pub const READING: &str = "How to read this table. MSO (see docs/results/mtss-mso.md for \
the procedure) of each program task's budget, measured with the kernel built for each MTSS \
page size; the paper's Figure 10 shows the same for its network workload, with MSO falling as \
pages grow (a smaller page uses the free space of the other stacks better). The paper prints \
no numbers for it.";
