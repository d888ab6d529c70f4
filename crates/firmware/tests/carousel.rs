//! SRP jobs invoked through Carousel (`kernel.carousel = true`, docs/carousel.md "Under the
//! kernel's SRP dispatcher") through real builds: the manifest key is refused without the srp
//! scheduler, with stack checks or for QEMU; a firmware is laid out with each task's code,
//! data and stack in block-aligned regions of external RAM and its descriptor table, and runs
//! on `carousel-paper` with every job on its own stack, its code fetched from the SPM and its
//! data written back between jobs; a job preempted from the tick near the bottom of its own
//! stack finds its stack and the data blocks below it intact (the trap's frame and the nested
//! job went onto the shared stack, not below its sp); a task whose blocks exceed the Carousel
//! is a build error naming the task and its sizes. Skipped (with a message) only when riscv64-unknown-elf-gcc is
//! not installed.

use crate::support::{have_gcc, options};
use cactus_firmware::carousel_link::{layout, BLOCKS, BLOCK_BYTES};
use cactus_firmware::{build, BuildError, Manifest};
use cactus_sim::{Machine, MachineConfig, Profile, RunOutcome};
use std::path::Path;

/// The worker: a table in its constants (code blocks), a counter and the sp it ran on in its
/// data (data blocks; a leaf, it runs at its stack's top). The end job checks them once the worker ran 5 times.
const WORKER: &str = "#include \"cactus_firmware.h\"\n\
    static const unsigned table[TABLE] = { 3, 5, 7 };\n\
    volatile unsigned worker_runs, worker_sum, worker_sp;\n\
    void worker(void *arg) {\n\
        (void)arg;\n\
        unsigned sp;\n\
        __asm__ volatile(\"mv %0, sp\" : \"=r\"(sp));\n\
        worker_sp = sp;\n\
        worker_sum += table[worker_runs % 3];\n\
        worker_runs++;\n\
    }\n";

const END: &str = "#include \"cactus_firmware.h\"\n\
    extern volatile unsigned worker_runs, worker_sum, worker_sp;\n\
    extern const char __cactus_car_stack_low_0[], __cactus_car_stack_0[];\n\
    void end(void *arg) {\n\
        (void)arg;\n\
        if (worker_runs < 5) return;\n\
        unsigned want = 0;\n\
        for (unsigned i = 0; i < worker_runs; i++) want += i % 3 == 0 ? 3 : i % 3 == 1 ? 5 : 7;\n\
        int on_own_stack = worker_sp > (unsigned)__cactus_car_stack_low_0 &&\n\
                           worker_sp <= (unsigned)__cactus_car_stack_0;\n\
        cactus_fw_finish(worker_sum != want ? 7 : !on_own_stack ? 8 : 0);\n\
    }\n";

fn manifest(dir: &Path, kernel: &str, table: u32) -> Result<Manifest, String> {
    std::fs::write(dir.join("worker.c"), WORKER).unwrap();
    std::fs::write(dir.join("end.c"), END).unwrap();
    let text = format!(
        "[firmware]\nname = \"car\"\ncflags = [\"-DTABLE={table}\"]\n\
         [kernel]\nscheduler = \"srp\"\ncarousel = true\n{kernel}\n\
         [[task]]\nname = \"worker\"\nsources = [\"worker.c\"]\nentry = \"worker\"\n\
         priority = 9\nstack = 200\nperiod_ms = 1\n\
         [[task]]\nname = \"end\"\nsources = [\"end.c\"]\nentry = \"end\"\n\
         priority = 3\nstack = 512\nperiod_ms = 2\n"
    );
    let path = dir.join("car.toml");
    std::fs::write(&path, &text).unwrap();
    Manifest::load(&path).map_err(|e| e.to_string())
}

#[test]
fn the_key_is_refused_where_carousel_cannot_work() {
    let dir = tempfile::tempdir().unwrap();
    let e = manifest(dir.path(), "", 3).unwrap();
    assert!(e.srp.as_ref().unwrap().carousel);
    // The shared stack holds no job's stack: the dispatcher's frames and one part per level.
    assert_eq!(e.srp.as_ref().unwrap().stack, 256 + 2 * 512);
    let refused = |kernel: &str, want: &str| {
        let err = manifest(dir.path(), kernel, 3).unwrap_err();
        assert!(
            err.contains("kernel.carousel") && err.contains(want),
            "{kernel}: {err}"
        );
    };
    refused("checks = \"detect\"", "checks = \"none\"");
    refused("target = \"qemu\"", "target = \"sim\"");
    let text = "[firmware]\nname = \"x\"\n[kernel]\ncarousel = true\n[[task]]\nname = \"a\"\n\
                sources = [\"worker.c\"]\nentry = \"worker\"\npriority = 1\nstack = 256\n";
    let path = dir.path().join("x.toml");
    std::fs::write(&path, text).unwrap();
    let err = Manifest::load(&path).unwrap_err().to_string();
    assert!(err.contains("kernel.scheduler = \"srp\""), "{err}");
}

