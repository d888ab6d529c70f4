/* Linked stack chunks out of heap (kernel/stack/chunks.c): a frame larger than the whole stack
 * heap cannot get a chunk, and a recursion without end links chunks until the heap runs out;
 * in both cases the request fails and the task's fault policy (kill) applies with reason
 * STACK_REQUEST at a check site, before a byte of the frame is written. A failed
 * dynamic-allocation check (a VLA) is never moved to a chunk. Every chunk a killed task held
 * goes back to the heap (heap bytes in use as before it started), and a later task that fits
 * runs to its end. On cactus-sim the ownership oracle sees no violation. */
#include "cactus/stackcheck.h"
#include "ktest.h"

const char ktest_name[] = "chunks_oom";

extern uint32_t cactus_stacklet_heap_bytes, cactus_stacklet_heap_peak;

static cactus_fault seen;
static volatile int faults, huge_entered, vla_done;
static volatile uint32_t levels, res_small;

static void hook(const cactus_fault *f)
{
    seen = *f;
    faults++;
}

static uint32_t __attribute__((noinline)) huge(uint32_t seed)
{
    volatile uint8_t buf[60000];
    huge_entered = 1;
    for (uint32_t i = 0; i < sizeof(buf); i++)
        buf[i] = (uint8_t)(seed + i);
    return buf[seed % sizeof(buf)];
}

static volatile uint32_t stop_at = 0xFFFFFFFFu; /* never reached: the heap runs out first */

static uint32_t __attribute__((noinline)) endless(uint32_t n)
{
    volatile uint32_t pad[24];
    pad[0] = n;
    levels = n;
    if (n == stop_at)
        return n;
    return endless(n + 1) + pad[0];
}

static uint32_t __attribute__((noinline)) dyn(uint32_t n)
{
    volatile uint8_t vla[n];
    for (uint32_t i = 0; i < n; i++)
        vla[i] = (uint8_t)i;
    return vla[n - 1];
}

static uint32_t __attribute__((noinline)) medium(uint32_t seed)
{
    volatile uint32_t buf[100];
    for (uint32_t i = 0; i < 100; i++)
        buf[i] = seed * i + 1;
    uint32_t acc = 0;
    for (uint32_t i = 0; i < 100; i++)
        acc += buf[i] ^ i;
    return acc;
}

static volatile uint32_t vla_bytes = 400;

static void too_big(void *arg)
{
    (void)arg;
    huge(5);
}
static void forever(void *arg)
{
    (void)arg;
    endless(0);
}
static void dynamic(void *arg)
{
    (void)arg;
    dyn(vla_bytes);
    vla_done = 1;
}
static void fits(void *arg)
{
    (void)arg;
    res_small = medium(9);
}

static const cactus_task_desc big_d = { .name = "too_big", .entry = too_big, .stack_size = 256,
                                        .prio = 6, .on_fault = CACTUS_ON_FAULT_KILL };
static const cactus_task_desc end_d = { .name = "forever", .entry = forever, .stack_size = 256,
                                        .prio = 6, .on_fault = CACTUS_ON_FAULT_KILL };
static const cactus_task_desc dyn_d = { .name = "dynamic", .entry = dynamic, .stack_size = 256,
                                        .prio = 6, .on_fault = CACTUS_ON_FAULT_KILL };
static const cactus_task_desc fit_d = { .name = "fits", .entry = fits, .stack_size = 256,
                                        .prio = 6, .on_fault = CACTUS_ON_FAULT_HALT };

/* Sleeps until task t has ended (faulted or exited), at most 1000 ticks: the endless
 * recursion takes several ticks of simulated time to exhaust the heap. */
static void wait_end(int t)
{
    for (int i = 0; i < 1000; i++) {
        int st = cactus_task_state(t);
        if (st == CACTUS_TASK_FAULTED || st == CACTUS_TASK_EXITED)
            return;
        cactus_sleep(1);
    }
}

/* Creates a task from d, lets it run, and checks it was killed at a check site. */
static void expect_killed(const cactus_task_desc *d, int nth, uint32_t kind)
{
    uint32_t before = cactus_stacklet_heap_bytes;
    int t = cactus_task_create(d);
    CHECK(t >= 0);
    wait_end(t);
    CHECK_EQ(cactus_task_state(t), CACTUS_TASK_FAULTED);
    CHECK_EQ(faults, nth);
    CHECK_EQ(seen.task, t);
    CHECK_EQ(seen.reason, CACTUS_FAULT_STACK_REQUEST);
    CHECK_EQ(seen.action, CACTUS_ON_FAULT_KILL);
    const struct cactus_check_site *site = cactus_check_site_at(seen.pc);
#if CACTUS_STACK_BOUND
    /* The hardware stack bound refuses a dynamic allocation itself, before its check. */
    if (kind == CACTUS_CHECK_DYNAMIC) {
        CHECK(site == 0);
        CHECK(seen.requested > 0);
        CHECK_EQ(cactus_stacklet_heap_bytes, before);
        return;
    }
#endif
    CHECK(site != 0);
    CHECK_EQ(cactus_check_kind(site), kind);
    CHECK_EQ(cactus_stacklet_heap_bytes, before);
}

static void ctl(void *arg)
{
    (void)arg;
    uint32_t want = medium(9);

    expect_killed(&big_d, 1, CACTUS_CHECK_ENTRY);
    CHECK_EQ(huge_entered, 0);
    kprintf("frame larger than the heap: killed at its check\n");

    expect_killed(&end_d, 2, CACTUS_CHECK_ENTRY);
    CHECK(levels > 100);
    CHECK(cactus_stacklet_heap_peak > 40000);
    kprintf("endless recursion: killed when the heap ran out\n");

    expect_killed(&dyn_d, 3, CACTUS_CHECK_DYNAMIC);
    CHECK_EQ(vla_done, 0);
    kprintf("dynamic allocation: killed at its check, not moved\n");

    int f = cactus_task_create(&fit_d);
    CHECK(f >= 0);
    wait_end(f);
    CHECK_EQ(cactus_task_state(f), CACTUS_TASK_EXITED);
    CHECK_EQ(res_small, want);
    CHECK_EQ(faults, 3);
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "ctl", .entry = ctl, .stack_size = 768, .prio = 10 },
};

int main(void)
{
    static cactus_config cfg = { .tick_hz = 1000, .slice_ticks = 1, .tasks = tasks, .ntasks = 1,
                                 .fault_hook = hook };
    ktest_start_cfg(&cfg);
}
