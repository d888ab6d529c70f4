//! Table II of `cactus bench sensmart`: the cycles of SenSmart's key operations (address
//! translation, get/set the stack pointer, a kernel call's context save and restore, the full
//! switch, a relocation), measured by bench/sensmart/ops.c built `static`, `relocate` with
//! the hardware window and `relocate` with the software window, beside the paper's AVR figures.

use super::SensmartRow;
use cactus_sweep::table::{or_dash, Table};

/// The firmware.
pub const OPS: &str = "bench/sensmart/ops.toml";

/// The builds: row name, stack strategy override, window override.
pub const BUILDS: [(&str, Option<&str>, Option<&str>); 3] = [
    ("ops static", None, None),
    ("ops relocate-sw", Some("relocate"), Some("sw")),
    ("ops relocate-hw", Some("relocate"), None),
];

/// The operations of ops.c in marker order (300 + k): name and the paper's AVR cycles
/// (Table II).
pub const OPERATIONS: [(&str, &str); 6] = [
    ("address translation, direct (a global)", "28 (I/O area: 2)"),
    ("address translation, indirect, stack frame", "69"),
    ("address translation, indirect, heap", "62"),
    ("get stack pointer (address of a local)", "45"),
    ("set stack pointer (frame-pointer epilogue)", "94"),
    (
        "context save + restore (a kernel call resuming the caller)",
        "1908 (932 + 976)",
    ),
];

/// The Table II section: every operation under the three builds, the relocation of 1 KiB and
/// the full switch from the part's other rows.
pub fn markdown(rows: &[SensmartRow]) -> String {
    let build = |name: &str| rows.iter().find(|r| r.name == name && r.passed);
    let mut t = Table::new(&[
        "operation",
        ">static",
        ">relocate, software window",
        ">relocate, hardware window",
        ">paper (AVR)",
    ]);
    for (k, (op, paper)) in OPERATIONS.iter().enumerate() {
        let mut cells = vec![(*op).to_string()];
        for (name, _, _) in BUILDS {
            cells.push(or_dash(build(name).and_then(|r| r.ops.get(k).copied())));
        }
        cells.push((*paper).to_string());
        t.row(cells);
    }
    let switch = |name: &str| or_dash(build(name).and_then(|r| r.switch_cycles));
    t.row([
        "full switch (yield ping-pong, per switch)".to_string(),
        switch("switch static"),
        switch("switch relocate-sw"),
        switch("switch relocate"),
        "2298".to_string(),
    ]);
    let kib = |name: &str| {
        or_dash(build(name).and_then(|r| {
            r.relocations
                .iter()
                .find(|x| x.bytes == 1024)
                .map(|x| x.cycles)
        }))
    };
    t.row([
        "stack relocation (1 KiB moved; copy engine)".to_string(),
        "-".to_string(),
        kib(super::relocate::RELOCATION_SW),
        kib(super::relocate::RELOCATION_HW),
        "2326".to_string(),
    ]);
    t.row([
        "stack relocation (1 KiB moved; CPU copy, as on QEMU)".to_string(),
        "-".to_string(),
        kib(super::relocate::RELOCATION_CPU),
        "-".to_string(),
        "2326".to_string(),
    ]);
    let failed: Vec<String> = BUILDS
        .iter()
        .filter_map(|(name, _, _)| {
            rows.iter()
                .find(|r| r.name == *name && !r.passed)
                .map(|r| format!("{name}: FAIL: {}", r.note.as_deref().unwrap_or("?")))
        })
        .collect();
    format!(
        "Table II: cycles of the key operations (each less an empty probe's call and return; \
         the difference from `static` is what a variant adds):\n\n{}{}\n",
        t.render(),
        if failed.is_empty() {
            String::new()
        } else {
            format!("\n{}\n", failed.join("\n"))
        }
    )
}

/// What the table's columns mean.
pub fn reading() -> String {
    "**Table II** (bench/sensmart/ops.c): one task times each operation as a noinline probe \
     called between two `mcycle` reads (the minimum of 8 runs, interrupts masked except around \
     the kernel call) less an empty probe's, built `static` (checks none), `--stack relocate \
     --window sw` (the logical-stack pass, `mtss` checks) and `--stack relocate` (the hardware \
     window, checks none). Direct: `lw` of a global (`%lo`: never translated). Indirect: `lw` \
     through a pointer argument, to the caller's local (stack frame) or to a global array \
     (heap: Cactus has no `sbrk`); the software window translates the first (aperture check, \
     displacement, bound) and checks the second (aperture test only); the hardware window adds \
     no instruction. Get sp: a function returning the address of its local (the software \
     window converts `addi rd, sp, k` to the logical address; the figure includes the \
     function's `mtss` entry check, 3 cycles, which the software variant needs). Set sp: a \
     function with an `alloca` frame, whose epilogue sets sp from s0 (the software window adds \
     the displacement back; the figure includes its checks and the translated store into the \
     `alloca` buffer). Context save + restore: `cactus_yield` with no other task ready; the \
     relocate builds take the kernel's general path (entry, the context saved, the scheduler, \
     the context restored, the exit; the hardware window writes two CSRs on the way out), \
     while under `static` the yield's assembly path finds the caller alone at its level and \
     returns before saving anything (docs/kernel.md), so that column is the call alone. Full \
     switch: bench/sensmart/switch.toml built the same three ways. Stack relocation: the 1 KiB \
     rows of the relocation table, with cactus-sim's copy engine (a simulation device) and, \
     for the software window, with the CPU copy a QEMU build runs. The paper's figures are ATmega128L cycles (Table II), an 8-bit core \
     with no displacement hardware, so it pays for every translation in code. "
        .to_string()
}
