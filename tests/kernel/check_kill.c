/* Stack checks (docs/stack-checks.md) against the `static` strategy, with the hand-written
 * sites of check_sites.S: a check that passes lets the task continue; an entry check and a
 * dynamic-allocation check that fail are requests the static stack cannot grant, so the task's
 * policy (kill) applies with reason STACK_REQUEST, the site's pc, need, sp and limit, before a
 * byte below the limit is written (painted pool memory below the region stays intact, the
 * guard too, and on cactus-sim the ownership oracle sees no violation: ktest_pass checks it);
 * an ecall that is not a site is still an exception (cause 11). */
#include "check_sites.h"
#include "ktest.h"

const char ktest_name[] = "check_kill";

#define PAINT_BYTE 0xA5u

static volatile uintptr_t region_base;
static cactus_fault seen;
static volatile int faults, guard_at_fault = -1;

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
    seen = *f;
    faults++;
    guard_at_fault = guard_intact(region_base);
}

enum { FRAME, DYNAMIC, PLAIN_ECALL };

static void victim(void *arg)
{
    switch ((int)(uintptr_t)arg) {
    case FRAME:
        CHECK_EQ(ck_fill_256(0x5A), 256); /* 256 bytes fit in 1 KiB: the check passes */
        klog('p');
        ck_fill_2048(0x5A); /* 2048 do not: killed at the check */
        break;
    case DYNAMIC:
        CHECK_EQ(ck_alloca(40, 0x5A), 48);
        klog('d');
        ck_alloca(2048, 0x5A); /* the dynamic check fails: killed */
        break;
    default:
        ck_plain_ecall(); /* not a site: an exception, as before */
        break;
    }
    klog('!');
}

static void pad(void *arg)
{
    (void)arg;
    cactus_sleep(CACTUS_FOREVER - 1);
}

static const cactus_task_desc pad_d = { .name = "pad", .entry = pad, .stack_size = 512, .prio = 1 };
static cactus_task_desc victim_d = { .name = "victim", .entry = victim, .stack_size = 1024,
                                     .prio = 5, .on_fault = CACTUS_ON_FAULT_KILL };

/* Runs the victim on a 1 KiB stack with free, painted pool memory right below it; returns the
 * number of bytes below its region that changed. */
static uint32_t run_victim(int kind, cactus_stack_info *s)
{
    victim_d.arg = (void *)(uintptr_t)kind;
    faults = 0;
    int p = cactus_task_create(&pad_d);
    int v = cactus_task_create(&victim_d);
    CHECK(p >= 0 && v >= 0);
    cactus_stack_info ps;
    CHECK_EQ(cactus_task_stack(p, &ps), CACTUS_OK);
    CHECK_EQ(cactus_task_stack(v, s), CACTUS_OK);
    CHECK_EQ(ps.base + ps.size, s->base);
    region_base = s->base;
    CHECK_EQ(cactus_task_kill(p), CACTUS_OK); /* frees (and repaints) the memory below */
    cactus_sleep(5);
    CHECK_EQ(cactus_task_state(v), CACTUS_TASK_FAULTED);
    CHECK_EQ(faults, 1);
    CHECK_EQ(seen.task, v);
    CHECK_EQ(seen.action, CACTUS_ON_FAULT_KILL);
    CHECK_EQ(seen.limit, s->limit);
    uint32_t corrupted = 0;
    for (const volatile uint8_t *b = (const uint8_t *)(s->base - 256); b < (uint8_t *)s->base; b++)
        corrupted += *b != PAINT_BYTE;
    return corrupted;
}

static void ctl(void *arg)
{
    (void)arg;
    cactus_stack_info s;

    CHECK_EQ(run_victim(FRAME, &s), 0);
    CHECK_EQ(seen.reason, CACTUS_FAULT_STACK_REQUEST);
    CHECK_EQ(seen.pc, (uintptr_t)ck_fill_2048_site);
    CHECK_EQ(seen.requested, 2048 - 16);
    CHECK(seen.sp >= s.limit && seen.sp < s.limit + 2048 - 16);
    CHECK_EQ(guard_at_fault, 1);
    kprintf("entry check: caught at the site, need %u, 0 bytes written below the limit\n",
            seen.requested);

    CHECK_EQ(run_victim(DYNAMIC, &s), 0);
    CHECK_EQ(seen.reason, CACTUS_FAULT_STACK_REQUEST);
#if CACTUS_STACK_BOUND
    /* The hardware stack bound refuses the allocation itself: sp never went below the limit. */
    CHECK(seen.pc < (uintptr_t)ck_alloca_dyn_site);
    CHECK(seen.requested > 0);
    CHECK(seen.sp >= s.limit && seen.sp - seen.requested < s.limit);
    CHECK_EQ(guard_at_fault, 1);
    kprintf("dynamic allocation: refused by the stack bound, 0 bytes written below the limit\n");
#else
    CHECK_EQ(seen.pc, (uintptr_t)ck_alloca_dyn_site);
    CHECK_EQ(seen.requested, 0);
    CHECK(seen.sp < s.limit); /* the allocation moved sp below the limit; nothing was stored */
    CHECK_EQ(guard_at_fault, 1);
    kprintf("dynamic check: caught at the site, 0 bytes written below the limit\n");
#endif

    CHECK_EQ(run_victim(PLAIN_ECALL, &s), 0);
    CHECK_EQ(seen.reason, CACTUS_FAULT_EXCEPTION);
    CHECK_EQ(seen.cause, 11);
    CHECK_EQ(seen.pc, (uintptr_t)ck_plain_ecall);
    kprintf("plain ecall: exception cause 11, as before\n");

    KLOG_EXPECT("pd");
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "ctl", .entry = ctl, .stack_size = 2048, .prio = 10 },
};

int main(void)
{
    static cactus_config cfg = { .tick_hz = 1000, .slice_ticks = 1, .tasks = tasks, .ntasks = 1,
                                 .fault_hook = hook };
    ktest_start_cfg(&cfg);
}
