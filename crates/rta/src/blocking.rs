//! B_i, the blocking term, under the stack resource policy (SRP; with fixed priorities its
//! blocking is that of the priority ceiling protocol): the ceiling of a resource is the highest
//! priority among its users, and a job of τ_i can be blocked, once and before it starts, by one
//! critical section of a lower-priority task on a resource whose ceiling is at least
//! priority(i). So B_i is the longest such section, or the task's explicit `blocking` in its
//! place, and, with Carousel, at least the longest Carousel critical section for every task but
//! the lowest-priority one (its operations cannot be interrupted: paper sections V and VI-H).

use crate::model::TaskSet;
use std::collections::BTreeMap;

/// Each resource's ceiling: the highest priority of the tasks with a critical section on it.
pub fn ceilings(set: &TaskSet) -> BTreeMap<&str, u32> {
    let mut out: BTreeMap<&str, u32> = BTreeMap::new();
    for t in set.tasks() {
        for c in &t.critical {
            let ceiling = out.entry(c.resource.as_str()).or_insert(t.priority);
            *ceiling = (*ceiling).max(t.priority);
        }
    }
    out
}

/// The longest critical section of a task of lower priority than task `i` on a resource
/// whose ceiling is at least task `i`'s priority (0 if there is none).
pub fn srp_blocking(set: &TaskSet, i: usize) -> u64 {
    let ceilings = ceilings(set);
    let prio = set.tasks()[i].priority;
    set.tasks()
        .iter()
        .filter(|t| t.priority < prio)
        .flat_map(|t| &t.critical)
        .filter(|c| ceilings[c.resource.as_str()] >= prio)
        .map(|c| c.cycles)
        .max()
        .unwrap_or(0)
}

/// B_i of task `i`: its explicit `blocking` if given, else [`srp_blocking`]; then, with a
/// Carousel critical section in the system and task `i` above the lowest priority, at least
/// that section.
pub fn blocking(set: &TaskSet, i: usize) -> u64 {
    let t = &set.tasks()[i];
    let resources = t.blocking.unwrap_or_else(|| srp_blocking(set, i));
    match set.system().carousel_cs {
        Some(cs) if t.priority > set.lowest_priority() => resources.max(cs),
        _ => resources,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{CriticalSection, System, Task};

    fn cs(resource: &str, cycles: u64) -> CriticalSection {
        CriticalSection {
            resource: resource.into(),
            cycles,
        }
    }

    /// Four tasks, priorities 4 (highest) to 1, and two resources:
    ///   h (4) uses S for 2;   m (3) uses R for 5;   l (2) uses S for 7, R for 3;
    ///   z (1) uses R for 9.
    /// Ceilings: S = max(4, 2) = 4, R = max(3, 2, 1) = 3.
    /// B_h: lower tasks' sections on a resource with ceiling >= 4: l's S (7) -> 7.
    /// B_m: lower tasks' sections with ceiling >= 3: l's S (7), l's R (3), z's R (9) -> 9.
    /// B_l: z's R (9, ceiling 3 >= 2) -> 9.
    /// B_z: nobody lower -> 0.
    fn four() -> TaskSet {
        let mut h = Task::new("h", 10, 100, 4);
        h.critical.push(cs("S", 2));
        let mut m = Task::new("m", 10, 100, 3);
        m.critical.push(cs("R", 5));
        let mut l = Task::new("l", 10, 100, 2);
        l.critical.extend([cs("S", 7), cs("R", 3)]);
        let mut z = Task::new("z", 10, 100, 1);
        z.critical.push(cs("R", 9));
        TaskSet::new(System::default(), vec![h, m, l, z]).unwrap()
    }

    #[test]
    fn ceilings_are_the_highest_user_priority() {
        let set = four();
        let c = ceilings(&set);
        assert_eq!(c.get("S"), Some(&4));
        assert_eq!(c.get("R"), Some(&3));
    }

    #[test]
    fn srp_blocking_by_hand() {
        let s = four();
        let b: Vec<u64> = (0..4).map(|i| blocking(&s, i)).collect();
        assert_eq!(b, [7, 9, 9, 0]);
    }

    #[test]
    fn an_explicit_blocking_replaces_the_computed_one() {
        let mut tasks = four().tasks().to_vec();
        tasks[1].blocking = Some(1);
        let s = TaskSet::new(System::default(), tasks).unwrap();
        assert_eq!(blocking(&s, 1), 1);
        assert_eq!(blocking(&s, 0), 7);
    }

    /// carousel_cs = 8: every task but the lowest (z) is blocked at least 8:
    /// h max(7, 8) = 8, m max(9, 8) = 9, l max(9, 8) = 9, z 0.
    #[test]
    fn the_carousel_section_blocks_all_but_the_lowest() {
        let tasks = four().tasks().to_vec();
        let system = System {
            carousel_cs: Some(8),
            ..System::default()
        };
        let s = TaskSet::new(system, tasks).unwrap();
        let b: Vec<u64> = (0..4).map(|i| blocking(&s, i)).collect();
        assert_eq!(b, [8, 9, 9, 0]);
    }
}
