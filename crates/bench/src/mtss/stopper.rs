//! What stops a workload's PRS one step higher: the failing probe just above the PRS point,
//! read back as the kernel's refusal of the request that ended it (`stack_refusal_print` in
//! `kernel/stack/mtss.c`: one `why:` line per refused request, which the probe's failure
//! reason carries, [`super::run`]) and cut to one short table cell.
//!
//! Guarantees: a reason that is not a kernel refusal is shown as it is (its first line, cut),
//! never guessed at; every figure in a cell is one the kernel printed.

use super::prs::WorkloadPrs;

/// Why a request was refused, as the kernel reported it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stopper {
    /// No switched-out task could lend the frame's pages.
    NoLender {
        /// The task whose request failed.
        task: String,
        /// Contiguous pages the frame needed.
        pages: u32,
        /// Possible lenders: switched-out tasks with a region, and ended tasks' regions.
        lenders: u32,
        /// Of them, those with less than their margin below their sp.
        in_margin: u32,
        /// The longest free run below sp - margin of any of them, pages.
        longest: u32,
    },
    /// The frame's address escapes: it never moves.
    Pinned {
        /// The task whose request failed.
        task: String,
    },
    /// A dynamic allocation (alloca, VLA): never moved.
    Dynamic {
        /// The task whose request failed.
        task: String,
    },
    /// The frame is larger than a loan can be.
    TooLarge {
        /// The task whose request failed.
        task: String,
    },
    /// Anything else (an oracle violation, a cycle limit, a checksum): the reason's first
    /// line.
    Other(String),
}

/// The text of `line` between `from` and the next `to` after it.
fn between<'a>(line: &'a str, from: &str, to: &str) -> Option<&'a str> {
    let i = line.find(from)? + from.len();
    Some(&line[i..i + line[i..].find(to)?])
}

/// The number between `from` and `to` in `line`.
fn number(line: &str, from: &str, to: &str) -> Option<u32> {
    between(line, from, to)?.trim().parse().ok()
}

impl Stopper {
    /// Reads a probe's failure reason.
    pub fn of_reason(reason: &str) -> Stopper {
        let line = reason.lines().next().unwrap_or("");
        let task = between(line, "task ", ":").and_then(|t| t.split('\'').nth(1));
        let Some(task) = task.filter(|_| line.contains("stack overflow caught")) else {
            return Stopper::Other(line.to_string());
        };
        let task = task.to_string();
        if line.contains("the frame is pinned") {
            return Stopper::Pinned { task };
        }
        if line.contains("a dynamic allocation") {
            return Stopper::Dynamic { task };
        }
        if line.contains("larger than a loan can be") {
            return Stopper::TooLarge { task };
        }
        let lender = (
            number(line, "no lender: the frame needs ", " contiguous pages"),
            number(line, "; of ", " possible lenders"),
            number(
                line,
                "ended tasks' regions), ",
                " have less than their margin",
            ),
            number(line, "longest free run below sp - margin is ", " pages"),
        );
        match lender {
            (Some(pages), Some(lenders), Some(in_margin), Some(longest)) => Stopper::NoLender {
                task,
                pages,
                lenders,
                in_margin,
                longest,
            },
            _ => Stopper::Other(line.to_string()),
        }
    }

    /// The table cell.
    pub fn cell(&self) -> String {
        match self {
            Stopper::NoLender {
                task,
                pages,
                lenders,
                in_margin,
                longest,
            } if lenders == in_margin => format!(
                "{task}: no lender for {pages} pages: all {lenders} possible lenders sit \
                 within their margin"
            ),
            Stopper::NoLender {
                task,
                pages,
                lenders,
                longest,
                ..
            } => format!(
                "{task}: no lender for {pages} pages: the longest free run of {lenders} \
                 possible lenders is {longest}"
            ),
            Stopper::Pinned { task } => format!("{task}: a pinned frame (its address escapes)"),
            Stopper::Dynamic { task } => format!("{task}: a dynamic allocation (never moved)"),
            Stopper::TooLarge { task } => format!("{task}: a frame larger than a loan can be"),
            Stopper::Other(line) => {
                let line = line.replace('|', "/");
                match line.char_indices().nth(120) {
                    Some((i, _)) => format!("{}...", &line[..i]),
                    None => line,
                }
            }
        }
    }
}

/// What stops `r`'s next shrink step, as a cell: "at P %: ..." from the smallest failing probe
/// above the PRS, the search's ceiling, or "-" (no PRS, no failing probe).
pub fn next_step_cell(r: &WorkloadPrs) -> String {
    let Some(prs) = r.prs else {
        return "-".into();
    };
    if prs >= super::prs::MAX_SHRINK {
        return format!("{prs} % is the search's ceiling");
    }
    let failing = r
        .probes
        .iter()
        .filter(|p| !p.passed && p.percent > prs)
        .min_by_key(|p| p.percent);
    match failing.and_then(|p| Some((p.percent, p.reason.as_deref()?))) {
        Some((at, why)) => format!("at {at} %: {}", Stopper::of_reason(why).cell()),
        None => "-".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NO_LENDER: &str = "exit code 3: task 3 'susan': stack overflow caught: pc=80001b90 \
        sp=8001afb0 limit=80019000: the frame needs 96 bytes below the limit; no lender: the \
        frame needs 67 contiguous pages of 128 bytes; of 2 possible lenders (switched-out tasks \
        and ended tasks' regions), 0 have less than their margin (at most 128 bytes, the \
        firmware-wide one 8208) below their sp, the \
        others' longest free run below sp - margin is 4 pages";

    #[test]
    fn reads_the_kernels_refusal() {
        assert_eq!(
            Stopper::of_reason(NO_LENDER),
            Stopper::NoLender {
                task: "susan".into(),
                pages: 67,
                lenders: 2,
                in_margin: 0,
                longest: 4
            }
        );
        assert_eq!(
            Stopper::of_reason(NO_LENDER).cell(),
            "susan: no lender for 67 pages: the longest free run of 2 possible lenders is 4"
        );
        let pinned = "exit code 3: task 1 'sha': stack overflow caught: pc=1 sp=2 limit=3: the \
                      frame needs 8 bytes below the limit; the frame is pinned (its address \
                      escapes) and cannot move";
        assert_eq!(
            Stopper::of_reason(pinned),
            Stopper::Pinned { task: "sha".into() }
        );
        let margin = NO_LENDER.replace("regions), 0 have", "regions), 2 have");
        assert!(Stopper::of_reason(&margin)
            .cell()
            .contains("within their margin"));
    }

    #[test]
    fn anything_else_is_shown_as_it_is() {
        let v = "2 oracle violation(s)";
        assert_eq!(Stopper::of_reason(v), Stopper::Other(v.into()));
        assert_eq!(Stopper::of_reason(v).cell(), v);
        // A refusal line the parser does not know stays whole rather than half read.
        let odd = "exit code 3: task 1 'x': stack overflow caught: pc=1: something new";
        assert!(matches!(Stopper::of_reason(odd), Stopper::Other(_)));
    }
}
