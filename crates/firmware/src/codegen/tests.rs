//! The generated C: task numbering, wrappers in ticks, trace use by target, determinism.

use super::*;
use crate::manifest::{
    FaultPolicy, Interrupt, InterruptSource, KernelOptions, StackStrategy, Target,
};
use std::path::PathBuf;

fn task(name: &str, entry: &str) -> Task {
    Task {
        name: name.into(),
        sources: vec![PathBuf::from("/x.c")],
        entry: entry.into(),
        priority: 3,
        stack: 512,
        period_ms: None,
        deadline_ms: None,
        start_delay_ms: 0,
        on_fault: FaultPolicy::Kill,
        arg: 0,
        start_suspended: false,
        cflags: vec![],
        include: vec![],
        stack_calls: Default::default(),
        stack_recursion: Default::default(),
    }
}

fn manifest(target: Target) -> Manifest {
    let mut a = task("sensor", "sample");
    a.period_ms = Some(10);
    a.deadline_ms = Some(4);
    a.start_delay_ms = 4;
    a.arg = -1;
    a.on_fault = FaultPolicy::Restart;
    let mut b = task("logger", "log_main");
    b.start_delay_ms = 20;
    Manifest {
        path: PathBuf::from("m.toml"),
        text: String::new(),
        name: "fw".into(),
        init: Some("app_init".into()),
        cflags: vec![],
        include: vec![],
        kernel: KernelOptions {
            stack: StackStrategy::Static,
            tick_hz: 500,
            slice_ticks: 2,
            target,
            pool_kib: None,
            ram_kib: None,
            kstack: None,
            checks: Default::default(),
            mtss_page: None,
            mtss_worst_case: false,
            stacklet_min: None,
            stacklet_cache: None,
            stacklet_learn: None,
            stack_bound: false,
            stacklet_pool: None,
            switch_check: true,
            variants: Vec::new(),
            preempt_traps: None,
            switch: Default::default(),
            switch_poison: None,
            switch_mutate: None,
            switch_budget: None,
            reg_pool: None,
            isolate: false,
            window: Default::default(),
            copier: None,
        },
        tasks: vec![a, b, task("plain", "plain_main")],
        interrupts: vec![
            Interrupt {
                source: InterruptSource::Plic(10),
                handler: "uart_isr".into(),
                priority: 3,
                direct: false,
            },
            Interrupt {
                source: InterruptSource::Software,
                handler: "kick_isr".into(),
                priority: 0,
                direct: false,
            },
        ],
        timers: vec![],
        timer_task: None,
        pools: vec![],
        srp: None,
    }
}

#[test]
fn the_header_numbers_tasks_in_manifest_order() {
    let h = header(&manifest(Target::Sim));
    for want in [
        "#define FW_NAME \"fw\"",
        "#define FW_TICK_HZ 500u",
        "#define FW_NTASKS 3",
        "FW_TASK_SENSOR = 0,",
        "FW_TASK_LOGGER = 1,",
        "FW_TASK_PLAIN = 2,",
        "void cactus_fw_finish(uint32_t code) __attribute__((noreturn));",
    ] {
        assert!(h.contains(want), "{want:?} missing from:\n{h}");
    }
}

#[test]
fn periodic_and_delayed_tasks_get_wrappers_in_ticks() {
    let s = source(&manifest(Target::Sim));
    for want in [
        "void app_init(void);",
        "    app_init();\n",
        "static void fw_run_sensor(void *arg)",
        // At 500 Hz: 4 ms delay = 2 ticks, 10 ms period = 5 ticks, 4 ms deadline = 2 ticks.
        "cactus_sleep(2u); /* start_delay_ms = 4 */",
        "if (cactus_now() - release >= 2u) /* deadline_ms = 4 */",
        "fw_misses[0]++;",
        "cactus_sleep_until(&release, 5u); /* period_ms = 10 */",
        "static void fw_run_logger(void *arg)",
        "cactus_sleep(10u); /* start_delay_ms = 20 */",
        "    log_main(arg);",
        ".name = \"sensor\", .entry = fw_run_sensor, .arg = (void *)(uintptr_t)0xffffffffu,",
        ".stack_size = 512, .prio = 3, .on_fault = CACTUS_ON_FAULT_RESTART },",
        ".name = \"plain\", .entry = plain_main,",
        ".slice_ticks = 2, .tasks = fw_tasks, .ntasks = FW_NTASKS,",
    ] {
        assert!(s.contains(want), "{want:?} missing from:\n{s}");
    }
    assert!(
        !s.contains("fw_run_plain"),
        "a plain task runs its entry directly"
    );
}

#[test]
fn table_entry_is_what_the_task_table_starts() {
    let m = manifest(Target::Sim);
    let s = source(&m);
    let wanted = ["fw_run_sensor", "fw_run_logger", "plain_main"];
    for (t, want) in m.tasks.iter().zip(wanted) {
        assert_eq!(table_entry(t), want);
        let row = format!(".name = \"{}\", .entry = {want},", t.name);
        assert!(s.contains(&row), "{row:?} missing from:\n{s}");
    }
}

#[test]
fn generated_code_never_touches_the_trace_device() {
    // The kernel's trace backend reports every task's high water when the run ends
    // (ktrace_stacks), on whichever machine has the device.
    let sim = source(&manifest(Target::Sim));
    assert!(
        !sim.contains("trace.h") && !sim.contains("cactus_trace_"),
        "{sim}"
    );
    let qemu = source(&manifest(Target::Qemu));
    assert!(
        !qemu.contains("trace.h") && !qemu.contains("cactus_trace_"),
        "{qemu}"
    );
    assert!(qemu.contains("cactus_marker(FW_MARKER_MISSES + (uint32_t)i, fw_misses[i]);"));
}

