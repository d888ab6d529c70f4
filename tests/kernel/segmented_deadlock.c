/* Every live task waits for stack memory (kernel/stack/segmented.c, core/policy.c) on a heap
 * of 8 KiB: `a` holds a 4000-byte stacklet and `b` a 1500-byte one, then each asks for 3000
 * bytes more. No release can come, so the kernel reports a deadlock and stops with
 * CACTUS_EXIT_HALT (the halt hook, called with no fault, checks both tasks wait and ends the
 * test) instead of hanging until the waits time out. */
#include "ktest.h"

#ifndef KTEST_NAME
#define KTEST_NAME "segmented_deadlock"
#endif
const char ktest_name[] = KTEST_NAME;

static volatile int a_holding, b_holding, entered;

static uint32_t __attribute__((noinline)) more(uint32_t seed)
{
    volatile uint8_t buf[3000];
    entered = 1;
    buf[seed % sizeof(buf)] = 1;
    return buf[0];
}

static uint32_t __attribute__((noinline)) hold_a(uint32_t seed)
{
    volatile uint8_t buf[4000];
    buf[seed % sizeof(buf)] = 1;
    a_holding = 1;
    cactus_sleep(5); /* b takes its stacklet and starts waiting */
    return more(seed) + buf[0];
}

static uint32_t __attribute__((noinline)) hold_b(uint32_t seed)
{
    volatile uint8_t buf[1500];
    buf[seed % sizeof(buf)] = 1;
    b_holding = 1;
    return more(seed) + buf[0];
}

static void a(void *arg)
{
    (void)arg;
    hold_a(1);
}
static void b(void *arg)
{
    (void)arg;
    while (!a_holding)
        cactus_sleep(1);
    hold_b(2);
}

static void halt_hook(const cactus_fault *f)
{
    CHECK(f == 0); /* a stop, not a fault */
    CHECK(a_holding && b_holding);
    CHECK_EQ(entered, 0);
    CHECK_EQ(cactus_task_state(1), CACTUS_TASK_BLOCKED); /* b waits; a found the deadlock */
    CHECK_EQ(cactus_task_state(0), CACTUS_TASK_RUNNING);
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "a", .entry = a, .stack_size = 256, .prio = 8, .on_fault = CACTUS_ON_FAULT_KILL },
    { .name = "b", .entry = b, .stack_size = 256, .prio = 7, .on_fault = CACTUS_ON_FAULT_KILL },
};

int main(void)
{
    static cactus_config cfg = { .tasks = tasks, .ntasks = 2, .tick_hz = 1000, .slice_ticks = 1,
                                 .halt_hook = halt_hook };
    ktest_start_cfg(&cfg);
}
