/* Stacklets from an O(1) real-time heap (TLSF, lib/tlsf.h): the unit the `segmented` strategy
 * (stack/segmented.c, which documents the mechanism and the hot-split alleviation) and the
 * `mtss+split` hybrid (stack/mtss.c built with a stacklet heap, stack/hybrid.c) share. A strategy
 * includes it once (its functions are static, like frame_move.h's) and owns the rest: which
 * memory the heap gets, what a task's limit is, and its chain of moved frames.
 *
 * Stacklet layout: 12 bytes of metadata, no padding. The heap's blocks all start at 8 mod 16,
 * so a block [b, b + n) (n a multiple of 16) has its TLSF header word at b (size, and in its
 * 16-bit tag the previous entry of the task's chain of moved frames, see stacklet_tag), the
 * stack at [b + 4, b + n - 8) (the limit is b + 4, the payload), and the link record at
 * [b + n - 8, b + n): the moved frame's entry sp in its caller's stack and its real return
 * address. The frame's entry sp in the stacklet, b + n - 8 - ARGS (ARGS rounded to 16), is
 * 16-byte aligned because b + n is 8 mod 16. Header and record belong to nobody for the
 * ownership oracle (a task store into them is a violation); the stack part is assigned to the
 * task while linked.
 *
 * The chain tag: an entry of a chain is named by an address, a stacklet by its payload, any
 * other moved frame (an mtss loan) by a record address that is 8 mod 16 from the heap's start
 * and lies above the heap. The tag is that address's offset from the heap start in 8-byte units
 * (rounded down: a payload is 4 past its 8-aligned block) plus 1, 0 for no entry; decoded, an
 * address inside the heap is a stacklet's block (its payload 4 bytes on), one above is the
 * record itself. So the stack pool may span at most 8 * 65535 bytes.
 *
 * Memory accounting (what `cactus bench` reads): cactus_stacklet_heap_bytes is the heap the
 * tasks hold now (whole blocks, cached ones included), cactus_stacklet_heap_peak its highest
 * value. Each task's own held bytes and their peak are kept; the including strategy defines
 * stacklet_peak_rose(), called whenever a task's peak rises.
 *
 * Every function runs with interrupts masked (the trap handler, the call slow path or a kernel
 * call). */
#ifndef K_STACKLETS_H
#define K_STACKLETS_H

#include "stack.h"
#include "frame_move.h"
#include "../lib/tlsf.h"
#include "../trace/ktrace.h"

/* The smallest stacklet linked for a frame, in bytes (metadata included). */
#ifndef CACTUS_STACKLET_MIN
#define CACTUS_STACKLET_MIN 128
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
/* The most bytes a chain address may lie above the heap's start (the tag's reach): a strategy
 * with a stacklet heap asserts its pool fits. */
#define STACKLET_REACH (8u * 65534u)

#define STACKLET_HEAD 4u                             /* the TLSF header word */
#define STACKLET_REC 8u                              /* the link record: entry sp, return address */
#define STACKLET_META (STACKLET_HEAD + STACKLET_REC) /* metadata bytes per stacklet */

/* A task's stacklet state (its chain is the including strategy's). */
struct stacklet_task {
    uintptr_t cache; /* a released stacklet kept for the next request, 0 if none */
    uint32_t bytes;  /* block bytes the task holds now */
    uint32_t peak;   /* its highest value */
    uint32_t pinned; /* bytes of it that never return while the task lives (a first stacklet) */
};

static struct tlsf sl_heap;
static uintptr_t sl_base, sl_end; /* the heap's blocks: [sl_base, sl_end) */
static struct stacklet_task sl_task[CACTUS_MAX_TASKS];
/* Heap bytes the tasks hold and their peak (read by the benchmarks from the ELF's symbols). */
uint32_t cactus_stacklet_heap_bytes, cactus_stacklet_heap_peak;
/* Why the last stacklet request was refused (stacklet_refusal_print). */
static const char *sl_refusal = "";
static uint32_t sl_refused_bytes;

