//! Assembles [`Stats`] from the machine's counters: block counts × executions, the dynamic
//! counters (taken branches, trace accesses, slow-path region accesses) and the profile's
//! energy tables.

use crate::cost::{CostClass, COST_CLASSES, NUM_CLASSES};
use crate::events::NOBODY;
use crate::hart::Mode;
use crate::machine::Machine;
use crate::stats::{ClassStats, RegionStats, Stats};

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

    /// The run's energy so far in nJ, computed in one pass over the blocks (one
    /// multiply-add each) instead of per class: the same linear function of the counters as
    /// [`Machine::stats`]'s `energy_nj`, equal to it up to floating-point rounding.
    pub(crate) fn energy_now_nj(&self) -> f64 {
        let p = &self.energy_prices;
        let idx = |k: CostClass| k as usize;
        // Everything but the live blocks, as signed figures: the corrections below apply to
        // counts that are partly in the blocks.
        let mut c = [0.0f64; NUM_CLASSES];
        for (k, acc) in c.iter_mut().enumerate() {
            *acc = (self.cache.flushed_counts[k] + self.extra_counts[k]) as f64;
        }
        let taken = self.taken as f64;
        c[idx(CostClass::BranchNotTaken)] -= taken;
        c[idx(CostClass::BranchTaken)] += taken;
        c[idx(CostClass::Load)] -= self.bus.trace_loads as f64;
        c[idx(CostClass::Store)] -= self.bus.trace_stores as f64;
        let others: u64 = self.bus.mem.others.iter().map(|r| r.slow_accesses).sum();
        // Region 0's accesses other than the live blocks' (their share is in their static
        // energy).
        let ram = c[idx(CostClass::Load)] + c[idx(CostClass::Store)] + c[idx(CostClass::Amo)]
            - (others + self.bus.device_accesses) as f64;
        let classes: f64 = COST_CLASSES
            .iter()
            .map(|&k| c[idx(k)] * p.class_pj(k))
            .sum();
        let regions: f64 = ram * p.regions_pj[0]
            + self
                .bus
                .mem
                .others
                .iter()
                .zip(&p.regions_pj[1..])
                .map(|(r, &pj)| r.slow_accesses as f64 * pj)
                .sum::<f64>();
        (classes + regions + self.cache.live_energy_pj()) / 1000.0
    }

    /// Closes the energy interval of a committed TASK_SWITCH (the store that committed it
    /// ended its block, so every counter is up to date at the instruction boundary): the
    /// energy since the previous switch is charged to the task that ran.
    #[cold]
    #[inline(never)]
    pub(crate) fn close_energy_interval(&mut self) {
        let now = self.energy_now_nj();
        let next = self.bus.tasks.running();
        let left = self.bus.tasks.energy.close(now, next);
        if !self.bus.record_events || left == NOBODY {
            return;
        }
        // Stamped like the switch that ends the interval (the last event recorded).
        let Some(switch) = self.bus.events.last() else {
            return;
        };
        let event = crate::events::Event {
            kind: crate::events::EventKind::TaskEnergy {
                task: left,
                energy_nj: self.bus.tasks.energy.energy_nj(left, now),
            },
            ..switch.clone()
        };
        self.bus.events.push(event);
    }

    /// Statistics so far. Deterministic for a given ELF, profile and options.
    pub fn stats(&self) -> Stats {
        let counts = self.class_counts();
        let prices = &self.energy_prices;
        let classes: Vec<ClassStats> = COST_CLASSES
            .iter()
            .map(|&c| ClassStats {
                class: c.key(),
                count: counts[c as usize],
                energy_nj: prices.class_nj(c, counts[c as usize]),
            })
            .collect();
        let mem_ops = counts[CostClass::Load as usize]
            + counts[CostClass::Store as usize]
            + counts[CostClass::Amo as usize];
        let others: u64 = self.bus.mem.others.iter().map(|r| r.slow_accesses).sum();
        let ram_accesses = mem_ops.saturating_sub(others + self.bus.device_accesses);
        let accesses = std::iter::once(ram_accesses)
            .chain(self.bus.mem.others.iter().map(|r| r.slow_accesses));
        let names = std::iter::once(&self.bus.mem.ram).chain(&self.bus.mem.others);
        let regions: Vec<RegionStats> = names
            .zip(accesses.zip(&prices.regions_pj))
            .map(|(r, (accesses, &pj))| RegionStats {
                name: r.spec.name.clone(),
                accesses,
                energy_nj: accesses as f64 * pj / 1000.0,
            })
            .collect();
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
            // The open interval ends at the total itself: without task switches the energy
            // outside any task is `energy_nj` exactly, however the run was sliced.
            tasks: self
                .bus
                .tasks
                .snapshot(cycles, instret, energy_nj, &self.bus.loans.deepest()),
            energy_outside_tasks_nj: self.bus.tasks.energy.energy_nj(NOBODY, energy_nj),
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
            switch_regs: self.switch_regs.as_ref().and_then(|s| s.report()),
            reg_pages: self.reg_pages.as_ref().map(|p| p.report()),
        }
    }
}
