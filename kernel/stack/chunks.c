/* The `chunks` stack strategy: Capriccio-style linked stack chunks (von Behren et al., SOSP
 * 2003; the MTSS paper's section 10 comparison, docs/mtss.md "Capriccio"). A task starts with
 * one chunk of CACTUS_CHUNK_SIZE bytes from a shared heap (the stack pool) and nothing more is
 * reserved for it: its manifest budget is not used. Every stack check that fails at a function's
 * entry links a new chunk of max(CACTUS_CHUNK_SIZE, frame + stack arguments + link record)
 * bytes and moves the frame there exactly as `mtss` does (frame_move.h: the stack arguments are
 * copied, sp points into the chunk, the return address becomes the return trampoline and the
 * limit the chunk's bottom); when the frame returns, the trampoline traps, the caller's sp,
 * return address and limit come back and the chunk is freed. A heap that cannot give the chunk
 * fails the request (-1: the task's fault policy applies), as does a dynamic-allocation check.
 *
 * Chunk layout: [base, top - LINK) stack, [top - LINK, top) the link record (the move to undo,
 * the previous record, the caller's limit), written by the kernel and owned by nobody for the
 * ownership oracle, so a task store into it is a violation; the rest of the chunk is assigned
 * to the task while linked and released when freed. The pool's lowest 64 bytes are a red zone
 * no chunk gets (as in `static`).
 *
 * Memory accounting (what `cactus bench mtss capriccio` reads): cactus_chunks_heap_bytes is the
 * heap in use now (chunk bytes, first chunks included), cactus_chunks_heap_peak its highest
 * value; each task's highest sum of its own chunk bytes is reported as a STACK_HWM event
 * (used = that peak, budget = the task's first chunk) whenever it rises and when the task ends.
 *
 * Invariants (interrupts masked: every entry point runs in the trap handler or a kernel call):
 *   - a task's linked chunks form a list through their link records, innermost first; its
 *     limit is the innermost chunk's bottom (the first chunk's when none is linked);
 *   - heap bytes in use = the sum of every live task's first chunk and linked chunks. */
#include "stack.h"
#include "frame_move.h"
#include "../lib/extent.h"
#include "../trace/ktrace.h"

#ifndef CACTUS_STACK_POOL_SIZE
#define CACTUS_STACK_POOL_SIZE (48 * 1024)
#endif
#ifndef CACTUS_CHUNK_SIZE
#define CACTUS_CHUNK_SIZE 256
#endif
_Static_assert(CACTUS_CHUNK_SIZE >= 128 && CACTUS_CHUNK_SIZE % 16 == 0,
               "CACTUS_CHUNK_SIZE must be a multiple of 16, at least 128");
#define CHUNK ((uint32_t)CACTUS_CHUNK_SIZE)
#define POOL_RED_ZONE 64u /* never allocated: what lies below the pool is not stack memory */

/* The record at the top of every linked chunk. */
struct chunk_link {
    struct frame_move move;
    uintptr_t prev;      /* the previous innermost record, 0 for the first chunk */
    uintptr_t base;      /* this chunk's bottom */
    uint32_t size;       /* this chunk's bytes, record included */
    uint32_t prev_limit; /* the caller's limit */
    uint32_t pad;
};
#define LINK ((uint32_t)sizeof(struct chunk_link))
_Static_assert(sizeof(struct chunk_link) == 32, "chunk_link keeps sp 16-byte aligned");

struct chunk_task {
    uintptr_t base;  /* the first chunk: [base, base + CHUNK) */
    uintptr_t head;  /* innermost link record, 0 when no chunk is linked */
    uint32_t bytes;  /* chunk bytes the task holds now */
    uint32_t peak;   /* its highest value */
    uint32_t budget; /* the manifest budget (reported, not used) */
};

static uint32_t pool[CACTUS_STACK_POOL_SIZE / 4] __attribute__((section(".stack_pool"), aligned(16)));
static struct extent_pool extents;
static struct chunk_task ct[CACTUS_MAX_TASKS];
/* Heap bytes in use and their peak (read by the benchmark from the ELF's symbols). */
uint32_t cactus_chunks_heap_bytes, cactus_chunks_heap_peak;

void stack_init(void)
{
    extent_init(&extents, (uintptr_t)pool + POOL_RED_ZONE, sizeof(pool) - POOL_RED_ZONE);
    ktrace_region_assign((uintptr_t)pool, POOL_RED_ZONE, KTRACE_NOBODY);
    ktrace_region_release((uintptr_t)pool + POOL_RED_ZONE, sizeof(pool) - POOL_RED_ZONE);
    cactus_chunks_heap_bytes = cactus_chunks_heap_peak = 0;
}

