//! Latency distributions: a histogram of cycle counts that merges across runs (and shards)
//! without losing anything, and its nearest-rank percentiles.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Counts of samples by value (cycles), in ascending value order. Merging two histograms
/// gives exactly the histogram of the union of their samples.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Histogram {
    /// (value, count) pairs, values ascending and distinct, counts nonzero.
    pub counts: Vec<(u64, u64)>,
}

/// min / median / p99 / max of a histogram (nearest rank: the p-th percentile is the
/// smallest value at least p % of the samples are at or below).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Percentiles {
    /// Samples.
    pub samples: u64,
    /// Smallest sample.
    pub min: u64,
    /// 50th percentile.
    pub median: u64,
    /// 99th percentile.
    pub p99: u64,
    /// Largest sample.
    pub max: u64,
}

impl Histogram {
    /// The histogram of `values`.
    pub fn of(values: impl IntoIterator<Item = u64>) -> Histogram {
        let mut map = BTreeMap::new();
        for v in values {
            *map.entry(v).or_insert(0u64) += 1;
        }
        Histogram {
            counts: map.into_iter().collect(),
        }
    }

    /// The histogram of this one's samples and `other`'s.
    pub fn merged(&self, other: &Histogram) -> Histogram {
        let mut map: BTreeMap<u64, u64> = self.counts.iter().copied().collect();
        for &(v, n) in &other.counts {
            *map.entry(v).or_insert(0) += n;
        }
        Histogram {
            counts: map.into_iter().filter(|&(_, n)| n > 0).collect(),
        }
    }

    /// Number of samples.
    pub fn samples(&self) -> u64 {
        self.counts.iter().map(|&(_, n)| n).sum()
    }

    /// The nearest-rank `pct` percentile (0 < pct <= 100); None when empty or `pct` is out
    /// of range.
    pub fn percentile(&self, pct: f64) -> Option<u64> {
        let total = self.samples();
        if total == 0 || !(pct > 0.0 && pct <= 100.0) {
            return None;
        }
        let rank = ((pct / 100.0) * total as f64).ceil().max(1.0) as u64;
        let mut seen = 0;
        for &(v, n) in &self.counts {
            seen += n;
            if seen >= rank {
                return Some(v);
            }
        }
        self.counts.last().map(|&(v, _)| v)
    }

    /// Samples in each of the ranges `[bounds[i], bounds[i + 1])`, the last range open
    /// (`[bounds[last], ∞)`); samples below `bounds[0]` are not counted. `bounds` ascending.
    pub fn buckets(&self, bounds: &[u64]) -> Vec<u64> {
        bounds
            .iter()
            .enumerate()
            .map(|(i, &lo)| {
                let hi = bounds.get(i + 1).copied().unwrap_or(u64::MAX);
                self.counts
                    .iter()
                    .filter(|&&(v, _)| v >= lo && (v < hi || hi == u64::MAX))
                    .map(|&(_, n)| n)
                    .sum()
            })
            .collect()
    }

    /// min / median / p99 / max; None when empty.
    pub fn percentiles(&self) -> Option<Percentiles> {
        Some(Percentiles {
            samples: self.samples(),
            min: self.counts.first()?.0,
            median: self.percentile(50.0)?,
            p99: self.percentile(99.0)?,
            max: self.counts.last()?.0,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let h = Histogram::of(1..=100);
        let p = h.percentiles().unwrap();
        assert_eq!(
            (p.samples, p.min, p.median, p.p99, p.max),
            (100, 1, 50, 99, 100)
        );
        // 1000 samples: 990 of 10, 10 of 500: p99 is still 10, the max 500.
        let h = Histogram::of(std::iter::repeat_n(10, 990).chain(std::iter::repeat_n(500, 10)));
        let p = h.percentiles().unwrap();
        assert_eq!((p.median, p.p99, p.max), (10, 10, 500));
        // One more slow sample moves p99 onto it.
        let h = h.merged(&Histogram::of([500]));
        assert_eq!(h.percentile(99.0), Some(500));
        assert_eq!(Histogram::of([7]).percentiles().unwrap().median, 7);
    }

    #[test]
    fn buckets_split_at_the_bounds_and_the_last_is_open() {
        let h = Histogram::of([0, 3, 4, 15, 16, 100, 9000]);
        assert_eq!(h.buckets(&[0, 4, 16, 1000]), vec![2, 2, 2, 1]);
        assert_eq!(h.buckets(&[4]), vec![5]);
        assert_eq!(Histogram::default().buckets(&[0, 1]), vec![0, 0]);
    }

    #[test]
    fn empty_and_out_of_range_have_no_percentile() {
        assert_eq!(Histogram::default().percentiles(), None);
        assert_eq!(Histogram::of([1, 2]).percentile(0.0), None);
        assert_eq!(Histogram::of([1, 2]).percentile(101.0), None);
    }

    #[test]
    fn merging_equals_the_histogram_of_the_union() {
        let a = Histogram::of([3, 1, 3, 9]);
        let b = Histogram::of([9, 2]);
        assert_eq!(a.merged(&b), Histogram::of([1, 2, 3, 3, 9, 9]));
        assert_eq!(a.merged(&Histogram::default()), a);
        assert_eq!(a.merged(&b).samples(), 6);
    }
}
