//! From the written manifest ([`super::raw`]) to a valid [`Manifest`]: every check names the
//! key path and the line of the offending value.

use super::raw::{RawManifest, RawPool, RawTask};
use super::{CheckMode, KernelOptions, Manifest, Pool, StackStrategy, SwitchMode, Target, Task};
use super::{ISOLATE_NEEDS_STATIC, ISOLATE_NEEDS_TASKS};
use crate::error::ManifestError;
use std::collections::BTreeSet;
use std::ops::Range;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// Most tasks a manifest may declare. The kernel compiled into a firmware has exactly as
/// many task slots as the manifest has tasks (`CACTUS_MAX_TASKS`,
/// [`super::Manifest::kernel_defines`]); the bound only makes a mistaken manifest fail early.
pub const MAX_TASKS: usize = 256;
/// Most pools a manifest may declare.
pub const MAX_POOLS: usize = 64;
/// Most bytes one pool may take (block size rounded up to 4, times the count).
pub const MAX_POOL_BYTES: u64 = 16 << 20;
/// The kernel's timer frequency (`PORT_TIMER_HZ`): `tick_hz` must divide it.
const TIMER_HZ: i64 = 10_000_000;

/// Validation context: the text (for line numbers) and the file name (for messages).
pub(super) struct Ctx<'a> {
    pub text: &'a str,
    pub file: String,
    pub dir: PathBuf,
}

impl Ctx<'_> {
    pub(super) fn line(&self, span: Range<usize>) -> usize {
        self.text[..span.start.min(self.text.len())]
            .matches('\n')
            .count()
            + 1
    }

    pub(super) fn err(
        &self,
        span: Option<Range<usize>>,
        key: &str,
        problem: impl Into<String>,
    ) -> ManifestError {
        ManifestError::Invalid {
            file: self.file.clone(),
            line: span.map(|s| self.line(s)),
            key: key.to_string(),
            problem: problem.into(),
        }
    }

    pub(super) fn at<T>(
        &self,
        v: &Spanned<T>,
        key: &str,
        problem: impl Into<String>,
    ) -> ManifestError {
        self.err(Some(v.span()), key, problem)
    }

    /// An integer in `range`, else an error naming it.
    pub(super) fn int(
        &self,
        v: &Spanned<i64>,
        key: &str,
        range: Range<i64>,
    ) -> Result<u32, ManifestError> {
        let x = *v.get_ref();
        if !range.contains(&x) {
            let hi = range.end - 1;
            return Err(self.at(
                v,
                key,
                format!("{x} is out of range ({}..={hi})", range.start),
            ));
        }
        Ok(x as u32)
    }

    pub(super) fn path(
        &self,
        v: &Spanned<String>,
        key: &str,
        want_dir: bool,
    ) -> Result<PathBuf, ManifestError> {
        let p = self.dir.join(v.get_ref());
        let ok = if want_dir { p.is_dir() } else { p.is_file() };
        if !ok {
            let what = if want_dir { "directory" } else { "file" };
            return Err(self.at(v, key, format!("no such {what}: {}", p.display())));
        }
        Ok(p)
    }
}

/// A C identifier of at most 31 bytes (the trace device reads 31 bytes of a task name).
pub(super) fn is_c_ident(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && s.len() <= 31
}

/// A serde key path without toml's private `Spanned` segments ("." for the root becomes "").
fn clean_key(path: &str) -> String {
    if path == "." {
        return String::new();
    }
    path.split('.')
        .filter(|seg| !seg.starts_with("$__serde_spanned"))
        .collect::<Vec<_>>()
        .join(".")
}