/* Takes `size` bytes from the heap for task t (0 when none fits) and counts them. */
static uintptr_t chunk_take(struct k_tcb *t, uint32_t size)
{
    uintptr_t base = extent_alloc(&extents, size);
    if (!base)
        return 0;
    struct chunk_task *c = &ct[k_id(t)];
    c->bytes += size;
    cactus_chunks_heap_bytes += size;
    if (cactus_chunks_heap_bytes > cactus_chunks_heap_peak)
        cactus_chunks_heap_peak = cactus_chunks_heap_bytes;
    if (c->bytes > c->peak) {
        c->peak = c->bytes;
        ktrace_stack_hwm((uint32_t)k_id(t), c->peak, CHUNK);
    }
    return base;
}

/* Gives [base, base + size) of task t back to the heap and the oracle. */
static void chunk_give(struct k_tcb *t, uintptr_t base, uint32_t size)
{
    ktrace_region_release(base, size);
    if (extent_free(&extents, base, size) != 0)
        k_panic("stack heap: free-extent table full");
    ct[k_id(t)].bytes -= size;
    cactus_chunks_heap_bytes -= size;
}

uintptr_t stack_alloc(struct k_tcb *t, uint32_t size)
{
    struct chunk_task *c = &ct[k_id(t)];
    *c = (struct chunk_task){ .budget = size };
    uintptr_t base = chunk_take(t, CHUNK);
    if (!base)
        return 0;
    c->base = base;
    ktrace_region_assign(base, CHUNK, (uint32_t)k_id(t));
    t->stack.limit = base;
    return base + CHUNK;
}

/* Every frame is checked before it is written (as in mtss): the switch adds no detection. */
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

void stack_refusal_print(void)
{
    kprintf("  why: %s\n", refusal);
}

int stack_request(struct k_tcb *t, const struct cactus_check_site *site)
{
    if (stack_out_of_stack(t, t->ctx.sp, cactus_check_need(site)) == 0)
        return 0;
    if (cactus_check_kind(site) != CACTUS_CHECK_ENTRY) {
        refusal = cactus_check_kind(site) == CACTUS_CHECK_DYNAMIC
                      ? "a dynamic allocation (alloca, VLA) is never moved"
                      : "the frame is pinned (its address escapes) and cannot move";
        return -1; /* a dynamic allocation or a frame that must stay: not moved */
    }
    refusal = "no free chunk of that size is left in the heap";
    uint32_t size = (frame_move_bytes(site) + LINK + 15u) & ~15u;
    if (size < CHUNK)
        size = CHUNK;
    uintptr_t base = chunk_take(t, size);
    if (!base)
        return -1;
    struct chunk_task *c = &ct[k_id(t)];
    uintptr_t top = base + size;
    ktrace_region_assign(base, size - LINK, (uint32_t)k_id(t));
    ktrace_region_assign(top - LINK, LINK, KTRACE_NOBODY);
    ktrace_overflow((uint32_t)k_id(t), t->ctx.sp, cactus_check_need(site), 3);
    struct chunk_link l = { .prev = c->head, .base = base, .size = size,
                            .prev_limit = (uint32_t)t->stack.limit };
    l.move = frame_move_to(t, site, top - LINK);
    ktrace_kernel_enter();
    *(struct chunk_link *)(top - LINK) = l;
    ktrace_kernel_leave();
    c->head = top - LINK;
    t->stack.limit = base;
    return 0;
}

int stack_frame_return(struct k_tcb *t)
{
    struct chunk_task *c = &ct[k_id(t)];
    if (!c->head)
        return -1;
    struct chunk_link l = *(const struct chunk_link *)c->head;
    if (!frame_move_returns(t, &l.move))
        return -1; /* no moved frame returns here */
    frame_move_back(t, &l.move);
    t->stack.limit = l.prev_limit;
    c->head = l.prev;
    chunk_give(t, l.base, l.size);
    return 0;
}

void stack_frame_released(struct k_tcb *t, uintptr_t sp)
{
    /* Moved frames come back through the trampoline (stack_frame_return). */
    (void)t, (void)sp;
}

/* base and size: the first chunk; limit: the current one; used: the task's peak chunk bytes
 * (the stack memory it has held at most, first chunk included). */
void stack_usage(const struct k_tcb *t, cactus_stack_info *out)
{
    const struct chunk_task *c = &ct[k_id(t)];
    out->base = (uint32_t)c->base;
    out->size = CHUNK;
    out->limit = (uint32_t)t->stack.limit;
    out->used = c->peak;
}

void stack_free(struct k_tcb *t)
{
    struct chunk_task *c = &ct[k_id(t)];
    while (c->head) { /* a task ended inside moved frames: every chunk goes back */
        struct chunk_link l = *(const struct chunk_link *)c->head;
        c->head = l.prev;
        chunk_give(t, l.base, l.size);
    }
    ktrace_stack_hwm((uint32_t)k_id(t), c->peak, CHUNK);
    chunk_give(t, c->base, CHUNK);
}
