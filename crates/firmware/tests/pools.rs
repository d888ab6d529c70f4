//! Manifest pools and `kernel.switch_check` in a real firmware: the generated pools are
//! initialised before the init function, task code allocates and frees through `FW_POOL_<NAME>`,
//! blocks are the manifest's size rounded up to words, the high water reaches the end-of-run
//! markers, and a `static` kernel without its switch-time check still switches tasks on
//! cactus-sim. A firmware without pools links no pool code. Skipped (with a message) only when
//! riscv64-unknown-elf-gcc is not installed.

use crate::support::{have_gcc, options, run_elf, symbols};
use cactus_firmware::codegen::MARKER_POOL_HWM;
use cactus_firmware::{build, Manifest};
use cactus_sim::{EventKind, RunOutcome};
use std::path::Path;

/// `init` takes three rx blocks before any task runs (the pool exists by then); the producer
/// (higher) frees them and then hands blocks to the consumer through a queue while the consumer
/// frees them; every block is 32 bytes apart (30 rounded up). Exit 0 when all checks hold.
const SOURCE: &str = "#include \"cactus_firmware.h\"\n\
    static void *early[3];\n\
    static cactus_queue q;\n\
    static void *slots[4];\n\
    void app_init(void) {\n\
        for (int i = 0; i < 3; i++) early[i] = cactus_pool_alloc(FW_POOL_RX, CACTUS_NO_WAIT);\n\
        cactus_queue_init(&q, slots, sizeof(void *), 4);\n\
    }\n\
    void producer(void *arg) {\n\
        (void)arg;\n\
        for (int i = 0; i < 3; i++) {\n\
            if (!early[i]) cactus_fw_finish(10);\n\
            if (i && (uint8_t *)early[i] - (uint8_t *)early[i - 1] != 32) cactus_fw_finish(11);\n\
            if (cactus_pool_free(FW_POOL_RX, early[i]) != CACTUS_OK) cactus_fw_finish(12);\n\
        }\n\
        if (cactus_pool_free(FW_POOL_RX, (uint8_t *)early[0] + 4) != CACTUS_EINVAL) cactus_fw_finish(13);\n\
        for (int i = 0; i < 20; i++) {\n\
            void *b = cactus_pool_alloc(FW_POOL_RX, CACTUS_FOREVER);\n\
            cactus_queue_send(&q, &b, CACTUS_FOREVER);\n\
            cactus_yield();\n\
        }\n\
    }\n\
    void consumer(void *arg) {\n\
        (void)arg;\n\
        for (int i = 0; i < 20; i++) {\n\
            void *b;\n\
            cactus_queue_recv(&q, &b, CACTUS_FOREVER);\n\
            if (cactus_pool_free(FW_POOL_RX, b) != CACTUS_OK) cactus_fw_finish(14);\n\
            cactus_yield();\n\
        }\n\
        cactus_fw_finish(cactus_pool_high_water(FW_POOL_TX) == 0 ? 0 : 15);\n\
    }\n";

fn manifest(dir: &Path, extra_kernel: &str, pools: &str) -> Manifest {
    std::fs::write(dir.join("pools.c"), SOURCE).unwrap();
    let text = format!(
        "[firmware]\nname = \"pools\"\ninit = \"app_init\"\n[kernel]\ntarget = \"sim\"\n\
         {extra_kernel}\n\
         [[task]]\nname = \"producer\"\nsources = [\"pools.c\"]\nentry = \"producer\"\n\
         priority = 3\nstack = 512\n\
         [[task]]\nname = \"consumer\"\nsources = [\"pools.c\"]\nentry = \"consumer\"\n\
         priority = 3\nstack = 512\n{pools}"
    );
    let path = dir.join("pools.toml");
    std::fs::write(&path, &text).unwrap();
    Manifest::load(&path).unwrap()
}

const POOLS: &str = "[[pool]]\nname = \"rx\"\nblock = 30\ncount = 4\n\
                     [[pool]]\nname = \"tx\"\nblock = 8\ncount = 2\n";

#[test]
fn manifest_pools_work_and_report_their_high_water_without_the_switch_check() {
    if !have_gcc() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let m = manifest(dir.path(), "switch_check = false", POOLS);
    let built = build(&m, &options(out.path())).unwrap();
    let (machine, outcome) = run_elf(&built.elf, |c| {
        c.max_cycles = Some(200_000_000);
        c.record_events = true;
    });
    assert!(
        matches!(outcome, RunOutcome::Exited { code: 0 }),
        "{outcome:?}"
    );
    let hwm = |i: u32| {
        machine.events().iter().rev().find_map(|e| match e.kind {
            EventKind::Marker { id, value } if id == MARKER_POOL_HWM + i => Some(value),
            _ => None,
        })
    };
    // init took 3 at once; later at most 1 or 2 are in flight.
    assert_eq!((hwm(0), hwm(1)), (Some(3), Some(0)));
    // The kernel was built without the check: its variant's directory says so.
    assert_eq!(m.kernel.variant_dir().as_deref(), Some("nocheck"));
    assert!(symbols(&built.elf).contains("cactus_pool_free"));
}

#[test]
fn a_firmware_without_pools_links_no_pool_code() {
    if !have_gcc() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("plain.c"),
        "#include \"cactus_firmware.h\"\nvoid body(void *arg) { (void)arg; cactus_fw_finish(0); }\n",
    )
    .unwrap();
    let path = dir.path().join("plain.toml");
    std::fs::write(
        &path,
        "[firmware]\nname = \"plain\"\n[[task]]\nname = \"a\"\nsources = [\"plain.c\"]\n\
         entry = \"body\"\npriority = 1\nstack = 256\n",
    )
    .unwrap();
    let built = build(&Manifest::load(&path).unwrap(), &options(out.path())).unwrap();
    let syms = symbols(&built.elf);
    assert!(!syms.contains("cactus_pool"), "{syms}");
}
