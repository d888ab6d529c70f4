/* MTSS holes (paper, section 6, Figure 6): two borrowers A and B each move a 600-byte frame
 * (5 pages of 128) into the one lender L and block inside it; A's block is the bottom of L's
 * region, B's right above.
 * When A's frame returns, its pages become a hole: L's limit (its overflow pointer) stays above
 * B's block. A's next move reuses the hole (same pages) rather than growing L's lent part.
 * When everything has returned, L's limit is its region base again. Results equal the ones
 * computed on a large stack; on cactus-sim the oracle sees no violation. */
#include "ktest.h"

const char ktest_name[] = "mtss_holes";

#define FRAME_BYTES 560 /* with ra/s0 and the rest: 5 pages of 128 */
#ifndef CACTUS_MTSS_PAGE
#define CACTUS_MTSS_PAGE 128
#endif
#define LOAN_RECORD 16 /* kernel/stack/mtss.c's REC: the loan record at a block's top */

static cactus_sem sem_a, sem_b;
static volatile uintptr_t at_a[2], at_b;
static volatile uint32_t res_a[2], res_b;

/* A frame of FRAME_BYTES that blocks on `s` (if any) while it is live. */
/* Global, so `cactus cc` (per unit) cannot roll its check into its callers: its own check
 * fails and its own frame moves, alone. */
uint32_t hold(cactus_sem *s, uint32_t seed, volatile uintptr_t *at);
uint32_t __attribute__((noinline)) hold(cactus_sem *s, uint32_t seed, volatile uintptr_t *at)
{
    volatile uint8_t buf[FRAME_BYTES];
    *at = (uintptr_t)__builtin_frame_address(0); /* the entry sp: a moved frame's block top */
    for (uint32_t i = 0; i < sizeof(buf); i++)
        buf[i] = (uint8_t)(seed + i * 3u);
    if (s)
        CHECK_EQ(cactus_sem_take(s, CACTUS_FOREVER), CACTUS_OK);
    uint32_t acc = seed;
    for (uint32_t i = 0; i < sizeof(buf); i++)
        acc = acc * 31u + buf[i];
    return acc;
}

static void borrower_a(void *arg)
{
    (void)arg;
    res_a[0] = hold(&sem_a, 1, &at_a[0]);
    res_a[1] = hold(&sem_a, 2, &at_a[1]);
}

static void borrower_b(void *arg)
{
    (void)arg;
    res_b = hold(&sem_b, 3, &at_b);
}

static void lender(void *arg)
{
    (void)arg;
    for (;;)
        cactus_sleep(1000);
}

static const cactus_task_desc l_d = { .name = "lender", .entry = lender, .stack_size = 2048,
                                      .prio = 1 };
static const cactus_task_desc a_d = { .name = "a", .entry = borrower_a, .stack_size = 256,
                                      .prio = 6, .on_fault = CACTUS_ON_FAULT_HALT };
static const cactus_task_desc b_d = { .name = "b", .entry = borrower_b, .stack_size = 256,
                                      .prio = 5, .on_fault = CACTUS_ON_FAULT_HALT };

static void ctl(void *arg)
{
    (void)arg;
    volatile uintptr_t scratch;
    uint32_t want[3] = { hold(0, 1, &scratch), hold(0, 2, &scratch), hold(0, 3, &scratch) };
    cactus_sem_init(&sem_a, 0, 1);
    cactus_sem_init(&sem_b, 0, 1);
    int l = cactus_task_create(&l_d);
    CHECK(l >= 0);
    cactus_sleep(1);
    cactus_stack_info ls;
    CHECK_EQ(cactus_task_stack(l, &ls), CACTUS_OK);
    const uintptr_t page = CACTUS_MTSS_PAGE, base = ls.base;
    CHECK_EQ(ls.limit, base);

    int a = cactus_task_create(&a_d);
    int b = cactus_task_create(&b_d);
    CHECK(a >= 0 && b >= 0);
    cactus_sleep(1); /* A, then B, move a frame into L and block there */
    /* A frame (no stack arguments) sits right below the loan record at the top of its block,
     * so its entry sp is LOAN_RECORD below the block's top: A's block is [base, a_top), B's
     * the same size right above it, and L's limit is the top of B's block. */
    uintptr_t a_top = at_a[0] + LOAN_RECORD, b_top = at_b + LOAN_RECORD;
    CHECK(a_top > base && (a_top - base) % page == 0 && a_top - base >= FRAME_BYTES);
    CHECK_EQ(b_top - a_top, a_top - base);
    CHECK_EQ(cactus_task_stack(l, &ls), CACTUS_OK);
    CHECK_EQ(ls.limit, b_top);

    cactus_sem_give(&sem_a); /* A's first frame returns: a hole below B's block */
    cactus_sleep(1);         /* ... and A moves its next frame into that hole */
    CHECK_EQ(res_a[0], want[0]);
    CHECK_EQ(at_a[1], at_a[0]);
    CHECK_EQ(cactus_task_stack(l, &ls), CACTUS_OK);
    CHECK_EQ(ls.limit, b_top);

    cactus_sem_give(&sem_b); /* B returns: L's lent part recedes to A's block */
    cactus_sleep(1);
    CHECK_EQ(res_b, want[2]);
    CHECK_EQ(cactus_task_stack(l, &ls), CACTUS_OK);
    CHECK_EQ(ls.limit, a_top);

    cactus_sem_give(&sem_a);
    cactus_sleep(1);
    CHECK_EQ(res_a[1], want[1]);
    CHECK_EQ(cactus_task_state(a), CACTUS_TASK_EXITED);
    CHECK_EQ(cactus_task_state(b), CACTUS_TASK_EXITED);
    CHECK_EQ(cactus_task_stack(l, &ls), CACTUS_OK);
    CHECK_EQ(ls.limit, base);
    kprintf("holes: A at L+%u, B at L+%u, A again at L+%u\n", (unsigned)(at_a[0] - base),
            (unsigned)(at_b - base), (unsigned)(at_a[1] - base));
    ktest_pass();
}

/* ctl's own stack is too small to lend 5 pages (its free part is below that), so L is the
 * only possible lender. */
static const cactus_task_desc tasks[] = {
    { .name = "ctl", .entry = ctl, .stack_size = 768, .prio = 10 },
};

int main(void)
{
    ktest_start(tasks, 1);
}
