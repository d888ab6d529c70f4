//! The preemption state and the switch points on small hand-written programs: values kept in
//! caller-saved registers across calls (-fipa-ra), what a task entry's callers need, switch
//! point choice and the deferral bound.

use cactus_asm::AsmFile;
use cactus_cc::switch::{switch_report, LoopRow, TaskEntry};

fn func(name: &str, body: &str) -> String {
    format!("\t.text\n\t.align\t1\n\t.globl\t{name}\n\t.type\t{name}, @function\n{name}:\n{body}\t.size\t{name}, .-{name}\n")
}

fn report(text: &str, entry: &str) -> Vec<LoopRow> {
    let file = AsmFile::parse(text, "t.s").expect("parses");
    let tasks = [TaskEntry {
        task: "t".into(),
        entry: entry.into(),
        calls: Default::default(),
    }];
    let mut r = switch_report(&[file], &tasks, None).expect("report");
    r.remove(0).loops
}

/// A loop that loads five values, combines them and stores the result: at its top only the
/// pointer, the bound and the callee-saved registers the caller needs are live.
const SUM_LOOP: &str = "\
\tmv a5,a0\n\
.Lloop:\n\
\tlw t0,0(a5)\n\
\tlw t1,4(a5)\n\
\tlw t2,8(a5)\n\
\tlw a2,12(a5)\n\
\tlw a3,16(a5)\n\
\tadd t0,t0,t1\n\
\tadd t0,t0,t2\n\
\tadd t0,t0,a2\n\
\tadd t0,t0,a3\n\
\tsw t0,0(a5)\n\
\taddi a5,a5,20\n\
\tbne a5,a1,.Lloop\n\
\tret\n";

#[test]
fn a_task_entry_needs_only_the_exit_functions_register_kept() {
    // As a task entry, nothing above it needs s0-s11 but s1, through which the kernel's
    // port_task_return_to reaches the task's exit function: at the loop's top only the
    // pointer a5, the bound a1, sp and s1 are live (ret reads ra: ra is live too).
    let text = func("work", SUM_LOOP);
    let rows = report(&text, "work");
    assert_eq!(rows.len(), 1);
    let l = &rows[0];
    assert_eq!(l.point_regs, vec!["ra", "sp", "s1", "a1", "a5"], "{l:?}");
    assert_eq!(l.deferral, Some(11), "{l:?}");
    assert!(!l.calls);
    assert!(l.point_reduction_pct() > 80.0);
}

#[test]
fn an_abi_function_keeps_what_the_abi_promises() {
    // Called from outside the program (no caller in it, not a task entry): s0-s11 and the
    // return registers are live throughout.
    let text = func("work", SUM_LOOP) + &func("other", "\tret\n");
    let file = AsmFile::parse(&text, "t.s").unwrap();
    let tasks = [TaskEntry {
        task: "t".into(),
        entry: "other".into(),
        calls: Default::default(),
    }];
    let r = switch_report(&[file], &tasks, None).unwrap();
    assert!(r[0].loops.is_empty()); // `other` reaches no loop
    let rows = report(
        &(func("main_task", "\tcall work\n\tret\n") + &func("work", SUM_LOOP)),
        "main_task",
    );
    // work is called by the task entry, which needs only s1 (and sp) after the call.
    assert_eq!(rows[0].point_regs, vec!["ra", "sp", "s1", "a1", "a5"]);
}

#[test]
fn a_value_kept_in_a_caller_saved_register_across_a_call_is_live() {
    // -fipa-ra: the caller keeps t3 across `call leaf`, which never writes t3, and adds it
    // after the call. A preemption inside leaf's loop must save t3; one before the call too.
    let leaf = "\
\tli a5,8\n\
.Lspin:\n\
\taddi a5,a5,-1\n\
\tbnez a5,.Lspin\n\
\tret\n";
    let caller = "\
\taddi sp,sp,-16\n\
\tsw ra,12(sp)\n\
\tli t3,7\n\
.Louter:\n\
\tcall leaf\n\
\tadd a0,a0,t3\n\
\tbnez a0,.Louter\n\
\tlw ra,12(sp)\n\
\taddi sp,sp,16\n\
\tret\n";
    let text = func("leaf", leaf) + &func("caller", caller);
    let rows = report(&text, "caller");
    let spin = rows.iter().find(|l| l.function.ends_with(":leaf")).unwrap();
    assert!(spin.point_regs.contains(&"t3"), "{spin:?}");
    let outer = rows
        .iter()
        .find(|l| l.function.ends_with(":caller"))
        .unwrap();
    assert!(outer.point_regs.contains(&"t3"), "{outer:?}");
    assert!(outer.calls);
}

