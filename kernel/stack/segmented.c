/* The `segmented` stack strategy: segmented stacks of stacklets from an O(1) real-time heap
 * (TLSF, lib/tlsf.h), after Hopter (docs/segmented.md). Also, configured by stack/chunks.c, the
 * `chunks` strategy: Capriccio-style linked chunks (every first stacklet 256 bytes whatever the
 * budget, every linked one at least 256, nothing cached), the MTSS paper's section 10
 * comparison.
 *
 * A task starts with one stacklet of its manifest stack size (its *first stacklet*). Every
 * entry check that fails links a stacklet sized for the frame (at least CACTUS_STACKLET_MIN
 * bytes) and moves the frame there with the mechanism mtss uses (frame_move.h: the stack
 * arguments are copied, sp points into the stacklet, the return address becomes the return
 * trampoline and the limit the stacklet's bottom); when the frame returns, the caller's sp,
 * return address and limit come back and the stacklet is freed, or kept as the task's one
 * cached stacklet (CACTUS_STACKLET_CACHE) so a call that crosses the same boundary again takes
 * no allocator call (the hot split, docs/segmented.md). A request no stacklet can serve fails
 * (-1: the task's fault policy applies), as does a dynamic-allocation or pinned-frame check.
 *
 * The stacklets themselves (layout: 12 bytes of metadata; heap accounting; the hot-split
 * learning) are stack/stacklets.h's, shared with the `mtss+split` hybrid. A first stacklet has
 * the same layout with its record unused (the task's first sp is b + n - 8) and its bytes are
 * pinned (they never come back while the task lives). Each task's highest sum of its own block
 * bytes is reported as a STACK_HWM event (used = that peak, budget = its first stacklet)
 * whenever it rises and when it ends.
 *
 * Invariants (interrupts masked: every entry point runs in the trap handler, the call slow
 * path or a kernel call):
 *   - a task's linked stacklets form a list through their tags (stacklet_prev), innermost
 *     (cur) first; its limit is cur's bottom, or its first stacklet's bottom when none is linked;
 *   - heap bytes in use = the sum of every live task's first, linked and cached blocks. */
#ifndef CACTUS_STACK_POOL_SIZE
#define CACTUS_STACK_POOL_SIZE (48 * 1024)
#endif
#include "stacklets.h"
#include "physical.h"
_Static_assert(CACTUS_STACK_POOL_SIZE <= STACKLET_REACH - 64, "segmented: pool above 512 KiB");

/* Non-zero: every first stacklet has this many bytes whatever the task's budget (chunks). */
#ifndef CACTUS_STACKLET_FIRST
#define CACTUS_STACKLET_FIRST 0
#endif

static const uint32_t first_fixed = CACTUS_STACKLET_FIRST;

#define POOL_RED_ZONE 64u /* never allocated: what lies below the pool is not stack memory */

struct seg_task {
    uintptr_t first;  /* the first stacklet's payload (its limit) */
    uintptr_t cur;    /* the innermost linked stacklet's payload, 0 when none is linked */
    uint32_t first_n; /* the first stacklet's block bytes */
};

/* 16 spare bytes let the heap start at 8 mod 16 after the red zone. */
static uint8_t pool[CACTUS_STACK_POOL_SIZE + 16] __attribute__((section(".stack_pool"), aligned(16)));
static struct seg_task st[CACTUS_MAX_TASKS];

void stack_init(void)
{
    ktrace_region_assign((uintptr_t)pool, POOL_RED_ZONE, KTRACE_NOBODY);
    stacklets_init((uintptr_t)pool + POOL_RED_ZONE, sizeof(pool) - POOL_RED_ZONE);
}

/* A task's highest sum of its own block bytes is its STACK_HWM (budget: its first stacklet). */
static void stacklet_peak_rose(const struct k_tcb *t, uint32_t peak)
{
    ktrace_stack_hwm((uint32_t)k_id(t), peak, st[k_id(t)].first_n);
}

uintptr_t stack_alloc(struct k_tcb *t, uint32_t size)
{
    struct seg_task *s = &st[k_id(t)];
    *s = (struct seg_task){ .first_n = ((first_fixed ? first_fixed : size) + 15u) & ~15u };
    stacklet_task_start(t);
    if (s->first_n < 64u)
        return 0;
    uintptr_t p = stacklet_take(t, s->first_n);
    if (!p)
        return 0;
    s->first = p;
    sl_task[k_id(t)].pinned = s->first_n; /* a first stacklet never moves */
    ktrace_region_assign(p, s->first_n - STACKLET_META, (uint32_t)k_id(t));
    t->stack.limit = p;
    return stacklet_top(p) - STACKLET_REC;
}

/* Every frame is checked before it is written: the switch adds no detection. */
int stack_check_switch(const struct k_tcb *t)
{
    (void)t;
    return STACK_OK;
}