#[test]
fn jobs_run_from_their_blocks_on_the_carousel_machine() {
    if !have_gcc() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let m = manifest(dir.path(), "", 3).unwrap();
    let built = build(&m, &options(out.path())).unwrap();
    let bytes = std::fs::read(&built.elf).unwrap();
    let l = layout(&bytes, &m).unwrap();
    assert_eq!(l.len(), 2);
    // 200 bytes of stack: two blocks; 512: four. The worker's code and data are its own, in
    // whole blocks of external RAM; the end job's table references nothing of the worker's.
    assert_eq!((l[0].stack_blocks, l[1].stack_blocks), (2, 4));
    assert!(l[0].code_blocks >= 1 && l[0].data_blocks >= 1, "{l:?}");
    assert_eq!(l[0].code % BLOCK_BYTES, 0);
    assert!(l[0].code >= 0x8000_0000);
    let mut config = MachineConfig::new(Profile::builtin("carousel-paper").unwrap());
    config.max_cycles = Some(100_000_000);
    let mut machine = Machine::new(config);
    machine.load_elf(&bytes).unwrap();
    let outcome = machine.run_to_end();
    assert!(
        matches!(outcome, RunOutcome::Exited { code: 0 }),
        "{outcome:?}"
    );
    let memsys = machine.stats().memory_system.unwrap();
    assert!(memsys.spm_fetches > 0 && memsys.spm_data > 0, "{memsys:?}");
}

#[test]
fn a_task_that_does_not_fit_is_a_build_error_with_its_sizes() {
    if !have_gcc() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    // A 2 KiB table: 16 code blocks before the stack's two.
    let m = manifest(dir.path(), "", 512).unwrap();
    let err = build(&m, &options(out.path())).unwrap_err();
    assert!(matches!(err, BuildError::Carousel { .. }), "{err}");
    let text = err.to_string();
    assert!(
        text.contains("task worker does not fit the Carousel")
            && text.contains("stack 256 bytes (2 blocks)")
            && text.contains(&format!("the Carousel has {BLOCKS}")),
        "{text}"
    );
    assert!(!text.contains("task end"), "{text}");
}

/// The low job fills most of its two stack blocks and spins until the tick has released the
/// high job nested in it; its data is one block (a guard of 32 words) right below its stack.
const LOW: &str = "#include \"cactus_firmware.h\"\n\
    extern volatile unsigned hi_runs, low_runs, low_bad;\n\
    static volatile unsigned guard[32] = { [0 ... 31] = 0x5a5a5a5au };\n\
    void low(void *arg) {\n\
        (void)arg;\n\
        volatile unsigned char buf[192];\n\
        for (unsigned i = 0; i < sizeof buf; i++) buf[i] = (unsigned char)(i * 7u + 1u);\n\
        unsigned seen = hi_runs;\n\
        while (hi_runs == seen) ;\n\
        for (unsigned i = 0; i < sizeof buf; i++) low_bad |= buf[i] != (unsigned char)(i * 7u + 1u);\n\
        for (unsigned i = 0; i < 32; i++) low_bad |= (guard[i] != 0x5a5a5a5au) << 1;\n\
        low_runs++;\n\
    }\n";

const HIGH: &str = "volatile unsigned hi_runs;\nvoid high(void *arg) { (void)arg; hi_runs++; }\n";

const CHECK: &str = "#include \"cactus_firmware.h\"\n\
    volatile unsigned low_runs, low_bad;\n\
    void check(void *arg) {\n\
        (void)arg;\n\
        if (low_runs < 3) return;\n\
        cactus_fw_finish(low_bad ? 10 + low_bad : cactus_srp_preemptions() ? 0 : 9);\n\
    }\n";

#[test]
fn a_preempted_job_keeps_its_stack_and_the_data_below_it() {
    if !have_gcc() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    for (file, text) in [("low.c", LOW), ("high.c", HIGH), ("check.c", CHECK)] {
        std::fs::write(dir.path().join(file), text).unwrap();
    }
    let text = "[firmware]\nname = \"nest\"\n[kernel]\nscheduler = \"srp\"\ncarousel = true\n\
        [[task]]\nname = \"high\"\nsources = [\"high.c\"]\nentry = \"high\"\npriority = 9\n\
        stack = 256\nperiod_ms = 1\n\
        [[task]]\nname = \"low\"\nsources = [\"low.c\"]\nentry = \"low\"\npriority = 3\n\
        stack = 256\nperiod_ms = 3\n\
        [[task]]\nname = \"check\"\nsources = [\"check.c\"]\nentry = \"check\"\n\
        priority = 1\nstack = 512\nperiod_ms = 5\n";
    let path = dir.path().join("nest.toml");
    std::fs::write(&path, text).unwrap();
    let m = Manifest::load(&path).unwrap();
    let built = build(&m, &options(out.path())).unwrap();
    let bytes = std::fs::read(&built.elf).unwrap();
    // The guard is low's one data block, right below its stack blocks.
    let l = layout(&bytes, &m).unwrap();
    assert_eq!((l[1].data_bytes, l[1].data_blocks), (128, 1), "{l:?}");
    let mut config = MachineConfig::new(Profile::builtin("carousel-paper").unwrap());
    config.max_cycles = Some(100_000_000);
    let mut machine = Machine::new(config);
    machine.load_elf(&bytes).unwrap();
    let outcome = machine.run_to_end();
    assert!(
        matches!(outcome, RunOutcome::Exited { code: 0 }),
        "{outcome:?} (11: low's stack changed, 12: its data below it, 9: never preempted)"
    );
}
