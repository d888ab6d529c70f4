/* The `mtss+split` hybrid's one chain of moved frames (kernel/stack/mtss.c with a stacklet
 * heap, docs/segmented.md): loans and stacklets nest in any order and the one return
 * trampoline pops the newest, whichever kind it is. `small` (384-byte stack) runs
 * outer -> middle -> inner -> deepest with frames of about 700, 2200, 400 and 1800 bytes while
 * ctl (1024) and lender (4096) are switched out. These scenarios have no per-pc margin table
 * (docs/mtss.md), so a lender keeps the firmware-wide margin, the largest check need (about
 * 2 KiB), unlent: ctl can lend nothing, the lender about 16 pages of 128 bytes.
 *   - outer (6 pages) does not fit its region: a loan of the lender's pages;
 *   - middle (18 pages) is more than any lender has: a stacklet (inside a loan);
 *   - inner (4 pages) does not fit middle's stacklet (sized for middle's own frame): a loan;
 *   - deepest (15 pages) is more than the lender has left: a stacklet again.
 * Where each frame ran is read from its sp; the result equals the one `ref` computes on a
 * 6 KiB stack afterwards (created only after small ended: an ended task's region lends before
 * any live task, docs/mtss.md, so ref's 6 KiB would have held every frame of small's);
 * afterwards every page is back (the lenders' limits are their bases), the heap holds
 * nothing, and on cactus-sim the ownership oracle saw no violation. */
#include "ktest.h"

const char ktest_name[] = "hybrid_nest";

extern uint32_t cactus_stacklet_heap_bytes;

static volatile uintptr_t lo[3], hi[3]; /* ctl, lender, small regions */
static volatile int recording, kind[4]; /* per level: 'L' loan, 'S' stacklet, 'N' native */

static uintptr_t sp_now(void)
{
    uintptr_t sp;
    __asm__ volatile("mv %0, sp" : "=r"(sp));
    return sp;
}

static void note(int level, uintptr_t sp)
{
    if (!recording)
        return;
    int k = 'S';
    if (sp >= lo[2] && sp < hi[2])
        k = 'N';
    else if ((sp >= lo[0] && sp < hi[0]) || (sp >= lo[1] && sp < hi[1]))
        k = 'L';
    kind[level] = k;

}

static uint32_t __attribute__((noinline)) deepest(uint32_t seed)
{
    volatile uint32_t buf[450];
    note(3, sp_now());
    for (uint32_t i = 0; i < 450; i++)
        buf[i] = seed * 13u + i;
    uint32_t acc = 0;
    for (uint32_t i = 0; i < 450; i++)
        acc = acc * 31u + buf[i];
    return acc;
}

static uint32_t __attribute__((noinline)) inner(uint32_t seed)
{
    volatile uint32_t buf[100];
    note(2, sp_now());
    for (uint32_t i = 0; i < 100; i++)
        buf[i] = seed ^ (i * 7u);
    uint32_t r = deepest(buf[seed % 100]);
    for (uint32_t i = 0; i < 100; i++)
        r += buf[i];
    return r;
}

static uint32_t __attribute__((noinline)) middle(uint32_t seed)
{
    volatile uint32_t buf[550];
    note(1, sp_now());
    for (uint32_t i = 0; i < 550; i++)
        buf[i] = seed + i * 3u;
    uint32_t r = inner(buf[seed % 550]);
    for (uint32_t i = 0; i < 550; i++)
        r ^= buf[i] << (i % 7);
    return r;
}

static uint32_t __attribute__((noinline)) outer(uint32_t seed)
{
    volatile uint32_t buf[175];
    note(0, sp_now());
    for (uint32_t i = 0; i < 175; i++)
        buf[i] = seed * i;
    uint32_t r = middle(buf[seed % 175] + 1);
    for (uint32_t i = 0; i < 175; i++)
        r += buf[i] ^ i;
    return r;
}

static volatile uint32_t want, result;

static void ref(void *arg)
{
    want = outer((uint32_t)(uintptr_t)arg);
}

static void small(void *arg)
{
    recording = 1;
    result = outer((uint32_t)(uintptr_t)arg);
    recording = 0;
}

static void lender(void *arg)
{
    (void)arg;
    for (;;)
        cactus_sleep(1000);
}

static const cactus_task_desc ref_d = { .name = "ref", .entry = ref, .arg = (void *)41,
                                        .stack_size = 6144, .prio = 6,
                                        .on_fault = CACTUS_ON_FAULT_HALT };
static const cactus_task_desc small_d = { .name = "small", .entry = small, .arg = (void *)41,
                                          .stack_size = 384, .prio = 5,
                                          .on_fault = CACTUS_ON_FAULT_HALT };
static const cactus_task_desc lender_d = { .name = "lender", .entry = lender,
                                           .stack_size = 4096, .prio = 1 };

static void wait_exit(int t)
{
    for (int i = 0; i < 100 && cactus_task_state(t) != CACTUS_TASK_EXITED; i++)
        cactus_sleep(1);
    CHECK_EQ(cactus_task_state(t), CACTUS_TASK_EXITED);
}

static void ctl(void *arg)
{
    (void)arg;
    int l = cactus_task_create(&lender_d);
    CHECK(l >= 0);
    cactus_sleep(1); /* the lender runs once and sleeps: its sp is near its top */
    int s = cactus_task_create(&small_d);
    CHECK(s >= 0);
    cactus_stack_info st[3];
    int ids[3] = { cactus_task_self(), l, s };
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(cactus_task_stack(ids[i], &st[i]), CACTUS_OK);
        lo[i] = st[i].base;
        hi[i] = st[i].base + st[i].size;
    }
    wait_exit(s);
    CHECK_EQ(cactus_stacklet_heap_bytes, 0);
    int r = cactus_task_create(&ref_d);
    CHECK(r >= 0);
    wait_exit(r);
    CHECK_EQ(cactus_stacklet_heap_bytes, 0); /* ref ran natively: nothing moved */

    CHECK_EQ(result, want);
    kprintf("outer %c, middle %c, inner %c, deepest %c; result %x\n", kind[0], kind[1],
            kind[2], kind[3], result);
    CHECK_EQ(kind[0], 'L');
    CHECK_EQ(kind[1], 'S');
    CHECK_EQ(kind[2], 'L');
    CHECK_EQ(kind[3], 'S');
    for (int i = 0; i < 2; i++) {
        CHECK_EQ(cactus_task_stack(ids[i], &st[i]), CACTUS_OK);
        CHECK_EQ(st[i].limit, st[i].base);
    }
    CHECK_EQ(cactus_stacklet_heap_bytes, 0);
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "ctl", .entry = ctl, .stack_size = 1024, .prio = 10 },
};

int main(void)
{
    ktest_start(tasks, 1);
}
