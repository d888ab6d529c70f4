//! `cactus run --gdb PORT` driven by a real gdb (gdb-multiarch): break at main, continue,
//! read pc, single-step, read the stack, continue to the guest's exit; and a fault seen as
//! SIGILL. The debugged programs are the cactus-gdb test fixtures (crates/gdb/tests/fixtures),
//! built here with `-g`.

use crate::support::*;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const GDB: &str = "/usr/bin/gdb-multiarch";

/// Builds `NAME.c` of the cactus-gdb test fixtures with their crt0 and link script.
fn build_gdb_program(dir: &Path, name: &str) -> PathBuf {
    let fx = Path::new(env!("CARGO_MANIFEST_DIR")).join("../gdb/tests/fixtures");
    let compile = |src: &str, obj: &Path| {
        run_ok(
            Command::new(CC)
                .args(["-g", "-O0", "-Wall", "-Wextra", "-Werror"])
                .args(["-march=rv32imac_zicsr_zifencei", "-mabi=ilp32", "-c"])
                .arg(fx.join(src))
                .arg("-o")
                .arg(obj),
        )
    };
    let (crt0, prog) = (dir.join("crt0.o"), dir.join(format!("{name}.o")));
    let elf = dir.join(format!("{name}.elf"));
    compile("crt0.S", &crt0);
    compile(&format!("{name}.c"), &prog);
    run_ok(
        Command::new(CC)
            .args([
                "-march=rv32imac",
                "-mabi=ilp32",
                "-nostdlib",
                "-nostartfiles",
                "-T",
            ])
            .arg(fx.join("link.ld"))
            .args([&crt0, &prog])
            .arg("-o")
            .arg(&elf),
    );
    elf
}

/// Waits for `child` at most `limit`, killing it on expiry; returns its exit code.
fn wait_for(child: &mut Child, limit: Duration, what: &str) -> i32 {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return status.code().unwrap_or(-1);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// What one debugging session produced.
struct Session {
    /// gdb's stdout and stderr.
    gdb: String,
    /// The guest's UART output (cactus's stdout).
    guest: String,
    /// cactus's stderr after the "waiting for gdb" line.
    cactus: String,
    /// cactus's exit code.
    code: i32,
}

impl Session {
    fn transcript(&self) -> String {
        format!("gdb:\n{}\ncactus stderr:\n{}", self.gdb, self.cactus)
    }
}

/// Starts `cactus run --gdb 0 ELF`, reads the port it announces, runs gdb-multiarch in batch
/// mode with `commands` against it, and collects both sides.
fn debug_session(elf: &Path, commands: &[&str]) -> Session {
    let mut cactus = Command::new(env!("CARGO_BIN_EXE_cactus"))
        .args(["run", "--gdb", "0", "--stats", "none"])
        .arg(elf)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start cactus");
    let mut err = BufReader::new(cactus.stderr.take().unwrap());
    let mut first = String::new();
    err.read_line(&mut first).expect("read cactus stderr");
    let addr = first
        .trim()
        .strip_prefix("waiting for gdb on ")
        .unwrap_or_else(|| panic!("unexpected first line: {first:?}"))
        .to_string();
    assert!(addr.starts_with("127.0.0.1:"), "{addr}");
    let rest_of_stderr = std::thread::spawn(move || {
        let mut rest = String::new();
        err.read_to_string(&mut rest).expect("read cactus stderr");
        rest
    });
    let mut gdb = Command::new(GDB);
    gdb.args(["-nx", "-batch"])
        .args(["-ex", "set architecture riscv:rv32"])
        .args(["-ex", &format!("target remote {addr}")]);
    for command in commands {
        gdb.args(["-ex", command]);
    }
    let mut gdb = gdb
        .arg(elf)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {GDB}: {e}"));
    let mut gdb_out = String::new();
    gdb.stdout
        .take()
        .unwrap()
        .read_to_string(&mut gdb_out)
        .unwrap();
    gdb.stderr
        .take()
        .unwrap()
        .read_to_string(&mut gdb_out)
        .unwrap();
    wait_for(&mut gdb, Duration::from_secs(60), "gdb");
    let code = wait_for(&mut cactus, Duration::from_secs(60), "cactus run --gdb");
    let mut guest = String::new();
    cactus
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut guest)
        .unwrap();
    Session {
        gdb: gdb_out,
        guest,
        cactus: rest_of_stderr.join().unwrap(),
        code,
    }
}

