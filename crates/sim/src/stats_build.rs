//! Assembles [`Stats`] from the machine's counters: block counts × executions, the dynamic
//! counters (taken branches, trace accesses, slow-path region accesses) and the profile's
//! energy tables.

use crate::cost::{CostClass, NUM_CLASSES};
use crate::hart::Mode;
use crate::machine::Machine;
use crate::stats::{class_stats, RegionStats, Stats};

impl Machine {
    /// Final per-class counts (branches split by outcome, trace accesses separated).
    pub(crate) fn class_counts(&self) -> [u64; NUM_CLASSES] {
        let mut c = self.cache.class_counts();
        for (acc, e) in c.iter_mut().zip(self.extra_counts.iter()) {
            *acc += e;
        }
        let idx = |k: CostClass| k as usize;
        // Every taken branch and trace access was also counted statically (as a not-taken
        // branch, a load or a store); move them to their own classes.
        c[idx(CostClass::BranchNotTaken)] =
            c[idx(CostClass::BranchNotTaken)].saturating_sub(self.taken);
        c[idx(CostClass::BranchTaken)] += self.taken;
        c[idx(CostClass::Load)] = c[idx(CostClass::Load)].saturating_sub(self.bus.trace_loads);
        c[idx(CostClass::Store)] = c[idx(CostClass::Store)].saturating_sub(self.bus.trace_stores);
        c[idx(CostClass::Trace)] += self.bus.trace_loads + self.bus.trace_stores;
        c
    }

    /// Statistics so far. Deterministic for a given ELF, profile and options.
    pub fn stats(&self) -> Stats {
        let counts = self.class_counts();
        let classes = class_stats(&counts, self.profile.energy());
        let mem_ops = counts[CostClass::Load as usize]
            + counts[CostClass::Store as usize]
            + counts[CostClass::Amo as usize];
        let others: u64 = self.bus.mem.others.iter().map(|r| r.slow_accesses).sum();
        let ram_accesses = mem_ops.saturating_sub(others + self.bus.device_accesses);
        let mut regions = vec![RegionStats {
            name: self.bus.mem.ram.spec.name.clone(),
            accesses: ram_accesses,
            energy_nj: ram_accesses as f64 * self.bus.mem.ram.spec.energy / 1000.0,
        }];
        for r in &self.bus.mem.others {
            regions.push(RegionStats {
                name: r.spec.name.clone(),
                accesses: r.slow_accesses,
                energy_nj: r.slow_accesses as f64 * r.spec.energy / 1000.0,
            });
        }
        let energy_nj = classes.iter().map(|c| c.energy_nj).sum::<f64>()
            + regions.iter().map(|r| r.energy_nj).sum::<f64>();
        let (cycles, instret) = (self.hart.cycle, self.hart.instret);
        let mut modes = self.mode_stats;
        let open = &mut modes[usize::from(self.hart.mode == Mode::Machine)];
        open.cycles += cycles.wrapping_sub(self.mode_since.0);
        open.instructions += instret - self.mode_since.1;
        Stats {
            profile: self.profile.name().to_string(),
            instructions: instret,
            cycles,
            seconds: cycles as f64 / self.profile.clock_hz() as f64,
            energy_nj,
            classes,
            regions,
            device_accesses: self.bus.device_accesses,
            machine_mode: modes[1],
            user_mode: modes[0],
            traps_by_cause: self.traps_by_cause.clone(),
            interrupts: self.interrupts,
            plic_claims: self.bus.plic.claims,
            uart_input_left: self.bus.uart.input_remaining() as u64,
            sleep_cycles: self.sleep_cycles,
            oracle_violations: self.bus.oracle.violations,
            violations: self.bus.violations.clone(),
            tasks: self.bus.tasks.snapshot(cycles, instret),
            markers: self.bus.markers,
            memory_system: self.bus.ext.as_ref().map(|e| {
                let mut r = e.report();
                let f = self.cache.fetch_totals();
                r.spm_fetches += f.spm;
                r.external_fetches += f.external;
                r.external_transactions += f.external;
                r.external_cycles += f.bus_cycles;
                r
            }),
        }
    }
}
