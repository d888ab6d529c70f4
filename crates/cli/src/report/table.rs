//! The statistics as a readable table (the default `--stats table`, printed on stderr).

use super::firmware::exit_name;
use super::text_table::{Align, TextTable};
use cactus_sim::{cause_name, MemSysStats, Stats, SwitchRegStats, TaskStats, NOBODY};
use cactus_sweep::table::energy;

/// Renders `stats` as an aligned, multi-line table. Classes, regions, traps and tasks with
/// nothing to show are left out; every other figure is always present. The per-task rows are
/// left out when `tasks` is false (a manifest run: its firmware table has them, once).
pub fn render(stats: &Stats, tasks: bool) -> String {
    let mut out = format!("── cactus-sim statistics (profile {}) ──\n", stats.profile);
    out += &figures(stats).render();
    if tasks && !stats.tasks.is_empty() {
        out += &task_table(&stats.tasks).render();
        out += &format!(
            "         energy outside any task (start-up, idle) {}\n",
            energy(stats.energy_outside_tasks_nj)
        );
    }
    out
}

/// The figures as one table of three columns (a label, then two right-aligned figures): the
/// headline figures, then each section's title row (`by class  count  energy`) and its rows,
/// indented two more.
fn figures(s: &Stats) -> TextTable {
    let mut t = TextTable::headless(2, &[Align::Left, Align::Right, Align::Right]);
    t.row(["instructions".to_string(), s.instructions.to_string()]);
    t.row_aligned([
        ("cycles", None),
        (&s.cycles.to_string(), None),
        (
            &format!("({} simulated)", seconds(s.seconds)),
            Some(Align::Left),
        ),
    ]);
    t.row([
        "CPI (awake)".to_string(),
        cpi(s.cycles.saturating_sub(s.sleep_cycles), s.instructions),
    ]);
    t.row(["energy".to_string(), energy(s.energy_nj)]);
    if s.sleep_cycles > 0 {
        t.row(["sleep cycles (wfi)".to_string(), s.sleep_cycles.to_string()]);
    }
    t.row(["by class", "count", "energy"]);
    for c in s.classes.iter().filter(|c| c.count > 0) {
        t.row([sub(c.class), c.count.to_string(), energy(c.energy_nj)]);
    }
    t.row(["by memory region", "accesses", "energy"]);
    for r in &s.regions {
        t.row([sub(&r.name), r.accesses.to_string(), energy(r.energy_nj)]);
    }
    t.row([sub("devices"), s.device_accesses.to_string()]);
    if let Some(m) = &s.memory_system {
        memory_system(&mut t, m);
    }
    if let Some(w) = &s.switch_regs {
        switch_regs(&mut t, w);
    }
    if let Some(p) = &s.reg_pages {
        t.row([
            "register pages (rmcs)".to_string(),
            format!("pool {}", p.pool_pages),
            format!("{} remaps", p.remaps),
        ]);
    }
    t.row(["by mode", "cycles", "instructions"]);
    for (name, m) in [("machine", &s.machine_mode), ("user", &s.user_mode)] {
        t.row([sub(name), m.cycles.to_string(), m.instructions.to_string()]);
    }
    if s.traps_by_cause.is_empty() {
        t.row(["traps", "none"]);
    } else {
        // A table of its own (the causes' names are long), under the figures' title column.
        let mut traps = TextTable::new(
            0,
            &[("traps by cause", Align::Left), ("count", Align::Right)],
        );
        for (cause, count) in &s.traps_by_cause {
            traps.row([
                sub(&format!("{cause:#x} {}", cause_name(*cause))),
                count.to_string(),
            ]);
        }
        for line in traps.render().lines() {
            t.line(line);
        }
    }
    t.row(["interrupts".to_string(), s.interrupts.to_string()]);
    if s.plic_claims > 0 {
        t.row(["plic claims".to_string(), s.plic_claims.to_string()]);
    }
    if s.uart_input_left > 0 {
        t.row([
            "uart input unread".to_string(),
            s.uart_input_left.to_string(),
        ]);
    }
    t.row([
        "oracle violations".to_string(),
        s.oracle_violations.to_string(),
    ]);
    for v in s.violations.iter().take(5) {
        t.line(format!(
            "  pc {:#010x}: {}-byte store at {:#010x} by {} into {}",
            v.pc,
            v.width,
            v.addr,
            task_label(v.task, &v.task_name),
            task_label(v.owner, &v.owner_name)
        ));
    }
    if s.violations.len() > 5 {
        t.line("  ... (all listed in --stats json)");
    }
    if s.markers > 0 {
        t.row(["markers".to_string(), s.markers.to_string()]);
    }
    t
}