#[test]
fn gdb_breaks_at_main_steps_reads_memory_and_sees_the_exit_code() {
    let dir = scratch("gdb-session");
    let elf = build_gdb_program(&dir, "prog");
    let commands = [
        "break main",
        "continue",
        "info registers pc",
        "stepi",
        "x/4wx $sp",
        "continue",
    ];
    let s = debug_session(&elf, &commands);
    let transcript = s.transcript();
    assert!(s.gdb.contains("Breakpoint 1 at 0x"), "{transcript}");
    assert!(s.gdb.contains("Breakpoint 1, main () at"), "{transcript}");
    let main = symbol(&elf, "main");
    let pc_line = s
        .gdb
        .lines()
        .find(|l| l.starts_with("pc "))
        .unwrap_or_else(|| panic!("no pc line:\n{transcript}"));
    assert!(pc_line.contains("<main+"), "{transcript}");
    let pc = u32::from_str_radix(
        pc_line
            .split_whitespace()
            .nth(1)
            .unwrap()
            .trim_start_matches("0x"),
        16,
    )
    .unwrap();
    assert!(
        pc > main && pc < main + 32,
        "pc {pc:#x} not just after main {main:#x}"
    );
    // x/4wx $sp prints one line: the stack address (top of RAM is 0x8001_0000) then 4 words.
    let x_line = s
        .gdb
        .lines()
        .find(|l| l.starts_with("0x8000ff"))
        .unwrap_or_else(|| panic!("no memory dump:\n{transcript}"));
    assert_eq!(x_line.matches("0x").count(), 5, "{x_line}");
    assert!(s.gdb.contains("exited with code 07"), "{transcript}");
    assert_eq!(s.guest, "gdb test program\n", "{transcript}");
    assert_eq!(s.code, 7, "{transcript}");
    assert!(
        s.cactus.contains("gdb connected from 127.0.0.1"),
        "{transcript}"
    );
}

#[test]
fn a_fault_under_gdb_stops_with_sigill_then_terminates_and_cactus_exits_3() {
    let dir = scratch("gdb-fault");
    let elf = build_gdb_program(&dir, "fault");
    let bad = symbol(&elf, "bad_insn");
    let s = debug_session(&elf, &["continue", "info registers pc", "continue"]);
    let transcript = s.transcript();
    assert!(
        s.gdb.contains("Program received signal SIGILL"),
        "{transcript}"
    );
    assert!(
        s.gdb.contains(&format!("pc             {bad:#x}")),
        "{transcript}"
    );
    assert!(
        s.gdb.contains("Program terminated with signal SIGILL"),
        "{transcript}"
    );
    assert_eq!(s.code, 3, "{transcript}");
    assert!(s.cactus.contains("illegal instruction"), "{transcript}");
}

/// Builds the three-task fixture `firmware/threads.toml` into a scratch directory named
/// `test`; returns its ELF.
fn build_threads_firmware(test: &str) -> PathBuf {
    build_fixture_firmware(test, "threads")
}

/// Builds the fixture manifest `firmware/NAME.toml` in a scratch directory; returns the ELF.
fn build_fixture_firmware(test: &str, name: &str) -> PathBuf {
    build_fixture_firmware_with(test, name, &[])
}

/// As `build_fixture_firmware`, with more `cactus build` options.
fn build_fixture_firmware_with(test: &str, name: &str, options: &[&str]) -> PathBuf {
    let dir = scratch(test);
    let manifest = fixtures().join(format!("firmware/{name}.toml"));
    let mut args = vec![
        "build",
        manifest.to_str().unwrap(),
        "--build-dir",
        dir.to_str().unwrap(),
    ];
    args.extend_from_slice(options);
    let out = cactus(&args);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    PathBuf::from(stdout(&out).trim())
}

