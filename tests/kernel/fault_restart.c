/* Fault policy "restart": a task that loads from an unmapped address is restarted from its
 * entry on a fresh stack (same id), once per fault, until it stops faulting. */
#include "ktest.h"

const char ktest_name[] = "fault_restart";

static int hook_calls, runs;
/* Unmapped on QEMU virt and on the cactus-sim default machine. */
static volatile uintptr_t unmapped = 0x4;
static uint32_t causes[4];

static void hook(const cactus_fault *f)
{
    CHECK_EQ(f->action, CACTUS_ON_FAULT_RESTART);
    causes[hook_calls++ & 3] = f->cause;
}

static void flaky(void *arg)
{
    (void)arg;
    runs++;
    klog('0' + runs);
    if (runs <= 2) {
        volatile uint32_t *nowhere = (volatile uint32_t *)unmapped;
        (void)*nowhere; /* load access fault */
    } else if (runs == 3) {
        volatile uint32_t *nowhere = (volatile uint32_t *)unmapped;
        *nowhere = 1; /* store access fault */
    }
    klog('D');
}

static void checker(void *arg)
{
    (void)arg;
    CHECK_EQ(hook_calls, 3);
    CHECK_EQ(causes[0], 5);
    CHECK_EQ(causes[1], 5);
    CHECK_EQ(causes[2], 7);
    CHECK_EQ(runs, 4);
    CHECK_EQ(cactus_task_state(0), CACTUS_TASK_EXITED);
    KLOG_EXPECT("1234D");
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "flaky", .entry = flaky, .stack_size = 1024, .prio = 5,
      .on_fault = CACTUS_ON_FAULT_RESTART },
    { .name = "checker", .entry = checker, .stack_size = 1024, .prio = 2 },
};

int main(void)
{
    static cactus_config cfg = { .tick_hz = 1000, .slice_ticks = 1, .tasks = tasks, .ntasks = 2,
                                 .fault_hook = hook };
    ktest_start_cfg(&cfg);
}
