//! Timer interrupt latency on cactus-sim: `cargo run --release -p cactus-sim --example
//! irq_latency -- PROG.elf...`. Runs each ELF (mcu profile, 10^10 cycle limit) and prints the
//! distribution of cycles from MTIP set to trap entry (`Machine::timer_interrupt_latency`),
//! per program and over all of them.

use cactus_sim::{Machine, MachineConfig, Profile};
use std::collections::BTreeMap;

/// `count min p50 p90 p99 max mean` of a latency histogram.
fn summary(h: &BTreeMap<u64, u64>) -> String {
    let n: u64 = h.values().sum();
    if n == 0 {
        return "no timer interrupts".to_string();
    }
    let pct = |p: u64| {
        let rank = (n * p).div_ceil(100).max(1);
        let mut seen = 0;
        for (&lat, &c) in h {
            seen += c;
            if seen >= rank {
                return lat;
            }
        }
        0
    };
    let sum: u128 = h.iter().map(|(&l, &c)| u128::from(l) * u128::from(c)).sum();
    format!(
        "n={n} min={} p50={} p90={} p99={} max={} mean={:.1}",
        h.keys().next().copied().unwrap_or(0),
        pct(50),
        pct(90),
        pct(99),
        h.keys().next_back().copied().unwrap_or(0),
        sum as f64 / n as f64
    )
}

fn main() {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        eprintln!("usage: irq_latency PROG.elf...");
        std::process::exit(2);
    }
    let mut all: BTreeMap<u64, u64> = BTreeMap::new();
    for path in &paths {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{path}: {e}");
                std::process::exit(2);
            }
        };
        let mut cfg = MachineConfig::new(Profile::default_mcu());
        cfg.max_cycles = Some(10_000_000_000);
        let mut m = Machine::new(cfg);
        if let Err(e) = m.load_elf(&bytes) {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
        let outcome = m.run();
        let h = m.timer_interrupt_latency();
        for (&l, &c) in h {
            *all.entry(l).or_insert(0) += c;
        }
        let end = match outcome {
            cactus_sim::RunOutcome::Exited { code } => format!("exit {code}"),
            other => format!("{other:?}").chars().take(40).collect(),
        };
        println!("{path}: {end}: {}", summary(h));
    }
    println!("all: {}", summary(&all));
}