#[test]
fn each_task_is_a_gdb_thread_with_its_state_and_a_backtrace_to_its_entry() {
    let elf = build_threads_firmware("gdb-threads");
    let commands = [
        "info threads",
        "break checkpoint",
        "continue",
        "info threads",
        "thread apply all bt",
        "continue",
    ];
    let s = debug_session(&elf, &commands);
    let transcript = s.transcript();
    // Before the kernel starts a task, the CPU is the one `kernel` thread.
    assert!(s.gdb.contains("(kernel)"), "{transcript}");
    for row in [
        "(main, running, prio 5)",
        "(waiter, blocked, prio 3)",
        "(sleeper, sleeping, prio 4)",
    ] {
        assert!(s.gdb.contains(row), "no thread {row}:\n{transcript}");
    }
    // Each task's backtrace: from where it stopped (the running task at the breakpoint, the
    // others where their kernel call returns) through its entry to the kernel's outermost
    // frame, never into unrelated code.
    let backtrace = |task: &str| -> Vec<String> {
        let head = format!("({task}, ");
        let start = s
            .gdb
            .lines()
            .position(|l| l.starts_with("Thread ") && l.contains(&head))
            .unwrap_or_else(|| panic!("no backtrace of {task}:\n{transcript}"));
        s.gdb
            .lines()
            .skip(start + 1)
            .take_while(|l| l.starts_with('#'))
            .map(str::to_string)
            .collect()
    };
    for (task, frames) in [
        ("main", ["checkpoint", "main_task"]),
        ("waiter", ["wait_for_go", "waiter_task"]),
    ] {
        let bt = backtrace(task);
        assert_eq!(bt.len(), 3, "{task}: {bt:?}\n{transcript}");
        assert!(bt[0].contains(frames[0]), "{task}: {bt:?}");
        assert!(bt[1].contains(frames[1]), "{task}: {bt:?}");
        assert!(bt[2].contains("port_task_return"), "{task}: {bt:?}");
    }
    let bt = backtrace("sleeper");
    assert!(bt[0].contains("sleeper_task"), "{bt:?}\n{transcript}");
    assert!(bt.last().unwrap().contains("port_task_return"), "{bt:?}");
    assert_eq!(s.guest, "woken 2\n", "{transcript}");
    assert_eq!(s.code, 0, "{transcript}");
}

/// The frames of the first `bt` after `after` in gdb's output: the function of each line.
fn frames(gdb: &str, after: &str) -> Vec<String> {
    let start = gdb
        .find(after)
        .unwrap_or_else(|| panic!("no {after:?} in:\n{gdb}"));
    gdb[start..]
        .lines()
        .skip_while(|l| !l.starts_with("#0"))
        .take_while(|l| l.starts_with('#'))
        .map(|l| {
            // "#1  0x8000010e in port_syscall () at ..." or "#0  k_block (w=...) at ...".
            // (one space only after a two-digit frame number)
            let rest = l.split_once(' ').map_or(l, |(_, r)| r.trim());
            let rest = rest.split_once(" in ").map_or(rest, |(_, f)| f);
            rest.split([' ', '(']).next().unwrap_or("").to_string()
        })
        .collect()
}

#[test]
fn a_backtrace_from_kernel_code_walks_through_the_kernel_call_into_the_task() {
    let elf = build_threads_firmware("gdb-kernel-call");
    let commands = ["break k_block", "continue", "bt", "p/x $mscratch", "kill"];
    let s = debug_session(&elf, &commands);
    let transcript = s.transcript();
    // main's first cactus_sleep blocks first: from the kernel's C code through port_syscall
    // (its frame found through mscratch, the context the call saved) back into main's code,
    // ending at the task's entry.
    assert_eq!(
        frames(&s.gdb, "hit Breakpoint 1"),
        [
            "k_block",
            "port_syscall",
            "cactus_sleep",
            "main_task",
            "port_task_return"
        ],
        "{transcript}"
    );
    assert!(!s.gdb.contains("Backtrace stopped"), "{transcript}");
    // mscratch is a register gdb can read (the CSRs of the target description).
    assert!(s.gdb.contains("$1 = 0x8"), "{transcript}");
}

