/* The four deliberate overflow patterns against the `static` strategy's switch-time checks
 * (sp-limit check and a 16-byte guard whose top word is a checked canary, as FreeRTOS methods 1
 * and 2).
 * Included by overflow_p1.c .. overflow_p4.c, each defining:
 *   PATTERN        1..4
 *   WRITE_ALL      1: write the whole large local array (it covers the guard), 0: write only
 *                  BELOW bytes under the stack region, leaving the guard intact
 *   SWITCH_INSIDE  1: block (a switch) while still inside the overflowing function
 *   EXPECT_REASON  the fault reason the baseline reports, or 0 when it misses the overflow
 *   SWITCH_BY_YIELD (optional, 0 by default) 1: every switch of the overflowing task is a
 *                  cactus_yield to a task of its own level (a partner that yields in a loop,
 *                  and a slice long enough that no tick rotates the level), so the check that
 *                  catches it is the yield's (arch/rv32/yield.S with the static strategy)
 * Memory below the overflowing task's region is free pool memory (painted), so the test counts
 * exactly how many bytes there were corrupted. On cactus-sim the ownership oracle's verdict is
 * printed too; QEMU has no trace device ("oracle: n/a").
 * KTEST_CHECKS=1 (the `make -C tests checks` build, compiled by `cactus cc --checks detect`):
 * every pattern must instead be caught at smash's dynamic-allocation check, before a byte of
 * the array is written: reason STACK_REQUEST, nothing corrupted, guard intact, no oracle
 * violation. */
#include "ktest.h"

#ifndef KTEST_CHECKS
#define KTEST_CHECKS 0
#endif
#ifndef SWITCH_BY_YIELD
#define SWITCH_BY_YIELD 0
#endif

/* A switch of the overflowing task: a sleep, or a yield to the partner at its level. */
static void task_switch(void)
{
    if (SWITCH_BY_YIELD)
        cactus_yield();
    else
        cactus_sleep(1);
}

#define BELOW 56u /* bytes written below the stack region */
#define PAINT_BYTE 0xA5u

static volatile uintptr_t region_base; /* lowest byte of the overflowing task's region */
static volatile int returned, survived, detected_reason = -1, detected_after_return;
static volatile int guard_intact_at_detection = -1, guard_intact_at_end = -1;

/* The guard: 12 painted bytes, then the canary word the switch-time check compares (its value
 * is the stack limit, the address right above it). */
static int guard_intact(uintptr_t base)
{
    const volatile uint8_t *g = (const volatile uint8_t *)base;
    for (int i = 0; i < 12; i++)
        if (g[i] != PAINT_BYTE)
            return 0;
    return *(const volatile uint32_t *)(base + 12) == (uint32_t)(base + 16);
}

static void hook(const cactus_fault *f)
{
    detected_reason = f->reason;
    detected_after_return = returned;
    guard_intact_at_detection = guard_intact(region_base);
}

static void __attribute__((noinline)) smash(void)
{
    uintptr_t sp;
    __asm__ volatile("mv %0, sp" : "=r"(sp));
    uintptr_t bottom = region_base - BELOW;
    uint32_t n = (uint32_t)(sp - bottom) + 16;
    volatile uint8_t big[n]; /* a local array larger than the stack left */
    uint32_t first = (uint32_t)(bottom - (uintptr_t)big);
    uint32_t last = WRITE_ALL ? n : first + BELOW;
    for (uint32_t i = first; i < last; i++)
        big[i] = (uint8_t)(0x10 + (i & 0x3F));
    if (SWITCH_INSIDE)
        task_switch(); /* switch with sp still below the limit */
}

static void overflower(void *arg)
{
    (void)arg;
    smash();
    returned = 1;
    task_switch(); /* the first switch after the function returned */
    guard_intact_at_end = guard_intact(region_base);
    survived = 1;
}

static void pad(void *arg)
{
    (void)arg;
    cactus_sleep(CACTUS_FOREVER - 1);
}

/* The overflower's partner at its level (SWITCH_BY_YIELD): ready whenever the overflower
 * yields, so every yield switches (and checks the task it leaves). */
static void partner(void *arg)
{
    (void)arg;
    for (;;)
        cactus_yield();
}

static const cactus_task_desc pad_d = { .name = "pad", .entry = pad, .stack_size = 512, .prio = 1 };
static const cactus_task_desc partner_d = { .name = "partner", .entry = partner,
                                            .stack_size = 512, .prio = 5 };
static const cactus_task_desc ovf_d = { .name = "overflower", .entry = overflower,
                                        .stack_size = 1024, .prio = 5,
                                        .on_fault = CACTUS_ON_FAULT_KILL };

