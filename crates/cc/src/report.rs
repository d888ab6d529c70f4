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
}

/// Everything one instrumentation run decided.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// One entry per function of every unit, in unit and source order.
    pub functions: Vec<FunctionReport>,
    /// Conservative decisions the user should know about (blind margins, unknown prologues).
    pub warnings: Vec<String>,
}