#[test]
fn a_backtrace_from_the_tick_handler_walks_through_the_trap_into_the_interrupted_task() {
    let elf = build_fixture_firmware("gdb-trap", "trapped");
    let commands = [
        "break k_tick_due",
        "continue",
        "bt",
        "info registers mcause",
        "frame 2",
        "p $pc == (unsigned)&spin || ($pc > (unsigned)&spin && $pc < (unsigned)&busy_task)",
        "continue",
    ];
    let s = debug_session(&elf, &commands);
    let transcript = s.transcript();
    // The tick that ends waker's sleep interrupts busy in spin: the tick's slow path, then the
    // interrupted code as it was (its pc from the context's saved mepc), then busy's entry.
    assert_eq!(
        frames(&s.gdb, "hit Breakpoint 1"),
        [
            "k_tick_due",
            "<signal",
            "spin",
            "busy_task",
            "port_task_return"
        ],
        "{transcript}"
    );
    assert!(s.gdb.contains("mcause         0x80000007"), "{transcript}");
    assert!(
        s.gdb.contains("$1 = 1"),
        "frame 2's pc is in spin:\n{transcript}"
    );
    assert_eq!(s.guest, "woken after some turns\n", "{transcript}");
    assert_eq!(s.code, 0, "{transcript}");
}

/// The frames of `deep` at its first failed check: the check's function (level 10, the first
/// frame past the 256-byte first stacklet), its callers and the task's entry.
const AT_THE_CHECK: [&str; 6] = [
    "<signal",
    "descend",
    "descend",
    "descend",
    "deep_task",
    "port_task_return",
];

#[test]
fn a_backtrace_from_the_call_slow_path_walks_into_the_function_at_its_check() {
    // `split` checks: the failed check calls port_split_request, which runs the strategy.
    let elf = build_fixture_firmware("gdb-split-request", "stacklets");
    let s = debug_session(
        &elf,
        &[
            "break k_split_request",
            "continue",
            "bt",
            "delete",
            "continue",
        ],
    );
    let transcript = s.transcript();
    let mut want = vec!["k_split_request"];
    want.extend(AT_THE_CHECK);
    assert_eq!(frames(&s.gdb, "hit Breakpoint 1"), want, "{transcript}");
    assert!(
        s.gdb.contains("descend (level=level@entry=10)"),
        "{transcript}"
    );
    assert!(!s.gdb.contains("Backtrace stopped"), "{transcript}");
    assert_eq!(s.guest, "sum 219\nwide 297\n", "{transcript}");
}

#[test]
fn a_backtrace_from_a_failed_check_trap_walks_into_the_function_at_its_check() {
    // `mtss` checks: the failed check traps at its out-of-line ecall, whose call frame
    // information `cactus cc` writes as the frame at the check.
    let elf = build_fixture_firmware_with(
        "gdb-check-trap",
        "stacklets",
        &["--stack", "segmented", "--checks", "mtss"],
    );
    let s = debug_session(
        &elf,
        &[
            "break stack_request",
            "continue",
            "bt",
            "delete",
            "continue",
        ],
    );
    let transcript = s.transcript();
    let got = frames(&s.gdb, "hit Breakpoint 1");
    let trap = got.iter().position(|f| f == "<signal").expect(&transcript);
    assert_eq!(
        got[..trap],
        ["stack_request", "k_stack_check_failed", "port_trap"],
        "{transcript}"
    );
    assert_eq!(got[trap..], AT_THE_CHECK, "{transcript}");
    assert!(
        s.gdb.contains("descend (level=level@entry=10)"),
        "{transcript}"
    );
    assert_eq!(s.guest, "sum 219\nwide 297\n", "{transcript}");
}