/* Hot-split alleviation (the paper's section 6, docs/segmented.md): a direct-mapped table of
 * LEARN_SLOTS call sites (a moved frame's real return address) and the stacklet size each has
 * learned to ask for. When a frame must move while the innermost moved frame is a stacklet,
 * that stacklet was too small for what its frame called: its call site learns to ask for its
 * size plus the bytes that were missing (the paper's delta; at most
 * CACTUS_STACKLET_LEARN_MAX), so next time the callee runs inside it instead of splitting
 * again. A site that loses its slot to another one starts over: the table bounds the memory,
 * never the correctness. */
#define LEARN_SLOTS 32u
static struct {
    uint32_t ra;
    uint32_t bytes;
} learned[LEARN_SLOTS];

static inline uint32_t learn_slot(uint32_t ra)
{
    return (ra >> 1) % LEARN_SLOTS;
}

/* Defined by the including strategy: task t's held stacklet bytes reached a new peak. */
static void stacklet_peak_rose(const struct k_tcb *t, uint32_t peak);

/* Makes [lo, lo + size) (lo 16-byte aligned) the stacklet heap: its first 8 bytes belong to
 * nobody (so blocks start at 8 mod 16), the rest is free stack memory. A size below 64 gives
 * an empty heap (every request is refused). */
static inline void stacklets_init(uintptr_t lo, uint32_t size)
{
    cactus_stacklet_heap_bytes = cactus_stacklet_heap_peak = 0;
    if (size < 64u) {
        sl_base = sl_end = 0;
        tlsf_init(&sl_heap, 0, 0);
        return;
    }
    sl_base = lo + 8u;
    sl_end = lo + size;
    ktrace_region_assign(lo, 8u, KTRACE_NOBODY);
    ktrace_region_release(sl_base, size - 8u);
    ktrace_kernel_enter();
    tlsf_init(&sl_heap, sl_base, size - 8u);
    ktrace_kernel_leave();
}

/* 1 if chain address a (a payload or record) lies in the heap, i.e. names a stacklet. */
static inline int stacklet_owns(uintptr_t a)
{
    return a >= sl_base && a < sl_end;
}

/* The block top of the stacklet whose payload is p. */
static inline uintptr_t stacklet_top(uintptr_t p)
{
    return p - STACKLET_HEAD + tlsf_block_bytes(p);
}

/* The tag naming chain address a (0: none). */
static inline uint16_t stacklet_tag(uintptr_t a)
{
    return a ? (uint16_t)((a - sl_base) / 8u + 1u) : 0u;
}

/* The chain entry before stacklet p (its tag), 0 if none. */
static inline uintptr_t stacklet_prev(uintptr_t p)
{
    uint16_t tag = tlsf_tag(p);
    if (!tag)
        return 0;
    uintptr_t a = sl_base + (uintptr_t)(tag - 1u) * 8u;
    return stacklet_owns(a) ? a + STACKLET_HEAD : a;
}

/* A task starts: no stacklet held, nothing cached. */
static inline void stacklet_task_start(const struct k_tcb *t)
{
    sl_task[k_id(t)] = (struct stacklet_task){ 0 };
}

/* Takes a block of n bytes (a multiple of 16) for task t; returns its payload, 0 if none. */
static inline uintptr_t stacklet_take(struct k_tcb *t, uint32_t n)
{
    ktrace_kernel_enter();
    uintptr_t p = tlsf_alloc(&sl_heap, n - STACKLET_HEAD);
    ktrace_kernel_leave();
    if (!p)
        return 0;
    struct stacklet_task *s = &sl_task[k_id(t)];
    n = tlsf_block_bytes(p);
    s->bytes += n;
    cactus_stacklet_heap_bytes += n;
    if (cactus_stacklet_heap_bytes > cactus_stacklet_heap_peak)
        cactus_stacklet_heap_peak = cactus_stacklet_heap_bytes;
    if (s->bytes > s->peak) {
        s->peak = s->bytes;
        stacklet_peak_rose(t, s->peak);
    }
    return p;
}

/* Gives the block whose payload is p (not assigned to anyone any more) back to the heap. */
static inline void stacklet_give(struct k_tcb *t, uintptr_t p)
{
    uint32_t n = tlsf_block_bytes(p);
    ktrace_kernel_enter();
    tlsf_free(&sl_heap, p);
    ktrace_kernel_leave();
    sl_task[k_id(t)].bytes -= n;
    cactus_stacklet_heap_bytes -= n;
    k_stack_released();
}

