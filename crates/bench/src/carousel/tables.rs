//! Tables V–VII of `cactus bench carousel` from the task-set points: per task, over every set,
//! the observed BCET and WCET and the preemptions on the Carousel machine (V) and on the
//! write-through (VI) and write-back (VII) cache machines with the comparison factor, the
//! paper's figures beside ours; the software-only overlay variant beside Carousel; how many sets
//! met every deadline on each machine; the blocking measured. The figures these tables and the
//! summary share are in [`TaskSetFigures`].

use super::taskset::{SetRow, MACHINES, TASKS};
use cactus_sweep::table::Table;

/// The paper's Table V: (task, BCET, WCET, preemptions) on its Carousel prototype.
pub const PAPER_TABLE_V: [(&str, u64, u64, u64); 13] = [
    ("binarysearch", 2086, 2086, 57),
    ("bsort100", 94647, 94647, 1538),
    ("cnt", 9328, 9328, 309),
    ("compress", 76851, 76851, 1351),
    ("crc", 40399, 40399, 824),
    ("duff", 3874, 3874, 149),
    ("expint", 1838, 1838, 50),
    ("fdct", 5657, 5657, 202),
    ("fir", 61835, 61835, 1167),
    ("insertsort", 3392, 3392, 112),
    ("janne_complex", 1143, 1143, 59),
    ("jfdctint", 9230, 9230, 289),
    ("matmult", 728391, 728391, 7981),
];

/// The paper's Table VI (write-through cache): (task, BCET, WCET, factor).
pub const PAPER_TABLE_VI: [(&str, u64, u64, f64); 13] = [
    ("binarysearch", 143, 468, 0.22),
    ("bsort100", 591766, 596251, 6.30),
    ("cnt", 10921, 11961, 1.28),
    ("compress", 67409, 70074, 0.91),
    ("crc", 57104, 59314, 1.47),
    ("duff", 8238, 8888, 2.29),
    ("expint", 981, 1046, 0.57),
    ("fdct", 8384, 9944, 1.76),
    ("fir", 90981, 107296, 1.74),
    ("insertsort", 6083, 6603, 1.95),
    ("janne_complex", 286, 481, 0.42),
    ("jfdctint", 14325, 16275, 1.76),
    ("matmult", 1030453, 1043323, 1.43),
];

/// The paper's Table VII (write-back cache): (task, BCET, WCET, factor).
pub const PAPER_TABLE_VII: [(&str, u64, u64, f64); 13] = [
    ("binarysearch", 93, 613, 0.29),
    ("bsort100", 91406, 94591, 1.00),
    ("cnt", 5701, 7976, 0.86),
    ("compress", 15699, 19664, 0.26),
    ("crc", 44314, 48084, 1.19),
    ("duff", 1038, 2208, 0.57),
    ("expint", 981, 1046, 0.57),
    ("fdct", 1584, 3404, 0.60),
    ("fir", 55736, 83036, 1.34),
    ("insertsort", 983, 1633, 0.48),
    ("janne_complex", 286, 481, 0.42),
    ("jfdctint", 4325, 6860, 0.74),
    ("matmult", 611263, 642983, 0.88),
];

/// The paper's blocking B_i (section VI-H), cycles.
pub const PAPER_BLOCKING: u64 = 4321;
/// The paper's task sets schedulable on the write-through cache machine, of 1,000.
pub const PAPER_CACHE_SCHEDULABLE: u64 = 366;

/// One task on one machine over every set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Observed {
    /// Jobs measured.
    pub jobs: u64,
    /// Shortest, cycles (None: no job).
    pub bcet: Option<u64>,
    /// Longest, cycles.
    pub wcet: u64,
    /// Preemptions.
    pub preemptions: u64,
    /// The fewest cycles an invocation took beyond its job (None: no invocation measured).
    pub overhead: Option<u64>,
    /// The largest WCET − BCET within one set (the spread its jobs showed under one
    /// configuration, where WCET − BCET above spans every set).
    pub spread: u64,
}

