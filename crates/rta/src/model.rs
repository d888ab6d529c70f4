//! The task model: a system's constant costs, its tasks and the checks every task set passes
//! before it is analysed. Times are in cycles; a higher `priority` number is a higher priority
//! (as in the Cactus kernel's manifests).

use serde::Serialize;
use std::collections::BTreeSet;

/// The costs the whole system shares (paper section V).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct System {
    /// CS¹: the context switch *to* a task, cycles.
    pub cs1: u64,
    /// CS²: the context switch *from* a task, cycles.
    pub cs2: u64,
    /// The longest Carousel critical section (switch, close, swap_in, swap_out, open): it
    /// blocks every task but the lowest-priority one (paper sections V and VI-H). None: no
    /// Carousel.
    pub carousel_cs: Option<u64>,
    /// The clock, for showing cycles as microseconds. None: cycles only.
    pub clock_hz: Option<u64>,
}

/// A critical section of a task on a shared resource.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CriticalSection {
    /// The resource's name.
    pub resource: String,
    /// Its longest duration, cycles.
    pub cycles: u64,
}

/// One periodic (or sporadic, `period` the least inter-arrival time) task.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Task {
    /// Unique name.
    pub name: String,
    /// C_i: worst-case execution time of one job, cycles.
    pub wcet: u64,
    /// T_i: period, cycles.
    pub period: u64,
    /// D_i: relative deadline, cycles (`<= period`).
    pub deadline: u64,
    /// Priority: a higher number is a higher priority.
    pub priority: u32,
    /// Explicit B_i from resources other than Carousel; None: computed from the critical
    /// sections of the lower-priority tasks ([`crate::blocking`]).
    pub blocking: Option<u64>,
    /// Release offset of the first job, cycles. The analysis ignores offsets (it assumes the
    /// critical instant, which is safe for any offsets); the generator draws them for runs.
    pub offset: u64,
    /// Critical sections on shared resources (SRP: each raises the system ceiling to the
    /// resource's ceiling while it runs).
    pub critical: Vec<CriticalSection>,
}

impl Task {
    /// A task with no blocking, offset or critical section; `deadline` = `period`.
    pub fn new(name: &str, wcet: u64, period: u64, priority: u32) -> Task {
        Task {
            name: name.to_string(),
            wcet,
            period,
            deadline: period,
            priority,
            blocking: None,
            offset: 0,
            critical: Vec::new(),
        }
    }
}

/// Which rule a task set must satisfy and which task and key broke it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}`{key}`: {problem}", task.map(|t| format!("task[{t}]: ")).unwrap_or_default())]
pub struct SetError {
    /// The offending task's index (None: the set as a whole or `[system]`).
    pub task: Option<usize>,
    /// The key, as written in the TOML: `period`, `critical[1].cycles`, `system.cs1`.
    pub key: String,
    /// What is wrong, in words.
    pub problem: String,
}

/// A task set that passed [`TaskSet::new`]'s checks: at least one task; names unique;
/// `wcet`, `period`, `deadline` at least 1; `deadline <= period`; `offset <= period`; every
/// critical section no longer than its task's `wcet` and on a named resource. Priorities may
/// be equal (tasks of equal priority are counted as interfering with each other); a loader
/// that wants them unique checks it with [`TaskSet::require_unique_priorities`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TaskSet {
    system: System,
    tasks: Vec<Task>,
}

impl TaskSet {
    /// Checks `tasks` (see [`TaskSet`]) and makes the set.
    pub fn new(system: System, tasks: Vec<Task>) -> Result<TaskSet, SetError> {
        let err = |task: Option<usize>, key: &str, problem: String| SetError {
            task,
            key: key.to_string(),
            problem,
        };
        if tasks.is_empty() {
            return Err(err(None, "task", "the task set has no task".into()));
        }
        if system.clock_hz == Some(0) {
            return Err(err(None, "system.clock_hz", "must be at least 1".into()));
        }
        let mut names = BTreeSet::new();
        for (i, t) in tasks.iter().enumerate() {
            let at = Some(i);
            if t.name.is_empty() {
                return Err(err(at, "name", "empty name".into()));
            }
            if !names.insert(t.name.as_str()) {
                return Err(err(at, "name", format!("\"{}\" is used twice", t.name)));
            }
            for (key, v) in [
                ("wcet", t.wcet),
                ("period", t.period),
                ("deadline", t.deadline),
            ] {
                if v == 0 {
                    return Err(err(at, key, "must be at least 1 cycle".into()));
                }
            }
            if t.deadline > t.period {
                return Err(err(
                    at,
                    "deadline",
                    format!(
                        "{} is longer than the period ({}); the analysis needs D <= T",
                        t.deadline, t.period
                    ),
                ));
            }
            if t.offset > t.period {
                return Err(err(
                    at,
                    "offset",
                    format!("{} is longer than the period ({})", t.offset, t.period),
                ));
            }
            for (k, c) in t.critical.iter().enumerate() {
                if c.resource.is_empty() {
                    return Err(err(
                        at,
                        &format!("critical[{k}].resource"),
                        "empty resource name".into(),
                    ));
                }
                if c.cycles > t.wcet {
                    return Err(err(
                        at,
                        &format!("critical[{k}].cycles"),
                        format!(
                            "{} is longer than the task's wcet ({}): a critical section is part of its job",
                            c.cycles, t.wcet
                        ),
                    ));
                }
            }
        }
        Ok(TaskSet { system, tasks })
    }

