//! The stub's behaviour at the protocol level: breakpoints, registers, memory, exit, faults,
//! Ctrl-C, detach and kill, checked packet by packet.

use crate::support::*;
use cactus_gdb::{GdbError, SessionEnd};
use cactus_sim::RunOutcome;

fn hex_le(v: u32) -> String {
    v.to_le_bytes().iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn breakpoint_registers_memory_and_exit_code() {
    let elf = build("prog");
    let main = symbol(&elf, "main");
    let start = symbol(&elf, "_start");
    let (addr, server) = serve(&elf);
    let mut gdb = Client::connect(addr);

    assert!(gdb.request("?").starts_with("T05"), "stopped with SIGTRAP");
    assert_eq!(gdb.register(32), start, "stopped at the entry point");
    assert_eq!(gdb.request(&format!("Z0,{main:x},2")), "OK");
    assert!(gdb.request("c").starts_with("T05"), "breakpoint stop");
    assert_eq!(gdb.register(32), main);
    assert_eq!(gdb.request(&format!("z0,{main:x},2")), "OK");

    // Memory: main's first instruction, read back after a write round trip.
    let original = gdb.request(&format!("m{main:x},4"));
    assert_eq!(original.len(), 8);
    let sp = gdb.register(2);
    assert_eq!(
        gdb.request(&format!("M{:x},4:{}", sp - 64, hex_le(0xdead_beef))),
        "OK"
    );
    assert_eq!(
        gdb.request(&format!("m{:x},4", sp - 64)),
        hex_le(0xdead_beef)
    );
    assert!(
        gdb.request("m10,4").starts_with('E'),
        "unmapped memory is an error"
    );

    // Registers: a single step moves the pc; a written register reads back.
    assert_eq!(gdb.request("s"), "S05");
    assert_ne!(gdb.register(32), main);
    let mut regs = gdb.request("g");
    regs.replace_range(6 * 8..7 * 8, &hex_le(0x1234_5678)); // t1
    assert_eq!(gdb.request(&format!("G{regs}")), "OK");
    assert_eq!(gdb.register(6), 0x1234_5678);

    assert_eq!(gdb.request("c"), "W07", "exit code 7");
    let served = server.join().unwrap().expect("session");
    assert!(
        matches!(
            served.end,
            SessionEnd::Ended(RunOutcome::Exited { code: 7 })
        ),
        "{:?}",
        served.end
    );
    assert_eq!(served.uart, b"gdb test program\n");
}

#[test]
fn a_fault_stops_with_sigill_and_continuing_with_the_signal_terminates() {
    let elf = build("fault");
    let bad = symbol(&elf, "bad_insn");
    let (addr, server) = serve(&elf);
    let mut gdb = Client::connect(addr);
    assert_eq!(gdb.request("c"), "S04", "SIGILL");
    assert_eq!(gdb.register(32), bad, "stopped at the illegal instruction");
    // gdb passes SIGILL back on `continue` to the thread that got it (vCont;C04:1;c, the
    // stub shows threads): the guest dies of it.
    assert_eq!(gdb.request("vCont;C04:1;c"), "X04", "terminated by SIGILL");
    let served = server.join().unwrap().expect("session");
    match served.end {
        SessionEnd::Ended(RunOutcome::Fault(report)) => assert_eq!(report.pc, bad),
        other => panic!("expected a fault, got {other:?}"),
    }
}

#[test]
fn ctrl_c_interrupts_a_running_guest_and_kill_ends_the_session() {
    let elf = build("spin");
    let (addr, server) = serve(&elf);
    let mut gdb = Client::connect(addr);
    let main = symbol(&elf, "main");
    // On a loaded machine the guest may not have reached main's loop when the interrupt
    // arrives: every interrupt must stop it with SIGINT, and within a few tries it is in main.
    let mut pc = 0;
    for _ in 0..20 {
        gdb.send("c");
        std::thread::sleep(std::time::Duration::from_millis(200));
        gdb.send_raw(0x03);
        assert_eq!(gdb.reply(), "S02", "SIGINT");
        pc = gdb.register(32);
        if (main..main + 64).contains(&pc) {
            break;
        }
    }
    assert!(
        (main..main + 64).contains(&pc),
        "pc {pc:#x} inside main's loop"
    );
    gdb.send("k");
    let served = server.join().unwrap().expect("session");
    assert!(matches!(served.end, SessionEnd::Killed), "{:?}", served.end);
    assert_eq!(served.pc, pc, "a killed guest does not run on");
}

#[test]
fn after_a_detach_the_guest_runs_on_past_the_old_breakpoints() {
    let elf = build("prog");
    let main = symbol(&elf, "main");
    let (addr, server) = serve(&elf);
    let mut gdb = Client::connect(addr);
    assert_eq!(gdb.request(&format!("Z0,{main:x},2")), "OK");
    assert_eq!(gdb.request("D"), "OK");
    let served = server.join().unwrap().expect("session");
    assert!(
        matches!(served.end, SessionEnd::Detached),
        "{:?}",
        served.end
    );
    assert!(
        matches!(served.after_detach, Some(RunOutcome::Exited { code: 7 })),
        "{:?}",
        served.after_detach
    );
    assert_eq!(served.uart, b"gdb test program\n");
}

#[test]
fn a_connection_closed_without_detach_is_an_error() {
    let elf = build("prog");
    let (addr, server) = serve(&elf);
    let mut gdb = Client::connect(addr);
    assert!(gdb.request("?").starts_with("T05"));
    drop(gdb);
    match server.join().unwrap() {
        Err(GdbError::Closed) => {}
        Err(other) => panic!("expected Closed, got {other}"),
        Ok(served) => panic!("expected an error, got {:?}", served.end),
    }
}
