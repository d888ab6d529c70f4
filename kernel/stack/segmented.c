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
 * Stacklet layout: 12 bytes of metadata, no padding. The heap's blocks all start at 8 mod 16,
 * so a block [b, b + n) (n a multiple of 16) has its TLSF header word at b (size, and in its
 * 16-bit tag the previous stacklet: its block offset / 16 + 1, 0 for the first stacklet), the
 * stack at [b + 4, b + n - 8) (the limit is b + 4), and the link record at [b + n - 8, b + n):
 * the moved frame's entry sp in its caller's stacklet and its real return address. The
 * frame's entry sp in the stacklet, b + n - 8 - ARGS (ARGS rounded to 16), is 16-byte aligned
 * because b + n is 8 mod 16. A first stacklet has the same layout with its record unused (the
 * task's first sp is b + n - 8). Header and record belong to nobody for the ownership oracle
 * (a task store into them is a violation); the stack part is assigned to the task while linked.
 *
 * Memory accounting (what `cactus bench` reads): cactus_stacklet_heap_bytes is the heap the
 * tasks hold now (whole blocks: first, linked and cached stacklets), cactus_stacklet_heap_peak
 * its highest value; each task's highest sum of its own block bytes is reported as a STACK_HWM
 * event (used = that peak, budget = its first stacklet) whenever it rises and when it ends.
 *
 * Invariants (interrupts masked: every entry point runs in the trap handler, the call slow
 * path or a kernel call):
 *   - a task's linked stacklets form a list through their tags, innermost (cur) first; its
 *     limit is cur's bottom, or its first stacklet's bottom when none is linked;
 *   - heap bytes in use = the sum of every live task's first, linked and cached blocks. */
#include "stack.h"
#include "frame_move.h"
#include "../lib/tlsf.h"
#include "../trace/ktrace.h"

#ifndef CACTUS_STACK_POOL_SIZE
#define CACTUS_STACK_POOL_SIZE (48 * 1024)
#endif
/* The smallest stacklet linked for a frame, in bytes (metadata included). */
#ifndef CACTUS_STACKLET_MIN
#define CACTUS_STACKLET_MIN 128
#endif
/* Non-zero: every first stacklet has this many bytes whatever the task's budget (chunks). */
#ifndef CACTUS_STACKLET_FIRST
#define CACTUS_STACKLET_FIRST 0
#endif
/* 1: a task keeps the last stacklet it released for its next request. */
#ifndef CACTUS_STACKLET_CACHE
#define CACTUS_STACKLET_CACHE 1
#endif
/* 1: hot-split alleviation: each call site learns how large its stacklet must be (below). */
#ifndef CACTUS_STACKLET_LEARN
#define CACTUS_STACKLET_LEARN 1
#endif
/* The largest stacklet a call site may learn to ask for, in bytes. */
#ifndef CACTUS_STACKLET_LEARN_MAX
#define CACTUS_STACKLET_LEARN_MAX 2048
#endif
_Static_assert(CACTUS_STACKLET_MIN >= 64 && CACTUS_STACKLET_MIN % 16 == 0,
               "CACTUS_STACKLET_MIN must be a multiple of 16, at least 64");

static const uint32_t stacklet_min = CACTUS_STACKLET_MIN;
static const uint32_t first_fixed = CACTUS_STACKLET_FIRST;
static const int cache_on = CACTUS_STACKLET_CACHE;
static const int learn_on = CACTUS_STACKLET_LEARN;

/* Hot-split alleviation (the paper's section 6, docs/segmented.md): a direct-mapped table of
 * LEARN_SLOTS call sites (a moved frame's real return address) and the stacklet size each has
 * learned to ask for. When a frame must move while the innermost stacklet is already a linked
 * one, that stacklet was too small for what its frame called: its call site learns to ask for
 * its size plus the bytes that were missing (the paper's delta; at most
 * CACTUS_STACKLET_LEARN_MAX), so next time the callee runs inside it instead of splitting
 * again. A site that loses its slot to another one
 * starts over: the table bounds the memory, never the correctness. */
#define LEARN_SLOTS 32u
static struct {
    uint32_t ra;
    uint32_t bytes;
} learned[LEARN_SLOTS];

static uint32_t learn_slot(uint32_t ra)
{
    return (ra >> 1) % LEARN_SLOTS;
}

#define POOL_RED_ZONE 64u /* never allocated: what lies below the pool is not stack memory */
#define HEAD 4u           /* the TLSF header word */
#define REC 8u            /* the link record: entry sp, real return address */
#define META (HEAD + REC) /* metadata bytes per stacklet */

struct seg_task {
    uintptr_t first;  /* the first stacklet's payload (its limit) */
    uintptr_t cur;    /* the innermost linked stacklet's payload, 0 when none is linked */
    uintptr_t cache;  /* a released stacklet kept for the next request, 0 if none */
    uint32_t bytes;   /* block bytes the task holds now */
    uint32_t peak;    /* its highest value */
    uint32_t first_n; /* the first stacklet's block bytes */
};

/* 16 spare bytes let the heap start at 8 mod 16 after the red zone. */
static uint8_t pool[CACTUS_STACK_POOL_SIZE + 16] __attribute__((section(".stack_pool"), aligned(16)));
static struct tlsf heap;
static uintptr_t heap_base;
static struct seg_task st[CACTUS_MAX_TASKS];
/* Heap bytes the tasks hold and their peak (read by the benchmarks from the ELF's symbols). */
uint32_t cactus_stacklet_heap_bytes, cactus_stacklet_heap_peak;

void stack_init(void)
{
    heap_base = (uintptr_t)pool + POOL_RED_ZONE + 8u;
    uint32_t size = (uint32_t)((uintptr_t)pool + sizeof(pool) - heap_base);
    ktrace_region_assign((uintptr_t)pool, POOL_RED_ZONE + 8u, KTRACE_NOBODY);
    ktrace_region_release(heap_base, size);
    ktrace_kernel_enter();
    tlsf_init(&heap, heap_base, size);
    ktrace_kernel_leave();
    cactus_stacklet_heap_bytes = cactus_stacklet_heap_peak = 0;
}

/* The block top of the stacklet whose payload is p. */
static uintptr_t top_of(uintptr_t p)
{
    return p - HEAD + tlsf_block_bytes(p);
}

/* The stacklet linked before the one whose payload is p (its header's tag), 0 for the first. */
static uintptr_t prev_stacklet(uintptr_t p)
{
    uint16_t prev = tlsf_tag(p);
    return prev ? heap_base + (uintptr_t)(prev - 1u) * 16u + HEAD : 0;
}

/* Takes a block of n bytes (a multiple of 16) for task t; returns its payload, 0 if none. */
static uintptr_t take(struct k_tcb *t, uint32_t n)
{
    ktrace_kernel_enter();
    uintptr_t p = tlsf_alloc(&heap, n - HEAD);
    ktrace_kernel_leave();
    if (!p)
        return 0;
    struct seg_task *s = &st[k_id(t)];
    n = tlsf_block_bytes(p);
    s->bytes += n;
    cactus_stacklet_heap_bytes += n;
    if (cactus_stacklet_heap_bytes > cactus_stacklet_heap_peak)
        cactus_stacklet_heap_peak = cactus_stacklet_heap_bytes;
    if (s->bytes > s->peak) {
        s->peak = s->bytes;
        ktrace_stack_hwm((uint32_t)k_id(t), s->peak, s->first_n);
    }
    return p;
}

/* Gives the block whose payload is p (not assigned to anyone any more) back to the heap. */
static void give(struct k_tcb *t, uintptr_t p)
{
    uint32_t n = tlsf_block_bytes(p);
    ktrace_kernel_enter();
    tlsf_free(&heap, p);
    ktrace_kernel_leave();
    st[k_id(t)].bytes -= n;
    cactus_stacklet_heap_bytes -= n;
    k_stack_released();
}

uintptr_t stack_alloc(struct k_tcb *t, uint32_t size)
{
    struct seg_task *s = &st[k_id(t)];
    *s = (struct seg_task){ .first_n = ((first_fixed ? first_fixed : size) + 15u) & ~15u };
    if (s->first_n < 64u)
        return 0;
    uintptr_t p = take(t, s->first_n);
    if (!p)
        return 0;
    s->first = p;
    ktrace_region_assign(p, s->first_n - META, (uint32_t)k_id(t));
    t->stack.limit = p;
    return top_of(p) - REC;
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

/* Why the last request was refused (stack_refusal_print). */
static const char *refusal = "";
static uint32_t refused_bytes;

void stack_refusal_print(void)
{
    kprintf("  why: %s (%u bytes)\n", refusal, refused_bytes);
}

/* The stacklet size (n bytes at least) the frame of t's request gets (its call site is t's
 * ra), and what the innermost linked stacklet's call site learns from this request (see
 * `learned`): the paper's delta, the bytes the frame needs below t's sp beyond what is left
 * above the limit. */
static uint32_t learn(const struct seg_task *s, const struct k_tcb *t, uint32_t need, uint32_t n)
{
    if (s->cur) { /* a split inside a linked stacklet: its call site learns */
        uint32_t site_ra = ((const uint32_t *)(top_of(s->cur) - REC))[1];
        int32_t left = (int32_t)(t->ctx.sp - t->stack.limit); /* negative: sp is below it */
        uint32_t delta = (uint32_t)((int32_t)need - left + 15) & ~15u;
        uint32_t want = tlsf_block_bytes(s->cur) + delta;
        if (want > CACTUS_STACKLET_LEARN_MAX)
            want = CACTUS_STACKLET_LEARN_MAX;
        uint32_t k = learn_slot(site_ra);
        if (learned[k].ra != site_ra || learned[k].bytes < want) {
            learned[k].ra = site_ra;
            learned[k].bytes = want;
        }
    }
    uint32_t ra = t->ctx.ra, k = learn_slot(ra);
    return learned[k].ra == ra && learned[k].bytes > n ? learned[k].bytes : n;
}

/* Gives every task's cached stacklet back to the heap; returns how many there were. */
static int flush_caches(void)
{
    int n = 0;
    for (int i = 0; i < CACTUS_MAX_TASKS; i++) {
        if (st[i].cache) {
            uintptr_t p = st[i].cache;
            st[i].cache = 0;
            give(&k_tasks[i], p);
            n++;
        }
    }
    return n;
}

/* The largest block the heap could ever give: the whole pool, less the first stacklets of
 * the live tasks (which never move), capped at the largest used block TLSF allows. */
static uint32_t tlsf_largest_free_ever(void)
{
    uint32_t held = 0;
    for (int i = 0; i < CACTUS_MAX_TASKS; i++)
        if (st[i].first)
            held += st[i].first_n;
    uint32_t size = (uint32_t)((uintptr_t)pool + sizeof(pool) - heap_base);
    uint32_t left = size > held ? size - held : 0;
    return left < 65520u ? left : 65520u;
}

int stack_request(struct k_tcb *t, const struct cactus_check_site *site)
{
    if (stack_out_of_stack(t, t->ctx.sp, cactus_check_need(site)) == 0)
        return 0;
    refused_bytes = cactus_check_need(site);
    if (cactus_check_kind(site) != CACTUS_CHECK_ENTRY) {
        refusal = cactus_check_kind(site) == CACTUS_CHECK_DYNAMIC
                      ? "a dynamic allocation (alloca, VLA) is never moved"
                      : "the frame is pinned (its address escapes) and cannot move";
        return -1;
    }
    struct seg_task *s = &st[k_id(t)];
    uint32_t n = (frame_move_bytes(site) + META + 15u) & ~15u;
    if (n < stacklet_min)
        n = stacklet_min;
    if (learn_on)
        n = learn(s, t, cactus_check_need(site), n);
    uintptr_t p = 0;
    if (s->cache && tlsf_block_bytes(s->cache) >= n) {
        p = s->cache;
        s->cache = 0;
    } else {
        p = take(t, n);
        if (!p && flush_caches())
            p = take(t, n);
    }
    if (!p) {
        refusal = "no free stacklet of that size is left in the heap";
        refused_bytes = n;
        /* Memory other tasks hold may come back; a stacklet larger than the whole heap never. */
        return n <= tlsf_largest_free_ever() ? STACK_RETRY : -1;
    }
    uintptr_t top = top_of(p);
    ktrace_region_assign(p, tlsf_block_bytes(p) - META, (uint32_t)k_id(t));
    ktrace_overflow((uint32_t)k_id(t), t->ctx.sp, cactus_check_need(site), 3);
    struct frame_move m = frame_move_to(t, site, top - REC);
    uint16_t prev = s->cur ? (uint16_t)((s->cur - HEAD - heap_base) / 16u + 1u) : 0u;
    ktrace_kernel_enter();
    ((uint32_t *)(top - REC))[0] = (uint32_t)m.entry_sp;
    ((uint32_t *)(top - REC))[1] = m.ra;
    tlsf_set_tag(p, prev);
    ktrace_kernel_leave();
    s->cur = p;
    t->stack.limit = p;
    return 0;
}

/* Unlinks the stacklet whose payload is p from task t's oracle region, then caches or frees
 * it. */
static void release(struct k_tcb *t, uintptr_t p)
{
    struct seg_task *s = &st[k_id(t)];
    ktrace_region_release(p, tlsf_block_bytes(p) - META);
    if (cache_on && !s->cache) {
        s->cache = p;
        k_stack_released(); /* a waiting task's retry flushes the caches */
        return;
    }
    if (cache_on && tlsf_block_bytes(p) > tlsf_block_bytes(s->cache)) {
        uintptr_t smaller = s->cache; /* keep the larger one: it serves more requests */
        s->cache = p;
        p = smaller;
    }
    give(t, p);
}

int stack_frame_return(struct k_tcb *t)
{
    struct seg_task *s = &st[k_id(t)];
    uintptr_t p = s->cur;
    if (!p)
        return -1;
    uintptr_t rec = top_of(p) - REC, sp = t->ctx.sp;
    /* The moved frame returns with its entry sp in the stacklet: rec minus the copied
     * arguments (at most 16 KiB, 16-byte aligned). */
    if (sp > rec || rec - sp > 0x4000u || (rec - sp) % 16u)
        return -1;
    const uint32_t *r = (const uint32_t *)rec;
    struct frame_move m = { .entry_sp = r[0], .block_entry = sp, .ra = r[1] };
    frame_move_back(t, &m);
    s->cur = prev_stacklet(p);
    t->stack.limit = s->cur ? s->cur : s->first;
    release(t, p);
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
    out->base = (uint32_t)(s->first - HEAD);
    out->size = s->first_n;
    out->limit = (uint32_t)t->stack.limit;
    out->used = s->peak;
}

void stack_free(struct k_tcb *t)
{
    struct seg_task *s = &st[k_id(t)];
    while (s->cur) { /* a task ended inside moved frames: every stacklet goes back */
        uintptr_t p = s->cur;
        s->cur = prev_stacklet(p);
        ktrace_region_release(p, tlsf_block_bytes(p) - META);
        give(t, p);
    }
    if (s->cache)
        give(t, s->cache);
    s->cache = 0;
    ktrace_stack_hwm((uint32_t)k_id(t), s->peak, s->first_n);
    ktrace_region_release(s->first, s->first_n - META);
    uintptr_t first = s->first;
    s->first = 0;
    give(t, first);
}
