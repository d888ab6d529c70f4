/* MTSS out of memory: a frame larger than the free part of every switched-out task's stack
 * cannot move; the request fails and the task's fault policy (kill) applies with reason
 * STACK_REQUEST at the function's check site, before a byte of the frame is written (the
 * lender's pages stay painted and its limit unchanged). A failed dynamic-allocation check
 * (KIND 1: a VLA) is not moved either, though the lender has room. A later request that fits
 * is served as usual. The lender has 4 KiB, less than huge's 6000-byte frame. On cactus-sim
 * the ownership oracle sees no violation. */
#include "cactus/stackcheck.h"
#include "ktest.h"

const char ktest_name[] = "mtss_oom";

static cactus_fault seen;
static volatile int faults, huge_entered;
static volatile uint32_t res_small;

static void hook(const cactus_fault *f)
{
    seen = *f;
    faults++;
}

static uint32_t __attribute__((noinline)) huge(uint32_t seed)
{
    volatile uint8_t buf[6000];
    huge_entered = 1;
    for (uint32_t i = 0; i < sizeof(buf); i++)
        buf[i] = (uint8_t)(seed + i);
    return buf[seed % sizeof(buf)];
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

static uint32_t __attribute__((noinline)) dyn(uint32_t n)
{
    volatile uint8_t vla[n];
    for (uint32_t i = 0; i < n; i++)
        vla[i] = (uint8_t)i;
    return vla[n - 1];
}

static volatile uint32_t vla_bytes = 400;

static void dynamic(void *arg)
{
    (void)arg;
    dyn(vla_bytes);
    huge_entered = 2;
}

static void too_big(void *arg)
{
    (void)arg;
    huge(5);
}

static void fits(void *arg)
{
    (void)arg;
    res_small = medium(9);
}

static void lender(void *arg)
{
    (void)arg;
    for (;;)
        cactus_sleep(1000);
}

static const cactus_task_desc l_d = { .name = "lender", .entry = lender, .stack_size = 4096,
                                      .prio = 1 };
static const cactus_task_desc big_d = { .name = "too_big", .entry = too_big, .stack_size = 256,
                                        .prio = 6, .on_fault = CACTUS_ON_FAULT_KILL };
static const cactus_task_desc dyn_d = { .name = "dynamic", .entry = dynamic, .stack_size = 256,
                                        .prio = 6, .on_fault = CACTUS_ON_FAULT_KILL };
static const cactus_task_desc fit_d = { .name = "fits", .entry = fits, .stack_size = 256,
                                        .prio = 6, .on_fault = CACTUS_ON_FAULT_HALT };

static void ctl(void *arg)
{
    (void)arg;
    uint32_t want = medium(9);
    int l = cactus_task_create(&l_d);
    CHECK(l >= 0);
    cactus_sleep(1);
    cactus_stack_info ls;
    CHECK_EQ(cactus_task_stack(l, &ls), CACTUS_OK);

    int t = cactus_task_create(&big_d);
    CHECK(t >= 0);
    cactus_sleep(1);
    CHECK_EQ(cactus_task_state(t), CACTUS_TASK_FAULTED);
    CHECK_EQ(faults, 1);
    CHECK_EQ(huge_entered, 0);
    CHECK_EQ(seen.task, t);
    CHECK_EQ(seen.reason, CACTUS_FAULT_STACK_REQUEST);
    CHECK_EQ(seen.action, CACTUS_ON_FAULT_KILL);
    const struct cactus_check_site *huge_site = cactus_check_site_at(seen.pc);
    CHECK(huge_site != 0);
    CHECK_EQ(seen.requested, cactus_check_need(huge_site)); /* below sp at the check */
    CHECK(huge_site->need >= 6000);                         /* E: the whole frame */
    CHECK_EQ(cactus_task_stack(l, &ls), CACTUS_OK);
    CHECK_EQ(ls.limit, ls.base);
    uint32_t dirty = 0;
    for (const volatile uint8_t *p = (const uint8_t *)ls.base; p < (uint8_t *)ls.base + 1024; p++)
        dirty += *p != 0xA5u;
    CHECK_EQ(dirty, 0);
    kprintf("out of memory: killed at the check, frame %u\n", huge_site->need);

    int v = cactus_task_create(&dyn_d);
    CHECK(v >= 0);
    cactus_sleep(1);
    CHECK_EQ(cactus_task_state(v), CACTUS_TASK_FAULTED);
    CHECK_EQ(faults, 2);
    CHECK_EQ(huge_entered, 0);
    CHECK_EQ(seen.task, v);
    CHECK_EQ(seen.reason, CACTUS_FAULT_STACK_REQUEST);
    const struct cactus_check_site *site = cactus_check_site_at(seen.pc);
#if CACTUS_STACK_BOUND
    /* The hardware stack bound refuses the allocation itself, before its check runs. */
    CHECK(site == 0);
    CHECK(seen.requested > 0);
#else
    CHECK(site != 0);
    CHECK_EQ(cactus_check_kind(site), CACTUS_CHECK_DYNAMIC);
#endif
    CHECK_EQ(cactus_task_stack(l, &ls), CACTUS_OK);
    CHECK_EQ(ls.limit, ls.base);
    kprintf("dynamic allocation: killed at its check, not moved\n");

    int f = cactus_task_create(&fit_d);
    CHECK(f >= 0);
    cactus_sleep(1);
    CHECK_EQ(cactus_task_state(f), CACTUS_TASK_EXITED);
    CHECK_EQ(res_small, want);
    CHECK_EQ(faults, 2);
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
