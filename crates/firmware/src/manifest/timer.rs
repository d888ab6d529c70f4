//! Validation of the software timers: every `[[timer]]` (name, period, callback, flags) and
//! the timer task's `[kernel]` keys (`timer_task_prio`, `timer_task_stack`).

use super::raw::RawManifest;
use super::task::ms;
use super::validate::{is_c_ident, Ctx};
use super::{KernelOptions, Timer, TimerTask};
use crate::error::ManifestError;
use std::collections::BTreeSet;

/// Smallest timer-task stack, bytes (as a task's).
const MIN_STACK: i64 = 128;

/// The manifest's timers and its timer task (None when it has neither a `[[timer]]` nor
/// `kernel.timer_task_prio`).
pub(super) fn timers(
    cx: &Ctx,
    raw: &RawManifest,
    k: &KernelOptions,
) -> Result<(Vec<Timer>, Option<TimerTask>), ManifestError> {
    let mut names = BTreeSet::new();
    let mut timers = Vec::new();
    for (i, t) in raw.timer.iter().enumerate() {
        let key = |field: &str| format!("timer[{i}].{field}");
        let name = t.name.get_ref().clone();
        if !is_c_ident(&name) {
            return Err(cx.at(
                &t.name,
                &key("name"),
                format!("\"{name}\" is not a C identifier of at most 31 characters"),
            ));
        }
        if !names.insert(name.to_ascii_uppercase()) {
            return Err(cx.at(
                &t.name,
                &key("name"),
                format!("timer name \"{name}\" is used twice (names are compared ignoring case)"),
            ));
        }
        if !is_c_ident(t.callback.get_ref()) {
            return Err(cx.at(
                &t.callback,
                &key("callback"),
                format!("\"{}\" is not a C function name", t.callback.get_ref()),
            ));
        }
        let period_ms = ms(cx, &t.period_ms, &key("period_ms"), k, 1)?;
        timers.push(Timer {
            name,
            period_ms,
            callback: t.callback.get_ref().clone(),
            periodic: t.periodic.as_ref().is_some_and(|v| *v.get_ref()),
            autostart: t.autostart.as_ref().is_some_and(|v| *v.get_ref()),
        });
    }
    let rk = &raw.kernel;
    let priority = rk
        .timer_task_prio
        .as_ref()
        .map(|v| cx.int(v, "kernel.timer_task_prio", 0..32))
        .transpose()?;
    let stack = match &rk.timer_task_stack {
        Some(v) => {
            if timers.is_empty() && priority.is_none() {
                return Err(cx.at(
                    v,
                    "kernel.timer_task_stack",
                    "there is no timer task: declare a [[timer]] or set kernel.timer_task_prio",
                ));
            }
            let n = cx.int(
                v,
                "kernel.timer_task_stack",
                MIN_STACK..i64::from(k.usable_pool_bytes()) + 1,
            )?;
            n.div_ceil(16) * 16
        }
        None => TimerTask::DEFAULT_STACK,
    };
    let task = (!timers.is_empty() || priority.is_some()).then(|| TimerTask {
        priority: priority.map_or(TimerTask::DEFAULT_PRIO, |p| p as u8),
        stack,
    });
    Ok((timers, task))
}
