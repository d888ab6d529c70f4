/* MTSS and task ends (docs/mtss.md, "Task ends"):
 *   - a lender that exits while a borrower's frame lives in its pages keeps its region (dead:
 *     a task created meanwhile does not get it); the borrower completes with the right
 *     result;
 *   - dead regions lend before any live task: the next moved frame goes to one of them (L's,
 *     or E's, killed), not to the sleeping lender D (whose limit stays its base);
 *   - a borrower killed while its frame lives in those pages gives them back: the next
 *     borrower's frame again lands in a dead region (whose pages may have merged with the
 *     killed borrower's own), and D still lends nothing.
 * Lenders have 2 KiB: a task lends only pages below its sp minus the largest need of any check
 * (here hold's, about 600 bytes), so ctl (768 bytes) never can.
 * On cactus-sim the ownership oracle, which follows every loan and return, sees nothing. */
#include "ktest.h"

const char ktest_name[] = "mtss_exit";

#define FRAME_BYTES 560 /* 5 pages of 128 with the rest of the frame */

static cactus_sem sem_l, sem_a, sem_b;
static volatile uintptr_t at_a, at_b;
static volatile uint32_t res_a;
static volatile int b_returned;

/* Global, so `cactus cc` (per unit) cannot roll its check into its callers: its own check
 * fails and its own frame moves, alone. */
uint32_t hold(cactus_sem *s, uint32_t seed, volatile uintptr_t *at);
uint32_t __attribute__((noinline)) hold(cactus_sem *s, uint32_t seed, volatile uintptr_t *at)
{
    volatile uint8_t buf[FRAME_BYTES];
    *at = (uintptr_t)__builtin_frame_address(0); /* the entry sp: a moved frame's block top */
    for (uint32_t i = 0; i < sizeof(buf); i++)
        buf[i] = (uint8_t)(seed + i * 5u);
    if (s)
        CHECK_EQ(cactus_sem_take(s, CACTUS_FOREVER), CACTUS_OK);
    uint32_t acc = seed;
    for (uint32_t i = 0; i < sizeof(buf); i++)
        acc = acc * 29u + buf[i];
    return acc;
}

static void borrower_a(void *arg)
{
    (void)arg;
    res_a = hold(&sem_a, 11, &at_a);
}

static void borrower_b(void *arg)
{
    (void)arg;
    hold(&sem_b, 12, &at_b);
    b_returned = 1;
}

static void exiting_lender(void *arg)
{
    (void)arg;
    CHECK_EQ(cactus_sem_take(&sem_l, CACTUS_FOREVER), CACTUS_OK);
}

static void sleeper(void *arg)
{
    (void)arg;
    for (;;)
        cactus_sleep(1000);
}

static const cactus_task_desc l_d = { .name = "lender", .entry = exiting_lender,
                                      .stack_size = 2048, .prio = 1 };
static const cactus_task_desc d_d = { .name = "d", .entry = sleeper, .stack_size = 2048,
                                      .prio = 1 };
static const cactus_task_desc a_d = { .name = "a", .entry = borrower_a, .stack_size = 256,
                                      .prio = 6, .on_fault = CACTUS_ON_FAULT_HALT };
static const cactus_task_desc b_d = { .name = "b", .entry = borrower_b, .stack_size = 256,
                                      .prio = 6, .on_fault = CACTUS_ON_FAULT_HALT };

static void ctl(void *arg)
{
    (void)arg;
    volatile uintptr_t scratch;
    uint32_t want = hold(0, 11, &scratch);
    cactus_sem_init(&sem_l, 0, 1);
    cactus_sem_init(&sem_a, 0, 1);
    cactus_sem_init(&sem_b, 0, 1);
    cactus_stack_info ls, ds, es;

    int l = cactus_task_create(&l_d);
    CHECK(l >= 0);
    cactus_sleep(1);
    CHECK_EQ(cactus_task_stack(l, &ls), CACTUS_OK);
    int a = cactus_task_create(&a_d);
    CHECK(a >= 0);
    cactus_sleep(1); /* A moves its frame into L and blocks there */
    CHECK(at_a > ls.base && at_a <= ls.base + ls.size);

    cactus_sem_give(&sem_l); /* L returns: it exits while lending */
    cactus_sleep(1);
    CHECK_EQ(cactus_task_state(l), CACTUS_TASK_EXITED);
    int d = cactus_task_create(&d_d);
    CHECK(d >= 0);
    CHECK_EQ(cactus_task_stack(d, &ds), CACTUS_OK);
    CHECK(ds.base != ls.base); /* the dead region is still A's frame's home */

    cactus_sem_give(&sem_a);
    cactus_sleep(1);
    CHECK_EQ(res_a, want);
    CHECK_EQ(cactus_task_state(a), CACTUS_TASK_EXITED);
    int e = cactus_task_create(&d_d); /* the pool has room: the dead region stays a lender */
    CHECK(e >= 0);
    CHECK_EQ(cactus_task_stack(e, &es), CACTUS_OK);
    CHECK(es.base != ls.base);
    CHECK_EQ(cactus_task_kill(e), CACTUS_OK);

    int b = cactus_task_create(&b_d);
    CHECK(b >= 0);
    cactus_sleep(1); /* B moves its frame into a dead region (L's or E's: dead ones first) */
    CHECK((at_b > ls.base && at_b <= ls.base + ls.size) ||
          (at_b > es.base && at_b <= es.base + es.size));
    CHECK_EQ(cactus_task_stack(d, &ds), CACTUS_OK);
    CHECK_EQ(ds.limit, ds.base); /* D lent nothing */
    CHECK_EQ(cactus_task_kill(b), CACTUS_OK);
    CHECK_EQ(b_returned, 0);

    b = cactus_task_create(&b_d); /* the killed borrower's pages came back: a dead region */
    CHECK(b >= 0);                /* lends again, still not D */
    cactus_stack_info bs;
    CHECK_EQ(cactus_task_stack(b, &bs), CACTUS_OK);
    cactus_sleep(1);
    CHECK(at_b <= bs.base || at_b > bs.base + bs.size);
    CHECK(at_b <= ds.base || at_b > ds.base + ds.size);
    CHECK_EQ(cactus_task_stack(d, &ds), CACTUS_OK);
    CHECK_EQ(ds.limit, ds.base);
    CHECK_EQ(cactus_task_kill(b), CACTUS_OK);
    kprintf("lender exit: region kept and lending; borrower kill: pages back\n");
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "ctl", .entry = ctl, .stack_size = 768, .prio = 10 },
};

int main(void)
{
    ktest_start(tasks, 1);
}