/// A section's row label: two spaces in from its title.
fn sub(label: &str) -> String {
    format!("  {label}")
}

/// The memory-system rows (Carousel, external bus, DMA, caches; docs/profiles.md).
fn memory_system(t: &mut TextTable, m: &MemSysStats) {
    t.row(["memory system", "fetches", "data"]);
    t.row([
        sub("SPM (tag hits)"),
        m.spm_fetches.to_string(),
        m.spm_data.to_string(),
    ]);
    t.row([
        sub("external"),
        m.external_fetches.to_string(),
        m.external_data.to_string(),
    ]);
    t.row([
        sub("bus transactions"),
        m.external_transactions.to_string(),
        format!("{} cycles", m.external_cycles),
    ]);
    if m.dma_copies > 0 {
        t.row([
            sub("DMA copies"),
            m.dma_copies.to_string(),
            format!("{} bytes", m.dma_bytes),
        ]);
        t.row([
            sub("DMA transactions"),
            m.dma_transactions.to_string(),
            format!("{} cycles", m.dma_cycles),
        ]);
    }
    for (name, c) in [("icache", &m.icache), ("dcache", &m.dcache)] {
        if let Some(c) = c {
            t.row([
                sub(&format!("{name} hit/miss")),
                format!("{}/{}", c.hits, c.misses),
                format!("{} write-backs", c.writebacks),
            ]);
        }
    }
}

/// The switch-register rows (ccs-hw; docs/simulator-design.md "Switch-register extension").
fn switch_regs(t: &mut TextTable, w: &SwitchRegStats) {
    t.row([
        "switch registers".to_string(),
        format!("{} ranges", w.records),
        format!("budget {}", w.budget),
    ]);
    t.row([
        sub("timer interrupts / in a range"),
        w.timer_interrupts.to_string(),
        w.matched.to_string(),
    ]);
    t.row([
        sub("deferred / budget expiries"),
        w.deferred.to_string(),
        w.budget_expiries.to_string(),
    ]);
    t.row([
        sub("deferral worst / avg cycles"),
        w.worst_deferral_cycles.to_string(),
        format!("{:.1}", w.avg_deferral_cycles()),
    ]);
}

/// The simulator's per-task table (a run without a manifest): under a `tasks` title column,
/// one row per task, and how the task ended in a last, untitled column.
fn task_table(tasks: &[TaskStats]) -> TextTable {
    use Align::{Left, Right};
    let mut t = TextTable::new(
        2,
        &[
            ("tasks", Left),
            ("id", Right),
            ("name", Left),
            ("prio", Right),
            ("switches", Right),
            ("cycles", Right),
            ("energy µJ", Right),
            ("instructions", Right),
            ("stack hwm/budget", Right),
            ("ovf", Right),
            ("lent", Right),
            ("borrowed", Right),
            ("", Left),
        ],
    );
    for x in tasks {
        // No STACK_HWM sample: unknown, not 0.
        let hwm = match x.hwm_samples {
            0 => "?".to_string(),
            _ => x.stack_hwm.to_string(),
        };
        t.row([
            String::new(),
            x.id.to_string(),
            x.name.clone(),
            x.priority.to_string(),
            x.switches.to_string(),
            x.cycles.to_string(),
            format!("{:.3}", x.energy_nj / 1000.0),
            x.instructions.to_string(),
            format!("{hwm}/{}", x.stack_budget),
            x.overflows.to_string(),
            x.lent_bytes.to_string(),
            x.borrowed_bytes.to_string(),
            x.exit_reason
                .map_or_else(String::new, |r| format!("exited: {}", exit_name(r))),
        ]);
    }
    t
}

