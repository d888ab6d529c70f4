/* The `static` stack strategy: one contiguous stack per task from a pool, with the detection
 * methods FreeRTOS users know, as the baseline later strategies must beat:
 *   - the saved sp is checked against the stack limit at every switch (FreeRTOS method 1);
 *   - the lowest STATIC_GUARD bytes are a guard: painted, with a canary in the top word (the
 *     word's own end address, i.e. the stack limit) checked at every switch (method 2);
 *   - the whole stack is painted at creation, so the high-water mark can be measured.
 * Region layout: [base, base+GUARD) guard (owned by nobody for the oracle),
 * [base+GUARD, base+size) the task's stack; stack.limit = base + GUARD. Free pool memory is
 * painted too (and reported as stack memory owned by nobody), so damage below a stack can be
 * counted; the pool's lowest bytes are a red zone no task gets, so an overflow of the lowest
 * stack lands in memory the oracle watches rather than in the kernel stack below the pool. */
#include "stack.h"
#include "physical.h"
#include "../lib/extent.h"
#include "../trace/ktrace.h"

#ifndef CACTUS_STACK_POOL_SIZE
#define CACTUS_STACK_POOL_SIZE (48 * 1024)
#endif
/* The switch-time check (below) is on unless the kernel is built with CACTUS_SWITCH_CHECK=0
 * (manifest `kernel.switch_check = false`, kernel/Makefile's nocheck_* scenarios): then the
 * strategy stays the same in every other respect (guard, canary, painting, high water) and
 * only stack_check_switch answers STACK_OK without looking, for measuring the switch paths
 * without it. A constant condition, so the off build has no trace of the comparisons. */
#ifndef CACTUS_SWITCH_CHECK
#define CACTUS_SWITCH_CHECK 1
#endif
_Static_assert(CACTUS_SWITCH_CHECK == 0 || CACTUS_SWITCH_CHECK == 1, "CACTUS_SWITCH_CHECK is 0 or 1");
#define STATIC_GUARD 16u
#define POOL_RED_ZONE 64u /* never allocated: what lies below the pool is not stack memory */
#define PAINT 0xA5A5A5A5u

static uint32_t pool[CACTUS_STACK_POOL_SIZE / 4] __attribute__((section(".stack_pool"), aligned(16)));
static struct extent_pool extents;

static void paint(uintptr_t base, uint32_t size)
{
    ktrace_kernel_enter();
    for (uint32_t *w = (uint32_t *)base; w < (uint32_t *)(base + size); w++)
        *w = PAINT;
    ktrace_kernel_leave();
}

static uint32_t region_size(const struct k_tcb *t)
{
    return (t->desc->stack_size + 15u) & ~15u;
}

void stack_init(void)
{
    extent_init(&extents, (uintptr_t)pool + POOL_RED_ZONE, sizeof(pool) - POOL_RED_ZONE);
    paint((uintptr_t)pool, sizeof(pool));
    ktrace_region_assign((uintptr_t)pool, POOL_RED_ZONE, KTRACE_NOBODY);
    ktrace_region_release((uintptr_t)pool + POOL_RED_ZONE, sizeof(pool) - POOL_RED_ZONE);
}

uintptr_t stack_alloc(struct k_tcb *t, uint32_t size)
{
    size = (size + 15u) & ~15u;
    if (size < STATIC_GUARD + 64u)
        return 0;
    uintptr_t base = extent_alloc(&extents, size);
    if (!base)
        return 0;
    paint(base, size);
    ktrace_kernel_enter();
    ((uint32_t *)(base + STATIC_GUARD))[-1] = (uint32_t)(base + STATIC_GUARD); /* the canary */
    ktrace_kernel_leave();
    ktrace_region_assign(base, STATIC_GUARD, KTRACE_NOBODY);
    ktrace_region_assign(base + STATIC_GUARD, size - STATIC_GUARD, (uint32_t)k_id(t));
    t->stack.limit = base + STATIC_GUARD;
    return base + size;
}

/* Two comparisons on the switch path (5 instructions): the saved sp against the limit, and the
 * canary word right below the limit (the first word a contiguous downward overflow overwrites)
 * against its expected value, the limit itself, which is already in a register.
 * NOTE: the other three guard words are painted landing zone, not checked: an overflow that
 * skips the canary (a write far below the limit) is missed here as in FreeRTOS's method 2,
 * which compares its pattern only near the stack end too. */
int stack_check_switch(const struct k_tcb *t)
{
    if (!CACTUS_SWITCH_CHECK)
        return STACK_OK;
    uintptr_t limit = t->stack.limit;
    if (t->ctx.sp < limit)
        return STACK_SP_BELOW_LIMIT;
    if (((const uint32_t *)limit)[-1] != (uint32_t)limit)
        return STACK_GUARD_BROKEN;
    return STACK_OK;
}

int stack_out_of_stack(struct k_tcb *t, uintptr_t sp, uint32_t requested)
{
    /* A static stack cannot grow: room exists only if the request fits above the limit. */
    uintptr_t limit = t->stack.limit;
    return sp >= limit && sp - limit >= requested ? 0 : -1;
}

int stack_request(struct k_tcb *t, const struct cactus_check_site *site)
{
    return stack_out_of_stack(t, t->ctx.sp, cactus_check_need(site));
}

void stack_refusal_print(void)
{
    k_report("  why: the static strategy never moves a frame: the task's region is full\n");
}

int stack_frame_return(struct k_tcb *t)
{
    /* static never moves a frame, so it never installs the trampoline. */
    (void)t;
    return -1;
}

void stack_frame_released(struct k_tcb *t, uintptr_t sp)
{
    /* Nothing to give back: a static stack keeps its whole region until the task ends. */
    (void)t, (void)sp;
}

void stack_usage(const struct k_tcb *t, cactus_stack_info *out)
{
    uint32_t size = region_size(t);
    uintptr_t base = t->stack.limit - STATIC_GUARD;
    const uint8_t *p = (const uint8_t *)t->stack.limit;
    const uint8_t *top = (const uint8_t *)(base + size);
    while (p < top && *p == (uint8_t)PAINT)
        p++;
    out->base = (uint32_t)base;
    out->size = size;
    out->limit = (uint32_t)t->stack.limit;
    out->used = (uint32_t)(top - p);
}

void stack_free(struct k_tcb *t)
{
    cactus_stack_info s;
    stack_usage(t, &s);
    ktrace_stack_hwm((uint32_t)k_id(t), s.used, s.size - STATIC_GUARD);
    paint(s.base, s.size);
    ktrace_region_release(s.base, s.size);
    if (extent_free(&extents, s.base, s.size) != 0)
        k_panic("stack pool: free-extent table full");
}