/// What the tables and the summary take from the set rows.
#[derive(Clone, Debug, Default)]
pub struct TaskSetFigures {
    /// Sets measured on the paper's three machines (the first three of [`MACHINES`]).
    pub sets: u64,
    /// Per machine of [`MACHINES`]: the sets measured on it (of those counted in `sets`).
    pub sets_on: Vec<u64>,
    /// Per machine of [`MACHINES`], per task of [`TASKS`].
    pub observed: Vec<Vec<Observed>>,
    /// Per machine: sets in which no job missed its deadline.
    pub schedulable: Vec<u64>,
    /// Per machine: the longest blocking measured.
    pub blocking: Vec<u64>,
    /// The blocking B equation 4 used to draw the sets (the largest recorded; 0: none).
    pub drawn_b: u64,
}

impl TaskSetFigures {
    /// Folds the rows of complete sets: one run on each of the paper's three machines, and
    /// the overlay machine's run where the set has it (sets stored before it have not). A
    /// run is the machine of its profile, or of its position if the profile is not one of
    /// [`MACHINES`].
    pub fn from_rows<'a>(rows: impl IntoIterator<Item = &'a SetRow>) -> TaskSetFigures {
        let mut f = TaskSetFigures {
            observed: vec![vec![Observed::default(); TASKS.len()]; MACHINES.len()],
            sets_on: vec![0; MACHINES.len()],
            schedulable: vec![0; MACHINES.len()],
            blocking: vec![0; MACHINES.len()],
            ..TaskSetFigures::default()
        };
        for row in rows.into_iter().filter(|r| r.runs.len() >= 3) {
            f.sets += 1;
            f.drawn_b = f.drawn_b.max(row.b);
            for (i, run) in row.runs.iter().enumerate().take(MACHINES.len()) {
                let m = MACHINES
                    .iter()
                    .position(|p| p.0 == run.profile)
                    .unwrap_or(i);
                f.sets_on[m] += 1;
                let mut misses = 0;
                for (k, t) in run.tasks.iter().enumerate() {
                    let o = &mut f.observed[m][k];
                    if t.jobs > 0 {
                        o.bcet = Some(o.bcet.map_or(t.bcet, |b| b.min(t.bcet)));
                        o.wcet = o.wcet.max(t.wcet);
                        o.spread = o.spread.max(t.wcet.saturating_sub(t.bcet));
                    }
                    if t.overhead > 0 {
                        o.overhead = Some(o.overhead.map_or(t.overhead, |v| v.min(t.overhead)));
                    }
                    o.jobs += u64::from(t.jobs);
                    o.preemptions += u64::from(t.preemptions);
                    misses += t.misses;
                }
                f.schedulable[m] += u64::from(misses == 0);
                f.blocking[m] = f.blocking[m].max(run.blocking);
            }
        }
        f
    }

    /// Percentage of the tasks with jobs whose BCET equals their WCET on the Carousel machine.
    pub fn zero_interference_pct(&self) -> Option<f64> {
        self.zero_interference_pct_on(0, false)
    }

    /// The same on machine `m` of [`MACHINES`] (None: no job there); `within_set`: BCET and
    /// WCET taken in each set (a task whose cost depends on the set's priorities, as the
    /// overlay's does, and not on what preempted it, counts).
    pub fn zero_interference_pct_on(&self, m: usize, within_set: bool) -> Option<f64> {
        let machine = self.observed.get(m)?;
        let ran: Vec<&Observed> = machine.iter().filter(|o| o.jobs > 0).collect();
        if ran.is_empty() {
            return None;
        }
        let equal = ran
            .iter()
            .filter(|o| {
                if within_set {
                    o.spread == 0
                } else {
                    o.bcet == Some(o.wcet)
                }
            })
            .count();
        Some(100.0 * equal as f64 / ran.len() as f64)
    }

    /// The tables (Markdown), or nothing when no set was measured.
    pub fn render(&self) -> String {
        if self.sets == 0 {
            return String::new();
        }
        let mut out = String::new();
        let mut v = Table::new(&[
            "task",
            ">jobs",
            ">BCET",
            ">WCET",
            ">WCET − BCET",
            ">preemptions",
            ">paper BCET",
            ">paper WCET",
            ">paper preemptions",
        ]);
        for (k, name) in TASKS.iter().enumerate() {
            let o = self.observed[0][k];
            let p = PAPER_TABLE_V[k];
            v.row([
                name.to_string(),
                o.jobs.to_string(),
                dash(o.bcet),
                o.wcet.to_string(),
                dash(o.bcet.map(|b| o.wcet - b)),
                o.preemptions.to_string(),
                p.1.to_string(),
                p.2.to_string(),
                p.3.to_string(),
            ]);
        }
        out.push_str(&format!(
            "\n### Table V: the tasks on the Carousel machine ({} task sets)\n\n{}",
            self.sets,
            v.render()
        ));
        for (m, title, paper) in [
            (
                1,
                "Table VI: the same tasks on the write-through cache machine (`cache-wt`)",
                &PAPER_TABLE_VI,
            ),
            (
                2,
                "Table VII: on the write-back cache machine (`cache-wb`)",
                &PAPER_TABLE_VII,
            ),
        ] {
            let mut t = Table::new(&[
                "task",
                ">BCET",
                ">WCET",
                ">comparison factor",
                ">paper BCET",
                ">paper WCET",
                ">paper factor",
            ]);
            for (k, name) in TASKS.iter().enumerate() {
                let o = self.observed[m][k];
                let carousel = self.observed[0][k].wcet;
                let p = paper[k];
                t.row([
                    name.to_string(),
                    dash(o.bcet),
                    o.wcet.to_string(),
                    if carousel > 0 {
                        format!("{:.2}", o.wcet as f64 / carousel as f64)
                    } else {
                        "-".into()
                    },
                    p.1.to_string(),
                    p.2.to_string(),
                    format!("{:.2}", p.3),
                ]);
            }
            out.push_str(&format!("\n### {title}\n\n{}", t.render()));
        }
        out.push_str(&self.render_overlay());
        let mut s = Table::new(&[
            "machine",
            ">sets with no deadline miss",
            ">of",
            ">blocking B measured (cycles)",
            ">paper",
        ]);
        for (m, (profile, _)) in MACHINES.iter().enumerate() {
            if self.sets_on[m] == 0 {
                continue;
            }
            let paper = match m {
                0 => format!("1000 of 1000, B = {PAPER_BLOCKING}"),
                1 => format!("{PAPER_CACHE_SCHEDULABLE} of 1000"),
                _ => "-".to_string(),
            };
            s.row([
                format!("`{profile}`"),
                self.schedulable[m].to_string(),
                self.sets_on[m].to_string(),
                self.blocking[m].to_string(),
                paper,
            ]);
        }
        let drawn = if self.drawn_b > 0 {
            format!(
                "B = {} cycles: the longest interrupt-masked window of the calibration run \
                 on `carousel-paper` (every task invoked once through Carousel)",
                self.drawn_b
            )
        } else {
            "not recorded".to_string()
        };
        out.push_str(&format!(
            "\n### Schedulability and blocking\n\n{}\nThe sets were drawn with equation 4 \
             and {drawn}; the paper's sets with its measured B = {PAPER_BLOCKING}. The \
             blocking measured is the longest time the timer interrupt stayed pending in the \
             sets' runs.\n",
            s.render()
        ));
        out
    }
}