    /// An error naming the second task of any priority two tasks share.
    pub fn require_unique_priorities(&self) -> Result<(), SetError> {
        let mut seen = std::collections::BTreeMap::new();
        for (i, t) in self.tasks.iter().enumerate() {
            if let Some(first) = seen.insert(t.priority, i) {
                return Err(SetError {
                    task: Some(i),
                    key: "priority".into(),
                    problem: format!(
                        "{} is also the priority of \"{}\"; priorities must be unique",
                        t.priority, self.tasks[first].name
                    ),
                });
            }
        }
        Ok(())
    }

    /// The shared costs.
    pub fn system(&self) -> &System {
        &self.system
    }

    /// The tasks, in the order given.
    pub fn tasks(&self) -> &[Task] {
        &self.tasks
    }

    /// The same tasks with the context-switch costs set to `cs1`, `cs2` (equation 3 is
    /// equation 4 with both 0).
    pub fn with_switch_costs(&self, cs1: u64, cs2: u64) -> TaskSet {
        TaskSet {
            system: System {
                cs1,
                cs2,
                ..self.system.clone()
            },
            tasks: self.tasks.clone(),
        }
    }

    /// The lowest priority of the set.
    pub fn lowest_priority(&self) -> u32 {
        self.tasks.iter().map(|t| t.priority).min().unwrap_or(0)
    }

    /// Σ C_j / T_j over every task (switch costs and blocking not counted).
    pub fn utilisation(&self) -> f64 {
        self.tasks
            .iter()
            .map(|t| t.wcet as f64 / t.period as f64)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(tasks: Vec<Task>) -> Result<TaskSet, SetError> {
        TaskSet::new(System::default(), tasks)
    }

    #[test]
    fn a_valid_set_keeps_its_tasks_in_order() {
        let s = set(vec![Task::new("a", 1, 4, 2), Task::new("b", 2, 6, 1)]).unwrap();
        let names: Vec<&str> = s.tasks().iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(s.lowest_priority(), 1);
        assert!((s.utilisation() - (0.25 + 2.0 / 6.0)).abs() < 1e-12);
    }

    #[test]
    fn each_rule_names_the_task_and_key() {
        let mut long_deadline = Task::new("a", 1, 4, 1);
        long_deadline.deadline = 5;
        let e = set(vec![long_deadline]).unwrap_err();
        assert_eq!((e.task, e.key.as_str()), (Some(0), "deadline"));
        assert!(e.problem.contains("D <= T"), "{e}");

        let e = set(vec![Task::new("a", 1, 4, 1), Task::new("a", 1, 4, 2)]).unwrap_err();
        assert_eq!((e.task, e.key.as_str()), (Some(1), "name"));

        let e = set(vec![Task::new("a", 0, 4, 1)]).unwrap_err();
        assert_eq!((e.task, e.key.as_str()), (Some(0), "wcet"));

        let mut far = Task::new("a", 1, 4, 1);
        far.offset = 5;
        assert_eq!(set(vec![far]).unwrap_err().key, "offset");

        let mut cs = Task::new("a", 3, 4, 1);
        cs.critical.push(CriticalSection {
            resource: "r".into(),
            cycles: 4,
        });
        assert_eq!(set(vec![cs]).unwrap_err().key, "critical[0].cycles");

        assert_eq!(set(vec![]).unwrap_err().key, "task");
        let e = TaskSet::new(
            System {
                clock_hz: Some(0),
                ..System::default()
            },
            vec![Task::new("a", 1, 4, 1)],
        )
        .unwrap_err();
        assert_eq!((e.task, e.key.as_str()), (None, "system.clock_hz"));
    }

    #[test]
    fn shared_priorities_are_allowed_until_asked_otherwise() {
        let s = set(vec![Task::new("a", 1, 4, 3), Task::new("b", 1, 4, 3)]).unwrap();
        let e = s.require_unique_priorities().unwrap_err();
        assert_eq!((e.task, e.key.as_str()), (Some(1), "priority"));
        assert!(e.problem.contains("\"a\""), "{e}");
    }
}
