/* Task-control benchmark firmware (cactus-sim only; `cactus bench kernel` runs it beside
 * switch_bench.c): the wake paths of the kernel's cheapest primitives, each from the call in a
 * low task (priority 5) that wakes a blocked or suspended high task (priority 10) to the high
 * task's first instruction after its own call returns, SAMPLES times each:
 *   1. notify: the low task's cactus_notify(INCREMENT) ends the high one's cactus_notify_take;
 *   2. resume: the low task's cactus_task_resume ends the high one's cactus_task_suspend(self);
 *   3. give: the low task's cactus_sem_give ends the high one's cactus_sem_take (the semaphore
 *      hand-off notify must beat).
 * Linked against the no-trace library like switch_bench.c; MARKED_CALL3 (marked.h) is
 * MARKED_CALL with a third argument (a2). Marker ids (crates/bench/src/kernel/task_control.rs
 * decodes the same): a measured pair is CALL(kind) of the low task directly followed by
 * BACK(kind) of the high task; the high task's own calls use other kinds, so the hand-back
 * (high blocks, low returns from its call) is never a sample. */
#include "cactus/cactus.h"
#include "ids.h"
#include "marked.h"

#define SAMPLES 100

#define TC_NOTIFY 0x200u /* low: cactus_notify; high: back from cactus_notify_take */
#define TC_RESUME 0x210u /* low: cactus_task_resume; high: back from cactus_task_suspend */
#define TC_GIVE 0x220u   /* low: cactus_sem_give; high: back from cactus_sem_take */
#define TC_WAIT 0x230u   /* high: the blocking call (CALL), low: back from its own call */
#define TC_DONE 0x2FFu   /* value: samples requested per kind */

enum { HIGH, LOW };


static cactus_sem sem;

static void high(void *arg)
{
    (void)arg;
    for (int i = 0; i < SAMPLES + 1; i++)
        MARKED_CALL(cactus_notify_take, 1, CACTUS_FOREVER, BID_CALL(TC_WAIT, HIGH),
                    BID_BACK(TC_NOTIFY, HIGH));
    for (int i = 0; i < SAMPLES + 1; i++)
        MARKED_CALL(cactus_task_suspend, HIGH, 0, BID_CALL(TC_WAIT, HIGH),
                    BID_BACK(TC_RESUME, HIGH));
    for (int i = 0; i < SAMPLES + 1; i++)
        MARKED_CALL(cactus_sem_take, &sem, CACTUS_FOREVER, BID_CALL(TC_WAIT, HIGH),
                    BID_BACK(TC_GIVE, HIGH));
    bench_marker(TC_DONE, SAMPLES);
    cactus_exit(0);
}

static void low(void *arg)
{
    (void)arg;
    for (int i = 0; i < SAMPLES + 1; i++)
        MARKED_CALL3(cactus_notify, HIGH, 0, CACTUS_NOTIFY_INCREMENT, BID_CALL(TC_NOTIFY, LOW),
                     BID_BACK(TC_WAIT, LOW));
    for (int i = 0; i < SAMPLES + 1; i++)
        MARKED_CALL(cactus_task_resume, HIGH, 0, BID_CALL(TC_RESUME, LOW),
                    BID_BACK(TC_WAIT, LOW));
    for (int i = 0; i < SAMPLES + 1; i++)
        MARKED_CALL(cactus_sem_give, &sem, 0, BID_CALL(TC_GIVE, LOW), BID_BACK(TC_WAIT, LOW));
    for (;;)
        cactus_sleep(1000);
}

static const cactus_task_desc tasks[] = {
    { .name = "high", .entry = high, .stack_size = 512, .prio = 10 },
    { .name = "low", .entry = low, .stack_size = 512, .prio = 5 },
};

int main(void)
{
    static cactus_config cfg = { .tasks = tasks, .ntasks = 2 };
    for (int i = 0; i < 4; i++)
        CALIBRATE(BID_CAL_FIRST, BID_CAL_SECOND);
    cactus_sem_init(&sem, 0, 1);
    cactus_start(&cfg);
}
