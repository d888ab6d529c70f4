//! The manifest as written: serde types that mirror the TOML one to one, with spans on every
//! value validation may complain about. Unknown keys are rejected here.

use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// The whole document.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawManifest {
    pub firmware: RawFirmware,
    #[serde(default)]
    pub kernel: RawKernel,
    #[serde(default)]
    pub task: Vec<RawTask>,
    #[serde(default)]
    pub interrupt: Vec<RawInterrupt>,
    #[serde(default)]
    pub timer: Vec<RawTimer>,
    #[serde(default)]
    pub pool: Vec<RawPool>,
    #[serde(default)]
    pub resource: Vec<RawResource>,
}

/// One `[[resource]]` (SRP scheduler only).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawResource {
    pub name: Spanned<String>,
    pub users: Spanned<Vec<Spanned<String>>>,
}

/// `[firmware]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawFirmware {
    pub name: Spanned<String>,
    #[serde(default)]
    pub init: Option<Spanned<String>>,
    #[serde(default)]
    pub cflags: Vec<String>,
    #[serde(default)]
    pub include: Vec<Spanned<String>>,
}

/// `[kernel]` (every key optional).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawKernel {
    #[serde(default)]
    pub stack: Option<Spanned<String>>,
    #[serde(default)]
    pub tick_hz: Option<Spanned<i64>>,
    #[serde(default)]
    pub slice_ticks: Option<Spanned<i64>>,
    #[serde(default)]
    pub target: Option<Spanned<String>>,
    #[serde(default)]
    pub pool_kib: Option<Spanned<i64>>,
    #[serde(default)]
    pub ram_kib: Option<Spanned<i64>>,
    #[serde(default)]
    pub kstack: Option<Spanned<i64>>,
    #[serde(default)]
    pub checks: Option<Spanned<String>>,
    #[serde(default)]
    pub mtss_page: Option<Spanned<i64>>,
    #[serde(default)]
    pub mtss_worst_case: Option<Spanned<bool>>,
    #[serde(default)]
    pub stacklet_min: Option<Spanned<i64>>,
    #[serde(default)]
    pub stacklet_cache: Option<Spanned<bool>>,
    #[serde(default)]
    pub stacklet_learn: Option<Spanned<bool>>,
    #[serde(default)]
    pub stack_bound: Option<Spanned<bool>>,
    /// `kernel.preempt_traps`: the counted-branch period N (docs/sensmart.md).
    pub preempt_traps: Option<Spanned<i64>>,
    /// `kernel.isolate`: the isolate pass and its kernel (docs/sensmart.md).
    #[serde(default)]
    pub isolate: Option<Spanned<bool>>,
    /// `kernel.window`: the relocate strategy's translation, "hw" or "sw" (docs/sensmart.md).
    #[serde(default)]
    pub window: Option<Spanned<String>>,
    /// `kernel.copier`: whether the relocate strategy copies with cactus-sim's copy engine.
    #[serde(default)]
    pub copier: Option<Spanned<bool>>,
    #[serde(default)]
    pub stacklet_pool: Option<Spanned<i64>>,
    #[serde(default)]
    pub timer_task_prio: Option<Spanned<i64>>,
    #[serde(default)]
    pub timer_task_stack: Option<Spanned<i64>>,
    pub switch_check: Option<Spanned<bool>>,
    /// `kernel.variants`: link-time kernel variants (`kernel/variants/<name>.c`).
    #[serde(default)]
    pub variants: Option<Spanned<Vec<String>>>,
    /// `kernel.switch`: `full`, `ccs-sw`, `ccs-hw` or `rmcs` (docs/ccs.md).
    #[serde(default)]
    pub switch: Option<Spanned<String>>,
    /// `kernel.switch_poison`: poison mode's seed (ccs-sw and ccs-hw only).
    #[serde(default)]
    pub switch_poison: Option<Spanned<i64>>,
    /// `kernel.switch_mutate`: the mutation test's seed (ccs-sw and ccs-hw only).
    #[serde(default)]
    pub switch_mutate: Option<Spanned<i64>>,
    /// `kernel.switch_budget`: ccs-hw's and rmcs's deferral budget in cycles.
    #[serde(default)]
    pub switch_budget: Option<Spanned<i64>>,
    /// `kernel.reg_pool`: rmcs's register pool, percent of the register file (25, 50, 75).
    #[serde(default)]
    pub reg_pool: Option<Spanned<i64>>,
    #[serde(default)]
    pub scheduler: Option<Spanned<String>>,
    #[serde(default)]
    pub srp_stack: Option<Spanned<i64>>,
    #[serde(default)]
    pub srp_policy: Option<Spanned<String>>,
    /// `kernel.carousel`: SRP jobs invoked through Carousel (docs/carousel.md).
    #[serde(default)]
    pub carousel: Option<Spanned<bool>>,
}

/// One `[[pool]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawPool {
    pub name: Spanned<String>,
    pub block: Spanned<i64>,
    pub count: Spanned<i64>,
}

/// One `[[task]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawTask {
    pub name: Spanned<String>,
    pub sources: Spanned<Vec<Spanned<String>>>,
    pub entry: Spanned<String>,
    pub priority: Spanned<i64>,
    pub stack: Spanned<i64>,
    #[serde(default)]
    pub period_ms: Option<Spanned<i64>>,
    #[serde(default)]
    pub deadline_ms: Option<Spanned<i64>>,
    #[serde(default)]
    pub start_delay_ms: Option<Spanned<i64>>,
    #[serde(default)]
    pub on_fault: Option<Spanned<String>>,
    #[serde(default)]
    pub arg: Option<Spanned<i64>>,
    #[serde(default)]
    pub start: Option<Spanned<String>>,
    #[serde(default)]
    pub cflags: Vec<String>,
    #[serde(default)]
    pub include: Vec<Spanned<String>>,
    #[serde(default)]
    pub stack_calls: BTreeMap<String, Spanned<Vec<Spanned<String>>>>,
    #[serde(default)]
    pub stack_recursion: BTreeMap<String, Spanned<i64>>,
}

/// One `[[interrupt]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawInterrupt {
    pub source: Spanned<RawSource>,
    pub handler: Spanned<String>,
    #[serde(default)]
    pub priority: Option<Spanned<i64>>,
    #[serde(default)]
    pub direct: Option<Spanned<bool>>,
}

/// An interrupt source as written: a PLIC source number or a name (`"software"`).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(crate) enum RawSource {
    Id(i64),
    Name(String),
}

/// One `[[timer]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawTimer {
    pub name: Spanned<String>,
    pub period_ms: Spanned<i64>,
    pub callback: Spanned<String>,
    #[serde(default)]
    pub periodic: Option<Spanned<bool>>,
    #[serde(default)]
    pub autostart: Option<Spanned<bool>>,
}
