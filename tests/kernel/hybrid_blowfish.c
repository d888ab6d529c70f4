/* The `mtss+split` hybrid's reason to exist (kernel/stack/hybrid.c, docs/segmented.md): a frame
 * no switched-out task can lend pages for. `worker` (384-byte stack) calls fish(), whose
 * 6000-byte frame is larger than every task's whole region (ctl 1024, lender 4096, worker
 * 384: checked below), so MTSS alone refuses it and kills the task (tests/kernel/mtss_oom.c,
 * the same frame under `mtss`). The hybrid gives it a stacklet from the heap carved out of the
 * stack pool: the frame runs outside every region, its result is right, and the task's next
 * frame that a lender can hold (1000 bytes) is a loan from the lender's free pages as in
 * plain MTSS. At the end every page is back (the lender's limit is its base), the heap holds
 * nothing, and on cactus-sim the ownership oracle saw no violation. */
#include "ktest.h"

const char ktest_name[] = "hybrid_blowfish";

extern uint32_t cactus_stacklet_heap_bytes;

static volatile uintptr_t lo[3], hi[3]; /* ctl, lender, worker regions */
static volatile int fish_where = -2, medium_where = -2;
static volatile uint32_t fish_heap, fish_result, medium_result;

static uintptr_t sp_now(void)
{
    uintptr_t sp;
    __asm__ volatile("mv %0, sp" : "=r"(sp));
    return sp;
}

/* Which region sp lies in (0 ctl, 1 lender, 2 worker), -1 for none (a stacklet). */
static int where(uintptr_t sp)
{
    for (int i = 0; i < 3; i++)
        if (sp >= lo[i] && sp < hi[i])
            return i;
    return -1;
}

static uint32_t __attribute__((noinline)) fish(uint32_t seed)
{
    volatile uint8_t buf[6000];
    fish_where = where(sp_now());
    fish_heap = cactus_stacklet_heap_bytes;
    for (uint32_t i = 0; i < sizeof(buf); i++)
        buf[i] = (uint8_t)(seed + i);
    uint32_t acc = 0;
    for (uint32_t i = 0; i < sizeof(buf); i++)
        acc += buf[i];
    return acc;
}

static uint32_t __attribute__((noinline)) medium(uint32_t seed)
{
    volatile uint32_t buf[250];
    medium_where = where(sp_now());
    for (uint32_t i = 0; i < 250; i++)
        buf[i] = seed * i + 1;
    uint32_t acc = 0;
    for (uint32_t i = 0; i < 250; i++)
        acc += buf[i] ^ i;
    return acc;
}

static void worker(void *arg)
{
    (void)arg;
    fish_result = fish(5);
    medium_result = medium(9);
}

static void lender(void *arg)
{
    (void)arg;
    for (;;)
        cactus_sleep(1000);
}

static const cactus_task_desc l_d = { .name = "lender", .entry = lender, .stack_size = 4096,
                                      .prio = 1 };
static const cactus_task_desc w_d = { .name = "worker", .entry = worker, .stack_size = 384,
                                      .prio = 6, .on_fault = CACTUS_ON_FAULT_HALT };

static void ctl(void *arg)
{
    (void)arg;
    uint32_t want_fish = 0, want_medium = 0;
    for (uint32_t i = 0; i < 6000; i++)
        want_fish += (uint8_t)(5 + i);
    for (uint32_t i = 0; i < 250; i++)
        want_medium += (9 * i + 1) ^ i;
    CHECK_EQ(cactus_stacklet_heap_bytes, 0);

    int l = cactus_task_create(&l_d);
    CHECK(l >= 0);
    cactus_sleep(1); /* the lender runs once and sleeps: its sp is near its top */
    int w = cactus_task_create(&w_d);
    CHECK(w >= 0);
    cactus_stack_info s[3];
    int ids[3] = { cactus_task_self(), l, w };
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(cactus_task_stack(ids[i], &s[i]), CACTUS_OK);
        lo[i] = s[i].base;
        hi[i] = s[i].base + s[i].size;
        CHECK(s[i].size < 6000); /* no region could lend fish's frame: MTSS alone cannot */
    }
    for (int i = 0; i < 100 && cactus_task_state(w) != CACTUS_TASK_EXITED; i++)
        cactus_sleep(1);

    CHECK_EQ(cactus_task_state(w), CACTUS_TASK_EXITED);
    CHECK_EQ(fish_result, want_fish);
    CHECK_EQ(medium_result, want_medium);
    CHECK_EQ(fish_where, -1);     /* a stacklet */
    CHECK(fish_heap >= 6000);     /* ... from the heap */
    CHECK_EQ(medium_where, 1);    /* a loan of the lender's pages */
    CHECK_EQ(cactus_task_stack(l, &s[1]), CACTUS_OK);
    CHECK_EQ(s[1].limit, s[1].base);
    CHECK_EQ(cactus_stacklet_heap_bytes, 0);
    kprintf("fish: a stacklet (%u heap bytes held), medium: a loan of the lender's pages\n",
            fish_heap);
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "ctl", .entry = ctl, .stack_size = 1024, .prio = 10 },
};

int main(void)
{
    ktest_start(tasks, 1);
}
