//! The statistics as a readable table (the default `--stats table`, printed on stderr).

use super::firmware::exit_name;
use cactus_sim::{cause_name, MemSysStats, Stats, TaskStats, NOBODY};
use cactus_sweep::table::energy;
use std::fmt::Write;

/// Renders `stats` as an aligned, multi-line table. Classes, regions, traps and tasks with
/// nothing to show are left out; every other figure is always present. The per-task rows are
/// left out when `tasks` is false (a manifest run: its firmware table has them, once).
pub fn render(stats: &Stats, tasks: bool) -> String {
    let mut out = String::new();
    let _ = write_table(&mut out, stats, tasks);
    out
}

fn write_table(out: &mut String, s: &Stats, tasks: bool) -> std::fmt::Result {
    writeln!(out, "── cactus-sim statistics (profile {}) ──", s.profile)?;
    writeln!(out, "  instructions       {:>14}", s.instructions)?;
    writeln!(
        out,
        "  cycles             {:>14}   ({} simulated)",
        s.cycles,
        seconds(s.seconds)
    )?;
    writeln!(
        out,
        "  CPI (awake)        {:>14}",
        cpi(s.cycles.saturating_sub(s.sleep_cycles), s.instructions)
    )?;
    writeln!(out, "  energy             {:>14}", energy(s.energy_nj))?;
    if s.sleep_cycles > 0 {
        writeln!(out, "  sleep cycles (wfi) {:>14}", s.sleep_cycles)?;
    }
    writeln!(out, "  by class                    count          energy")?;
    for c in s.classes.iter().filter(|c| c.count > 0) {
        writeln!(
            out,
            "    {:<18} {:>12} {:>15}",
            c.class,
            c.count,
            energy(c.energy_nj)
        )?;
    }
    writeln!(out, "  by memory region         accesses          energy")?;
    for r in &s.regions {
        writeln!(
            out,
            "    {:<18} {:>12} {:>15}",
            r.name,
            r.accesses,
            energy(r.energy_nj)
        )?;
    }
    writeln!(out, "    {:<18} {:>12}", "devices", s.device_accesses)?;
    if let Some(m) = &s.memory_system {
        write_memory_system(out, m)?;
    }
    writeln!(out, "  by mode                    cycles    instructions")?;
    for (name, m) in [("machine", &s.machine_mode), ("user", &s.user_mode)] {
        writeln!(
            out,
            "    {:<18} {:>12} {:>15}",
            name, m.cycles, m.instructions
        )?;
    }
    if s.traps_by_cause.is_empty() {
        writeln!(out, "  traps              {:>14}", "none")?;
    } else {
        writeln!(out, "  traps by cause                              count")?;
        for (cause, count) in &s.traps_by_cause {
            let label = format!("{cause:#x} {}", cause_name(*cause));
            writeln!(out, "    {label:<40} {count:>7}")?;
        }
    }
    writeln!(out, "  interrupts         {:>14}", s.interrupts)?;
    if s.plic_claims > 0 {
        writeln!(out, "  plic claims        {:>14}", s.plic_claims)?;
    }
    if s.uart_input_left > 0 {
        writeln!(out, "  uart input unread  {:>14}", s.uart_input_left)?;
    }
    writeln!(out, "  oracle violations  {:>14}", s.oracle_violations)?;
    for v in s.violations.iter().take(5) {
        writeln!(
            out,
            "    pc {:#010x}: {}-byte store at {:#010x} by {} into {}",
            v.pc,
            v.width,
            v.addr,
            task_label(v.task, &v.task_name),
            task_label(v.owner, &v.owner_name)
        )?;
    }
    if s.violations.len() > 5 {
        writeln!(out, "    ... (all listed in --stats json)")?;
    }
    if s.markers > 0 {
        writeln!(out, "  markers            {:>14}", s.markers)?;
    }
    if tasks && !s.tasks.is_empty() {
        write_tasks(out, &s.tasks)?;
        writeln!(
            out,
            "         energy outside any task (start-up, idle) {}",
            energy(s.energy_outside_tasks_nj)
        )?;
    }
    Ok(())
}

/// The memory-system rows (Carousel, external bus, DMA, caches; docs/profiles.md).
fn write_memory_system(out: &mut String, m: &MemSysStats) -> std::fmt::Result {
    writeln!(
        out,
        "  memory system               fetches               data"
    )?;
    writeln!(
        out,
        "    {:<18} {:>12} {:>18}",
        "SPM (tag hits)", m.spm_fetches, m.spm_data
    )?;
    writeln!(
        out,
        "    {:<18} {:>12} {:>18}",
        "external", m.external_fetches, m.external_data
    )?;
    writeln!(
        out,
        "    {:<18} {:>12} {:>18}",
        "bus transactions",
        m.external_transactions,
        format!("{} cycles", m.external_cycles)
    )?;
    if m.dma_copies > 0 {
        writeln!(
            out,
            "    {:<18} {:>12} {:>18}",
            "DMA copies",
            m.dma_copies,
            format!("{} bytes", m.dma_bytes)
        )?;
        writeln!(
            out,
            "    {:<18} {:>12} {:>18}",
            "DMA transactions",
            m.dma_transactions,
            format!("{} cycles", m.dma_cycles)
        )?;
    }
    for (name, c) in [("icache", &m.icache), ("dcache", &m.dcache)] {
        if let Some(c) = c {
            writeln!(
                out,
                "    {:<18} {:>12} {:>18}",
                format!("{name} hit/miss"),
                format!("{}/{}", c.hits, c.misses),
                format!("{} write-backs", c.writebacks)
            )?;
        }
    }
    Ok(())
}

fn write_tasks(out: &mut String, tasks: &[TaskStats]) -> std::fmt::Result {
    writeln!(
        out,
        "  tasks  {:>10} {:<12} {:>4} {:>9} {:>12} {:>10} {:>12} {:>15} {:>5} {:>9} {:>9}",
        "id",
        "name",
        "prio",
        "switches",
        "cycles",
        "energy µJ",
        "instructions",
        "stack hwm/budget",
        "ovf",
        "lent",
        "borrowed"
    )?;
    for t in tasks {
        // No STACK_HWM sample: unknown, not 0.
        let hwm = match t.hwm_samples {
            0 => "?".to_string(),
            _ => t.stack_hwm.to_string(),
        };
        let stack = format!("{hwm}/{}", t.stack_budget);
        writeln!(
            out,
            "         {:>10} {:<12} {:>4} {:>9} {:>12} {:>10.3} {:>12} {:>15} {:>5} {:>9} {:>9}{}",
            t.id,
            t.name,
            t.priority,
            t.switches,
            t.cycles,
            t.energy_nj / 1000.0,
            t.instructions,
            stack,
            t.overflows,
            t.lent_bytes,
            t.borrowed_bytes,
            t.exit_reason
                .map_or_else(String::new, |r| format!("  exited: {}", exit_name(r)))
        )?;
    }
    Ok(())
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
        for row in [
            "SPM (tag hits)                7                  0",
            "bus transactions              3         150 cycles",
            "DMA copies                    2          256 bytes",
            "DMA transactions              4         260 cycles",
            "dcache hit/miss             5/2      1 write-backs",
        ] {
            assert!(t.contains(row), "{row:?} missing from\n{t}");
        }
        assert!(!t.contains("icache"));
    }

    #[test]
    fn units_scale_with_the_value() {
        assert_eq!(seconds(1.0e-8), "10.0 ns");
        assert_eq!(seconds(0.5), "500.000 ms");
        assert_eq!(cpi(10, 0), "-");
    }
}
