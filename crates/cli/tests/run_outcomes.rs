//! `cactus run` on programs that end in each way: exit 0, a failing code, a code too large for
//! an exit status, an unhandled fault, and the cycle limit.

use crate::support::*;

#[test]
fn a_passing_program_exits_0_with_its_uart_text_on_stdout() {
    let dir = scratch("pass");
    let out = cactus_run(&build(&dir, "hello"), &["--stats", "none"]);
    assert_eq!(code(&out), 0, "stderr:\n{}", stderr(&out));
    assert_eq!(stdout(&out), "hello from cactus\n");
}

#[test]
fn a_failing_program_exits_with_its_code() {
    let dir = scratch("fail");
    let out = cactus_run(&build(&dir, "fail"), &["--stats", "none"]);
    assert_eq!(code(&out), 7, "stderr:\n{}", stderr(&out));
    assert_eq!(stdout(&out), "check failed\n");
    assert!(
        stderr(&out).contains("exited with code 7"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_exit_code_above_255_becomes_255() {
    let dir = scratch("bigexit");
    let out = cactus_run(&build(&dir, "bigexit"), &["--stats", "none"]);
    assert_eq!(code(&out), 255, "stderr:\n{}", stderr(&out));
    assert!(
        stderr(&out).contains("exited with code 300"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_illegal_instruction_without_handler_exits_3_with_a_report() {
    let dir = scratch("illegal");
    let elf = build(&dir, "illegal");
    let bad = symbol(&elf, "bad_insn");
    let out = cactus_run(&elf, &["--stats", "none"]);
    assert_eq!(code(&out), 3, "stderr:\n{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.to_lowercase().contains("illegal"), "{err}");
    assert!(
        err.contains(&format!("{bad:08x}")),
        "pc {bad:#010x} missing:\n{err}"
    );
    // The report lists registers: a0 holds the value main set just before the fault.
    assert!(err.contains("00001234"), "a0 missing:\n{err}");
}

#[test]
fn a_stack_bound_exception_names_the_bound_and_no_stack_bound_removes_the_csr() {
    let dir = scratch("stackbound");
    let elf = build(&dir, "stackbound");
    let grow = symbol(&elf, "grow");
    let out = cactus_run(&elf, &["--stats", "none"]);
    assert_eq!(code(&out), 3, "stderr:\n{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("cause: 24 (stack bound)"), "{err}");
    assert!(
        err.contains(&format!("{grow:08x}")),
        "pc {grow:#010x}:\n{err}"
    );
    assert!(err.contains("would be below mstackbound"), "{err}");

    // A core without the extension: the csrw is an illegal instruction.
    let set_bound = symbol(&elf, "set_bound");
    let out = cactus_run(&elf, &["--stats", "none", "--no-stack-bound"]);
    assert_eq!(code(&out), 3, "stderr:\n{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("cause: 2 (illegal instruction)"), "{err}");
    assert!(err.contains(&format!("{set_bound:08x}")), "{err}");
}

#[test]
fn exceeding_max_cycles_exits_3() {
    let dir = scratch("spin");
    let out = cactus_run(
        &build(&dir, "spin"),
        &["--max-cycles", "10000", "--stats", "json"],
    );
    assert_eq!(code(&out), 3, "stderr:\n{}", stderr(&out));
    let text = stdout(&out);
    let json_line = text
        .lines()
        .find(|l| l.starts_with('{'))
        .expect("stats json line");
    let summary: serde_json::Value = serde_json::from_str(json_line).expect("valid json");
    assert_eq!(summary["ending"]["kind"], "cycle_limit");
    let cycles = summary["stats"]["cycles"].as_u64().expect("cycles");
    assert!((10_000..10_100).contains(&cycles), "cycles {cycles}");
}

#[test]
fn the_default_table_reports_instructions_and_cycles_on_stderr() {
    let dir = scratch("table");
    let out = cactus_run(&build(&dir, "hello"), &[]);
    assert_eq!(code(&out), 0, "stderr:\n{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "hello from cactus\n",
        "the table must not go to stdout"
    );
    let err = stderr(&out);
    for word in ["instructions", "cycles", "CPI", "energy", "machine"] {
        assert!(err.contains(word), "{word} missing from the table:\n{err}");
    }
}

#[test]
fn an_oracle_violation_under_oracle_stop_exits_4_with_a_report() {
    let dir = scratch("violation-stop");
    let elf = build(&dir, "violation");
    let store = symbol(&elf, "bad_store");
    let out = cactus_run(&elf, &["--oracle", "stop", "--stats", "none"]);
    assert_eq!(code(&out), 4, "stderr:\n{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("ownership violation"), "{err}");
    assert!(
        err.contains(&format!("{store:#010x}")),
        "pc {store:#010x} missing:\n{err}"
    );
}

#[test]
fn an_oracle_violation_is_counted_and_the_run_goes_on_by_default() {
    let dir = scratch("violation-record");
    let out = cactus_run(&build(&dir, "violation"), &["--stats", "json"]);
    assert_eq!(code(&out), 0, "stderr:\n{}", stderr(&out));
    let text = stdout(&out);
    let json_line = text
        .lines()
        .find(|l| l.starts_with('{'))
        .expect("stats json line");
    let summary: serde_json::Value = serde_json::from_str(json_line).expect("valid json");
    assert_eq!(summary["stats"]["oracle_violations"], 1, "{summary:#}");
}

#[test]
fn a_store_to_unmapped_memory_exits_3_with_pc_cause_address_and_registers() {
    let dir = scratch("unmapped");
    let elf = build(&dir, "unmapped");
    let bad = symbol(&elf, "bad_store");
    let out = cactus_run(&elf, &["--stats", "none"]);
    let err = stderr(&out);
    assert_eq!(code(&out), 3, "stderr:\n{err}");
    assert!(err.contains("store/AMO access fault"), "{err}");
    assert!(err.contains("0x40000000"), "the address:\n{err}");
    assert!(
        err.contains(&format!("{bad:08x}")),
        "pc {bad:#010x}:\n{err}"
    );
    assert!(err.contains("a0=0x00005678"), "registers:\n{err}");
}

#[test]
fn wfi_with_every_interrupt_disabled_is_a_deadlock_with_exit_3() {
    let dir = scratch("wfi-off");
    let elf = build(&dir, "wfi_off");
    let stuck = symbol(&elf, "stuck");
    let out = cactus_run(&elf, &["--stats", "none"]);
    let err = stderr(&out);
    assert_eq!(code(&out), 3, "stderr:\n{err}");
    assert!(err.contains("deadlock"), "{err}");
    assert!(
        err.contains(&format!("{stuck:08x}")),
        "pc {stuck:#010x}:\n{err}"
    );
    assert!(err.contains("a0=0x00009abc"), "registers:\n{err}");
}
