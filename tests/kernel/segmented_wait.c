/* Segmented stacks out of memory (kernel/stack/segmented.c, the wait in core/policy.c), on a
 * heap of 8 KiB: a task whose frame finds no stacklet waits until another task's stacklets come
 * back and then runs its frame to the end (no fault); when nothing comes back within the wait
 * (CACTUS_STACK_WAIT_TICKS, 100 ticks) its fault policy applies (kill, reason STACK_REQUEST at
 * its check site, no byte of its frame written); a frame larger than the whole heap is refused
 * at once. Every stacklet is back in the heap at the end; on cactus-sim the ownership oracle
 * sees no violation. */
#include "cactus/stackcheck.h"
#include "ktest.h"

#ifndef KTEST_NAME
#define KTEST_NAME "segmented_wait"
#endif
const char ktest_name[] = KTEST_NAME;

extern uint32_t cactus_stacklet_heap_bytes;

static cactus_fault seen;
static volatile int faults, hog_holding, big_entered;
static volatile uint32_t hold_ticks, hog_released_at, waiter_done_at, waiter_sum, asked_at,
    fault_at;

static void hook(const cactus_fault *f)
{
    seen = *f;
    faults++;
    fault_at = cactus_now();
}

/* A 5000-byte frame (its own stacklet) held for hold_ticks. */
static uint32_t __attribute__((noinline)) hold(uint32_t seed)
{
    volatile uint8_t buf[5000];
    for (uint32_t i = 0; i < sizeof(buf); i++)
        buf[i] = (uint8_t)(seed + i);
    hog_holding = 1;
    cactus_sleep(hold_ticks);
    hog_holding = 0;
    hog_released_at = cactus_now();
    return buf[seed % sizeof(buf)];
}

/* A 3000-byte frame: no stacklet for it while hold() runs. */
static uint32_t __attribute__((noinline)) big(uint32_t seed)
{
    volatile uint8_t buf[3000];
    big_entered = 1;
    uint32_t acc = 0;
    for (uint32_t i = 0; i < sizeof(buf); i++)
        buf[i] = (uint8_t)(seed * i);
    for (uint32_t i = 0; i < sizeof(buf); i++)
        acc += buf[i];
    return acc;
}

static uint32_t __attribute__((noinline)) huge(uint32_t seed)
{
    volatile uint8_t buf[20000];
    big_entered = 1;
    buf[seed % sizeof(buf)] = 1;
    return buf[0];
}

static void hog(void *arg)
{
    (void)arg;
    hold(3);
}
static void waiter(void *arg)
{
    (void)arg;
    waiter_sum = big(7);
    waiter_done_at = cactus_now();
}
static void giant(void *arg)
{
    (void)arg;
    huge(1);
}

static const cactus_task_desc hog_d = { .name = "hog", .entry = hog, .stack_size = 256,
                                        .prio = 8, .on_fault = CACTUS_ON_FAULT_HALT };
static const cactus_task_desc wait_d = { .name = "waiter", .entry = waiter, .stack_size = 256,
                                         .prio = 7, .on_fault = CACTUS_ON_FAULT_KILL };
static const cactus_task_desc giant_d = { .name = "giant", .entry = giant, .stack_size = 256,
                                          .prio = 7, .on_fault = CACTUS_ON_FAULT_KILL };

static void wait_end(int t)
{
    for (int i = 0; i < 2000; i++) {
        int st = cactus_task_state(t);
        if (st == CACTUS_TASK_FAULTED || st == CACTUS_TASK_EXITED)
            return;
        cactus_sleep(1);
    }
}

/* hog holds its 5000-byte stacklet for `ticks`; waiter asks for a 3000-byte one meanwhile. */
static void round_trip(uint32_t ticks)
{
    hold_ticks = ticks;
    big_entered = 0;
    int h = cactus_task_create(&hog_d);
    CHECK(h >= 0);
    while (!hog_holding)
        cactus_sleep(1);
    asked_at = cactus_now();
    int w = cactus_task_create(&wait_d);
    CHECK(w >= 0);
    wait_end(w);
    wait_end(h);
    kprintf("hog held %u ticks: waiter asked at %u, %s at %u (hog released at %u)\n", ticks,
            asked_at, cactus_task_state(w) == CACTUS_TASK_EXITED ? "ran" : "was killed",
            cactus_task_state(w) == CACTUS_TASK_EXITED ? waiter_done_at : cactus_now(),
            hog_released_at);
}

static void ctl(void *arg)
{
    (void)arg;
    uint32_t before = cactus_stacklet_heap_bytes;
    uint32_t want = 0;
    for (uint32_t i = 0; i < 3000; i++)
        want += (uint8_t)(7 * i);

    /* 1. The memory comes back within the wait: the waiter runs its frame, no fault. */
    round_trip(20);
    CHECK_EQ(faults, 0);
    CHECK_EQ(waiter_sum, want);
    CHECK(waiter_done_at >= hog_released_at);
    CHECK_EQ(cactus_stacklet_heap_bytes, before);

    /* 2. It does not: after the wait the waiter is killed at its check, before its frame. */
    uint32_t t0 = cactus_now();
    waiter_sum = 0;
    round_trip(300);
    CHECK_EQ(faults, 1);
    CHECK_EQ(seen.reason, CACTUS_FAULT_STACK_REQUEST);
    CHECK_EQ(seen.action, CACTUS_ON_FAULT_KILL);
    CHECK_EQ(big_entered, 0);
    CHECK_EQ(waiter_sum, 0);
    const struct cactus_check_site *site = cactus_check_site_at(seen.pc);
    CHECK(site != 0);
    CHECK_EQ(cactus_check_kind(site), CACTUS_CHECK_ENTRY);
    CHECK(cactus_now() - t0 >= 300);
    CHECK(fault_at - asked_at >= 100 && fault_at - asked_at < 110);
    CHECK(fault_at < hog_released_at);
    CHECK_EQ(cactus_stacklet_heap_bytes, before);

    /* 3. A frame larger than the heap: refused at once, no wait. */
    uint32_t t1 = cactus_now();
    int g = cactus_task_create(&giant_d);
    CHECK(g >= 0);
    wait_end(g);
    CHECK_EQ(cactus_task_state(g), CACTUS_TASK_FAULTED);
    CHECK_EQ(faults, 2);
    CHECK(cactus_now() - t1 < 10);
    CHECK_EQ(big_entered, 0);
    CHECK_EQ(cactus_stacklet_heap_bytes, before);
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "ctl", .entry = ctl, .stack_size = 768, .prio = 10 },
};

int main(void)
{
    static cactus_config cfg = { .tasks = tasks, .ntasks = 1, .tick_hz = 1000, .slice_ticks = 1,
                                 .fault_hook = hook };
    ktest_start_cfg(&cfg);
}
