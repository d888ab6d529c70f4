/* Fault policy "kill": an illegal instruction terminates only the faulting task; the fault
 * hook gets the cause and pc; the others carry on. */
#include "ktest.h"

const char ktest_name[] = "fault_kill";

static cactus_fault seen;
static int hook_calls;
extern const char bad_insn[];

static void hook(const cactus_fault *f)
{
    seen = *f;
    hook_calls++;
}

static void faulty(void *arg)
{
    (void)arg;
    klog('F');
    __asm__ volatile(".globl bad_insn\nbad_insn: .word 0" ::: "memory");
    klog('!');
}

static void survivor(void *arg)
{
    (void)arg;
    klog('S');
    CHECK_EQ(hook_calls, 1);
    CHECK_EQ(seen.reason, CACTUS_FAULT_EXCEPTION);
    CHECK_EQ(seen.action, CACTUS_ON_FAULT_KILL);
    CHECK_EQ(seen.task, 0);
    CHECK_EQ(seen.cause, 2); /* illegal instruction */
    CHECK_EQ(seen.pc, (uintptr_t)bad_insn);
    CHECK_EQ(cactus_task_state(0), CACTUS_TASK_FAULTED);
    KLOG_EXPECT("FS");
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "faulty", .entry = faulty, .stack_size = 1024, .prio = 5,
      .on_fault = CACTUS_ON_FAULT_KILL },
    { .name = "survivor", .entry = survivor, .stack_size = 1024, .prio = 2 },
};

int main(void)
{
    static cactus_config cfg = { .tick_hz = 1000, .slice_ticks = 1, .tasks = tasks, .ntasks = 2,
                                 .fault_hook = hook };
    ktest_start_cfg(&cfg);
}
