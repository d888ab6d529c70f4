//! What the passes are asked to do.

use serde::{Deserialize, Serialize};

/// Which stack checks `cactus cc` inserts (`docs/stack-checks.md`, "Modes").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum CheckMode {
    /// No instrumentation: the assembly is printed back unchanged.
    #[default]
    None,
    /// Checks against the running code's stack limit; overflow is reported before the frame
    /// is written.
    Detect,
    /// The same checks, with frames verified relocatable so the `mtss` strategy may move them.
    Mtss,
    /// The `mtss` checks whose failure calls the kernel's runtime (`port_split_request`)
    /// instead of trapping: the slow path of segmented stacks (`cactus cc --checks split`,
    /// docs/stack-checks.md "The call slow path"). Needs a kernel: bare-metal runtimes do not
    /// define the runtime.
    Split,
}

impl CheckMode {
    /// Every mode, in the order the command line lists them.
    pub const ALL: [CheckMode; 4] = [
        CheckMode::None,
        CheckMode::Detect,
        CheckMode::Mtss,
        CheckMode::Split,
    ];

    /// The mode's name as manifests and the command line spell it (`none`, `detect`, `mtss`,
    /// `split`).
    pub fn name(self) -> &'static str {
        match self {
            CheckMode::None => "none",
            CheckMode::Detect => "detect",
            CheckMode::Mtss => "mtss",
            CheckMode::Split => "split",
        }
    }

    /// Whether the mode verifies frames relocatable (KIND 2 otherwise) so a strategy may move
    /// them: `mtss` and `split`.
    pub fn relocates(self) -> bool {
        matches!(self, CheckMode::Mtss | CheckMode::Split)
    }

    /// Whether a failed entry check calls the kernel's runtime instead of trapping.
    pub fn calls_runtime(self) -> bool {
        self == CheckMode::Split
    }

    /// The mode called `text` (surrounding white space ignored), the inverse of
    /// [`CheckMode::name`].
    pub fn parse(text: &str) -> Option<CheckMode> {
        CheckMode::ALL.into_iter().find(|m| m.name() == text.trim())
    }
}

impl std::fmt::Display for CheckMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The three rules of the rolling-checks optimization (MTSS section 5), each switchable so
/// their contributions can be measured separately.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollingRules {
    /// Certainty: roll a check into callers whose call site post-dominates their entry.
    pub certainty: bool,
    /// Zero-size: a leaf with no frame keeps no check.
    pub zero_size: bool,
    /// Limited-size: roll checks of functions with effective size <= K into their callers.
    pub limited_size: bool,
}

impl RollingRules {
    /// Every rule on (the default).
    pub const ALL: RollingRules = RollingRules {
        certainty: true,
        zero_size: true,
        limited_size: true,
    };
    /// Every rule off: a check in every function that uses stack.
    pub const NONE: RollingRules = RollingRules {
        certainty: false,
        zero_size: false,
        limited_size: false,
    };
}

impl Default for RollingRules {
    fn default() -> Self {
        RollingRules::ALL
    }
}

/// Options of one instrumentation run over a set of units.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassOptions {
    /// Which checks to insert.
    pub mode: CheckMode,
    /// Which rolling rules apply.
    pub rolling: RollingRules,
    /// K for application code, in bytes (paper default: 10 % of the task's stack; 128 when the
    /// task's stack is unknown).
    pub k_app: u32,
    /// K for library code (units marked [`crate::Unit::library`]), in bytes (paper: 128).
    pub k_lib: u32,
    /// True when the units given are the whole program: then a global function whose every
    /// caller is visible may roll; otherwise only file-local functions roll.
    pub whole_program: bool,
    /// Bytes assumed for a call into uninstrumented code whose depth is unbounded or unknown,
    /// and for a function whose prologue is not understood (each use is a warning).
    pub blind_margin: u32,
    /// The firmware runs on a core with the hardware stack bound (cactus-sim's `mstackbound`,
    /// `cactus cc --stack-bound`): an entry check whose whole need is the function's first
    /// `sp` decrement becomes a table entry naming that decrement, with no instruction (the
    /// hardware traps there); every other site keeps its inline check. A function whose
    /// check rolled into its callers gets its entry too (the hardware may refuse any
    /// decrement), and every entry keeps the rolled effective size as its need, so a moved
    /// frame's block holds the callees rolled into it (docs/stack-checks.md).
    #[serde(default)]
    pub hardware_bound: bool,
    /// SenSmart's preemption by counted branches (`cactus cc --preempt-traps[=N]`,
    /// docs/sensmart.md): every backward branch of application code (units not marked
    /// [`crate::Unit::library`]) decrements the running task's branch counter, and every N-th
    /// enters the kernel. None: off.
    #[serde(default)]
    pub preempt_traps: Option<u32>,
    /// SenSmart's memory isolation (`cactus cc --isolate`, docs/sensmart.md "Memory
    /// isolation"): every store through a base other than `sp`/`tp`, every indirect jump and
    /// return, and every call of a C library writer of application code is checked against
    /// the running task's regions.
    #[serde(default)]
    pub isolate: bool,
    /// SenSmart's logical addressing in software (`cactus cc --logical-stack`,
    /// docs/sensmart.md "The software variant"): stack addresses leaving `sp` become logical,
    /// and every access through another base is translated (`crate::logical`). Runs first,
    /// on application units only; the kernel must be the `relocate` strategy's software
    /// window build.
    #[serde(default)]
    pub logical_stack: bool,
}

impl PassOptions {
    /// Whether any pass changes the assembly (checks, preempt-traps, isolate or logical-stack).
    pub fn instruments(&self) -> bool {
        self.mode != CheckMode::None
            || self.preempt_traps.is_some()
            || self.isolate
            || self.logical_stack
    }
}

/// The period N of `--preempt-traps` without a value (SenSmart: a kernel entry every 256
/// backward branches).
pub const DEFAULT_PREEMPT_PERIOD: u32 = 256;

impl Default for PassOptions {
    fn default() -> Self {
        PassOptions {
            mode: CheckMode::None,
            rolling: RollingRules::ALL,
            k_app: 128,
            k_lib: 128,
            whole_program: false,
            blind_margin: 1024,
            hardware_bound: false,
            preempt_traps: None,
            isolate: false,
            logical_stack: false,
        }
    }
}
