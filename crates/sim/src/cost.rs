//! Cost classes of the timing and energy model: the profile's `[cycles]`/`[energy]` keys plus
//! `trace` (trace-device accesses, free by definition).

use serde::Serialize;

/// What an executed instruction is charged as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CostClass {
    /// Integer ALU, `lui`, `auipc`, shifts.
    Alu,
    /// A conditional branch that was taken.
    BranchTaken,
    /// A conditional branch that fell through.
    BranchNotTaken,
    /// `jal`, `jalr`.
    Jump,
    /// Loads.
    Load,
    /// Stores.
    Store,
    /// Multiplies.
    Mul,
    /// Divides and remainders.
    Div,
    /// Zicsr instructions.
    Csr,
    /// LR/SC and AMOs.
    Amo,
    /// `fence`, `fence.i`.
    Fence,
    /// `ecall`, `ebreak`, `wfi`.
    System,
    /// Entering a trap (exception or interrupt); counted per trap, not per instruction.
    TrapEntry,
    /// `mret`.
    Mret,
    /// A load or store to the trace device (zero cycles, zero energy).
    Trace,
}

/// Number of cost classes.
pub const NUM_CLASSES: usize = 15;

/// Every class, in a fixed order (index = `class as usize`).
pub const COST_CLASSES: [CostClass; NUM_CLASSES] = [
    CostClass::Alu,
    CostClass::BranchTaken,
    CostClass::BranchNotTaken,
    CostClass::Jump,
    CostClass::Load,
    CostClass::Store,
    CostClass::Mul,
    CostClass::Div,
    CostClass::Csr,
    CostClass::Amo,
    CostClass::Fence,
    CostClass::System,
    CostClass::TrapEntry,
    CostClass::Mret,
    CostClass::Trace,
];

impl CostClass {
    /// The profile key / statistics name of the class.
    pub fn key(self) -> &'static str {
        match self {
            CostClass::Alu => "alu",
            CostClass::BranchTaken => "branch_taken",
            CostClass::BranchNotTaken => "branch_not_taken",
            CostClass::Jump => "jump",
            CostClass::Load => "load",
            CostClass::Store => "store",
            CostClass::Mul => "mul",
            CostClass::Div => "div",
            CostClass::Csr => "csr",
            CostClass::Amo => "amo",
            CostClass::Fence => "fence",
            CostClass::System => "system",
            CostClass::TrapEntry => "trap_entry",
            CostClass::Mret => "mret",
            CostClass::Trace => "trace",
        }
    }
}