/// Parses and validates `text` read from `path`.
pub(super) fn parse(text: &str, path: &Path) -> Result<Manifest, ManifestError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let cx = Ctx {
        text,
        file: path.display().to_string(),
        dir,
    };
    let raw: RawManifest = serde_path_to_error::deserialize(toml::Deserializer::new(text))
        .map_err(|e| {
            let key = clean_key(&e.path().to_string());
            let inner = e.into_inner();
            cx.err(inner.span(), &key, inner.message().trim_end().to_string())
        })?;

    let name = raw.firmware.name.get_ref().clone();
    if !is_c_ident(&name) {
        return Err(cx.at(
            &raw.firmware.name,
            "firmware.name",
            format!("\"{name}\" is not a C identifier of at most 31 characters"),
        ));
    }
    let init = match &raw.firmware.init {
        Some(i) if !is_c_ident(i.get_ref()) => {
            return Err(cx.at(i, "firmware.init", "not a C function name"))
        }
        i => i.as_ref().map(|i| i.get_ref().clone()),
    };
    let include = raw
        .firmware
        .include
        .iter()
        .enumerate()
        .map(|(i, d)| cx.path(d, &format!("firmware.include[{i}]"), true))
        .collect::<Result<Vec<_>, _>>()?;
    let kernel = kernel_options(&cx, &raw)?;

    if raw.task.is_empty() {
        return Err(cx.err(None, "task", "the manifest has no [[task]]"));
    }
    if raw.task.len() > MAX_TASKS {
        return Err(cx.at(
            &raw.task[MAX_TASKS].name,
            "task",
            format!(
                "{} tasks; a firmware has at most {MAX_TASKS}",
                raw.task.len()
            ),
        ));
    }
    let srp = super::srp::wants_srp(&cx, &raw)?;
    if let (true, Some(v)) = (srp, raw.kernel.isolate.as_ref()) {
        if *v.get_ref() {
            return Err(cx.at(v, "kernel.isolate", ISOLATE_NEEDS_TASKS.to_string()));
        }
    }
    let mut names = BTreeSet::new();
    let mut tasks = Vec::new();
    for (i, t) in raw.task.iter().enumerate() {
        let task = super::task::task(&cx, i, t, &kernel, srp)?;
        // Names become C enumerators in upper case (FW_TASK_<NAME>): compare them so.
        if !names.insert(task.name.to_ascii_uppercase()) {
            return Err(cx.at(
                &t.name,
                &format!("task[{i}].name"),
                format!(
                    "task name \"{}\" is used twice (names are compared ignoring case)",
                    task.name
                ),
            ));
        }
        check_shared_sources(&cx, &tasks, &task, i, t)?;
        tasks.push(task);
    }
    let mut interrupts: Vec<super::Interrupt> = Vec::new();
    for (i, raw_irq) in raw.interrupt.iter().enumerate() {
        let irq = super::interrupt::interrupt(&cx, i, raw_irq)?;
        if interrupts.iter().any(|other| other.source == irq.source) {
            return Err(cx.at(
                &raw_irq.source,
                &format!("interrupt[{i}].source"),
                "this source already has a handler (one handler per source)",
            ));
        }
        interrupts.push(irq);
    }
    let (timers, timer_task) = super::timer::timers(&cx, &raw, &kernel)?;
    let pools = pools(&cx, &raw.pool)?;
    let srp = super::srp::srp(&cx, &raw, &kernel, &tasks)?;
    let manifest = Manifest {
        path: path.to_path_buf(),
        text: text.to_string(),
        name,
        init,
        cflags: raw.firmware.cflags.clone(),
        include,
        kernel,
        tasks,
        interrupts,
        timers,
        timer_task,
        pools,
        srp,
    };
    check_pool(&manifest).map_err(|p| cx.err(None, "task", p))?;
    Ok(manifest)
}

