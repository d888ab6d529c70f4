/* MTSS (docs/mtss.md): a task with a 384-byte stack runs a recursion that needs about 2 KiB.
 * Its frames that do not fit move to free pages of switched-out tasks' stacks (nested moves,
 * one per level whose frame does not fit in the block it runs in), including a frame of
 * several pages (a 600-byte array) and a function with stack arguments (copied to the block).
 * The results equal the ones computed on a large stack; the pages are spread over both
 * lenders (fewest lent first); every page comes back (both lenders' limits are their region
 * bases again); on cactus-sim the ownership oracle, which follows every loan, sees nothing. */
#include "ktest.h"

const char ktest_name[] = "mtss_share";

static volatile uintptr_t own_lo, own_hi, ctl_lo, ctl_hi, lend_lo, lend_hi;
static volatile int moved, in_ctl, in_lender, big_moved, args_moved;

static uintptr_t sp_now(void)
{
    uintptr_t sp;
    __asm__ volatile("mv %0, sp" : "=r"(sp));
    return sp;
}

static int note(uintptr_t sp)
{
    if (sp >= own_lo && sp < own_hi)
        return 0;
    moved++;
    in_ctl += sp >= ctl_lo && sp < ctl_hi;
    in_lender += sp >= lend_lo && sp < lend_hi;
    return 1;
}

static uint32_t __attribute__((noinline)) big(uint32_t seed)
{
    volatile uint8_t buf[600];
    big_moved += note(sp_now());
    for (uint32_t i = 0; i < sizeof(buf); i++)
        buf[i] = (uint8_t)(seed * 7u + i);
    uint32_t acc = 0;
    for (uint32_t i = 0; i < sizeof(buf); i++)
        acc = acc * 33u + buf[i];
    return acc;
}

/* Ten arguments: the last two are passed on the stack (ARGS = 8), and read after the move. */
static uint32_t __attribute__((noinline, noclone)) args10(uint32_t a, uint32_t b, uint32_t c, uint32_t d,
                                                 uint32_t e, uint32_t f, uint32_t g, uint32_t h,
                                                 uint32_t i, uint32_t j)
{
    volatile uint32_t buf[40];
    args_moved += note(sp_now());
    for (uint32_t k = 0; k < 40; k++)
        buf[k] = a * k + b - c + (d ^ e) + f * g + h + i * 3u + j * 5u;
    uint32_t acc = 0;
    for (uint32_t k = 0; k < 40; k++)
        acc += buf[k] ^ (i + j + k);
    return acc;
}

static volatile uint32_t k2 = 2, k3 = 3, k4 = 4, k5 = 5, k6 = 6, k7 = 7, k8 = 8;

static uint32_t __attribute__((noinline)) level(uint32_t n, uint32_t seed)
{
    volatile uint32_t buf[48];
    note(sp_now());
    for (uint32_t i = 0; i < 48; i++)
        buf[i] = seed * 31u + i + n;
    uint32_t r = n ? level(n - 1, buf[n % 48])
                   : big(seed) + args10(seed, k2, k3, k4, k5, k6, k7, k8, seed ^ 9, seed + 10);
    for (uint32_t i = 0; i < 48; i++)
        r += buf[i] ^ i;
    return r;
}

static volatile uint32_t result;
static volatile int done;

static void small(void *arg)
{
    result = level(5, (uint32_t)(uintptr_t)arg);
    done = 1;
}

static void lender(void *arg)
{
    (void)arg;
    for (;;)
        cactus_sleep(1000);
}

static const cactus_task_desc small_d = { .name = "small", .entry = small, .arg = (void *)77,
                                          .stack_size = 384, .prio = 5,
                                          .on_fault = CACTUS_ON_FAULT_HALT };
static const cactus_task_desc lender_d = { .name = "lender", .entry = lender, .stack_size = 2048,
                                           .prio = 1 };

static void ctl(void *arg)
{
    (void)arg;
    cactus_stack_info cs, ls, ss;
    CHECK_EQ(cactus_task_stack(cactus_task_self(), &cs), CACTUS_OK);
    own_lo = cs.base;
    own_hi = cs.base + cs.size;
    uint32_t want = level(5, 77); /* on the 4 KiB stack: nothing moves */
    CHECK_EQ(moved, 0);

    int l = cactus_task_create(&lender_d);
    CHECK(l >= 0);
    cactus_sleep(1); /* the lender runs once and sleeps: its sp is near its top */
    int s = cactus_task_create(&small_d);
    CHECK(s >= 0);
    CHECK_EQ(cactus_task_stack(l, &ls), CACTUS_OK);
    CHECK_EQ(cactus_task_stack(s, &ss), CACTUS_OK);
    ctl_lo = cs.base;
    ctl_hi = cs.base + cs.size;
    lend_lo = ls.base;
    lend_hi = ls.base + ls.size;
    own_lo = ss.base;
    own_hi = ss.base + ss.size;
    cactus_sleep(5);

    CHECK_EQ(done, 1);
    CHECK_EQ(cactus_task_state(s), CACTUS_TASK_EXITED);
    CHECK_EQ(result, want);
    CHECK_EQ(big_moved, 1);
    CHECK_EQ(args_moved, 1);
    CHECK(moved >= 5);
    CHECK_EQ(moved, in_ctl + in_lender);
    CHECK(in_ctl > 0 && in_lender > 0);
    CHECK_EQ(cactus_task_stack(l, &ls), CACTUS_OK);
    CHECK_EQ(ls.limit, ls.base);
    CHECK_EQ(cactus_task_stack(cactus_task_self(), &cs), CACTUS_OK);
    CHECK_EQ(cs.limit, cs.base);
    kprintf("moved frames: %d (%d in ctl's stack, %d in lender's), result %x\n", moved, in_ctl,
            in_lender, result);
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "ctl", .entry = ctl, .stack_size = 4096, .prio = 10 },
};

int main(void)
{
    ktest_start(tasks, 1);
}
