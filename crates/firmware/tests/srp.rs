//! The SRP scheduling mode (`kernel.scheduler = "srp"`, docs/srp.md) through real builds:
//! a job-shaped firmware is accepted, builds with the dispatcher linked and runs on cactus-sim
//! with its jobs nested on the one shared stack (releases, dispatches and preemptions counted,
//! the shared stack's high water reported); a manifest whose job can reach a blocking call
//! (directly, through a helper, or through an annotated function pointer) is refused at build
//! time naming the task, the call and the path; an unannotated indirect call is refused with
//! the annotation to write; a call with CACTUS_NO_WAIT is accepted; a preemptive firmware links
//! no SRP code. Skipped (with a message) only when riscv64-unknown-elf-gcc is not installed.

use crate::support::{have_gcc, options, run_elf, symbols};
use cactus_firmware::codegen::{MARKER_RELEASES, MARKER_SRP};
use cactus_firmware::{build, BuildError, Manifest};
use cactus_sim::{EventKind, RunOutcome};
use std::path::Path;

/// A fast job (every tick) and a slow one (every 5 ms) that spins long enough to be preempted
/// by the fast one from the tick; the slow one ends the run after 4 releases. (`FW_SRP`: the
/// same source also builds under the preemptive scheduler.)
const GOOD: &str = "#include \"cactus_firmware.h\"\n\
    static volatile unsigned fast_runs;\n\
    void fast(void *arg) { (void)arg; fast_runs++; }\n\
    void slow(void *arg) {\n\
        (void)arg;\n\
        static unsigned runs;\n\
        unsigned seen = fast_runs;\n\
        while (fast_runs == seen) ;\n\
        if (++runs < 4) return;\n\
    #ifdef FW_SRP\n\
        cactus_fw_finish(cactus_srp_preemptions() > 0 ? 0 : 9);\n\
    #else\n\
        cactus_fw_finish(0);\n\
    #endif\n\
    }\n";

fn manifest(dir: &Path, source: &str, extra_task: &str) -> Manifest {
    std::fs::write(dir.join("jobs.c"), source).unwrap();
    let text = format!(
        "[firmware]\nname = \"jobs\"\n[kernel]\nscheduler = \"srp\"\n\
         [[task]]\nname = \"fast\"\nsources = [\"jobs.c\"]\nentry = \"fast\"\n\
         priority = 9\nstack = 256\nperiod_ms = 1\n\
         [[task]]\nname = \"slow\"\nsources = [\"jobs.c\"]\nentry = \"slow\"\n\
         priority = 3\nstack = 512\nperiod_ms = 5\ndeadline_ms = 5\n{extra_task}"
    );
    let path = dir.join("jobs.toml");
    std::fs::write(&path, &text).unwrap();
    Manifest::load(&path).unwrap()
}

#[test]
fn a_job_shaped_firmware_runs_its_jobs_nested_on_one_stack() {
    if !have_gcc() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let m = manifest(dir.path(), GOOD, "");
    let srp = m.srp.as_ref().unwrap();
    // Computed from the budgets: two levels, 256 + 512 bytes and one trap frame.
    assert_eq!((srp.stack, srp.stack_given), (256 + 512 + 80, false));
    assert_eq!(m.kernel_tasks(), 1);
    let built = build(&m, &options(out.path())).unwrap();
    assert!(symbols(&built.elf).contains("port_srp_preempt"));
    let (machine, outcome) = run_elf(&built.elf, |c| {
        c.max_cycles = Some(200_000_000);
        c.record_events = true;
    });
    assert!(
        matches!(outcome, RunOutcome::Exited { code: 0 }),
        "{outcome:?}"
    );
    let marker = |want: u32| {
        machine.events().iter().rev().find_map(|e| match e.kind {
            EventKind::Marker { id, value } if id == want => Some(value),
            _ => None,
        })
    };
    let slow_releases = marker(MARKER_RELEASES + 1).unwrap();
    assert_eq!(slow_releases, 4);
    let fast_releases = marker(MARKER_RELEASES).unwrap();
    assert!(fast_releases >= 15, "{fast_releases}");
    let (dispatches, preemptions) = (marker(MARKER_SRP).unwrap(), marker(MARKER_SRP + 1).unwrap());
    assert!(
        dispatches >= fast_releases + 3 && preemptions > 0,
        "{dispatches} {preemptions}"
    );
    // One kernel task: the dispatcher, whose stack high water is the shared stack's.
    let stats = machine.stats();
    assert_eq!(stats.tasks.len(), 1);
    let hwm = stats.tasks[0].stack_hwm;
    assert!(hwm > 0 && hwm <= 256 + 512 + 80, "{hwm}");
}

