//! The pass report: which functions keep checks, their effective frame sizes and why.

use serde::{Deserialize, Serialize};

/// What the rolling optimization decided for one function.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FunctionReport {
    /// The unit (assembly origin) the function is in.
    pub unit: String,
    /// The function's symbol.
    pub name: String,
    /// Static frame size in bytes (largest constant `sp` decrement below the entry `sp`).
    pub frame: u32,
    /// The frame also grows by a run-time amount (alloca, VLA).
    pub dynamic: bool,
    /// Effective size checked at entry (0 when the function keeps no entry check).
    pub effective: u32,
    /// True when the function keeps an entry check.
    pub checked: bool,
    /// Why the check was removed ("certainty", "zero-size", "limited-size") or kept
    /// ("kept: address taken", "kept: recursive", ...).
    pub rule: String,
    /// Check sites inserted in this function (entry and dynamic-allocation checks).
    pub sites: u32,
    /// The largest number of bytes a dynamic-allocation check of it demands below the `sp`
    /// after the allocation (0 without such a site).
    #[serde(default)]
    pub dynamic_need: u32,
    /// Bytes below the entry `sp` of the lowest address it stores to through `sp` (or `s0`)
    /// or takes the address of (0 when none): what of its frame a run is known to reach.
    #[serde(default)]
    pub lowest_write: u32,
    /// The functions it calls by name (each once, in order of first call; names the
    /// program does not define are uninstrumented code: libgcc, picolibc, the kernel's
    /// assembly).
    #[serde(default)]
    pub callees: Vec<String>,
    /// It calls through a register.
    #[serde(default)]
    pub indirect: bool,
    /// In `mtss` mode, why its frame must never move (its entry check is pinned, KIND 2;
    /// docs/stack-checks.md), or None.
    #[serde(default)]
    pub pinned: Option<String>,
}

/// Everything one instrumentation run decided.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// One entry per function of every unit, in unit and source order.
    pub functions: Vec<FunctionReport>,
    /// Conservative decisions the user should know about (blind margins, unknown prologues).
    pub warnings: Vec<String>,
}