fn kernel_options(cx: &Ctx, raw: &RawManifest) -> Result<KernelOptions, ManifestError> {
    let k = &raw.kernel;
    let stack = match &k.stack {
        Some(s) => StackStrategy::parse(s.get_ref()).map_err(|p| cx.at(s, "kernel.stack", p))?,
        None => StackStrategy::Static,
    };
    let target = match &k.target {
        Some(t) => Target::parse(t.get_ref()).map_err(|p| cx.at(t, "kernel.target", p))?,
        None => Target::Sim,
    };
    let tick_hz = match &k.tick_hz {
        Some(v) => {
            let hz = cx.int(v, "kernel.tick_hz", 1..100_001)?;
            if TIMER_HZ % i64::from(hz) != 0 {
                return Err(cx.at(
                    v,
                    "kernel.tick_hz",
                    format!(
                        "{hz} Hz does not divide the kernel's 10 MHz timer, so ticks would drift"
                    ),
                ));
            }
            hz
        }
        None => 1000,
    };
    let slice_ticks = match &k.slice_ticks {
        Some(v) => cx.int(v, "kernel.slice_ticks", 1..1_000_001)?,
        None => 1,
    };
    let pool_kib = k
        .pool_kib
        .as_ref()
        .map(|v| cx.int(v, "kernel.pool_kib", 4..16_385))
        .transpose()?;
    let ram_kib = k
        .ram_kib
        .as_ref()
        .map(|v| cx.int(v, "kernel.ram_kib", 256..131_073))
        .transpose()?;
    let kstack = match &k.kstack {
        Some(v) => {
            let n = cx.int(v, "kernel.kstack", 256..65_537)?;
            if n % 16 != 0 {
                return Err(cx.at(
                    v,
                    "kernel.kstack",
                    format!("{n} is not a multiple of 16 (256, 272, ..., 65536)"),
                ));
            }
            Some(n)
        }
        None => None,
    };
    let checks = match &k.checks {
        Some(c) => super::parse_checks(c.get_ref()).map_err(|p| cx.at(c, "kernel.checks", p))?,
        None => CheckMode::None,
    };
    if let Err(problem) = check_strategy_checks(stack, checks) {
        return Err(match (&k.checks, &k.stack) {
            (Some(c), _) => cx.at(c, "kernel.checks", problem),
            (None, Some(s)) => cx.at(s, "kernel.checks", problem),
            (None, None) => cx.err(None, "kernel.checks", problem),
        });
    }
    let mtss_page = match &k.mtss_page {
        Some(v) => {
            let page = cx.int(v, "kernel.mtss_page", 32..1025)?;
            if !page.is_power_of_two() {
                return Err(cx.at(
                    v,
                    "kernel.mtss_page",
                    format!("{page} is not a power of two (32, 64, ..., 1024)"),
                ));
            }
            Some(page)
        }
        None => None,
    };
    let mtss_worst_case = k.mtss_worst_case.as_ref().is_some_and(|v| *v.get_ref());
    for (set, key, allowed) in [
        (
            k.mtss_page.as_ref().map(|v| v.span()),
            "kernel.mtss_page",
            stack.has_pages(),
        ),
        (
            k.mtss_worst_case.as_ref().map(|v| v.span()),
            "kernel.mtss_worst_case",
            stack == StackStrategy::Mtss,
        ),
    ] {
        if set.is_some() && !allowed {
            return Err(cx.err(
                set,
                key,
                format!(
                    "only the mtss stack strategy has pages; this manifest uses \"{}\"",
                    stack.name()
                ),
            ));
        }
    }
    let stacklet_min = match &k.stacklet_min {
        Some(v) => {
            let n = cx.int(v, "kernel.stacklet_min", 64..4097)?;
            if n % 16 != 0 {
                return Err(cx.at(
                    v,
                    "kernel.stacklet_min",
                    format!("{n} is not a multiple of 16 (64, 80, ..., 4096)"),
                ));
            }
            Some(n)
        }
        None => None,
    };
    for (set, key) in [
        (
            k.stacklet_min.as_ref().map(|v| v.span()),
            "kernel.stacklet_min",
        ),
        (
            k.stacklet_cache.as_ref().map(|v| v.span()),
            "kernel.stacklet_cache",
        ),
        (
            k.stacklet_learn.as_ref().map(|v| v.span()),
            "kernel.stacklet_learn",
        ),
    ] {
        if set.is_some() && !stack.has_stacklets() {
            return Err(cx.err(
                set,
                key,
                format!(
                    "only the segmented and mtss+split stack strategies have stacklets; this \
                     manifest uses \"{}\"",
                    stack.name()
                ),
            ));
        }
    }
    let window = match &k.window {
        Some(v) => {
            let Some(w) = super::StackWindow::parse(v.get_ref()) else {
                return Err(cx.at(
                    v,
                    "kernel.window",
                    format!(
                        "\"{}\" is not a stack window: \"hw\" or \"sw\"",
                        v.get_ref()
                    ),
                ));
            };
            if stack != StackStrategy::Relocate {
                return Err(cx.at(
                    v,
                    "kernel.window",
                    format!(
                        "only the relocate stack strategy has a stack window; this manifest uses \"{}\"",
                        stack.name()
                    ),
                ));
            }
            if w == super::StackWindow::Sw && checks == CheckMode::None {
                return Err(cx.at(
                    v,
                    "kernel.window",
                    super::WINDOW_SW_NEEDS_CHECKS.to_string(),
                ));
            }
            w
        }
        None => super::StackWindow::Hw,
    };
    if stack == StackStrategy::Relocate && target != Target::Sim && window == super::StackWindow::Hw
    {
        return Err(cx.err(
            k.stack.as_ref().map(|v| v.span()),
            "kernel.stack",
            super::RELOCATE_NEEDS_SIM.to_string(),
        ));
    }
    let copier = match &k.copier {
        Some(v) if stack != StackStrategy::Relocate => {
            return Err(cx.at(
                v,
                "kernel.copier",
                format!(
                    "only the relocate stack strategy copies stacks; this manifest uses \"{}\"",
                    stack.name()
                ),
            ));
        }
        Some(v) if *v.get_ref() && target != Target::Sim => {
            return Err(cx.at(v, "kernel.copier", super::COPIER_NEEDS_SIM.to_string()));
        }
        Some(v) => Some(*v.get_ref()),
        None => None,
    };
    let stack_bound = k.stack_bound.as_ref().is_some_and(|v| *v.get_ref());
    if stack_bound && target != Target::Sim {
        return Err(cx.err(
            k.stack_bound.as_ref().map(|v| v.span()),
            "kernel.stack_bound",
            super::STACK_BOUND_NEEDS_SIM.to_string(),
        ));
    }
    let stacklet_pool = match &k.stacklet_pool {
        Some(v) if stack != StackStrategy::MtssSplit => {
            return Err(cx.at(
                v,
                "kernel.stacklet_pool",
                format!(
                    "only the mtss+split stack strategy has a stacklet pool (the segmented \
                     heap is the whole stack pool); this manifest uses \"{}\"",
                    stack.name()
                ),
            ));
        }
        Some(v) => Some(cx.int(v, "kernel.stacklet_pool", 256..524_289)?),
        None => None,
    };
    let switch_check = match &k.switch_check {
        Some(v) if !*v.get_ref() && stack != StackStrategy::Static => {
            return Err(cx.at(
                v,
                "kernel.switch_check",
                format!(
                    "only the static stack strategy has a switch-time check to turn off; this \
                     manifest uses \"{}\"",
                    stack.name()
                ),
            ));
        }
        Some(v) => *v.get_ref(),
        None => true,
    };
    let preempt_traps = match &k.preempt_traps {
        Some(v) => Some(cx.int(v, "kernel.preempt_traps", 1..1_000_001)?),
        None => None,
    };
    let switch = match &k.switch {
        Some(v) => SwitchMode::parse(v.get_ref()).map_err(|p| cx.at(v, "kernel.switch", p))?,
        None => SwitchMode::Full,
    };
    if let (true, Some(v)) = (switch.has_table(), &k.switch) {
        if preempt_traps.is_some() {
            return Err(cx.at(
                v,
                "kernel.switch",
                super::CCS_EXCLUDES_PREEMPT_TRAPS.to_string(),
            ));
        }
    }
    if let (true, Some(v)) = (switch.defers(), &k.switch) {
        if target != Target::Sim {
            let why = if switch == SwitchMode::Rmcs {
                super::RMCS_NEEDS_SIM
            } else {
                super::CCS_HW_NEEDS_SIM
            };
            return Err(cx.at(v, "kernel.switch", why.to_string()));
        }
    }
    let reg_pool = match &k.reg_pool {
        Some(v) if switch != SwitchMode::Rmcs => {
            return Err(cx.at(
                v,
                "kernel.reg_pool",
                "only kernel.switch = \"rmcs\" has a register pool".to_string(),
            ));
        }
        Some(v) => {
            let pct = cx.int(v, "kernel.reg_pool", 25..76)?;
            if pct % 25 != 0 {
                return Err(cx.at(
                    v,
                    "kernel.reg_pool",
                    format!("{pct} is not a pool size (25, 50 or 75 % of the register file)"),
                ));
            }
            Some(pct as u8)
        }
        None => None,
    };
    let switch_budget = match &k.switch_budget {
        Some(v) if !switch.defers() => {
            return Err(cx.at(
                v,
                "kernel.switch_budget",
                "only kernel.switch = \"ccs-hw\" or \"rmcs\" defers preemptions".to_string(),
            ));
        }
        Some(v) => Some(cx.int(v, "kernel.switch_budget", 1..1_000_001)?),
        None => None,
    };
    let mut seeds = [None, None];
    for (slot, (v, key)) in seeds.iter_mut().zip([
        (&k.switch_poison, "kernel.switch_poison"),
        (&k.switch_mutate, "kernel.switch_mutate"),
    ]) {
        if let Some(v) = v {
            if !switch.has_table() {
                return Err(cx.at(v, key, super::ONLY_CCS_POISONS.to_string()));
            }
            *slot = Some(cx.int(v, key, 0..(1 << 32))?);
        }
    }
    let [switch_poison, switch_mutate] = seeds;
    let variants = match &k.variants {
        Some(v) => {
            let mut names: Vec<String> = Vec::new();
            for name in v.get_ref() {
                if crate::kernel_units::variant_sources(name).is_none() {
                    let known: Vec<&str> = crate::kernel_units::VARIANTS
                        .iter()
                        .map(|v| v.name)
                        .collect();
                    return Err(cx.at(
                        v,
                        "kernel.variants",
                        format!(
                            "no kernel variant \"{name}\" (kernel/variants/); known: {}",
                            known.join(", ")
                        ),
                    ));
                }
                if names.contains(name) {
                    return Err(cx.at(
                        v,
                        "kernel.variants",
                        format!("the kernel variant \"{name}\" is listed twice"),
                    ));
                }
                if crate::kernel_units::variant_needs_static(name) && stack != StackStrategy::Static
                {
                    return Err(cx.at(
                        v,
                        "kernel.variants",
                        format!(
                            "the kernel variant \"{name}\" is for the static stack strategy \
                             only (another strategy needs the trap-time stack handling it \
                             replaces); this manifest uses \"{}\"",
                            stack.name()
                        ),
                    ));
                }
                names.push(name.clone());
            }
            names
        }
        None => Vec::new(),
    };
    let isolate = match &k.isolate {
        Some(v) if *v.get_ref() && stack != StackStrategy::Static => {
            return Err(cx.at(v, "kernel.isolate", ISOLATE_NEEDS_STATIC.to_string()));
        }
        Some(v) => *v.get_ref(),
        None => false,
    };
    Ok(KernelOptions {
        stack,
        tick_hz,
        slice_ticks,
        target,
        pool_kib,
        ram_kib,
        kstack,
        checks,
        mtss_page,
        mtss_worst_case,
        stacklet_min,
        stacklet_cache: k.stacklet_cache.as_ref().map(|v| *v.get_ref()),
        stacklet_learn: k.stacklet_learn.as_ref().map(|v| *v.get_ref()),
        stack_bound,
        stacklet_pool,
        switch_check,
        preempt_traps,
        switch,
        switch_poison,
        switch_mutate,
        switch_budget,
        reg_pool,
        isolate,
        window,
        copier,
        variants,
    })
}

