//! The likely cause of a fault or a limit, in words, for the line after the report: what most
//! often leads there and what to change.

use cactus_sim::{FaultKind, FaultReport};

/// mcause of the access faults and misaligned accesses a stack check's `lw` at `tp - 4` can
/// raise.
const ACCESS_CAUSES: [u32; 4] = [4, 5, 6, 7];

/// A sentence naming the likely cause of `report` and what to change, when one is known.
pub fn likely_cause(report: &FaultReport) -> Option<String> {
    match report.kind {
        FaultKind::Unhandled | FaultKind::DoubleFault => tp_unset(report),
        FaultKind::BusyLimit => Some(format!(
            "the guest ran {} cycles awake without ending: a loop that never ends or a task \
             that spins; if it just needs longer, raise --max-busy-cycles (0 = no limit)",
            report.cycles
        )),
        FaultKind::IdleLimit => Some(
            "the guest slept in wfi until the idle limit without ending: it waits for \
             something that never comes while a timer keeps waking it; if it just needs \
             longer, raise --max-idle-cycles (0 = no limit)"
                .to_string(),
        ),
        FaultKind::Deadlock => Some(
            "nothing can ever wake the hart: every interrupt source it waits for is off, or \
             all tasks are blocked"
                .to_string(),
        ),
        FaultKind::CycleLimit | FaultKind::Reset => None,
    }
}

/// `tp` is 0 and the fault is an access just below address 0: instrumented code read its
/// stack limit at `tp - 4` before anything set `tp` to a stack descriptor.
fn tp_unset(report: &FaultReport) -> Option<String> {
    let tp = report.regs[4];
    let near_zero = report.tval >= 0xFFFF_FFF0;
    (tp == 0 && near_zero && ACCESS_CAUSES.contains(&report.cause)).then(|| {
        "tp is 0: code built with stack checks (cactus cc --checks ...) reads its stack limit \
         at tp-4, but nothing pointed tp at a stack descriptor. Link with cactus cc's runtime \
         (it is the default: drop --no-runtime, -nostartfiles or -T) or set tp in your own \
         crt0 (docs/stack-checks.md, docs/cc.md)"
            .to_string()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use cactus_sim::Mode;

    fn report(kind: FaultKind, cause: u32, tval: u32, tp: u32) -> FaultReport {
        let mut regs = [0; 32];
        regs[4] = tp;
        FaultReport {
            kind,
            cause,
            cause_name: String::new(),
            pc: 0x8000_0000,
            tval,
            stack_bound: None,
            mode: Mode::Machine,
            regs,
            cycles: 10,
            instret: 5,
        }
    }

    #[test]
    fn a_limit_read_through_tp_zero_names_tp() {
        let r = report(FaultKind::Unhandled, 5, 0xFFFF_FFFC, 0);
        assert!(likely_cause(&r).unwrap().starts_with("tp is 0"));
    }

    #[test]
    fn other_faults_get_no_tp_hint() {
        assert!(likely_cause(&report(FaultKind::Unhandled, 5, 0xFFFF_FFFC, 0x8000_1000)).is_none());
        assert!(likely_cause(&report(FaultKind::Unhandled, 7, 0x1234, 0)).is_none());
        assert!(likely_cause(&report(FaultKind::Unhandled, 2, 0xFFFF_FFFC, 0)).is_none());
    }

    #[test]
    fn the_limits_name_their_flags() {
        let busy = likely_cause(&report(FaultKind::BusyLimit, 0, 0, 0)).unwrap();
        assert!(busy.contains("--max-busy-cycles"), "{busy}");
        let idle = likely_cause(&report(FaultKind::IdleLimit, 0, 0, 0)).unwrap();
        assert!(idle.contains("--max-idle-cycles"), "{idle}");
    }
}