int stack_out_of_stack(struct k_tcb *t, uintptr_t sp, uint32_t requested)
{
    uintptr_t limit = t->stack.limit;
    return sp >= limit && sp - limit >= requested ? 0 : -1;
}

void stack_refusal_print(void)
{
    stacklet_refusal_print();
}

/* The task's outermost frame failed its check with nothing of it written yet: its first
 * stacklet holds nothing live (the frame's entry sp is the task's first sp, no stack
 * arguments). Linking a stacklet would leave the first one pinned and empty for as long as
 * the frame lives, which for a task's outermost frame (a periodic wrapper, a server loop) is
 * the task's whole life, blocked or not. Instead the first stacklet is replaced by one sized
 * for the frame, which keeps its real return address (no record, no trampoline): the task
 * continues as if created with that first stacklet, the size of the frame it blocks in.
 * Returns 1 when done, 0 when it does not apply or the heap has no such block (the caller
 * links a stacklet as usual). */
static int regrow_first(struct k_tcb *t, struct seg_task *s, const struct cactus_check_site *site)
{
    uintptr_t first_sp = stacklet_top(s->first) - STACKLET_REC;
    if (cactus_check_args(site) || t->ctx.sp + cactus_check_f1(site) != first_sp)
        return 0;
    uint32_t n = (frame_move_bytes(site) + STACKLET_META + 15u) & ~15u;
    if (n <= s->first_n)
        return 0;
    ktrace_region_release(s->first, s->first_n - STACKLET_META);
    uintptr_t q = stacklet_replace_first(t, s->first, n);
    if (!q) {
        ktrace_region_assign(s->first, s->first_n - STACKLET_META, (uint32_t)k_id(t));
        return 0;
    }
    s->first = q;
    s->first_n = tlsf_block_bytes(q);
    ktrace_region_assign(q, s->first_n - STACKLET_META, (uint32_t)k_id(t));
    ktrace_overflow((uint32_t)k_id(t), t->ctx.sp, cactus_check_need(site), 3);
    t->ctx.sp = stacklet_top(q) - STACKLET_REC - cactus_check_f1(site);
    t->stack.limit = q;
    return 1;
}

int stack_request(struct k_tcb *t, const struct cactus_check_site *site)
{
    if (stack_out_of_stack(t, t->ctx.sp, cactus_check_need(site)) == 0)
        return 0;
    if (cactus_check_kind(site) != CACTUS_CHECK_ENTRY) {
        stacklet_refuse(cactus_check_kind(site) == CACTUS_CHECK_DYNAMIC
                            ? "a dynamic allocation (alloca, VLA) is never moved"
                            : "the frame is pinned (its address escapes) and cannot move",
                        cactus_check_need(site));
        return -1;
    }
    struct seg_task *s = &st[k_id(t)];
    if (!first_fixed && !s->cur && regrow_first(t, s, site))
        return 0;
    uintptr_t p;
    struct frame_move m;
    int r = stacklet_link(t, site, s->cur, s->cur, &p, &m);
    if (r != 0)
        return r;
    s->cur = p;
    t->stack.limit = p;
    return 0;
}

int stack_frame_return(struct k_tcb *t)
{
    struct seg_task *s = &st[k_id(t)];
    uintptr_t prev;
    if (!s->cur || stacklet_unlink(t, s->cur, &prev) != 0)
        return -1;
    s->cur = prev;
    t->stack.limit = s->cur ? s->cur : s->first;
    return 0;
}

void stack_frame_released(struct k_tcb *t, uintptr_t sp)
{
    /* Moved frames come back through the trampoline (stack_frame_return). */
    (void)t, (void)sp;
}

/* base and size: the first stacklet's block; limit: the current one; used: the task's peak
 * block bytes (the stack memory it has held at most, first stacklet and metadata included). */
void stack_usage(const struct k_tcb *t, cactus_stack_info *out)
{
    const struct seg_task *s = &st[k_id(t)];
    out->base = (uint32_t)(s->first - STACKLET_HEAD);
    out->size = s->first_n;
    out->limit = (uint32_t)t->stack.limit;
    out->used = sl_task[k_id(t)].peak;
}

void stack_free(struct k_tcb *t)
{
    struct seg_task *s = &st[k_id(t)];
    while (s->cur) /* a task ended inside moved frames: every stacklet goes back */
        s->cur = stacklet_drop(t, s->cur);
    stacklet_task_end(t);
    ktrace_stack_hwm((uint32_t)k_id(t), sl_task[k_id(t)].peak, s->first_n);
    ktrace_region_release(s->first, s->first_n - STACKLET_META);
    uintptr_t first = s->first;
    s->first = 0;
    stacklet_give(t, first);
}