/// The refusal's message, or a panic if the build was not refused for an SRP job.
fn refusal(source: &str, extra_task: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let m = manifest(dir.path(), source, extra_task);
    match build(&m, &options(out.path())) {
        Err(e @ BuildError::SrpJob { .. }) => e.to_string(),
        Err(e) => panic!("refused for another reason: {e}"),
        Ok(b) => panic!("built {}", b.elf.display()),
    }
}

#[test]
fn a_job_that_can_block_is_refused_with_the_task_call_and_path() {
    if !have_gcc() {
        return;
    }
    // Through a helper: the path names it.
    let src = format!(
        "{GOOD}static cactus_sem s;\n\
         __attribute__((noinline)) void wait_input(void) {{ cactus_sem_take(&s, 10); }}\n\
         void poll(void *arg) {{ (void)arg; wait_input(); }}\n"
    );
    let poll = "[[task]]\nname = \"poller\"\nsources = [\"jobs.c\"]\nentry = \"poll\"\n\
                priority = 5\nstack = 256\nperiod_ms = 2\n";
    let e = refusal(&src, poll);
    assert!(
        e.contains("task poller") && e.contains("cactus_sem_take"),
        "{e}"
    );
    assert!(e.contains("poll -> wait_input -> cactus_sem_take"), "{e}");
    // A sleep blocks whatever its argument.
    let src = format!("{GOOD}void poll(void *arg) {{ (void)arg; cactus_sleep(1); }}\n");
    let e = refusal(&src, poll);
    assert!(
        e.contains("task poller") && e.contains("cactus_sleep"),
        "{e}"
    );
}

#[test]
fn indirect_calls_follow_the_annotation_or_are_refused_with_how_to_annotate() {
    if !have_gcc() {
        return;
    }
    let src = format!(
        "{GOOD}typedef void (*hook_t)(void);\n\
         void nap(void) {{ cactus_sleep(2); }}\n\
         void quiet(void) {{ }}\n\
         volatile hook_t hook = quiet;\n\
         void poll(void *arg) {{ (void)arg; hook(); }}\n"
    );
    let task = "[[task]]\nname = \"poller\"\nsources = [\"jobs.c\"]\nentry = \"poll\"\n\
                priority = 5\nstack = 256\nperiod_ms = 2\n";
    let e = refusal(&src, task);
    assert!(
        e.contains("indirect call in poll") && e.contains("stack_calls = { poll = ["),
        "{e}"
    );
    let e = refusal(
        &src,
        &format!("{task}stack_calls = {{ poll = [\"quiet\", \"nap\"] }}\n"),
    );
    assert!(e.contains("poll -> nap -> cactus_sleep"), "{e}");
    // Annotated with a harmless target only: accepted.
    let dir = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let m = manifest(
        dir.path(),
        &src,
        &format!("{task}stack_calls = {{ poll = [\"quiet\"] }}\n"),
    );
    build(&m, &options(out.path())).unwrap();
}

#[test]
fn a_no_wait_call_is_accepted_and_preemptive_firmware_links_no_srp_code() {
    if !have_gcc() {
        return;
    }
    let src = format!(
        "{GOOD}static cactus_sem s;\n\
         void poll(void *arg) {{ (void)arg; cactus_sem_take(&s, CACTUS_NO_WAIT); }}\n"
    );
    let task = "[[task]]\nname = \"poller\"\nsources = [\"jobs.c\"]\nentry = \"poll\"\n\
                priority = 5\nstack = 256\nperiod_ms = 2\n";
    let dir = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let m = manifest(dir.path(), &src, task);
    build(&m, &options(out.path())).unwrap();
    // The same tasks under the preemptive scheduler: no dispatcher, no trampoline.
    let text = std::fs::read_to_string(&m.path)
        .unwrap()
        .replace("scheduler = \"srp\"", "");
    std::fs::write(&m.path, text).unwrap();
    let plain = Manifest::load(&m.path).unwrap();
    assert!(plain.srp.is_none());
    let built = build(&plain, &options(out.path())).unwrap();
    let syms = symbols(&built.elf);
    assert!(!syms.contains("port_srp_preempt") && !syms.contains("k_srp_clock"));
}
