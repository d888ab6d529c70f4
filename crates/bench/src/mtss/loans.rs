//! Loan statistics of one MTSS run, read from its trace events (the MTSS paper's "Additional
//! statistics", section 10): how many frames moved, how many pages they took, how many took
//! more than one page, and how many returned pages left a hole (a free page below a page of
//! the same lender that is still lent, which receding cannot reclaim).
//!
//! Pure: works on the simulator's recorded events, so it is tested with made-up event lists.

use cactus_sim::{Event, EventKind};
use cactus_sweep::table::{pct, percent};
use serde::{Deserialize, Serialize};

/// What the loans of one run amounted to.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoanStats {
    /// Frames moved to another task's pages (`REGION_LEND` events).
    pub loans: u64,
    /// Pages those loans took.
    pub pages: u64,
    /// Loans of more than one page (a frame larger than a page, or with its arguments).
    pub multi_page_loans: u64,
    /// Pages whose return left a hole: a page of the same lender above them was still lent.
    pub hole_pages: u64,
    /// Loans placed below a page of the same lender that was lent at the time (a hole reused).
    pub hole_reuses: u64,
    /// Most pages lent at once, over all lenders.
    pub peak_pages: u64,
    /// Distinct (borrower, lender) pairs.
    pub pairs: u64,
}

impl LoanStats {
    /// The table cells of these statistics, in the loan tables' column order: frames moved,
    /// pages lent, multi-page moves (with their share), pages leaving a hole (with their
    /// share), holes reused, most pages lent at once, borrower-lender pairs.
    pub fn cells(&self) -> [String; 7] {
        let share = |part: u64, whole: u64| percent(part as f64, whole as f64);
        [
            self.loans.to_string(),
            self.pages.to_string(),
            format!(
                "{} ({})",
                self.multi_page_loans,
                pct(share(self.multi_page_loans, self.loans))
            ),
            format!("{} ({})", self.hole_pages, pct(self.hole_percent())),
            self.hole_reuses.to_string(),
            self.peak_pages.to_string(),
            self.pairs.to_string(),
        ]
    }

    /// Returned pages that left a hole, as a percentage of all pages lent (the paper's
    /// measure); None when nothing was lent.
    pub fn hole_percent(&self) -> Option<f64> {
        (self.pages > 0).then(|| self.hole_pages as f64 * 100.0 / self.pages as f64)
    }
}

#[derive(Clone, Copy)]
struct Out {
    base: u32,
    size: u32,
    lender: u32,
}

/// The loan statistics of `events` with pages of `page` bytes. A loan is a `REGION_LEND`; it
/// ends with the `REGION_ASSIGN` that gives exactly its bytes back to its lender or the
/// `REGION_RELEASE` of exactly its bytes (its lender had exited). Loans still out at the end
/// count as lent and never as holes.
pub fn loan_stats(events: &[Event], page: u32) -> LoanStats {
    let page = page.max(1);
    let mut s = LoanStats::default();
    let mut out: Vec<Out> = Vec::new();
    let mut pairs = std::collections::BTreeSet::new();
    let mut lent_now = 0u64;
    for e in events {
        match e.kind {
            EventKind::RegionLend {
                base,
                size,
                lender,
                borrower,
                ..
            } => {
                let pages = u64::from(size.div_ceil(page));
                s.loans += 1;
                s.pages += pages;
                s.multi_page_loans += u64::from(pages > 1);
                if out.iter().any(|o| o.lender == lender && o.base > base) {
                    s.hole_reuses += 1;
                }
                pairs.insert((borrower, lender));
                out.push(Out { base, size, lender });
                lent_now += pages;
                s.peak_pages = s.peak_pages.max(lent_now);
            }
            EventKind::RegionAssign { base, size, owner } => end_loan(
                &mut out,
                &mut s,
                &mut lent_now,
                base,
                size,
                Some(owner),
                page,
            ),
            EventKind::RegionRelease { base, size } => {
                end_loan(&mut out, &mut s, &mut lent_now, base, size, None, page)
            }
            _ => {}
        }
    }
    s.pairs = pairs.len() as u64;
    s
}

fn end_loan(
    out: &mut Vec<Out>,
    s: &mut LoanStats,
    lent_now: &mut u64,
    base: u32,
    size: u32,
    owner: Option<u32>,
    page: u32,
) {
    let Some(i) = out
        .iter()
        .position(|o| o.base == base && o.size == size && owner.is_none_or(|w| w == o.lender))
    else {
        return;
    };
    let done = out.swap_remove(i);
    let pages = u64::from(done.size.div_ceil(page));
    *lent_now -= pages;
    if out
        .iter()
        .any(|o| o.lender == done.lender && o.base > done.base)
    {
        s.hole_pages += pages;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(kind: EventKind) -> Event {
        Event {
            cycle: 0,
            instret: 0,
            pc: 0,
            kind,
        }
    }
    fn lend(base: u32, size: u32, lender: u32, borrower: u32) -> Event {
        ev(EventKind::RegionLend {
            base,
            size,
            lender,
            borrower,
            moved: size,
        })
    }
    fn give_back(base: u32, size: u32, owner: u32) -> Event {
        ev(EventKind::RegionAssign { base, size, owner })
    }

    #[test]
    fn a_lower_page_returned_first_is_a_hole_and_is_reused() {
        // Paper, Figure 6: T1 and T2 borrow from T3; T1's page goes back first.
        let events = [
            lend(0x1000, 128, 3, 1),
            lend(0x1080, 256, 3, 2),
            give_back(0x1000, 128, 3),
            lend(0x1000, 128, 3, 1),
            give_back(0x1000, 128, 3),
            give_back(0x1080, 256, 3),
        ];
        let s = loan_stats(&events, 128);
        assert_eq!(s.loans, 3);
        assert_eq!(s.pages, 4);
        assert_eq!(s.multi_page_loans, 1);
        assert_eq!(
            s.hole_pages, 2,
            "both returns of the lower page left a hole"
        );
        assert_eq!(s.hole_reuses, 1);
        assert_eq!(s.peak_pages, 3);
        assert_eq!(s.pairs, 2);
        assert_eq!(s.hole_percent(), Some(50.0));
    }

    #[test]
    fn returns_in_stack_order_leave_no_hole() {
        let events = [
            lend(0x1000, 128, 0, 1),
            lend(0x1080, 128, 0, 1),
            give_back(0x1080, 128, 0),
            give_back(0x1000, 128, 0),
            // A page given back to another task is not this loan's end.
            lend(0x2000, 128, 2, 1),
            give_back(0x2000, 128, 5),
            ev(EventKind::RegionRelease {
                base: 0x2000,
                size: 128,
            }),
        ];
        let s = loan_stats(&events, 128);
        assert_eq!(s.loans, 3);
        assert_eq!(s.hole_pages, 0);
        assert_eq!(s.hole_reuses, 0);
        assert_eq!(s.peak_pages, 2);
    }

    #[test]
    fn nothing_lent_has_no_hole_percentage() {
        assert_eq!(loan_stats(&[], 128).hole_percent(), None);
    }
}