#[test]
fn a_backtrace_from_a_moved_frame_walks_back_through_every_stacklet() {
    let elf = build_fixture_firmware("gdb-split-return", "stacklets");
    let commands = [
        "break bottom",
        "continue",
        "bt",
        "delete",
        "break k_split_return",
        "continue",
        "bt",
        "delete",
        "break wide_bottom",
        "continue",
        "bt",
        "delete",
        "continue",
    ];
    let s = debug_session(&elf, &commands);
    let transcript = s.transcript();
    // bottom, then all 13 levels of descend with a return trampoline (a signal frame) wherever
    // a level runs in a stacklet of its own, then the task's entry.
    let got = frames(&s.gdb, "hit Breakpoint 1");
    let levels: Vec<&String> = got.iter().filter(|f| *f != "<signal").collect();
    let mut want = vec!["bottom".to_string()];
    want.extend(std::iter::repeat_n("descend".to_string(), 13));
    want.extend(["deep_task".to_string(), "port_task_return".to_string()]);
    assert_eq!(levels, want.iter().collect::<Vec<_>>(), "{transcript}");
    let moves = got.iter().filter(|f| *f == "<signal").count();
    assert!(moves >= 3, "{moves} trampolines:\n{transcript}");
    assert!(s.gdb.contains("descend (level=0)"), "{transcript}");
    // Inside the return path's kernel call, the backtrace ends cleanly at the trampoline.
    assert_eq!(
        frames(&s.gdb, "hit Breakpoint 2"),
        ["k_split_return", "<signal"],
        "{transcript}"
    );
    // A frame whose stack arguments were copied: its record is out of the unwinder's reach,
    // so the backtrace ends at that trampoline (named) instead of walking on from a guess.
    assert_eq!(
        frames(&s.gdb, "hit Breakpoint 3"),
        ["wide_bottom", "wide", "port_split_return_args"],
        "{transcript}"
    );
    assert!(!s.gdb.contains("Backtrace stopped"), "{transcript}");
    assert_eq!(s.guest, "sum 219\nwide 297\n", "{transcript}");
}

#[test]
fn watchpoints_stop_after_the_access_in_the_task_that_made_it() {
    let elf = build_threads_firmware("gdb-watch");
    // `woken`: main's checkpoint adds 1 (a write), the waiter's `woken++` then reads it, and
    // main reads it again to print it.
    let commands = [
        "watch woken",
        "continue",
        "delete",
        "awatch woken",
        "continue",
        "delete",
        "rwatch woken",
        "continue",
        "delete",
        "continue",
    ];
    let s = debug_session(&elf, &commands);
    let transcript = s.transcript();
    let hits: Vec<&str> = s.gdb.lines().filter(|l| l.contains(" hit ")).collect();
    assert_eq!(hits.len(), 3, "{transcript}");
    assert!(
        hits[0].contains("Hardware watchpoint 1: woken"),
        "{transcript}"
    );
    assert!(
        hits[1].contains("Hardware access (read/write) watchpoint 2: woken"),
        "{transcript}"
    );
    assert!(
        hits[2].contains("Hardware read watchpoint 3: woken"),
        "{transcript}"
    );
    assert!(
        s.gdb.contains("Old value = 0\nNew value = 1"),
        "{transcript}"
    );
    // The access watchpoint fires in the waiter (its `woken++`), the read one back in main.
    let thread_of = |hit: &str| hit.split_whitespace().nth(1).unwrap().to_string();
    assert_ne!(thread_of(hits[1]), thread_of(hits[0]), "{transcript}");
    assert_eq!(thread_of(hits[2]), thread_of(hits[0]), "{transcript}");
    assert!(s.gdb.contains("in wait_for_go ()"), "{transcript}");
    assert!(s.gdb.contains("Value = 2"), "{transcript}");
    assert_eq!(s.guest, "woken 2\n", "{transcript}");
    assert_eq!(s.code, 0, "{transcript}");
}
