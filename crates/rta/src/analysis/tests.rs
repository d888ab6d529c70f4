//! Equations 3 and 4 against examples worked by hand (the working is in each test's comment),
//! and against a brute-force search for the least fixed point on small random sets.

use super::*;
use crate::model::{CriticalSection, System, Task};
use rand_chacha::rand_core::{RngCore, SeedableRng};

fn set(system: System, tasks: Vec<Task>) -> TaskSet {
    TaskSet::new(system, tasks).unwrap()
}

fn responses(a: &Analysis) -> Vec<Response> {
    a.tasks.iter().map(|t| t.response).collect()
}

fn ok(cycles: u64) -> Response {
    Response::Converged { cycles }
}

fn over(first_above: u64) -> Response {
    Response::Exceeded { first_above }
}

/// Burns & Wellings' three tasks (priority a > b > c):
///   a: C=3 T=7;  b: C=3 T=12;  c: C=5 T=20;  D = T;  U = 3/7 + 3/12 + 5/20 = 0.929.
/// R_a = 3 (nothing above it: one evaluation).
/// R_b: w = 3 → 3 + ⌈3/7⌉3 = 6 → 3 + ⌈6/7⌉3 = 6: R_b = 6 (2 evaluations).
/// R_c: w = 5 → 5 + ⌈5/7⌉3 + ⌈5/12⌉3 = 11 → 5 + 2·3 + 1·3 = 14 → 5 + 2·3 + 2·3 = 17
///      → 5 + 3·3 + 2·3 = 20 → 5 + ⌈20/7⌉3 + ⌈20/12⌉3 = 5 + 9 + 6 = 20: R_c = 20 = D_c
///      (5 evaluations), slack 0.
fn burns_wellings() -> Vec<Task> {
    vec![
        Task::new("a", 3, 7, 3),
        Task::new("b", 3, 12, 2),
        Task::new("c", 5, 20, 1),
    ]
}

#[test]
fn burns_wellings_three_tasks_are_schedulable_with_no_slack_left() {
    let a = analyse(&set(System::default(), burns_wellings()), Equation::Three);
    assert_eq!(responses(&a), [ok(3), ok(6), ok(20)]);
    let iterations: Vec<u64> = a.tasks.iter().map(|t| t.iterations).collect();
    assert_eq!(iterations, [1, 2, 5]);
    assert!(a.schedulable());
    assert_eq!(a.worst_slack(), 0);
    let slack: Vec<i64> = a.tasks.iter().map(TaskResult::slack).collect();
    assert_eq!(slack, [4, 6, 0]);
}

/// The same set by equation 4 with CS¹ = 1, CS² = 0: every job costs one cycle more.
/// R_a = 1 + 3 = 4.
/// R_b: constant 1 + 3 = 4, a costs 1 + 3 = 4 per job: w = 4 → 4 + ⌈4/7⌉4 = 8
///      → 4 + ⌈8/7⌉4 = 12 → 4 + ⌈12/7⌉4 = 12: R_b = 12 = D_b.
/// R_c: constant 1 + 5 = 6: w = 6 → 6 + ⌈6/7⌉4 + ⌈6/12⌉4 = 14 → 6 + 2·4 + 2·4 = 22 > 20:
///      unschedulable, first iterate above D_c = 22, slack −2.
/// The switch cost flips the verdict; equation 3 on the same set is still schedulable.
#[test]
fn a_context_switch_cost_flips_the_verdict() {
    let s = set(
        System {
            cs1: 1,
            ..System::default()
        },
        burns_wellings(),
    );
    let a = analyse(&s, Equation::Four);
    assert_eq!(responses(&a), [ok(4), ok(12), over(22)]);
    assert_eq!((a.cs1, a.cs2), (1, 0));
    assert!(!a.schedulable());
    assert_eq!(a.worst_slack(), -2);
    assert_eq!(a.tasks[2].iterations, 2);
    // Equation 3 ignores the costs.
    let three = analyse(&s, Equation::Three);
    assert_eq!(responses(&three), [ok(3), ok(6), ok(20)]);
    assert_eq!((three.cs1, three.cs2), (0, 0));
}

/// CS² counts like CS¹: CS¹ = 0, CS² = 1 gives the same responses as CS¹ = 1, CS² = 0.
#[test]
fn cs2_counts_like_cs1() {
    let one = set(
        System {
            cs2: 1,
            ..System::default()
        },
        burns_wellings(),
    );
    assert_eq!(
        responses(&analyse(&one, Equation::Four)),
        [ok(4), ok(12), over(22)]
    );
}

