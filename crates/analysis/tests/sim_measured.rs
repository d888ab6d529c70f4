//! Static machine-code depths against a real run: a program calling picolibc and libgcc
//! functions is linked with the toolchain's archives and single-stepped on cactus-sim; for
//! every call of a tracked function the deepest `sp` below its entry `sp` is measured. The
//! static depth from the archives (and from the linked ELF, where bounded) must be at least
//! every measured depth.

use crate::common::run;
use cactus_analysis::machine::{analyze_files, toolchain::GCC, toolchain_archives, MachineDepth};
use cactus_sim::{Machine, MachineConfig, Profile, RunOutcome};
use object::{Object, ObjectSymbol};
use std::collections::BTreeMap;
use std::process::Command;

const CRT0: &str = r#"
    .section .text.start
    .globl _start
_start:
    la sp, __stack_top
    li tp, 0
    call main
    li t0, 0x100000
    beqz a0, 1f
    slli a0, a0, 16
    li t1, 0x3333
    or a0, a0, t1
    sw a0, 0(t0)
    j .
1:  li t1, 0x5555
    sw t1, 0(t0)
    j .
"#;

const LINK: &str = r#"
OUTPUT_ARCH(riscv)
ENTRY(_start)
MEMORY { RAM (rwx) : ORIGIN = 0x80000000, LENGTH = 16M }
SECTIONS {
  .text : { *(.text.start) *(.text .text.*) } > RAM
  .rodata : { *(.rodata .rodata.* .srodata .srodata.*) } > RAM
  .data : { *(.data .data.* .sdata .sdata.*) } > RAM
  .tdata : { *(.tdata .tdata.*) } > RAM
  .tbss : { *(.tbss .tbss.*) } > RAM
  .bss : { *(.bss .bss.* .sbss .sbss.* COMMON) } > RAM
  . = ALIGN(16);
  __heap_start = .;
  . += 0x10000;
  __heap_end = .;
  . += 0x10000;
  __stack_top = .;
}
"#;

/// Valid inputs only: picolibc's `errno` is thread-local (tp-relative) and this runtime has
/// no TLS block, so no call may fail.
const MAIN: &str = r#"
typedef unsigned int size_t;
void *memcpy(void *, const void *, size_t);
void *memmove(void *, const void *, size_t);
void *memset(void *, int, size_t);
size_t strlen(const char *);
int strcmp(const char *, const char *);
long strtol(const char *, char **, int);
int atoi(const char *);
void *malloc(size_t);
void free(void *);

volatile unsigned long long big = 0x123456789abcdefULL, divisor = 12345;
volatile long long sbig = -0x123456789abcdLL;
char text[64] = "  -123456 and more";

int main(void) {
    char buf[64];
    memcpy(buf, text, sizeof buf);
    memmove(buf + 1, buf, 20);
    memset(buf + 30, 'x', 10);
    if (strlen(text) != 18 || strcmp(buf + 30, "xxxxxxxxxx") != 0)
        return 1;
    char *end;
    if (strtol(text, &end, 10) != -123456 || atoi("77") != 77)
        return 2;
    if (big / divisor != 0x123456789abcdefULL / 12345 || big % divisor == 12346)
        return 3;
    if (sbig / 7 != -0x123456789abcdLL / 7)
        return 4;
    void *blocks[8];
    for (int i = 0; i < 8; i++)
        if (!(blocks[i] = malloc(16u << i)))
            return 5;
    for (int i = 0; i < 8; i += 2)
        free(blocks[i]);
    void *again = malloc(40);
    if (!again)
        return 6;
    free(again);
    return 0;
}
"#;

const TRACKED: &[&str] = &[
    "memcpy",
    "memmove",
    "memset",
    "strlen",
    "strcmp",
    "strtol",
    "atoi",
    "malloc",
    "free",
    "__udivdi3",
    "__umoddi3",
    "__divdi3",
];

/// Single-steps `elf` to its end; the deepest use below the entry `sp` of every completed call
/// of each tracked function, by name.
fn measure(elf: &[u8], entries: &BTreeMap<u32, String>) -> BTreeMap<String, u32> {
    let mut m = Machine::new(MachineConfig::new(Profile::default_mcu()));
    m.load_elf(elf).unwrap();
    // Active tracked calls: (name, entry sp, return address, lowest sp so far).
    let mut active: Vec<(String, u32, u32, u32)> = Vec::new();
    let mut deepest: BTreeMap<String, u32> = BTreeMap::new();
    for _ in 0..5_000_000 {
        let (pc, sp) = (m.pc(), m.reg(2));
        if let Some(name) = entries.get(&pc) {
            active.push((name.clone(), sp, m.reg(1), sp));
        }
        for a in &mut active {
            a.3 = a.3.min(sp);
        }
        while let Some(a) = active.last() {
            if pc == a.2 && sp == a.1 {
                let (name, entry, _, low) = active.pop().unwrap();
                let d = deepest.entry(name).or_default();
                *d = (*d).max(entry - low);
            } else {
                break;
            }
        }
        if let Some(outcome) = m.step() {
            assert!(
                matches!(outcome, RunOutcome::Exited { code: 0 }),
                "{outcome:?}"
            );
            return deepest;
        }
    }
    panic!("the program did not end");
}

#[test]
fn static_depths_cover_what_a_run_on_cactus_sim_measures() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("crt0.S"), CRT0).unwrap();
    std::fs::write(d.join("main.c"), MAIN).unwrap();
    std::fs::write(d.join("link.ld"), LINK).unwrap();
    let libs = toolchain_archives(GCC).unwrap();
    let elf = d.join("prog.elf");
    run(Command::new(GCC)
        .args(["-march=rv32imac", "-mabi=ilp32", "-O2", "-fno-builtin"])
        .args(["-nostdlib", "-nostartfiles", "-Wall", "-Wextra", "-Werror"])
        .arg("-T")
        .arg(d.join("link.ld"))
        .arg(d.join("crt0.S"))
        .arg(d.join("main.c"))
        .arg(&libs.libc)
        .arg(&libs.libgcc)
        .arg("-o")
        .arg(&elf));
    let bytes = std::fs::read(&elf).unwrap();
    let file = object::File::parse(&*bytes).unwrap();
    let entries: BTreeMap<u32, String> = file
        .symbols()
        .filter(|s| TRACKED.contains(&s.name().unwrap_or("")))
        .map(|s| (s.address() as u32, s.name().unwrap().to_string()))
        .collect();
    let measured = measure(&bytes, &entries);
    let from_archives = analyze_files(&[libs.libc, libs.libgcc]).unwrap().depths;
    let from_elf = analyze_files(std::slice::from_ref(&elf)).unwrap().depths;
    assert!(measured.len() >= 10, "calls seen: {measured:?}");
    assert!(measured["malloc"] > 0, "{measured:?}");
    for (name, used) in &measured {
        match &from_archives[name] {
            MachineDepth::Bytes(n) => assert!(n >= used, "{name}: static {n} < measured {used}"),
            MachineDepth::Unbounded(why) => panic!("{name} unbounded in the archives: {why}"),
        }
        if let Some(MachineDepth::Bytes(n)) = from_elf.get(name) {
            assert!(
                n >= used,
                "{name}: static (linked ELF) {n} < measured {used}"
            );
        }
    }
    for (name, used) in &measured {
        eprintln!("{name}: measured {used}, static {}", from_archives[name]);
    }
}