#[test]
fn a_call_outside_the_program_kills_every_caller_saved_register() {
    // The same caller around an external function: t3 cannot survive the call by the ABI,
    // so GCC would not keep it there, and the analysis need not save it inside the callee.
    let caller = "\
\taddi sp,sp,-16\n\
\tsw ra,12(sp)\n\
.Louter:\n\
\tli t3,7\n\
\tcall external_fn\n\
\tbnez a0,.Louter\n\
\tlw ra,12(sp)\n\
\taddi sp,sp,16\n\
\tret\n";
    let rows = report(&func("caller", caller), "caller");
    let outer = &rows[0];
    // Before `li t3` t3 is dead; the point is where the fewest registers are live.
    assert!(!outer.point_regs.contains(&"t3"), "{outer:?}");
}

#[test]
fn a_minimum_on_the_path_every_iteration_takes_bounds_the_deferral() {
    // Two paths through the loop; the fewest registers are live where they join too.
    let body = "\
\tli a5,100\n\
.Lhead:\n\
\tandi a4,a5,1\n\
\tbeqz a4,.Leven\n\
\tlw t0,0(a0)\n\
\tlw t1,4(a0)\n\
\tadd t0,t0,t1\n\
\tsw t0,0(a0)\n\
\tj .Lnext\n\
.Leven:\n\
\tnop\n\
.Lnext:\n\
\taddi a5,a5,-1\n\
\tbnez a5,.Lhead\n\
\tret\n";
    let rows = report(&func("branchy", body), "branchy");
    let l = &rows[0];
    // The minimum (ra, sp, a0, a5) holds on the shared path too (at .Lnext or the head),
    // so the point is there and every cycle passes it.
    assert!(l.deferral.is_some(), "{l:?}");
    assert_eq!(l.point_regs, vec!["ra", "sp", "s1", "a0", "a5"], "{l:?}");
}

#[test]
fn a_cycle_that_avoids_the_point_has_no_deferral_bound() {
    // a3 is carried around the loop for the odd iterations and reset by the even ones, so
    // only the even path has a point where it is dead: the odd cycle never passes it.
    let body = "\
\tli a5,100\n\
\tli a3,0\n\
.Lhead:\n\
\tandi a4,a5,1\n\
\tbeqz a4,.Leven\n\
\tadd a3,a3,a5\n\
\tj .Lnext\n\
.Leven:\n\
\tli a3,0\n\
.Lnext:\n\
\taddi a5,a5,-1\n\
\tbnez a5,.Lhead\n\
\tret\n";
    let rows = report(&func("carried", body), "carried");
    let l = &rows[0];
    assert_eq!(l.point, "li a3,0", "{l:?}");
    assert_eq!(l.point_regs, vec!["ra", "sp", "s1", "a5"], "{l:?}");
    assert_eq!(l.deferral, None, "{l:?}");
}

/// A task entry that calls `work` through a table of pointers in its own unit, then, in
/// `extra`, anything else.
fn pointer_program(extra: &str) -> String {
    let entry = format!(
        "\taddi sp,sp,-16\n\tsw ra,12(sp)\n\tlui a5,%hi(table)\n\tlw a5,%lo(table)(a5)\n\
         \tjalr a5\n{extra}\tlw ra,12(sp)\n\taddi sp,sp,16\n\tret\n"
    );
    func("main_task", &entry)
        + &func("work", SUM_LOOP)
        + "\t.section\t.rodata\n\t.align\t2\ntable:\n\t.word\twork\n"
}

fn task_report(text: &str) -> cactus_cc::switch::TaskSwitches {
    let file = AsmFile::parse(text, "t.s").expect("parses");
    let tasks = [TaskEntry {
        task: "t".into(),
        entry: "main_task".into(),
        calls: Default::default(),
    }];
    switch_report(&[file], &tasks, None)
        .expect("report")
        .remove(0)
}

#[test]
fn a_function_called_only_through_pointers_of_the_program_needs_what_its_call_sites_need() {
    // Closed world: work's address is taken only in the task's unit and every indirect call
    // is the program's, so after work returns only what main_task needs is live (sp and s1,
    // the task's exit path), not s0-s11.
    let r = task_report(&pointer_program(""));
    assert_eq!(r.open_world, None);
    let l = r
        .loops
        .iter()
        .find(|l| l.function.ends_with(":work"))
        .unwrap();
    assert_eq!(l.point_regs, vec!["ra", "sp", "s1", "a1", "a5"], "{l:?}");
    // A call to code outside the program that might call through a pointer it is given
    // opens the world: work is an ABI root again and s0-s11 are live throughout its loop.
    let r = task_report(&pointer_program("\tcall qsort\n"));
    assert!(r.open_world.as_deref().unwrap().contains("qsort"), "{r:?}");
    let l = r
        .loops
        .iter()
        .find(|l| l.function.ends_with(":work"))
        .unwrap();
    for s in ["s0", "s2", "s11"] {
        assert!(l.point_regs.contains(&s), "{l:?}");
    }
    // So does a kernel function that takes a function pointer.
    let kernel_api = func("cactus_irq_attach", "\tret\n");
    let r = task_report(&(pointer_program("\tcall cactus_irq_attach\n") + &kernel_api));
    assert!(r.open_world.is_some(), "{r:?}");
}