/// The `[[pool]]` tables: names C identifiers unique ignoring case (they become `FW_POOL_<NAME>`),
/// block and count in range, each pool at most [`MAX_POOL_BYTES`].
fn pools(cx: &Ctx, raw: &[RawPool]) -> Result<Vec<Pool>, ManifestError> {
    if raw.len() > MAX_POOLS {
        return Err(cx.at(
            &raw[MAX_POOLS].name,
            "pool",
            format!("{} pools; a firmware has at most {MAX_POOLS}", raw.len()),
        ));
    }
    let mut out: Vec<Pool> = Vec::new();
    for (i, p) in raw.iter().enumerate() {
        let name = p.name.get_ref().clone();
        if !is_c_ident(&name) {
            return Err(cx.at(
                &p.name,
                &format!("pool[{i}].name"),
                format!("\"{name}\" is not a C identifier of at most 31 characters"),
            ));
        }
        if let Some(j) = out.iter().position(|o| o.name.eq_ignore_ascii_case(&name)) {
            return Err(cx.at(
                &p.name,
                &format!("pool[{i}].name"),
                format!(
                    "pool name \"{name}\" is used twice (pool[{j}]; names are compared ignoring \
                     case)"
                ),
            ));
        }
        let block = cx.int(&p.block, &format!("pool[{i}].block"), 1..65_537)?;
        let count = cx.int(&p.count, &format!("pool[{i}].count"), 1..65_537)?;
        let pool = Pool { name, block, count };
        let bytes = u64::from(pool.block_bytes()) * u64::from(count);
        if bytes > MAX_POOL_BYTES {
            return Err(cx.at(
                &p.count,
                &format!("pool[{i}].count"),
                format!(
                    "{count} blocks of {} bytes take {bytes} bytes; a pool takes at most \
                     {MAX_POOL_BYTES}",
                    pool.block_bytes()
                ),
            ));
        }
        out.push(pool);
    }
    Ok(out)
}