fn task_label(id: u32, name: &str) -> String {
    match (id, name) {
        (NOBODY, _) => "nobody".to_string(),
        (id, "") => format!("task {id}"),
        (id, name) => format!("task {id} ({name})"),
    }
}

/// Cycles per instruction with three decimals, or "-" before the first instruction.
fn cpi(cycles: u64, instructions: u64) -> String {
    if instructions == 0 {
        return "-".to_string();
    }
    format!("{:.3}", cycles as f64 / instructions as f64)
}

/// Simulated time in ns, µs, ms or s.
fn seconds(s: f64) -> String {
    if s < 1e-6 {
        format!("{:.1} ns", s * 1e9)
    } else if s < 1e-3 {
        format!("{:.3} µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.3} ms", s * 1e3)
    } else {
        format!("{s:.3} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cactus_sim::{ClassStats, ModeStats, RegionStats};
    use std::collections::BTreeMap;

    fn sample() -> Stats {
        Stats {
            profile: "mcu".to_string(),
            instructions: 1000,
            cycles: 2500,
            seconds: 2.5e-5,
            energy_nj: 12_345.0,
            classes: vec![
                ClassStats {
                    class: "alu",
                    count: 900,
                    energy_nj: 10.8,
                },
                ClassStats {
                    class: "div",
                    count: 0,
                    energy_nj: 0.0,
                },
            ],
            regions: vec![RegionStats {
                name: "ram".into(),
                accesses: 100,
                energy_nj: 0.6,
            }],
            device_accesses: 18,
            machine_mode: ModeStats {
                cycles: 2000,
                instructions: 800,
            },
            user_mode: ModeStats {
                cycles: 500,
                instructions: 200,
            },
            traps_by_cause: BTreeMap::from([(2, 1), (0x8000_0007, 3)]),
            interrupts: 3,
            plic_claims: 0,
            uart_input_left: 0,
            sleep_cycles: 0,
            oracle_violations: 0,
            violations: vec![],
            tasks: vec![TaskStats {
                id: 1,
                name: "blink".into(),
                switches: 4,
                energy_nj: 2500.0,
                ..Default::default()
            }],
            energy_outside_tasks_nj: 9845.0,
            markers: 0,
            memory_system: None,
            switch_regs: None,
            reg_pages: None,
        }
    }

    #[test]
    fn the_table_shows_every_headline_figure() {
        let text = render(&sample(), true);
        for expected in [
            "profile mcu",
            "1000",
            "2500",
            "25.000 µs",
            "CPI",
            "2.500",
            "12.345 µJ",
            "alu",
            "ram",
            "machine",
            "user",
            "illegal instruction",
            "machine timer interrupt",
            "interrupts",
            "oracle violations",
            "blink",
            "energy µJ",
            "2.500",
            "energy outside any task (start-up, idle) 9.845 µJ",
        ] {
            assert!(
                text.contains(expected),
                "{expected:?} missing from:\n{text}"
            );
        }
        assert!(!text.contains("div"), "zero classes are left out:\n{text}");
    }

    #[test]
    fn memory_system_rows_appear_only_with_the_extensions() {
        let mut s = sample();
        assert!(!render(&s, true).contains("memory system"));
        s.memory_system = Some(MemSysStats {
            spm_fetches: 7,
            external_data: 3,
            external_transactions: 3,
            external_cycles: 150,
            dma_copies: 2,
            dma_bytes: 256,
            dma_transactions: 4,
            dma_cycles: 260,
            dcache: Some(cactus_sim::CacheStats {
                hits: 5,
                misses: 2,
                writebacks: 1,
            }),
            ..MemSysStats::default()
        });
        let t = render(&s, true);
        for (label, figures) in [
            ("SPM (tag hits)", "7 0"),
            ("bus transactions", "3 150 cycles"),
            ("DMA copies", "2 256 bytes"),
            ("DMA transactions", "4 260 cycles"),
            ("dcache hit/miss", "5/2 1 write-backs"),
        ] {
            assert_eq!(figures_of(&t, label), figures, "{label}:\n{t}");
        }
        assert!(!t.contains("icache"));
        assert_eq!(
            figures_of(&t, "memory system"),
            "fetches data",
            "the section's title row:\n{t}"
        );
    }

    #[test]
    fn switch_register_rows_appear_only_with_the_extension() {
        let mut s = sample();
        assert!(!render(&s, true).contains("switch registers"));
        s.switch_regs = Some(SwitchRegStats {
            records: 270,
            budget: 60,
            timer_interrupts: 40,
            matched: 30,
            deferred: 25,
            budget_expiries: 2,
            cancelled: 1,
            deferral_cycles: 480,
            worst_deferral_cycles: 61,
            worst_matched_deferral_cycles: 58,
        });
        let t = render(&s, true);
        assert_eq!(figures_of(&t, "switch registers"), "270 ranges budget 60");
        assert_eq!(figures_of(&t, "deferred / budget expiries"), "25 2");
        // 480 cycles over the 24 deferrals that ended in a taken interrupt.
        assert_eq!(figures_of(&t, "deferral worst / avg cycles"), "61 20.0");
    }

    /// The whitespace-separated fields after `label` on the line that starts with it (after
    /// the indent), joined by one space.
    fn figures_of(text: &str, label: &str) -> String {
        let line = text
            .lines()
            .find_map(|l| l.trim_start().strip_prefix(label))
            .unwrap_or_else(|| panic!("no {label:?} row in\n{text}"));
        line.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn every_figure_stands_in_its_column() {
        let mut s = sample();
        s.sleep_cycles = 40;
        let t = render(&s, true);
        // The label column is as wide as the widest label; each figure column right-aligned.
        let lines: Vec<&str> = t.lines().collect();
        let end_of = |label: &str, figure: &str| {
            let l = lines
                .iter()
                .find(|l| l.trim_start().starts_with(label))
                .unwrap_or_else(|| panic!("no {label:?} in\n{t}"));
            let at = l.find(&format!(" {figure}")).unwrap();
            l[..at].chars().count() + 1 + figure.chars().count()
        };
        let count_end = end_of("by class", "count");
        assert_eq!(end_of("instructions", "1000"), count_end, "\n{t}");
        assert_eq!(end_of("sleep cycles (wfi)", "40"), count_end, "\n{t}");
        assert_eq!(end_of("alu", "900"), count_end, "\n{t}");
        assert_eq!(end_of("machine", "2000"), count_end, "\n{t}");
        let energy_end = end_of("by class", "energy");
        assert_eq!(end_of("alu", "10.800 nJ"), energy_end, "\n{t}");
        assert_eq!(
            end_of("traps by cause", "count"),
            end_of("0x80000007 machine timer interrupt", "3"),
            "\n{t}"
        );
        assert_eq!(figures_of(&t, "cycles"), "2500 (25.000 µs simulated)");
        assert!(lines
            .iter()
            .all(|l| l.starts_with("  ") || l.starts_with("──")));
        assert!(lines.iter().all(|l| !l.ends_with(' ')), "\n{t}");
        assert!(lines.iter().any(|l| l.starts_with("    alu ")), "\n{t}");
        // The tasks table: a title column, then the task's figures in the header's order.
        assert_eq!(
            figures_of(&t, "tasks"),
            "id name prio switches cycles energy µJ instructions stack hwm/budget ovf lent \
             borrowed"
        );
        let blink = lines.iter().find(|l| l.contains("blink")).unwrap();
        assert_eq!(
            blink.split_whitespace().collect::<Vec<_>>(),
            ["1", "blink", "0", "4", "0", "2.500", "0", "?/0", "0", "0", "0"]
        );
    }

    #[test]
    fn units_scale_with_the_value() {
        assert_eq!(seconds(1.0e-8), "10.0 ns");
        assert_eq!(seconds(0.5), "500.000 ms");
        assert_eq!(cpi(10, 0), "-");
    }
}
