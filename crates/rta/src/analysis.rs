//! Worst-case response times by equations 3 and 4 of Whitham & Audsley (section V):
//!
//! ```text
//! R_i = CS¹ + CS² + C_i + B_i + Σ_{j ∈ hp(i)} ⌈R_i / T_j⌉ (CS¹ + CS² + C_j)      (4)
//! ```
//!
//! and equation 3, the same with CS¹ = CS² = 0. `hp(i)` is every other task whose priority is
//! at least task i's (equal priorities interfere both ways: a safe bound for round robin or
//! FIFO among them; with unique priorities it is the paper's strictly-higher set).
//!
//! The least fixed point is found by iteration from the sum of the constant terms,
//! CS¹ + CS² + C_i + B_i. Each iterate is at least the one before, so the iteration either
//! repeats a value (the response time, `<= D_i`) or passes D_i: the task is then unschedulable
//! and the first iterate above D_i is reported. All arithmetic is in u128 and saturates, so no
//! input overflows (a saturated iterate is still above every u64 deadline).

use crate::blocking::blocking;
use crate::model::TaskSet;
use serde::Serialize;

/// Which response-time equation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Equation {
    /// Equation 3: no context-switch cost.
    Three,
    /// Equation 4: CS¹ and CS² charged to every job of the task and of every preemption.
    Four,
}

impl Equation {
    /// The equation's number in the paper.
    pub fn number(self) -> u32 {
        match self {
            Equation::Three => 3,
            Equation::Four => 4,
        }
    }
}

/// How the iteration for one task ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Response {
    /// It converged to `cycles` <= D_i: the worst-case response time.
    Converged {
        /// R_i.
        cycles: u64,
    },
    /// An iterate passed D_i (the first one that did, saturated at `u64::MAX`).
    Exceeded {
        /// The first iterate above D_i.
        first_above: u64,
    },
}

/// One task's analysis.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TaskResult {
    /// The task's name.
    pub name: String,
    /// Its priority.
    pub priority: u32,
    /// C_i.
    pub wcet: u64,
    /// T_i.
    pub period: u64,
    /// D_i.
    pub deadline: u64,
    /// B_i as used ([`crate::blocking::blocking`]).
    pub blocking: u64,
    /// The result of the iteration.
    pub response: Response,
    /// Iterations made (each one evaluation of the right-hand side).
    pub iterations: u64,
}

impl TaskResult {
    /// R_i <= D_i.
    pub fn schedulable(&self) -> bool {
        matches!(self.response, Response::Converged { .. })
    }

    /// R_i, or for an unschedulable task the first iterate above D_i.
    pub fn response_cycles(&self) -> u64 {
        match self.response {
            Response::Converged { cycles } => cycles,
            Response::Exceeded { first_above } => first_above,
        }
    }

    /// D_i − R_i (negative for an unschedulable task: D_i minus the first iterate above it),
    /// saturated to i64.
    pub fn slack(&self) -> i64 {
        let s = i128::from(self.deadline) - i128::from(self.response_cycles());
        s.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
    }
}

/// A whole set's analysis.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Analysis {
    /// The equation used.
    pub equation: Equation,
    /// CS¹ as used (0 for equation 3).
    pub cs1: u64,
    /// CS² as used (0 for equation 3).
    pub cs2: u64,
    /// One result per task, in the set's order.
    pub tasks: Vec<TaskResult>,
}

impl Analysis {
    /// Every task meets its deadline.
    pub fn schedulable(&self) -> bool {
        self.tasks.iter().all(TaskResult::schedulable)
    }

    /// The least slack of any task (negative when the set is unschedulable).
    pub fn worst_slack(&self) -> i64 {
        self.tasks.iter().map(TaskResult::slack).min().unwrap_or(0)
    }
}

/// The response time of task `i` of `set` by `equation` (the iterations it took beside it).
pub fn response_time(set: &TaskSet, i: usize, equation: Equation) -> (Response, u64) {
    let (cs1, cs2) = switch_costs(set, equation);
    let switch = u128::from(cs1) + u128::from(cs2);
    let me = &set.tasks()[i];
    let constant = switch + u128::from(me.wcet) + u128::from(blocking(set, i));
    let deadline = u128::from(me.deadline);
    let hp: Vec<(u128, u128)> = set
        .tasks()
        .iter()
        .enumerate()
        .filter(|&(j, t)| j != i && t.priority >= me.priority)
        .map(|(_, t)| (u128::from(t.period), switch + u128::from(t.wcet)))
        .collect();
    let mut r = constant;
    let mut iterations = 0;
    loop {
        if r > deadline {
            let first_above = u64::try_from(r).unwrap_or(u64::MAX);
            return (Response::Exceeded { first_above }, iterations);
        }
        let next = hp.iter().fold(constant, |acc, &(period, cost)| {
            acc.saturating_add(r.div_ceil(period).saturating_mul(cost))
        });
        iterations += 1;
        if next == r {
            // r <= deadline <= u64::MAX here.
            return (Response::Converged { cycles: r as u64 }, iterations);
        }
        r = next;
    }
}

/// Analyses every task of `set` by `equation`.
pub fn analyse(set: &TaskSet, equation: Equation) -> Analysis {
    let (cs1, cs2) = switch_costs(set, equation);
    let tasks = (0..set.tasks().len())
        .map(|i| {
            let t = &set.tasks()[i];
            let (response, iterations) = response_time(set, i, equation);
            TaskResult {
                name: t.name.clone(),
                priority: t.priority,
                wcet: t.wcet,
                period: t.period,
                deadline: t.deadline,
                blocking: blocking(set, i),
                response,
                iterations,
            }
        })
        .collect();
    Analysis {
        equation,
        cs1,
        cs2,
        tasks,
    }
}

fn switch_costs(set: &TaskSet, equation: Equation) -> (u64, u64) {
    match equation {
        Equation::Three => (0, 0),
        Equation::Four => (set.system().cs1, set.system().cs2),
    }
}

#[cfg(test)]
mod tests;
