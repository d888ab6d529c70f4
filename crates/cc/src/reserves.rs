//! Stack reserves of uninstrumented code: how deep a call into a function we cannot
//! instrument (picolibc, libgcc, hand-written assembly) may go below the caller's `sp`.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The worst-case stack depth of one uninstrumented function, including everything it calls.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reserve {
    /// At most this many bytes below the caller's `sp`.
    Bytes(u32),
    /// No bound could be proven; the text says why (recursion, indirect call, ...).
    Unbounded(String),
}

/// Reserves by symbol name. A callee not listed here and not defined in the units being
/// instrumented is assumed to be instrumented code that checks itself.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reserves {
    /// Symbol name to reserve.
    pub functions: BTreeMap<String, Reserve>,
}

impl Reserves {
    /// The reserve of `name`, if it is uninstrumented code.
    pub fn get(&self, name: &str) -> Option<&Reserve> {
        self.functions.get(name)
    }
}

impl FromIterator<(String, Reserve)> for Reserves {
    fn from_iter<I: IntoIterator<Item = (String, Reserve)>>(iter: I) -> Self {
        Reserves {
            functions: iter.into_iter().collect(),
        }
    }
}
