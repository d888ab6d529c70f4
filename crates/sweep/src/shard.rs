//! `--shard I/N`: one slice of a sweep, so a batch system can spread it over machines.

use crate::SweepError;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Slice `index` (1-based) of `count`: the points whose position `p` (0-based, in sweep order)
/// has `p % count == index - 1`. Round robin, so heavy neighbours land on different shards.
/// The whole sweep is `1/1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which slice, 1..=count.
    pub index: u32,
    /// How many slices.
    pub count: u32,
}

impl Default for Shard {
    fn default() -> Self {
        Shard::WHOLE
    }
}

impl Shard {
    /// The whole sweep.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Whether the point at `position` belongs to this shard.
    pub fn holds(self, position: usize) -> bool {
        position % self.count as usize == (self.index - 1) as usize
    }

    /// This is the whole sweep.
    pub fn is_whole(self) -> bool {
        self.count == 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = SweepError;

    /// Parses `I/N` with `1 <= I <= N`.
    fn from_str(s: &str) -> Result<Shard, SweepError> {
        let bad = || SweepError::Mismatch(format!("--shard: `{s}` is not I/N with 1 <= I <= N"));
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u32 = i.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_points() {
        let shards: Vec<Shard> = (1..=3).map(|i| Shard { index: i, count: 3 }).collect();
        for p in 0..10 {
            assert_eq!(shards.iter().filter(|s| s.holds(p)).count(), 1, "point {p}");
        }
        assert!(Shard::WHOLE.holds(7));
    }

    #[test]
    fn parses_and_refuses() {
        assert_eq!(
            "2/3".parse::<Shard>().unwrap(),
            Shard { index: 2, count: 3 }
        );
        for bad in ["0/2", "3/2", "1", "a/b", "1/0"] {
            let e = bad.parse::<Shard>().unwrap_err().to_string();
            assert!(e.contains(bad), "{e}");
        }
    }
}
