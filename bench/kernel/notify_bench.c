/* Task-control benchmark firmware (cactus-sim only; `cactus bench kernel` runs it beside
 * switch_bench.c): the wake paths of the kernel's cheapest primitives, each from the call in a
 * low task (priority 5) that wakes a blocked or suspended high task (priority 10) to the high
 * task's first instruction after its own call returns, SAMPLES times each:
 *   1. notify: the low task's cactus_notify(INCREMENT) ends the high one's cactus_notify_take;
 *   2. resume: the low task's cactus_task_resume ends the high one's cactus_task_suspend(self);
 *   3. give: the low task's cactus_sem_give ends the high one's cactus_sem_take (the semaphore
 *      hand-off notify must beat).
 * Linked against the no-trace library like switch_bench.c; MARKED_CALL3 is marked.h's
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

#define MARKED_CALL3(fn, x0, x1, x2, before, after)                                               \
    do {                                                                                           \
        register uintptr_t a0_ __asm__("a0") = (uintptr_t)(x0);                                    \
        register uintptr_t a1_ __asm__("a1") = (uintptr_t)(x1);                                    \
        register uintptr_t a2_ __asm__("a2") = (uintptr_t)(x2);                                    \
        register uint32_t tb_ __asm__("s2") = CACTUS_TRACE_BASE;                                   \
        register uint32_t ev_ __asm__("s3") = CACTUS_EV_MARKER;                                    \
        register uint32_t idb_ __asm__("s4") = (before);                                           \
        register uint32_t ida_ __asm__("s5") = (after);                                            \
        register uintptr_t fn_ __asm__("s6") = (uintptr_t)(fn);                                    \
        __asm__ volatile("sw %[idb], 0x10(%[tb])\n\t"                                             \
                         "sw %[ev], 0x20(%[tb])\n\t"                                              \
                         "jalr %[callee]\n\t"                                                      \
                         "sw %[ida], 0x10(%[tb])\n\t"                                             \
                         "sw %[ev], 0x20(%[tb])"                                                  \
                         : "+r"(a0_), "+r"(a1_), "+r"(a2_)                                         \
                         : [tb] "r"(tb_), [ev] "r"(ev_), [idb] "r"(idb_), [ida] "r"(ida_),         \
                           [callee] "r"(fn_)                                                       \
                         : "ra", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "a3", "a4", "a5", "a6", \
                           "a7", "memory");                                                        \
    } while (0)

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
