//! Timing of the external bus (paper section IV-E): a transaction of `b` bytes costs
//! `transaction_cycles + ceil(b / bytes_per_cycle)` cycles, and no transaction carries more
//! than `max_transaction` bytes (the DMA engine splits longer copies, `dma.rs`). With the paper's 49/4/64: one word 50 cycles, 32 bytes 57,
//! 64 bytes 65, 128 bytes two transactions = 130.

use crate::ext::spec::ExternalSpec;

/// The bus parameters, copied from `[external]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BusTiming {
    /// Fixed cycles per transaction.
    pub(crate) transaction_cycles: u32,
    /// Bytes per further cycle (> 0).
    pub(crate) bytes_per_cycle: u32,
    /// Largest transaction in bytes (> 0).
    pub(crate) max_transaction: u32,
}

impl BusTiming {
    /// From a validated `[external]` table.
    pub(crate) fn new(spec: &ExternalSpec) -> BusTiming {
        BusTiming {
            transaction_cycles: spec.transaction_cycles,
            bytes_per_cycle: spec.bytes_per_cycle,
            max_transaction: spec.max_transaction,
        }
    }

    /// Cycles to move `bytes` bytes at one beat per `bytes_per_cycle` (rounding up), no
    /// transaction overhead.
    pub(crate) fn beats(&self, bytes: u32) -> u64 {
        u64::from(bytes.div_ceil(self.bytes_per_cycle))
    }

    /// Cycles of one transaction of `bytes` bytes (`bytes <= max_transaction`).
    pub(crate) fn transaction(&self, bytes: u32) -> u64 {
        u64::from(self.transaction_cycles) + self.beats(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::BusTiming;

    fn paper() -> BusTiming {
        BusTiming {
            transaction_cycles: 49,
            bytes_per_cycle: 4,
            max_transaction: 64,
        }
    }

    #[test]
    fn transaction_costs_round_up_per_four_bytes() {
        let b = paper();
        assert_eq!(b.transaction(4), 50, "single word");
        assert_eq!(b.transaction(1), 50, "a byte is a whole beat");
        assert_eq!(
            b.transaction(2),
            50,
            "a halfword (compressed fetch) is a whole beat"
        );
        assert_eq!(b.transaction(5), 51);
        assert_eq!(b.transaction(16), 53, "a 16-byte cache line");
        assert_eq!(b.transaction(32), 57, "paper: 32 bytes = 57");
        assert_eq!(b.transaction(64), 65, "paper: 64 bytes = 65");
    }
}