impl TaskSetFigures {
    /// The overlay variant beside Carousel (nothing when no set ran on the overlay machine).
    fn render_overlay(&self) -> String {
        let ov = MACHINES.len() - 1;
        if self.sets_on[ov] == 0 {
            return String::new();
        }
        let mut t = Table::new(&[
            "task",
            ">Carousel WCET",
            ">Carousel WCET − BCET",
            ">Carousel overhead",
            ">overlay BCET",
            ">overlay WCET",
            ">overlay WCET − BCET",
            ">overlay WCET − BCET in a set",
            ">overlay overhead",
            ">overlay preemptions",
            ">overlay / Carousel WCET",
        ]);
        for (k, name) in TASKS.iter().enumerate() {
            let (c, o) = (self.observed[0][k], self.observed[ov][k]);
            t.row([
                name.to_string(),
                c.wcet.to_string(),
                dash(c.bcet.map(|b| c.wcet - b)),
                dash(c.overhead),
                dash(o.bcet),
                o.wcet.to_string(),
                dash(o.bcet.map(|b| o.wcet - b)),
                o.spread.to_string(),
                dash(o.overhead),
                o.preemptions.to_string(),
                if c.wcet > 0 {
                    format!("{:.2}", o.wcet as f64 / c.wcet as f64)
                } else {
                    "-".into()
                },
            ]);
        }
        format!(
            "\n### The overlay (software, `overlay-paper`) beside Carousel (hardware, \
             `carousel-paper`), {} task sets\n\n{}\nOverhead: the fewest cycles a job's \
             invocation took beyond the job's own run (an uninterrupted one: the Carousel \
             operations or the overlay's save, load, write-back and restore). A job's time \
             holds its invocation. The overlay's invocation saves the part of the \
             scratchpad that the tasks of lower priority use, so its cost depends on the \
             set's priorities (constant within a set, known when the set is configured): \
             WCET − BCET over every set shows that, WCET − BCET in a set (the largest over \
             the sets) the interference, none if 0.\n",
            self.sets_on[ov],
            t.render()
        )
    }
}

