/* MTSS lends only pages below a lender's sp minus the margin (docs/mtss.md, "No lock"). The
 * lender L blocks inside `parent` while the entry check of its task function (into which
 * `cactus cc` rolled parent's and child's checks) has already covered child's 200-byte frame
 * below parent, not written yet. A borrower B then moves a 5-page frame. L's region (768
 * bytes) has 5 free pages below L's sp, but not below sp - margin: the frame must go to the
 * other lender (BIG), though L has the lowest id and as few pages lent (ctl's 768 bytes cannot
 * lend 5 pages below its sp minus the margin either). When L wakes, child writes its frame;
 * both results are right, and on cactus-sim the ownership oracle sees no violation. (With the
 * margin left out, B's frame lands in L's region, in child's space.) */
#include "ktest.h"

const char ktest_name[] = "mtss_margin";

#define FRAME_BYTES 560 /* with ra/s0 and the rest: 5 pages of 128 */

static cactus_sem go, open, sem_b;
static volatile uintptr_t at_b;
static volatile uint32_t res_l, res_b;

/* Static, called once and unconditionally, and small enough for the mtss roll cap (256 bytes,
 * docs/stack-checks.md): `cactus cc` rolls its check into parent's, and parent's into its
 * callers'. */
static uint32_t __attribute__((noinline)) child(uint32_t seed)
{
    volatile uint8_t buf[200];
    for (uint32_t i = 0; i < sizeof(buf); i++)
        buf[i] = (uint8_t)(seed ^ i);
    uint32_t acc = 0;
    for (uint32_t i = 0; i < sizeof(buf); i++)
        acc = acc * 37u + buf[i];
    return acc;
}

static uint32_t __attribute__((noinline)) parent(cactus_sem *wait, uint32_t seed)
{
    cactus_sem_take(wait, CACTUS_FOREVER); /* blocked with the child's space still unused */
    return child(seed) ^ 0x55u;            /* not a tail call: the child runs below parent */
}

/* Global, so its own check stays (not rolled into its callers) and its frame moves alone. */
uint32_t hold(cactus_sem *s, uint32_t seed, volatile uintptr_t *at);
uint32_t __attribute__((noinline)) hold(cactus_sem *s, uint32_t seed, volatile uintptr_t *at)
{
    volatile uint8_t buf[FRAME_BYTES];
    *at = (uintptr_t)__builtin_frame_address(0);
    for (uint32_t i = 0; i < sizeof(buf); i++)
        buf[i] = (uint8_t)(seed + i * 7u);
    if (s)
        CHECK_EQ(cactus_sem_take(s, CACTUS_FOREVER), CACTUS_OK);
    uint32_t acc = seed;
    for (uint32_t i = 0; i < sizeof(buf); i++)
        acc = acc * 31u + buf[i];
    return acc;
}

static void lender_l(void *arg)
{
    (void)arg;
    res_l = parent(&go, 21);
}

static void borrower(void *arg)
{
    (void)arg;
    res_b = hold(&sem_b, 22, &at_b);
}

static void big_lender(void *arg)
{
    (void)arg;
    for (;;)
        cactus_sleep(1000);
}

static const cactus_task_desc big_d = { .name = "big", .entry = big_lender, .stack_size = 4096,
                                        .prio = 1 };
static const cactus_task_desc b_d = { .name = "b", .entry = borrower, .stack_size = 256,
                                      .prio = 6, .on_fault = CACTUS_ON_FAULT_HALT };

static void ctl(void *arg)
{
    (void)arg;
    volatile uintptr_t scratch;
    cactus_sem_init(&open, 1, 1);
    uint32_t want_l = parent(&open, 21), want_b = hold(0, 22, &scratch);
    cactus_sem_init(&go, 0, 1);
    cactus_sem_init(&sem_b, 0, 1);
    const int l = 0; /* first in the start-up table: the lowest id */
    int big = cactus_task_create(&big_d);
    CHECK(big > l);
    cactus_sleep(1); /* L blocks inside parent, BIG sleeps */
    cactus_stack_info ls, bs;
    CHECK_EQ(cactus_task_stack(l, &ls), CACTUS_OK);
    CHECK_EQ(cactus_task_stack(big, &bs), CACTUS_OK);

    int b = cactus_task_create(&b_d);
    CHECK(b >= 0);
    cactus_sleep(1); /* B moves hold's frame and blocks in it */
    CHECK(at_b > bs.base && at_b <= bs.base + bs.size);
    CHECK_EQ(cactus_task_stack(l, &ls), CACTUS_OK);
    CHECK_EQ(ls.limit, ls.base);

    cactus_sem_give(&go); /* L's child writes the space its parent's check covered */
    cactus_sleep(1);
    CHECK_EQ(cactus_task_state(l), CACTUS_TASK_EXITED);
    CHECK_EQ(res_l, want_l);
    cactus_sem_give(&sem_b);
    cactus_sleep(1);
    CHECK_EQ(cactus_task_state(b), CACTUS_TASK_EXITED);
    CHECK_EQ(res_b, want_b);
    CHECK_EQ(cactus_task_stack(big, &bs), CACTUS_OK);
    CHECK_EQ(bs.limit, bs.base);
    kprintf("margin: the frame went to BIG's stack, L's covered space stayed L's\n");
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "l", .entry = lender_l, .stack_size = 768, .prio = 2,
      .on_fault = CACTUS_ON_FAULT_HALT },
    { .name = "ctl", .entry = ctl, .stack_size = 768, .prio = 10 },
};

int main(void)
{
    ktest_start(tasks, 2);
}