/* Records a refusal for stacklet_refusal_print. */
static inline void stacklet_refuse(const char *why, uint32_t bytes)
{
    sl_refusal = why;
    sl_refused_bytes = bytes;
}

static inline void stacklet_refusal_print(void)
{
    k_report("  why: %s (%u bytes)\n", sl_refusal, sl_refused_bytes);
}

/* The stacklet size (n bytes at least) the frame of t's request gets (its call site is t's
 * ra), and what `cur`'s call site learns from this request (see `learned`; cur: the innermost
 * moved frame's stacklet, 0 when that frame is not a stacklet): the paper's delta, the bytes
 * the frame needs below t's sp beyond what is left above the limit. */
static inline uint32_t learn(uintptr_t cur, const struct k_tcb *t, uint32_t need, uint32_t n)
{
    if (cur) { /* a split inside a linked stacklet: its call site learns */
        uint32_t site_ra = ((const uint32_t *)(stacklet_top(cur) - STACKLET_REC))[1];
        int32_t left = (int32_t)(t->ctx.sp - t->stack.limit); /* negative: sp is below it */
        uint32_t delta = (uint32_t)((int32_t)need - left + 15) & ~15u;
        uint32_t want = tlsf_block_bytes(cur) + delta;
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
static inline int stacklet_flush_caches(void)
{
    int n = 0;
    for (int i = 0; i < CACTUS_MAX_TASKS; i++) {
        if (sl_task[i].cache) {
            uintptr_t p = sl_task[i].cache;
            sl_task[i].cache = 0;
            stacklet_give(&k_tasks[i], p);
            n++;
        }
    }
    return n;
}

/* Task t's first stacklet `old` (pinned, its region released from t by the caller) holds
 * nothing live: replaces it by a block of n bytes, taken before the old one is freed but
 * counted as taking its place (the old block is in no one's use, so neither the task's nor
 * the heap's peak counts both). Returns the new payload (its region not yet assigned),
 * 0 when the heap has no such block (nothing changed). The task's pinned bytes stay those of
 * its first stacklet as created. */
static inline uintptr_t stacklet_replace_first(struct k_tcb *t, uintptr_t old, uint32_t n)
{
    struct stacklet_task *s = &sl_task[k_id(t)];
    uint32_t old_n = tlsf_block_bytes(old);
    s->bytes -= old_n;
    cactus_stacklet_heap_bytes -= old_n;
    uintptr_t q = stacklet_take(t, n);
    if (!q && stacklet_flush_caches())
        q = stacklet_take(t, n);
    if (!q) {
        s->bytes += old_n;
        cactus_stacklet_heap_bytes += old_n;
        return 0;
    }
    ktrace_kernel_enter();
    tlsf_free(&sl_heap, old);
    ktrace_kernel_leave();
    /* `pinned` stays: what the new block holds beyond the old one comes back when the
     * outermost frame returns, i.e. when the task ends, so a waiter may still get it. */
    k_stack_released();
    return q;
}

/* The largest block the heap could ever give: all of it, less the pinned bytes of the live
 * tasks, capped at the largest used block TLSF allows. */
static inline uint32_t stacklet_largest_ever(void)
{
    uint32_t held = 0;
    for (int i = 0; i < CACTUS_MAX_TASKS; i++)
        held += sl_task[i].pinned;
    uint32_t size = (uint32_t)(sl_end - sl_base);
    uint32_t left = size > held ? size - held : 0;
    return left < TLSF_BLOCK_MAX ? left : TLSF_BLOCK_MAX;
}

/* Links a stacklet for the frame of the running task t, stopped at the failed entry check
 * `site`, and moves the frame there (frame_move.h); the new stacklet's tag names `prev`, the
 * innermost entry of t's chain (0 if none), and `cur` is that entry when it is a stacklet (for
 * the hot-split learning), else 0. Returns 0 with *p its payload (the caller makes it t's
 * limit and chain head) and *fm the move; STACK_RETRY when a release may bring the memory
 * back; -1 when no stacklet of that size can ever be had. Nothing is changed on a refusal. */
static inline int stacklet_link(struct k_tcb *t, const struct cactus_check_site *site, uintptr_t cur,
                         uintptr_t prev, uintptr_t *p, struct frame_move *fm)
{
    struct stacklet_task *s = &sl_task[k_id(t)];
    uint32_t n = (frame_move_bytes(site) + STACKLET_META + 15u) & ~15u;
    if (n < CACTUS_STACKLET_MIN)
        n = CACTUS_STACKLET_MIN;
    if (CACTUS_STACKLET_LEARN)
        n = learn(cur, t, cactus_check_need(site), n);
    uintptr_t q = 0;
    if (s->cache && tlsf_block_bytes(s->cache) >= n) {
        q = s->cache;
        s->cache = 0;
    } else {
        q = stacklet_take(t, n);
        if (!q && stacklet_flush_caches())
            q = stacklet_take(t, n);
    }
    if (!q) {
        stacklet_refuse("no free stacklet of that size is left in the heap", n);
        /* Memory other tasks hold may come back; a stacklet larger than the whole heap never. */
        return n <= stacklet_largest_ever() ? STACK_RETRY : -1;
    }
    uintptr_t top = stacklet_top(q);
    ktrace_region_assign(q, tlsf_block_bytes(q) - STACKLET_META, (uint32_t)k_id(t));
    ktrace_overflow((uint32_t)k_id(t), t->ctx.sp, cactus_check_need(site), 3);
    *fm = frame_move_to(t, site, top - STACKLET_REC);
    ktrace_kernel_enter();
    ((uint32_t *)(top - STACKLET_REC))[0] = (uint32_t)fm->entry_sp;
    ((uint32_t *)(top - STACKLET_REC))[1] = fm->ra;
    tlsf_set_tag(q, stacklet_tag(prev));
    ktrace_kernel_leave();
    *p = q;
    return 0;
}

/* Unlinks stacklet p from task t's oracle region, then caches or frees it. */
static inline void stacklet_release(struct k_tcb *t, uintptr_t p)
{
    struct stacklet_task *s = &sl_task[k_id(t)];
    ktrace_region_release(p, tlsf_block_bytes(p) - STACKLET_META);
    if (CACTUS_STACKLET_CACHE && !s->cache) {
        s->cache = p;
        k_stack_released(); /* a waiting task's retry flushes the caches */
        return;
    }
    if (CACTUS_STACKLET_CACHE && tlsf_block_bytes(p) > tlsf_block_bytes(s->cache)) {
        uintptr_t smaller = s->cache; /* keep the larger one: it serves more requests */
        s->cache = p;
        p = smaller;
    }
    stacklet_give(t, p);
}

/* t reached the return trampoline and stacklet p is its innermost moved frame: if t's sp is
 * the one that frame returns with, puts back the caller's sp, ra and pc, releases p, stores
 * the chain entry before it at *prev and returns 0 (the caller restores the limit); else -1
 * (nothing changed). */
static inline int stacklet_unlink(struct k_tcb *t, uintptr_t p, uintptr_t *prev)
{
    uintptr_t rec = stacklet_top(p) - STACKLET_REC, sp = t->ctx.sp;
    /* The moved frame returns with its entry sp in the stacklet: rec minus the copied
     * arguments (at most 16 KiB, 16-byte aligned). */
    if (sp > rec || rec - sp > 0x4000u || (rec - sp) % 16u)
        return -1;
    const uint32_t *r = (const uint32_t *)rec;
    struct frame_move m = { .entry_sp = r[0], .block_entry = sp, .ra = r[1] };
    frame_move_back(t, &m);
    *prev = stacklet_prev(p);
    stacklet_release(t, p);
    return 0;
}

/* A task ended inside the moved frame of stacklet p: p goes back to the heap. Returns the
 * chain entry before it. */
static inline uintptr_t stacklet_drop(struct k_tcb *t, uintptr_t p)
{
    uintptr_t prev = stacklet_prev(p);
    ktrace_region_release(p, tlsf_block_bytes(p) - STACKLET_META);
    stacklet_give(t, p);
    return prev;
}

/* Task t ends: its cached stacklet goes back to the heap (its chain must be dropped first). */
static inline void stacklet_task_end(struct k_tcb *t)
{
    struct stacklet_task *s = &sl_task[k_id(t)];
    if (s->cache)
        stacklet_give(t, s->cache);
    s->cache = 0;
    s->pinned = 0;
}

#endif
