//! The end-of-run report of a generated firmware, for every scheduler: the per-task counter
//! accessors (`cactus_fw_releases`, `cactus_fw_deadline_misses`) and `cactus_fw_finish`, which
//! commits the counters as trace markers, then pool high waters and the oracle's verdict, and
//! exits. A scheduler only says where its counters are ([`Counters`]).

use super::pool_object;
use crate::manifest::Manifest;
use std::fmt::Write;

/// Where a scheduler keeps what the report commits.
pub(super) struct Counters {
    /// C expression of the releases of the task whose index is the C expression given.
    pub(super) releases: fn(&str) -> String,
    /// C expression of its deadline misses.
    pub(super) misses: fn(&str) -> String,
    /// The expressions check the index themselves (else the accessors guard it).
    pub(super) checked: bool,
    /// Scheduler-wide markers committed after the per-task ones: (marker id, value), C.
    pub(super) extra: Vec<(String, String)>,
    /// Lines emitted before the report (the extra markers' ids).
    pub(super) defines: Vec<String>,
}

impl Counters {
    /// The preemptive scheduler's: the periodic wrappers' `fw_releases` and `fw_misses`.
    pub(super) fn periodic() -> Counters {
        Counters {
            releases: |i| format!("fw_releases[{i}]"),
            misses: |i| format!("fw_misses[{i}]"),
            checked: false,
            extra: Vec::new(),
            defines: Vec::new(),
        }
    }
}

/// Writes the accessors and `cactus_fw_finish`.
pub(super) fn write(s: &mut String, m: &Manifest, c: &Counters) -> std::fmt::Result {
    for line in &c.defines {
        writeln!(s, "{line}")?;
    }
    if !c.defines.is_empty() {
        writeln!(s)?;
    }
    let accessor = |s: &mut String, name: &str, value: String| {
        let body = if c.checked {
            value
        } else {
            format!("task >= 0 && task < FW_NTASKS ? {value} : 0")
        };
        writeln!(s, "uint32_t {name}(int task)\n{{\n    return {body};\n}}\n")
    };
    accessor(s, "cactus_fw_releases", (c.releases)("task"))?;
    accessor(s, "cactus_fw_deadline_misses", (c.misses)("task"))?;
    writeln!(s, "void cactus_fw_finish(uint32_t code)\n{{")?;
    writeln!(
        s,
        "    cactus_irq_save(); /* nothing else runs from here to the exit */"
    )?;
    writeln!(s, "    for (int i = 0; i < FW_NTASKS; i++) {{")?;
    writeln!(
        s,
        "        cactus_marker(FW_MARKER_RELEASES + (uint32_t)i, {});",
        (c.releases)("i")
    )?;
    writeln!(
        s,
        "        cactus_marker(FW_MARKER_MISSES + (uint32_t)i, {});",
        (c.misses)("i")
    )?;
    writeln!(s, "    }}")?;
    for (id, value) in &c.extra {
        writeln!(s, "    cactus_marker({id}, {value});")?;
    }
    for (i, p) in m.pools.iter().enumerate() {
        writeln!(
            s,
            "    cactus_marker(FW_MARKER_POOL_HWM + {i}u, cactus_pool_high_water(&{}));",
            pool_object(&p.name)
        )?;
    }
    writeln!(s, "    uint32_t violations;")?;
    writeln!(
        s,
        "    if (cactus_oracle_violations(&violations) == 0 && violations != 0 && code == 0) {{"
    )?;
    writeln!(
        s,
        "        kprintf(\"%s: %u ownership-oracle violations\\n\", FW_NAME, violations);"
    )?;
    writeln!(s, "        code = 1;\n    }}")?;
    writeln!(s, "    cactus_exit(code);\n}}\n")
}