fn dash(v: Option<u64>) -> String {
    v.map_or("-".to_string(), |v| v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::carousel::taskset::{MachineRun, TaskRun};

    fn run(bcet: u64, wcet: u64, misses: u32) -> MachineRun {
        MachineRun {
            profile: String::new(),
            tasks: vec![
                TaskRun {
                    jobs: 2,
                    bcet,
                    wcet,
                    preemptions: 1,
                    misses,
                    checksum: String::new(),
                    overhead: 5,
                };
                TASKS.len()
            ],
            blocking: 7,
            masked: 0,
            cycles: 0,
        }
    }

    #[test]
    fn the_figures_fold_every_complete_set() {
        let sets = [
            SetRow {
                index: 0,
                runs: vec![run(10, 10, 0), run(20, 30, 1), run(15, 15, 0)],
                b: 2500,
            },
            SetRow {
                index: 1,
                runs: vec![run(10, 10, 0), run(18, 25, 0), run(15, 16, 0)],
                b: 2500,
            },
            // Incomplete (a machine failed): not counted.
            SetRow {
                index: 2,
                runs: vec![run(1, 99, 0)],
                b: 9999,
            },
        ];
        let f = TaskSetFigures::from_rows(sets.iter());
        assert_eq!(f.sets, 2);
        assert_eq!(f.schedulable, vec![2, 1, 2, 0]);
        assert_eq!(f.sets_on, vec![2, 2, 2, 0]);
        assert!(!page_has_overlay(&f));
        assert_eq!(f.observed[1][0].bcet, Some(18));
        assert_eq!(f.observed[1][0].wcet, 30);
        assert_eq!(f.observed[0][3].preemptions, 2);
        assert_eq!(f.zero_interference_pct(), Some(100.0));
        let page = f.render();
        assert!(page.contains("### Table V") && page.contains("### Table VII"));
        assert!(page.contains("| binarysearch | 18 | 30 | 3.00 |"));
        assert_eq!(f.drawn_b, 2500, "incomplete sets do not count");
        assert!(page.contains("B = 2500 cycles"), "{page}");
    }

    fn page_has_overlay(f: &TaskSetFigures) -> bool {
        f.render().contains("overlay")
    }

    #[test]
    fn the_overlay_run_is_folded_by_its_profile() {
        let named = |p: &str, bcet, wcet| MachineRun {
            profile: p.to_string(),
            ..run(bcet, wcet, 0)
        };
        let mut ov = named("overlay-paper", 40, 40);
        ov.tasks[2].overhead = 3;
        let sets = [SetRow {
            index: 0,
            runs: vec![
                named("carousel-paper", 20, 20),
                named("cache-wt", 1, 2),
                named("cache-wb", 1, 2),
                ov,
            ],
            b: 0,
        }];
        let f = TaskSetFigures::from_rows(sets.iter());
        assert_eq!(f.sets_on, vec![1, 1, 1, 1]);
        assert_eq!(f.zero_interference_pct_on(3, true), Some(100.0));
        assert_eq!(f.observed[3][2].overhead, Some(3));
        let page = f.render();
        assert!(
            page.contains("| cnt | 20 | 0 | 5 | 40 | 40 | 0 | 0 | 3 | 1 | 2.00 |"),
            "{page}"
        );
    }

    #[test]
    fn interference_on_carousel_lowers_the_percentage() {
        let mut one = run(10, 10, 0);
        one.tasks[0].wcet = 11;
        let sets = [SetRow {
            index: 0,
            runs: vec![one, run(1, 1, 0), run(1, 1, 0)],
            b: 0,
        }];
        let f = TaskSetFigures::from_rows(sets.iter());
        let pct = f.zero_interference_pct().unwrap();
        assert!((pct - 100.0 * 12.0 / 13.0).abs() < 1e-9, "{pct}");
        assert_eq!(TaskSetFigures::default().zero_interference_pct(), None);
    }
}