#[test]
fn a_call_reads_only_the_arguments_its_callee_reads() {
    // leaf reads a0 only, __adddf3 (libgcc) a0-a3: the loop's other argument registers are
    // never written in it, and are not live (before, every call read a0-a7).
    let body = "\
\taddi sp,sp,-16\n\
\tsw ra,12(sp)\n\
\tli s0,8\n\
.Lloop:\n\
\tmv a0,s0\n\
\tcall leaf\n\
\tmv a0,s0\n\
\tli a1,0\n\
\tli a2,0\n\
\tli a3,0\n\
\tcall __adddf3\n\
\taddi s0,s0,-1\n\
\tbnez s0,.Lloop\n\
\tlw ra,12(sp)\n\
\taddi sp,sp,16\n\
\tret\n";
    let text = func("main_task", body) + &func("leaf", "\taddi a0,a0,1\n\tret\n");
    let r = task_report(&text);
    let l = r
        .loops
        .iter()
        .find(|l| l.function.ends_with(":main_task"))
        .unwrap();
    for a in ["a1", "a2", "a3", "a4", "a5", "a6", "a7"] {
        assert!(!l.point_regs.contains(&a), "{a}: {l:?}");
    }
    for a in ["a4", "a5", "a6", "a7"] {
        assert!(!l.block_regs.contains(&a), "{a}: {l:?}");
    }
    assert_eq!(
        cactus_cc::switch::live::libgcc_args("__adddf3"),
        Some(cactus_isa::RegSet(0b1111 << 10))
    );
    assert_eq!(
        cactus_cc::switch::live::libgcc_args("__floatsidf"),
        Some(cactus_isa::RegSet(1 << 10))
    );
    assert_eq!(cactus_cc::switch::live::libgcc_args("qsort"), None);
}

#[test]
fn a_task_follows_its_stack_calls_through_a_call_by_pointer() {
    // `main` calls one of two loop functions by pointer. Without the task's `stack_calls` the
    // call may reach either (both addresses are taken); with them only the named one's loop
    // belongs to the task.
    let text = func(
        "main",
        "\taddi sp,sp,-16\n\tsw ra,12(sp)\n\tla a5,ja\n\tla a4,jb\n\tbeqz a0,1f\n\tmv a5,a4\n1:\n\tjalr a5\n\tlw ra,12(sp)\n\taddi sp,sp,16\n\tret\n",
    ) + &func("ja", SUM_LOOP)
        + &func("jb", SUM_LOOP);
    let file = AsmFile::parse(&text, "t.s").unwrap();
    let functions = |calls: std::collections::BTreeMap<String, Vec<String>>| {
        let tasks = [TaskEntry {
            task: "t".into(),
            entry: "main".into(),
            calls,
        }];
        let r = switch_report(std::slice::from_ref(&file), &tasks, None).unwrap();
        let mut f: Vec<String> = r[0].loops.iter().map(|l| l.function.clone()).collect();
        f.sort();
        f
    };
    let open = functions(Default::default());
    assert_eq!(open.len(), 2, "{open:?}");
    let named = functions([("main".to_string(), vec!["jb".to_string()])].into());
    assert_eq!(named.len(), 1, "{named:?}");
    assert!(named[0].ends_with("jb"), "{named:?}");
    let any = functions([("*".to_string(), vec!["ja".to_string()])].into());
    assert_eq!(any.len(), 1, "{any:?}");
    assert!(any[0].ends_with("ja"), "{any:?}");
}

#[test]
fn a_tail_call_out_of_the_program_keeps_ra_live() {
    // A leaf that ends in a tail call to code outside the program (GCC's `j memcpy` at the end
    // of pegwit's `reduce`): memcpy returns through ra, so ra is live in the loop even though
    // the function itself never reads it. Without it a partial resume leaves the previous
    // task's ra in place and memcpy returns into that task's code.
    let body = SUM_LOOP.replace("\tret\n", "\tli a2,24\n\ttail memcpy\n");
    let rows = report(
        &(func(
            "main_task",
            "\taddi sp,sp,-16\n\tsw ra,12(sp)\n\tcall work\n\tlw ra,12(sp)\n\taddi sp,sp,16\n\tret\n",
        ) + &func("work", &body)),
        "main_task",
    );
    assert_eq!(rows.len(), 1);
    // The caller reloads its own ra after the call: only the tail call keeps ra live here.
    assert!(rows[0].point_regs.contains(&"ra"), "{:?}", rows[0]);
}
