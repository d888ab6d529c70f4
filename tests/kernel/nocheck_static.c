/* The `static` strategy built without its switch-time stack check (CACTUS_SWITCH_CHECK=0,
 * manifest `kernel.switch_check = false`) still runs: yields, a blocking semaphore hand-off and
 * timer preemption between two tasks. One task breaks its own canary (the guard word below
 * its stack limit) first: with the check on it would be killed at its first switch
 * (CACTUS_FAULT_STACK_GUARD) and the log would show only the other task; off, both run to the
 * end. The write into the guard is the test's own doing, so the oracle may count it. */
#include "ktest.h"

const char ktest_name[] = "nocheck_static";

static cactus_sem to_b, to_a;
static volatile int spin_done;

static void task_a(void *arg)
{
    (void)arg;
    cactus_stack_info st;
    CHECK_EQ(cactus_task_stack(cactus_task_self(), &st), CACTUS_OK);
    ((volatile uint32_t *)st.limit)[-1] = 0xBADC0DEu; /* the canary */
    for (int i = 0; i < 3; i++) {
        klog('A');
        cactus_yield();
    }
    for (int i = 0; i < 3; i++) {
        klog('a');
        cactus_sem_give(&to_b);
        CHECK_EQ(cactus_sem_take(&to_a, CACTUS_FOREVER), CACTUS_OK);
    }
    CHECK_EQ(cactus_task_state(cactus_task_self()), CACTUS_TASK_RUNNING);
}

static void task_b(void *arg)
{
    (void)arg;
    for (int i = 0; i < 3; i++) {
        klog('B');
        cactus_yield();
    }
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(cactus_sem_take(&to_b, CACTUS_FOREVER), CACTUS_OK);
        klog('b');
        cactus_sem_give(&to_a);
    }
    /* timer preemption: the sleeper (higher) preempts a spin twice */
    while (!spin_done) {
    }
    KLOG_EXPECT("ABABABabababSS");
    CHECK(cactus_task_state(0) == CACTUS_TASK_EXITED);
    ktest_pass();
}

static void sleeper(void *arg)
{
    (void)arg;
    cactus_sleep(20);
    klog('S');
    cactus_sleep(1);
    klog('S');
    spin_done = 1;
}

static const cactus_task_desc tasks[] = {
    { .name = "a", .entry = task_a, .stack_size = 1024, .prio = 3 },
    { .name = "b", .entry = task_b, .stack_size = 1024, .prio = 3 },
    { .name = "sleeper", .entry = sleeper, .stack_size = 1024, .prio = 5 },
};

int main(void)
{
    ktest_oracle_violations_allowed = 1;
    cactus_sem_init(&to_b, 0, 1);
    cactus_sem_init(&to_a, 0, 1);
    ktest_start(tasks, 3);
}