/// A source listed by several tasks is compiled once: their flags for it must agree.
fn check_shared_sources(
    cx: &Ctx,
    earlier: &[Task],
    task: &Task,
    i: usize,
    raw: &RawTask,
) -> Result<(), ManifestError> {
    for (j, src) in task.sources.iter().enumerate() {
        let other = earlier.iter().find(|o| {
            o.sources.contains(src) && (o.cflags != task.cflags || o.include != task.include)
        });
        if let Some(o) = other {
            return Err(cx.at(
                &raw.sources.get_ref()[j],
                &format!("task[{i}].sources[{j}]"),
                format!(
                    "{} is also a source of task \"{}\", with other cflags or include \
                     directories; a shared source is compiled once, so they must agree",
                    src.display(),
                    o.name
                ),
            ));
        }
    }
    Ok(())
}

/// Checks that the stack strategy can work with the check mode: `mtss` moves frames at failed
/// checks, so every frame must be checked and its relocatability known (`checks = "mtss"`, or
/// `"split"`: the same checks with the call slow path).
pub(super) fn check_strategy_checks(stack: StackStrategy, checks: CheckMode) -> Result<(), String> {
    if stack.moves_frames() && !checks.relocates() {
        let got = checks.name();
        return Err(format!(
            "the {} stack strategy needs checks = \"mtss\" or \"split\" (it moves frames at \
             their stack checks), not \"{got}\"",
            stack.name()
        ));
    }
    Ok(())
}

