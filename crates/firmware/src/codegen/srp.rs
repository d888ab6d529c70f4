//! The generated C of an SRP firmware (docs/srp.md): the job table the dispatcher runs
//! (manifest task `i` is job `i`, `FW_TASK_<NAME>`), the resources with their ceilings
//! (`FW_RES_<NAME>`), the one kernel task (the dispatcher, whose stack is the shared stack),
//! and the end-of-run report of releases, misses, dispatches and preemptions.

use super::comment_safe;
use super::report::Counters;
use crate::manifest::{Manifest, Srp};
use std::fmt::Write;

/// Marker ids carrying the SRP counters at the end of a run: `MARKER_SRP` the jobs started,
/// `MARKER_SRP + 1` those that started nested on a running job (preemptions).
pub const MARKER_SRP: u32 = 0xCAC7_0400;

/// The kernel task name of the dispatcher (reports, traces): its stack is the shared stack.
pub const SRP_TASK_NAME: &str = "srp";

/// The macro naming resource `name` in the generated header (`FW_RES_<NAME>`, a
/// `cactus_srp_resource *`).
pub fn resource_macro(name: &str) -> String {
    format!("FW_RES_{}", name.to_ascii_uppercase())
}

/// The header's SRP part: the API and the resources.
pub(super) fn write_header(s: &mut String, srp: &Srp) -> std::fmt::Result {
    writeln!(
        s,
        "/* SRP scheduler (docs/srp.md): task ids are job ids for cactus_srp_release. */"
    )?;
    writeln!(s, "#include \"cactus/srp.h\"")?;
    writeln!(s, "#define FW_SRP 1")?;
    writeln!(s, "#define FW_SRP_STACK {}u\n", srp.stack)?;
    if srp.carousel {
        writeln!(
            s,
            "/* Every job is invoked through Carousel (kernel.carousel, docs/carousel.md): its \
             blocks,\n * laid out by cactus build, are cactus_carousel_tasks[FW_TASK_<NAME>]. */"
        )?;
        writeln!(s, "#include \"cactus/carousel.h\"")?;
        writeln!(s, "#include \"cactus/srp_carousel.h\"")?;
        writeln!(s, "#define FW_CAROUSEL 1")?;
        writeln!(
            s,
            "extern const carousel_task {}[];\n",
            crate::carousel_link::TABLE
        )?;
    }
    if !srp.resources.is_empty() {
        writeln!(
            s,
            "extern cactus_srp_resource fw_resources[{}];",
            srp.resources.len()
        )?;
        for (i, r) in srp.resources.iter().enumerate() {
            writeln!(
                s,
                "#define {} (&fw_resources[{i}]) /* ceiling {}: {} */",
                resource_macro(&r.name),
                r.ceiling,
                comment_safe(&r.users.join(", "))
            )?;
        }
        writeln!(s)?;
    }
    Ok(())
}

/// The job table, its state, the resources and the kernel's task table (the dispatcher).
pub(super) fn write_tables(s: &mut String, m: &Manifest, srp: &Srp) -> std::fmt::Result {
    if !srp.resources.is_empty() {
        let list: Vec<String> = srp
            .resources
            .iter()
            .map(|r| format!("CACTUS_SRP_RESOURCE({})", r.ceiling))
            .collect();
        writeln!(
            s,
            "cactus_srp_resource fw_resources[{}] = {{ {} }};\n",
            srp.resources.len(),
            list.join(", ")
        )?;
    }
    writeln!(s, "static const cactus_srp_job fw_jobs[FW_NTASKS] = {{")?;
    for (i, (t, level)) in m.tasks.iter().zip(&srp.levels).enumerate() {
        let mem = if srp.carousel {
            format!("&{}[{i}]", crate::carousel_link::TABLE)
        } else {
            "0".to_string()
        };
        let period = t.period_ms.map_or(0, |p| m.ms_to_ticks(p));
        // Under EDF a periodic job without deadline_ms has its period as deadline.
        let relative = if srp.edf {
            t.deadline_ms.or(t.period_ms)
        } else {
            t.deadline_ms
        };
        let deadline = relative.map_or(0, |d| m.ms_to_ticks(d));
        writeln!(
            s,
            "    {{ .name = \"{}\", .entry = {}, .arg = (void *)(uintptr_t){:#x}u, .period = {period}u, \
             .deadline = {deadline}u, .level = {}, .offset = {}u, .mem = {mem} }},",
            t.name,
            t.entry,
            t.arg as u32,
            level,
            m.ms_to_ticks(t.start_delay_ms)
        )?;
    }
    writeln!(s, "}};")?;
    writeln!(s, "static cactus_srp_job_state fw_job_state[FW_NTASKS];")?;
    writeln!(s, "static uint8_t fw_job_order[FW_NTASKS];")?;
    writeln!(
        s,
        "static const cactus_srp_config fw_srp = {{ fw_jobs, fw_job_state, fw_job_order, FW_NTASKS, {}, {} }};\n",
        u8::from(srp.edf),
        if srp.carousel { "cactus_srp_carousel" } else { "0" }
    )?;
    writeln!(
        s,
        "/* The one kernel task: the dispatcher; its stack ({} bytes, {}) is the shared stack. */",
        srp.stack,
        if srp.stack_given {
            "kernel.srp_stack"
        } else if srp.carousel {
            "computed from the preemption levels: Carousel jobs run on their own blocks"
        } else {
            "computed from the task budgets"
        }
    )?;
    writeln!(s, "static const cactus_task_desc fw_tasks[1] = {{")?;
    writeln!(
        s,
        "    {{ .name = \"{SRP_TASK_NAME}\", .entry = cactus_srp_main, .arg = (void *)&fw_srp,"
    )?;
    writeln!(
        s,
        "      .stack_size = FW_SRP_STACK, .prio = 1, .on_fault = CACTUS_ON_FAULT_HALT }},"
    )?;
    writeln!(s, "}};\n")
}

/// Where an SRP firmware's report finds its counters: the dispatcher's (which check the job
/// index themselves), then the jobs started and the nested starts.
pub(super) fn counters() -> Counters {
    Counters {
        releases: |i| format!("cactus_srp_releases({i})"),
        misses: |i| format!("cactus_srp_misses({i})"),
        checked: true,
        extra: vec![
            ("FW_MARKER_SRP".into(), "cactus_srp_dispatches()".into()),
            (
                "FW_MARKER_SRP + 1u".into(),
                "cactus_srp_preemptions()".into(),
            ),
        ],
        defines: vec![format!("#define FW_MARKER_SRP {MARKER_SRP:#010x}u")],
    }
}
