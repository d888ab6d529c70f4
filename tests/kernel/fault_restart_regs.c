/* Fault policy "restart" taken from a trap while the task's callee-saved registers hold values
 * of its own: the restarted task starts from its entry on a fresh stack and, when its entry
 * returns, exits (port_task_return_to must not depend on a register that the trap exit leaves
 * as the faulting code had it). */
#include "ktest.h"

const char ktest_name[] = "fault_restart_regs";

static int hook_calls, runs;

static void hook(const cactus_fault *f)
{
    CHECK_EQ(f->action, CACTUS_ON_FAULT_RESTART);
    hook_calls++;
}

static void flaky(void *arg)
{
    (void)arg;
    runs++;
    klog('0' + runs);
    if (runs == 1) {
        /* Every callee-saved register holds an address of nothing mapped when the load faults
         * (a load access fault at 0x4, on QEMU virt and on cactus-sim). */
        __asm__ volatile("li s0, 4\n\tli s1, 4\n\tli s2, 4\n\tli s3, 4\n\tli s4, 4\n\t"
                         "li s5, 4\n\tli s6, 4\n\tli s7, 4\n\tli s8, 4\n\tli s9, 4\n\t"
                         "li s10, 4\n\tli s11, 4\n\tlw t0, 0(s1)"
                         :
                         :
                         : "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10",
                           "s11", "t0", "memory");
    }
    klog('R'); /* the entry returns: the task exits */
}

static void checker(void *arg)
{
    (void)arg;
    CHECK_EQ(hook_calls, 1);
    CHECK_EQ(runs, 2);
    CHECK_EQ(cactus_task_state(0), CACTUS_TASK_EXITED);
    KLOG_EXPECT("12R");
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