/// Blocking flips the verdict. c holds resource R for 4 cycles, b for 1: ceiling(R) =
/// priority(b) = 2, so B_b = 4 (c's section), B_a = 0 (ceiling 2 < 3), B_c = 0 (lowest).
/// R_a = 3.
/// R_b: constant 3 + 4 = 7: w = 7 → 7 + ⌈7/7⌉3 = 10 → 7 + ⌈10/7⌉3 = 13 > 12: unschedulable,
///      first iterate above D_b = 13.
/// R_c = 20 as without blocking.
#[test]
fn blocking_flips_the_verdict() {
    let mut tasks = burns_wellings();
    tasks[1].critical.push(CriticalSection {
        resource: "R".into(),
        cycles: 1,
    });
    tasks[2].critical.push(CriticalSection {
        resource: "R".into(),
        cycles: 4,
    });
    let a = analyse(&set(System::default(), tasks), Equation::Three);
    let b: Vec<u64> = a.tasks.iter().map(|t| t.blocking).collect();
    assert_eq!(b, [0, 4, 0]);
    assert_eq!(responses(&a), [ok(3), over(13), ok(20)]);
    assert!(!a.schedulable());
    assert_eq!(a.worst_slack(), -1);
}

/// A Carousel critical section of 1 cycle blocks a and b (not c, the lowest):
/// R_a = 3 + 1 = 4.
/// R_b: constant 3 + 1 = 4: w = 4 → 4 + ⌈4/7⌉3 = 7 → 4 + ⌈7/7⌉3 = 7: R_b = 7.
/// R_c = 20 (B_c = 0).
#[test]
fn the_carousel_section_blocks_every_task_but_the_lowest() {
    let s = set(
        System {
            carousel_cs: Some(1),
            ..System::default()
        },
        burns_wellings(),
    );
    let a = analyse(&s, Equation::Four);
    assert_eq!(responses(&a), [ok(4), ok(7), ok(20)]);
}

/// Buttazzo's rate-monotonic example: τ1 C=1 T=4, τ2 C=2 T=6, τ3 C=3 T=10 (U = 0.883).
/// R1 = 1.  R2: 2 → 2 + ⌈2/4⌉1 = 3 → 2 + ⌈3/4⌉1 = 3: R2 = 3.
/// R3: 3 → 3 + ⌈3/4⌉1 + ⌈3/6⌉2 = 6 → 3 + 2 + 2 = 7 → 3 + 2 + ⌈7/6⌉2 = 9
///     → 3 + ⌈9/4⌉1 + 4 = 10 → 3 + ⌈10/4⌉1 + ⌈10/6⌉2 = 10: R3 = 10 = D3.
#[test]
fn buttazzo_rate_monotonic_example() {
    let tasks = vec![
        Task::new("t1", 1, 4, 3),
        Task::new("t2", 2, 6, 2),
        Task::new("t3", 3, 10, 1),
    ];
    let a = analyse(&set(System::default(), tasks), Equation::Three);
    assert_eq!(responses(&a), [ok(1), ok(3), ok(10)]);
}

/// Utilisation above 1 (a: C=2 T=4, b: C=3 T=5: U = 1.1): no fixed point exists for b, and
/// the iteration stops at its deadline: 3 → 3 + ⌈3/4⌉2 = 5 → 3 + ⌈5/4⌉2 = 7 > 5.
/// With a deadline shorter than the period the same happens earlier: D_b = 4: 3 → 5 > 4.
#[test]
fn utilisation_above_one_stops_at_the_deadline() {
    let tasks = vec![Task::new("a", 2, 4, 2), Task::new("b", 3, 5, 1)];
    let s = set(System::default(), tasks.clone());
    assert!(s.utilisation() > 1.0);
    let a = analyse(&s, Equation::Three);
    assert_eq!(responses(&a), [ok(2), over(7)]);
    let mut short = tasks;
    short[1].deadline = 4;
    let a = analyse(&set(System::default(), short), Equation::Three);
    assert_eq!(a.tasks[1].response, over(5));
    assert_eq!(a.tasks[1].iterations, 1);
}