static void ctl(void *arg)
{
    (void)arg;
    /* The partner (SWITCH_BY_YIELD) first, so its stack lies below pad's and the memory below
     * the overflower stays free. */
    if (SWITCH_BY_YIELD)
        CHECK(cactus_task_create(&partner_d) >= 0);
    /* pad lies just below the overflower; killing it leaves free, painted memory there */
    int p = cactus_task_create(&pad_d);
    int o = cactus_task_create(&ovf_d);
    CHECK(p >= 0 && o >= 0);
    cactus_stack_info s;
    CHECK_EQ(cactus_task_stack(o, &s), CACTUS_OK);
    cactus_stack_info ps;
    CHECK_EQ(cactus_task_stack(p, &ps), CACTUS_OK);
    CHECK_EQ(ps.base + ps.size, s.base);
    region_base = s.base;
    CHECK_EQ(cactus_task_kill(p), CACTUS_OK);
    /* One long sleep, not polling: while the overflower runs nothing else is ready, so no tick
     * can switch it out (and check it) earlier than the pattern says. */
    cactus_sleep(20);
    CHECK(cactus_task_state(o) != CACTUS_TASK_READY && cactus_task_state(o) != CACTUS_TASK_SLEEPING);

    uint32_t corrupted = 0;
    for (const volatile uint8_t *b = (const uint8_t *)(s.base - 256); b < (uint8_t *)s.base; b++)
        corrupted += *b != PAINT_BYTE;
    kprintf("pattern %d: %s, %s\n", PATTERN,
            WRITE_ALL ? "large local array written past the stack end"
                      : "56 bytes written below the stack, guard untouched",
            SWITCH_INSIDE ? "switch inside the function" : "function returns before any switch");
    if (detected_reason < 0)
        kprintf("  kernel: MISSED, task ran on (state %d)\n", cactus_task_state(o));
    else if (detected_reason == CACTUS_FAULT_STACK_REQUEST)
        kprintf("  kernel: caught at the stack check %s the function returned; task killed\n",
                detected_after_return ? "after" : "before");
    else
        kprintf("  kernel: caught at switch %s the function returned, by %s; task killed\n",
                detected_after_return ? "after" : "before",
                detected_reason == CACTUS_FAULT_STACK_SP ? "sp-limit check" : "guard check");
    int guard = detected_reason < 0 ? guard_intact_at_end : guard_intact_at_detection;
    kprintf("  guard: %s; corrupted below the stack: %u bytes\n", guard ? "intact" : "overwritten",
            corrupted);
    uint32_t v;
    if (cactus_oracle_violations(&v) == 0) {
        /* one byte store per violation: every byte below the region, plus the guard if hit */
        kprintf("  oracle: %u violations\n", v);
        if (KTEST_CHECKS) {
            CHECK_EQ(v, 0);
        } else {
            CHECK_EQ(v, BELOW + (WRITE_ALL ? 16 : 0));
            ktest_oracle_violations_allowed = 1;
        }
    } else {
        kprintf("  oracle: n/a (no trace device)\n");
    }

    if (KTEST_CHECKS) {
        CHECK_EQ(corrupted, 0);
        CHECK_EQ(guard, 1);
        CHECK_EQ(detected_reason, CACTUS_FAULT_STACK_REQUEST);
        CHECK_EQ(detected_after_return, 0);
        CHECK_EQ(cactus_task_state(o), CACTUS_TASK_FAULTED);
        CHECK_EQ(survived, 0);
        ktest_pass();
    }
    CHECK_EQ(corrupted, BELOW);
    CHECK_EQ(guard, !WRITE_ALL);
    if (EXPECT_REASON) {
        CHECK_EQ(detected_reason, EXPECT_REASON);
        CHECK_EQ(detected_after_return, !SWITCH_INSIDE);
        CHECK_EQ(cactus_task_state(o), CACTUS_TASK_FAULTED);
        CHECK_EQ(survived, 0);
    } else {
        CHECK_EQ(detected_reason, -1);
        CHECK_EQ(survived, 1);
        CHECK_EQ(cactus_task_state(o), CACTUS_TASK_EXITED);
    }
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "ctl", .entry = ctl, .stack_size = 2048, .prio = 10 },
};

int main(void)
{
    /* With a partner at its level, a slice longer than the test keeps ticks from rotating
     * the level: only the overflower's own yields switch it out. */
    static cactus_config cfg = { .tick_hz = 1000, .slice_ticks = SWITCH_BY_YIELD ? 1000 : 1,
                                 .tasks = tasks, .ntasks = 1, .fault_hook = hook };
    ktest_start_cfg(&cfg);
}
