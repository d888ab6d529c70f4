//! Validation of one `[[task]]`: names, sources, priority, stack, times in whole ticks, fault
//! policy and argument.

use super::raw::RawTask;
use super::validate::{is_c_ident, Ctx};
use super::{FaultPolicy, KernelOptions, Task};
use crate::error::ManifestError;
use std::collections::BTreeMap;
use toml::Spanned;

/// Smallest stack the kernel accepts (guard plus a minimal frame area), bytes.
const MIN_STACK: i64 = 128;

/// A duration in ms that must be a whole number of ticks (at least `min_ticks`).
pub(super) fn ms(
    cx: &Ctx,
    v: &Spanned<i64>,
    key: &str,
    k: &KernelOptions,
    min_ticks: i64,
) -> Result<u32, ManifestError> {
    let ms = cx.int(v, key, 0..3_600_001)?;
    let ticks_x1000 = i64::from(ms) * i64::from(k.tick_hz);
    if ticks_x1000 % 1000 != 0 {
        return Err(cx.at(
            v,
            key,
            format!(
                "{ms} ms is not a whole number of ticks at tick_hz = {}",
                k.tick_hz
            ),
        ));
    }
    if ticks_x1000 / 1000 < min_ticks {
        return Err(cx.at(v, key, format!("{ms} ms must be at least one tick")));
    }
    Ok(ms)
}

pub(super) fn task(
    cx: &Ctx,
    i: usize,
    t: &RawTask,
    k: &KernelOptions,
    srp: bool,
) -> Result<Task, ManifestError> {
    let key = |field: &str| format!("task[{i}].{field}");
    let name = t.name.get_ref().clone();
    if !is_c_ident(&name) {
        return Err(cx.at(
            &t.name,
            &key("name"),
            format!("\"{name}\" is not a C identifier of at most 31 characters"),
        ));
    }
    if !is_c_ident(t.entry.get_ref()) {
        return Err(cx.at(
            &t.entry,
            &key("entry"),
            format!("\"{}\" is not a C function name", t.entry.get_ref()),
        ));
    }
    if t.sources.get_ref().is_empty() {
        return Err(cx.at(&t.sources, &key("sources"), "no C source given"));
    }
    let sources = t
        .sources
        .get_ref()
        .iter()
        .enumerate()
        .map(|(j, s)| cx.path(s, &key(&format!("sources[{j}]")), false))
        .collect::<Result<Vec<_>, _>>()?;
    let include = t
        .include
        .iter()
        .enumerate()
        .map(|(j, d)| cx.path(d, &key(&format!("include[{j}]")), true))
        .collect::<Result<Vec<_>, _>>()?;
    let priority = cx.int(&t.priority, &key("priority"), 0..32)? as u8;
    let stack = cx.int(
        &t.stack,
        &key("stack"),
        MIN_STACK..i64::from(k.usable_pool_bytes()) + 1,
    )?;
    let period_ms = t
        .period_ms
        .as_ref()
        .map(|v| ms(cx, v, &key("period_ms"), k, 1))
        .transpose()?;
    let deadline_ms = match (&t.deadline_ms, period_ms) {
        (None, _) => None,
        // Under SRP a sporadic job's deadline counts from each release (cactus_srp_release).
        (Some(v), None) if srp => Some(ms(cx, v, &key("deadline_ms"), k, 1)?),
        (Some(v), None) => {
            return Err(cx.at(
                v,
                &key("deadline_ms"),
                "a deadline needs a period_ms (or kernel.scheduler = \"srp\", where a job \
                 released by cactus_srp_release has one)",
            ))
        }
        (Some(v), Some(p)) => {
            let d = ms(cx, v, &key("deadline_ms"), k, 1)?;
            if d > p {
                return Err(cx.at(
                    v,
                    &key("deadline_ms"),
                    format!("{d} ms is longer than the period ({p} ms)"),
                ));
            }
            Some(d)
        }
    };
    let start_delay_ms = t
        .start_delay_ms
        .as_ref()
        .map(|v| ms(cx, v, &key("start_delay_ms"), k, 0))
        .transpose()?
        .unwrap_or(0);
    let on_fault = match t.on_fault.as_ref().map(|v| (v, v.get_ref().as_str())) {
        None | Some((_, "kill")) => FaultPolicy::Kill,
        Some((_, "restart")) => FaultPolicy::Restart,
        Some((_, "halt")) => FaultPolicy::Halt,
        Some((v, other)) => {
            return Err(cx.at(
                v,
                &key("on_fault"),
                format!("unknown policy \"{other}\"; known: \"kill\", \"restart\", \"halt\""),
            ))
        }
    };
    let start_suspended = match t.start.as_ref().map(|v| (v, v.get_ref().as_str())) {
        None | Some((_, "ready")) => false,
        Some((_, "suspended")) => true,
        Some((v, other)) => {
            return Err(cx.at(
                v,
                &key("start"),
                format!("unknown start \"{other}\"; known: \"ready\", \"suspended\""),
            ))
        }
    };
    let arg = match &t.arg {
        Some(v) => {
            let a = *v.get_ref();
            if !(i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(&a) {
                return Err(cx.at(v, &key("arg"), format!("{a} does not fit 32 bits")));
            }
            a
        }
        None => 0,
    };
    Ok(Task {
        name,
        sources,
        entry: t.entry.get_ref().clone(),
        priority,
        stack: stack.div_ceil(16) * 16,
        period_ms,
        deadline_ms,
        start_delay_ms,
        on_fault,
        arg,
        start_suspended,
        cflags: t.cflags.clone(),
        include,
        stack_calls: stack_calls(cx, &key, t)?,
        stack_recursion: stack_recursion(cx, &key, t)?,
    })
}

/// `stack_calls`: keys are C identifiers or `*`, every target a C identifier.
fn stack_calls(
    cx: &Ctx,
    key: &dyn Fn(&str) -> String,
    t: &RawTask,
) -> Result<BTreeMap<String, Vec<String>>, ManifestError> {
    let mut out = BTreeMap::new();
    for (caller, targets) in &t.stack_calls {
        let k = key(&format!("stack_calls.{caller}"));
        if caller != "*" && !is_c_ident(caller) {
            return Err(cx.at(
                targets,
                &k,
                format!("\"{caller}\" is neither a C function name nor \"*\""),
            ));
        }
        if targets.get_ref().is_empty() {
            return Err(cx.at(targets, &k, "no target given"));
        }
        let mut list = Vec::new();
        for target in targets.get_ref() {
            if !is_c_ident(target.get_ref()) {
                return Err(cx.at(
                    target,
                    &k,
                    format!("\"{}\" is not a C function name", target.get_ref()),
                ));
            }
            list.push(target.get_ref().clone());
        }
        out.insert(caller.clone(), list);
    }
    Ok(out)
}

/// `stack_recursion`: C identifiers to activation bounds in 1..=4096.
fn stack_recursion(
    cx: &Ctx,
    key: &dyn Fn(&str) -> String,
    t: &RawTask,
) -> Result<BTreeMap<String, u32>, ManifestError> {
    let mut out = BTreeMap::new();
    for (function, bound) in &t.stack_recursion {
        let k = key(&format!("stack_recursion.{function}"));
        if !is_c_ident(function) {
            return Err(cx.at(
                bound,
                &k,
                format!("\"{function}\" is not a C function name"),
            ));
        }
        out.insert(function.clone(), cx.int(bound, &k, 1..4097)?);
    }
    Ok(out)
}