/// Checks that every task's stack fits the strategy's pool together.
pub(super) fn check_pool(m: &Manifest) -> Result<(), String> {
    let stacks: Vec<u32> = match &m.srp {
        Some(srp) => vec![srp.stack],
        None => m
            .tasks
            .iter()
            .map(|t| t.stack)
            .chain(m.timer_task.map(|t| t.stack))
            .collect(),
    };
    let total: u64 = stacks
        .into_iter()
        .map(|stack| u64::from(m.kernel.stack.region_bytes(stack, m.kernel.page())))
        .sum();
    let pool = m.kernel.usable_pool_bytes();
    if total > u64::from(pool) {
        let heap = if m.kernel.stack == StackStrategy::MtssSplit {
            format!(
                " after its {}-byte stacklet heap (kernel.stacklet_pool)",
                StackStrategy::heap_bytes(m.kernel.stacklet_pool_bytes(), m.kernel.page())
            )
        } else {
            String::new()
        };
        return Err(format!(
            "the task stacks total {total} bytes; the {} strategy's pool holds {pool}{heap} \
             (a larger pool: kernel.pool_kib)",
            m.kernel.stack.name()
        ));
    }
    if m.kernel.stack.has_stacklets() {
        // kernel/stack/stacklets.h: a stacklet names its chain's next entry in a 16-bit tag of
        // 8-byte units (STACKLET_REACH), so the pool must span less than 512 KiB.
        let pool_bytes = m.kernel.pool_kib.unwrap_or(StackStrategy::DEFAULT_POOL_KIB) * 1024;
        if pool_bytes > 8 * 65534 - 64 {
            return Err(format!(
                "the {} strategy's stack pool must be below 512 KiB (its stacklets name their \
                 chain in 16 bits); kernel.pool_kib = {} is larger",
                m.kernel.stack.name(),
                pool_bytes / 1024
            ));
        }
    }
    Ok(())
}