#[test]
fn generation_is_deterministic() {
    let m = manifest(Target::Sim);
    assert_eq!(source(&m), source(&m));
    assert_eq!(header(&m), header(&m));
    assert_eq!(task_enum("adc_1"), "FW_TASK_ADC_1");
}

#[test]
fn main_attaches_every_interrupt_handler_before_the_kernel_starts() {
    let s = source(&manifest(Target::Qemu));
    for want in [
        "void kick_isr(uint32_t source);",
        "void uart_isr(uint32_t source);",
        "    cactus_irq_attach(10u, uart_isr, 3u, \"uart_isr\");\n",
        "    cactus_irq_attach(CACTUS_IRQ_SOFTWARE, kick_isr, 0u, \"kick_isr\");\n",
    ] {
        assert!(s.contains(want), "{want:?} missing from:\n{s}");
    }
    let attach = s.find("cactus_irq_attach(10u").unwrap();
    assert!(attach < s.find("cactus_start(&cfg)").unwrap());
    assert!(
        attach < s.find("    app_init();").unwrap(),
        "init may enable the devices"
    );
}

#[test]
fn timers_a_timer_task_and_suspended_tasks_are_generated() {
    use crate::manifest::{Timer, TimerTask};
    let mut m = manifest(Target::Sim);
    m.tasks[2].start_suspended = true;
    m.timers = vec![
        Timer {
            name: "blink".into(),
            period_ms: 10,
            callback: "blink_cb".into(),
            periodic: true,
            autostart: true,
        },
        Timer {
            name: "once".into(),
            period_ms: 4,
            callback: "blink_cb".into(),
            periodic: false,
            autostart: false,
        },
    ];
    m.timer_task = Some(TimerTask {
        priority: 30,
        stack: 768,
    });
    let h = header(&m);
    for want in [
        "#define FW_TIMER_TASK 3",
        "extern cactus_timer fw_timers[2];",
        "#define FW_TIMER_BLINK (&fw_timers[0])",
        "#define FW_TIMER_ONCE (&fw_timers[1])",
    ] {
        assert!(h.contains(want), "{want:?} missing from:\n{h}");
    }
    let s = source(&m);
    for want in [
        "void blink_cb(cactus_timer *t);\n\n",
        "cactus_timer fw_timers[2];",
        "static cactus_timer *const fw_autostart[1] = { &fw_timers[0] };",
        "static const cactus_timer_table fw_timer_table = { fw_autostart, 1 };",
        "static const cactus_task_desc fw_tasks[FW_NTASKS + 1] = {",
        ".on_fault = CACTUS_ON_FAULT_KILL, .start = CACTUS_START_SUSPENDED },",
        "{ .name = \"timer_task\", .entry = cactus_timer_task, .arg = (void *)&fw_timer_table,",
        ".stack_size = 768, .prio = 30, .on_fault = CACTUS_ON_FAULT_HALT },",
        // At 500 Hz: 10 ms = 5 ticks, 4 ms = 2 ticks.
        "cactus_timer_init(&fw_timers[0], \"blink\", 5u, 1, blink_cb, 0); /* period_ms = 10 */",
        "cactus_timer_init(&fw_timers[1], \"once\", 2u, 0, blink_cb, 0); /* period_ms = 4 */",
        ".tasks = fw_tasks, .ntasks = FW_NTASKS + 1,",
    ] {
        assert!(s.contains(want), "{want:?} missing from:\n{s}");
    }
    assert_eq!(
        s.matches("CACTUS_START_SUSPENDED").count(),
        1,
        "only the suspended task"
    );
    // Without autostart timers the timer task gets no table.
    m.timers[0].autostart = false;
    let s = source(&m);
    assert!(!s.contains("fw_timer_table"), "{s}");
    assert!(s.contains(".entry = cactus_timer_task, .arg = 0,"), "{s}");
}

#[test]
fn pools_are_declared_allocated_initialised_and_reported() {
    let mut m = manifest(Target::Sim);
    m.pools = vec![
        crate::manifest::Pool {
            name: "rx".into(),
            block: 30,
            count: 8,
        },
        crate::manifest::Pool {
            name: "Big".into(),
            block: 64,
            count: 2,
        },
    ];
    let h = header(&m);
    for want in [
        "extern cactus_pool fw_pool_rx; /* 8 blocks of 32 bytes */",
        "#define FW_POOL_RX (&fw_pool_rx)",
        "#define FW_POOL_BIG (&fw_pool_Big)",
    ] {
        assert!(h.contains(want), "missing {want:?} in\n{h}");
    }
    let c = source(&m);
    for want in [
        "static uint32_t fw_pool_rx_mem[64];",
        "cactus_pool fw_pool_rx;",
        "static uint32_t fw_pool_Big_mem[32];",
        "cactus_pool_init(&fw_pool_rx, fw_pool_rx_mem, 32u, 8u);",
        "cactus_marker(FW_MARKER_POOL_HWM + 1u, cactus_pool_high_water(&fw_pool_Big));",
    ] {
        assert!(c.contains(want), "missing {want:?} in\n{c}");
    }
    // Pools exist before the init function runs.
    let init_pool = c.find("cactus_pool_init(&fw_pool_Big").unwrap();
    assert!(init_pool < c.find("    app_init();").unwrap(), "{c}");
    // Without pools nothing of them is generated (the pool code is then not linked).
    let plain = source(&manifest(Target::Sim));
    assert!(!plain.contains("cactus_pool"), "{plain}");
    assert!(!header(&manifest(Target::Sim)).contains("cactus_pool"));
}
