//! The build cache key: a 128-bit FNV-1a hash over length-prefixed pieces, so that
//! ("ab", "c") and ("a", "bc") differ. Not cryptographic: it only has to change whenever an
//! input changes, and be the same on every run and machine for the same inputs.

const OFFSET: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
const PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;

/// An incremental content hash.
#[derive(Clone, Debug)]
pub struct ContentHash {
    state: u128,
}

impl Default for ContentHash {
    fn default() -> Self {
        ContentHash::new()
    }
}

impl ContentHash {
    /// The hash of nothing.
    pub fn new() -> ContentHash {
        ContentHash { state: OFFSET }
    }

    fn bytes(&mut self, data: &[u8]) {
        for &b in data {
            self.state ^= u128::from(b);
            self.state = self.state.wrapping_mul(PRIME);
        }
    }

    /// Adds one piece (its length first, then its bytes).
    pub fn piece(&mut self, data: &[u8]) {
        self.bytes(&(data.len() as u64).to_le_bytes());
        self.bytes(data);
    }

    /// Adds a labelled piece, e.g. a file's path and then its content.
    pub fn labelled(&mut self, label: &str, data: &[u8]) {
        self.piece(label.as_bytes());
        self.piece(data);
    }

    /// The first 16 hex digits of the hash (the cache directory suffix).
    pub fn short_hex(&self) -> String {
        format!("{:016x}", (self.state >> 64) as u64 ^ self.state as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(pieces: &[&str]) -> String {
        let mut h = ContentHash::new();
        for p in pieces {
            h.piece(p.as_bytes());
        }
        h.short_hex()
    }

    #[test]
    fn equal_inputs_hash_equal_and_boundaries_matter() {
        assert_eq!(of(&["ab", "c"]), of(&["ab", "c"]));
        assert_ne!(of(&["ab", "c"]), of(&["a", "bc"]));
        assert_ne!(of(&["x"]), of(&["y"]));
        assert_eq!(of(&[]).len(), 16);
    }
}
