//! The kernel API calls a timeline shows: which functions are probed
//! ([`cactus_sim::MachineConfig::call_probes`]) and how a call is named ("sem give go",
//! "notify task 2"). The kernel object is named from the ELF's data symbols, as wait lists are.

use object::{Object, ObjectSymbol, SymbolKind};

/// What a call's first argument is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum First {
    /// A kernel object (its address).
    Object,
    /// A task id.
    Task,
    /// Nothing to name (the running task's own call).
    Nothing,
}

/// One probed function: its symbol, the label of its calls, what `a0` is, and whether `a1`
/// is a bit mask to show.
struct Call {
    symbol: &'static str,
    label: &'static str,
    first: First,
    bits: bool,
}

const fn call(symbol: &'static str, label: &'static str, first: First, bits: bool) -> Call {
    Call {
        symbol,
        label,
        first,
        bits,
    }
}

/// The kernel API (kernel/include/cactus/cactus.h) operations on kernel objects.
const CALLS: &[Call] = &[
    call("cactus_sem_give", "sem give", First::Object, false),
    call("cactus_sem_take", "sem take", First::Object, false),
    call("cactus_mutex_lock", "mutex lock", First::Object, false),
    call("cactus_mutex_unlock", "mutex unlock", First::Object, false),
    call("cactus_queue_send", "queue send", First::Object, false),
    call("cactus_queue_recv", "queue receive", First::Object, false),
    call("cactus_event_set", "event set", First::Object, true),
    call("cactus_event_clear", "event clear", First::Object, true),
    call("cactus_event_wait", "event wait", First::Object, true),
    call("cactus_notify", "notify", First::Task, false),
    call("cactus_notify_wait", "notify wait", First::Nothing, false),
    call("cactus_timer_start", "timer start", First::Object, false),
    call("cactus_timer_stop", "timer stop", First::Object, false),
];

/// The probed functions an ELF defines: (entry address, index into the table).
pub struct KernelCalls {
    entries: Vec<(u32, usize)>,
}

impl KernelCalls {
    /// The kernel API functions `elf` defines (none if it does not parse or has no kernel).
    pub fn of_elf(elf: &[u8]) -> KernelCalls {
        let mut entries: Vec<(u32, usize)> = match object::File::parse(elf) {
            Ok(f) => f
                .symbols()
                .filter(|s| s.kind() == SymbolKind::Text)
                .filter_map(|s| {
                    let name = s.name().ok()?;
                    let i = CALLS.iter().position(|c| c.symbol == name)?;
                    Some((s.address() as u32, i))
                })
                .collect(),
            Err(_) => Vec::new(),
        };
        entries.sort_unstable();
        entries.dedup_by_key(|e| e.0);
        KernelCalls { entries }
    }

    /// The addresses to probe.
    pub fn addresses(&self) -> Vec<u32> {
        self.entries.iter().map(|e| e.0).collect()
    }

    /// The name of a call to the function at `pc` with arguments `a0`, `a1`; `object` names
    /// an address (None: shown in hex). None when `pc` is not a probed function.
    pub fn name(
        &self,
        pc: u32,
        a0: u32,
        a1: u32,
        object: &dyn Fn(u32) -> Option<String>,
    ) -> Option<String> {
        let i = self.entries.binary_search_by_key(&pc, |e| e.0).ok()?;
        let c = &CALLS[self.entries[i].1];
        let mut name = c.label.to_string();
        match c.first {
            First::Object => {
                name.push(' ');
                name.push_str(&object(a0).unwrap_or_else(|| format!("{a0:#010x}")));
            }
            First::Task => name.push_str(&format!(" task {a0}")),
            First::Nothing => {}
        }
        if c.bits {
            name.push_str(&format!(" {a1:#x}"));
        }
        Some(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn calls() -> KernelCalls {
        KernelCalls {
            entries: vec![(0x100, 0), (0x200, 6), (0x300, 9), (0x400, 10)],
        }
    }

    #[test]
    fn calls_are_named_by_their_object_task_or_bits() {
        let objects = |a: u32| (a == 0x2000).then(|| "go".to_string());
        let k = calls();
        assert_eq!(k.name(0x100, 0x2000, 0, &objects).unwrap(), "sem give go");
        assert_eq!(
            k.name(0x100, 0x2004, 0, &objects).unwrap(),
            "sem give 0x00002004"
        );
        assert_eq!(
            k.name(0x200, 0x2000, 6, &objects).unwrap(),
            "event set go 0x6"
        );
        assert_eq!(k.name(0x300, 2, 0, &objects).unwrap(), "notify task 2");
        assert_eq!(k.name(0x400, 7, 0, &objects).unwrap(), "notify wait");
        assert_eq!(k.name(0x104, 0, 0, &objects), None);
    }

    #[test]
    fn every_symbol_is_a_kernel_api_function() {
        let header = include_str!("../../../../kernel/include/cactus/cactus.h");
        for c in CALLS {
            assert!(
                header.contains(&format!("{}(", c.symbol)),
                "{} is not declared in cactus.h",
                c.symbol
            );
        }
    }
}
