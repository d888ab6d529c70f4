//! The build cache key: a BLAKE3 hash over length-prefixed pieces, so that ("ab", "c") and
//! ("a", "bc") differ. The same on every run and machine for the same inputs; a cryptographic
//! hash, so two different inputs never share a cache directory in practice.

/// An incremental content hash.
#[derive(Clone, Debug, Default)]
pub struct ContentHash {
    state: blake3::Hasher,
}

impl ContentHash {
    /// The hash of nothing.
    pub fn new() -> ContentHash {
        ContentHash::default()
    }

    /// Adds one piece (its length first, then its bytes).
    pub fn piece(&mut self, data: &[u8]) {
        self.state.update(&(data.len() as u64).to_le_bytes());
        self.state.update(data);
    }

    /// Adds a labelled piece, e.g. a file's path and then its content.
    pub fn labelled(&mut self, label: &str, data: &[u8]) {
        self.piece(label.as_bytes());
        self.piece(data);
    }

    /// The first 16 hex digits of the hash (the cache directory suffix).
    pub fn short_hex(&self) -> String {
        self.state.finalize().to_hex()[..16].to_string()
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
