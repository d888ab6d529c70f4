/* Link-time variant variants/fault_halt.c (linked before the library by kernel/Makefile's
 * variant_% rule): every fault halts. A task whose policy is "kill" executes an illegal
 * instruction: the fault hook is not called, the task is not killed, the system halts with
 * the HALT report given to the halt hook (action HALT, the task, cause and pc). */
#include "ktest.h"

const char ktest_name[] = "variant_fault_halt";

static int fault_hook_calls;
extern const char bad_insn[];

static void fault_hook(const cactus_fault *f)
{
    (void)f;
    fault_hook_calls++;
}

static void halt_hook(const cactus_fault *f)
{
    CHECK(f != 0);
    CHECK_EQ(fault_hook_calls, 0);
    CHECK_EQ(f->reason, CACTUS_FAULT_EXCEPTION);
    CHECK_EQ(f->action, CACTUS_ON_FAULT_HALT);
    CHECK_EQ(f->task, 0);
    CHECK_EQ(f->cause, 2); /* illegal instruction */
    CHECK_EQ(f->pc, (uintptr_t)bad_insn);
    KLOG_EXPECT("F");
    ktest_pass();
}

static void faulty(void *arg)
{
    (void)arg;
    klog('F');
    __asm__ volatile(".globl bad_insn\nbad_insn: .word 0" ::: "memory");
    klog('!');
}

static void bystander(void *arg)
{
    (void)arg;
    klog('B');
    ktest_fail(__FILE__, __LINE__, "the system ran on after a fault");
}

static const cactus_task_desc tasks[] = {
    { .name = "faulty", .entry = faulty, .stack_size = 1024, .prio = 5,
      .on_fault = CACTUS_ON_FAULT_KILL },
    { .name = "bystander", .entry = bystander, .stack_size = 1024, .prio = 2 },
};

int main(void)
{
    static cactus_config cfg = { .tick_hz = 1000, .slice_ticks = 1, .tasks = tasks, .ntasks = 2,
                                 .fault_hook = fault_hook, .halt_hook = halt_hook };
    ktest_start_cfg(&cfg);
}
