//! Work shared by several points of a sweep (a workload's baseline run, its probe setup),
//! made once, by the first point that needs it, and only if some point of the shard does.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};

/// A map from keys to values computed at most once each, safe to use from every worker.
pub struct Memo<K, V> {
    cells: Mutex<BTreeMap<K, Arc<OnceLock<Arc<V>>>>>,
}

impl<K: Ord + Clone, V> Default for Memo<K, V> {
    fn default() -> Self {
        Memo {
            cells: Mutex::new(BTreeMap::new()),
        }
    }
}

impl<K: Ord + Clone, V> Memo<K, V> {
    /// An empty memo.
    pub fn new() -> Self {
        Self::default()
    }

    /// The value of `key`, computing it with `make` if no call has yet; concurrent callers
    /// of the same key wait for the one computing it.
    pub fn get(&self, key: &K, make: impl FnOnce() -> V) -> Arc<V> {
        let cell = {
            let mut cells = self.cells.lock().unwrap_or_else(|p| p.into_inner());
            cells.entry(key.clone()).or_default().clone()
        };
        cell.get_or_init(|| Arc::new(make())).clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn each_key_is_made_once() {
        let memo: Memo<u32, u32> = Memo::new();
        let made = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..8 {
                s.spawn(|| {
                    for k in 0..3 {
                        let v = memo.get(&k, || {
                            made.fetch_add(1, Ordering::SeqCst);
                            k * 10
                        });
                        assert_eq!(*v, k * 10);
                    }
                });
            }
        });
        assert_eq!(made.load(Ordering::SeqCst), 3);
    }
}