/// A task whose constant terms alone pass its deadline: C = 5, B = 0, CS¹ = 2 on D = 6:
/// the first iterate 2 + 5 = 7 > 6, reported without an evaluation.
#[test]
fn constant_terms_above_the_deadline() {
    let s = set(
        System {
            cs1: 2,
            ..System::default()
        },
        vec![Task::new("a", 5, 6, 1)],
    );
    let a = analyse(&s, Equation::Four);
    assert_eq!(a.tasks[0].response, over(7));
    assert_eq!(a.tasks[0].iterations, 0);
}

/// Equal priorities interfere both ways: a and b, both priority 1, C = 2, T = 10:
/// R = 2 → 2 + ⌈2/10⌉2 = 4 → 2 + ⌈4/10⌉2 = 4.
#[test]
fn equal_priorities_interfere_both_ways() {
    let tasks = vec![Task::new("a", 2, 10, 1), Task::new("b", 2, 10, 1)];
    let a = analyse(&set(System::default(), tasks), Equation::Three);
    assert_eq!(responses(&a), [ok(4), ok(4)]);
}

/// Values near u64::MAX neither overflow nor panic: the constant terms of b
/// (CS¹ + CS² + C = 3·(2⁶⁴ − 1)) pass any deadline, and the first iterate is reported
/// saturated; a, alone at the top with a huge period, converges exactly.
#[test]
fn huge_values_saturate() {
    let max = u64::MAX;
    let s = set(
        System {
            cs1: max,
            cs2: max,
            ..System::default()
        },
        vec![Task::new("a", max, max, 2), Task::new("b", 1, max, 1)],
    );
    let a = analyse(&s, Equation::Four);
    assert_eq!(a.tasks[0].response, over(max));
    assert_eq!(a.tasks[1].response, over(max));
    // Slack: D − the saturated iterate = (2⁶⁴ − 1) − (2⁶⁴ − 1) = 0.
    assert_eq!(a.worst_slack(), 0);
    let three = analyse(&s, Equation::Three);
    // a: 2^64 - 1 = D: converges. b: 1 + ⌈1/T_a⌉(2^64 - 1) = 2^64 > D.
    assert_eq!(three.tasks[0].response, ok(max));
    assert_eq!(three.tasks[1].response, over(max));
}

/// The iteration finds the least t >= the constant terms with rhs(t) = t; a brute-force scan
/// over t (possible on small numbers) must find the same t, or none up to D exactly when the
/// iteration reports unschedulable.
#[test]
fn the_iteration_agrees_with_a_brute_force_scan() {
    let mut rng = rand_chacha::ChaCha8Rng::from_seed([7; 32]);
    let mut draw = |lo: u64, hi: u64| lo + rng.next_u64() % (hi - lo + 1);
    let mut schedulable = 0;
    for _ in 0..300 {
        let n = draw(1, 5) as usize;
        let system = System {
            cs1: draw(0, 2),
            cs2: draw(0, 2),
            ..System::default()
        };
        let tasks: Vec<Task> = (0..n)
            .map(|k| {
                let period = draw(4, 60);
                let mut t = Task::new(&format!("t{k}"), draw(1, period / 2), period, k as u32);
                t.deadline = draw(t.wcet, period);
                t.blocking = Some(draw(0, 3));
                t
            })
            .collect();
        let s = set(system, tasks);
        let a = analyse(&s, Equation::Four);
        for (i, t) in s.tasks().iter().enumerate() {
            let switch = s.system().cs1 + s.system().cs2;
            let constant = switch + t.wcet + t.blocking.unwrap();
            let rhs = |x: u64| -> u64 {
                constant
                    + s.tasks()
                        .iter()
                        .enumerate()
                        .filter(|&(j, u)| j != i && u.priority >= t.priority)
                        .map(|(_, u)| x.div_ceil(u.period) * (switch + u.wcet))
                        .sum::<u64>()
            };
            let least = (constant..=t.deadline).find(|&x| rhs(x) == x);
            match a.tasks[i].response {
                Response::Converged { cycles } => {
                    assert_eq!(Some(cycles), least, "{s:?} task {i}");
                    schedulable += 1;
                }
                Response::Exceeded { first_above } => {
                    assert_eq!(least, None, "{s:?} task {i}");
                    assert!(first_above > t.deadline);
                }
            }
        }
    }
    assert!(
        schedulable > 100,
        "too few schedulable tasks to test: {schedulable}"
    );
}
