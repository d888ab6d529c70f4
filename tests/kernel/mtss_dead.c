/* MTSS lending from ended tasks' regions (docs/mtss.md, "Lending from ended tasks"):
 *   - a task that returned from its entry leaves its region dead: nobody resumes there, so
 *     all of its pages lend, and before any live task's: a borrower's moved frame lands in
 *     it although a sleeping 2 KiB lender has room too;
 *   - a dead region holding a loan is never given to a new task, even when the pool runs
 *     out (tasks created until creation fails never get its base);
 *   - the borrower completes with the right result (computed first on ctl's own stack), and
 *     the dead region, idle again, goes back to the pool when a new task needs the memory
 *     (a task created until creation fails gets its base).
 * On cactus-sim the ownership oracle, which follows every loan from a dead region (lent by
 * nobody) and its return, sees nothing. */
#include "ktest.h"

const char ktest_name[] = "mtss_dead";

#define FRAME_BYTES 560 /* 5 pages of 128 with the rest of the frame */
#define FILLERS 40      /* more than the pool or the task table holds */

static cactus_sem sem_a;
static volatile uintptr_t at_a;
static volatile uint32_t res_a;

/* Global, so `cactus cc` (per unit) cannot roll its check into its callers: its own check
 * fails and its own frame moves, alone. */
uint32_t hold(cactus_sem *s, uint32_t seed, volatile uintptr_t *at);
uint32_t __attribute__((noinline)) hold(cactus_sem *s, uint32_t seed, volatile uintptr_t *at)
{
    volatile uint8_t buf[FRAME_BYTES];
    *at = (uintptr_t)__builtin_frame_address(0); /* the entry sp: a moved frame's block top */
    for (uint32_t i = 0; i < sizeof(buf); i++)
        buf[i] = (uint8_t)(seed + i * 7u);
    if (s)
        CHECK_EQ(cactus_sem_take(s, CACTUS_FOREVER), CACTUS_OK);
    uint32_t acc = seed;
    for (uint32_t i = 0; i < sizeof(buf); i++)
        acc = acc * 31u + buf[i];
    return acc;
}

static void borrower(void *arg)
{
    (void)arg;
    res_a = hold(&sem_a, 5, &at_a);
}

static void ends(void *arg)
{
    (void)arg;
}

static void sleeper(void *arg)
{
    (void)arg;
    for (;;)
        cactus_sleep(1000);
}

static const cactus_task_desc x_d = { .name = "x", .entry = ends, .stack_size = 2048,
                                      .prio = 5 };
static const cactus_task_desc l_d = { .name = "l", .entry = sleeper, .stack_size = 2048,
                                      .prio = 1 };
static const cactus_task_desc a_d = { .name = "a", .entry = borrower, .stack_size = 256,
                                      .prio = 6, .on_fault = CACTUS_ON_FAULT_HALT };
static const cactus_task_desc f_d = { .name = "f", .entry = sleeper, .stack_size = 2048,
                                      .prio = 1 };

/* Creates 2 KiB sleepers until creation fails, then kills them; 1 if one got `base`. */
static int fill_finds(uintptr_t base)
{
    int ids[FILLERS], n = 0, found = 0;
    while (n < FILLERS) {
        int f = cactus_task_create(&f_d);
        if (f < 0)
            break;
        cactus_stack_info fs;
        CHECK_EQ(cactus_task_stack(f, &fs), CACTUS_OK);
        found |= fs.base == base;
        ids[n++] = f;
    }
    CHECK(n > 0 && n < FILLERS); /* the pool or the task table ran out */
    for (int i = 0; i < n; i++)
        CHECK_EQ(cactus_task_kill(ids[i]), CACTUS_OK);
    return found;
}

static void ctl(void *arg)
{
    (void)arg;
    volatile uintptr_t scratch;
    uint32_t want = hold(0, 5, &scratch);
    cactus_sem_init(&sem_a, 0, 1);
    cactus_stack_info xs, ls;

    int x = cactus_task_create(&x_d);
    CHECK(x >= 0);
    CHECK_EQ(cactus_task_stack(x, &xs), CACTUS_OK);
    int l = cactus_task_create(&l_d);
    CHECK(l >= 0);
    cactus_sleep(1); /* X returns from its entry: its region is dead */
    CHECK_EQ(cactus_task_state(x), CACTUS_TASK_EXITED);

    int a = cactus_task_create(&a_d);
    CHECK(a >= 0);
    cactus_sleep(1); /* A's frame moves into X's dead region, not into L's free pages */
    CHECK(at_a > xs.base && at_a <= xs.base + xs.size);
    CHECK_EQ(cactus_task_stack(l, &ls), CACTUS_OK);
    CHECK_EQ(ls.limit, ls.base);

    CHECK(!fill_finds(xs.base)); /* a dead region with a loan out is kept */

    cactus_sem_give(&sem_a);
    cactus_sleep(1);
    CHECK_EQ(cactus_task_state(a), CACTUS_TASK_EXITED);
    CHECK_EQ(res_a, want);

    CHECK(fill_finds(xs.base)); /* idle, it goes back to the pool when memory runs out */
    kprintf("dead region: lent first, kept while lent, reclaimed when idle\n");
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "ctl", .entry = ctl, .stack_size = 768, .prio = 10 },
};

int main(void)
{
    ktest_start(tasks, 1);
}
