/* The `relocate` stack strategy: SenSmart's stack relocation (docs/sensmart.md; Chen et al.,
 * "SenSmart", section IV-C, Figures 2-3). Every task sees its stack at the same logical
 * addresses, the window that ends at PORT_WINDOW_TOP; the kernel may therefore move a
 * task's stack anywhere in the pool at any time, and does so to grow a stack that is about to
 * overflow.
 *
 * Memory: the pool (after its 64-byte red zone) is a sequence of regions in address order
 * with no gaps, each owned by one task or free (Figure 2; a Cactus task has no private heap
 * area: its globals and heap are the firmware's, so a region is its stack area only). Task
 * t's region [base, base + size) holds its live stack at the top: its logical bound (the
 * descriptor's limit, also the window's mswbound) is PORT_WINDOW_TOP - size and its
 * displacement (physical - logical) is base + size - PORT_WINDOW_TOP.
 *
 * Growth (Figure 3): when the running task touches its stack below its bound (the hardware
 * window's exception, stack_grow; or a failed stack check, stack_request), the region with
 * the most surplus gives half of it (at least what is needed): a free region's surplus is all
 * of it, a task's the bytes below its saved sp less RELOC_HEADROOM. Everything between the
 * donor's live stack and the needy region moves by that amount in one memmove (the regions
 * in between whole, the donor's or the needy task's live stack), and the displacements of the
 * tasks whose stacks moved change by it; no logical address changes, so no task notices.
 * When no region can give enough, the task's fault policy applies; a task that ends (killed,
 * faulted, returned) gives its region back as a free region (merged with free neighbours).
 *
 * The region arithmetic (allocation, surplus, what a growth moves, freeing) is lib/regions.h,
 * host-tested; this file adds the tasks' windows, the copy and the reports. The copy and
 * the reports are one of two headers chosen by the configuration: reloc_sim.h (CACTUS_COPIER,
 * `kernel.copier`: cactus-sim's copy engine, a simulation device, and the trace device's
 * writes inline) or reloc_cpu.h (any core: the CPU copies, the kernel's trace calls report).
 * A growth touches only the regions between the needy one and the donor: the task's region is
 * found in O(1) (at[]), and only the moved tasks' windows change and get fixed up.
 *
 * The translation backend is chosen by the configuration (arch/rv32/window.h): the hardware
 * window (window_hw.h: after a move the running task's window is written once, and every
 * resume path writes the resumed task's) or the software one (window_sw.h, code built with
 * `cactus cc --logical-stack`: sp stays physical, so the descriptor's limit is the physical
 * bound, and a moved task's saved sp and the translated addresses its registers hold are
 * adjusted by port_window_moved). The PORT_WINDOW_* macros convert between the two views.
 *
 * Every region change is reported to the trace device (REGION_ASSIGN / RELEASE; a free
 * donor's remainder needs none: its bytes were free and stay free), so
 * the ownership oracle follows every move, and every growth as an OVERFLOW event with action
 * 3 (grown), as mtss and segmented report theirs. Entry points run with interrupts masked (trap
 * handler or kernel call). */
#include "stack.h"
#include "../trace/ktrace.h"
#include "cactus/relocate.h"
#include "../lib/regions.c" /* the region arithmetic: this strategy's alone (kernel/Makefile) */
#include "window.h"
#if CACTUS_COPIER
#include "reloc_sim.h" /* cactus-sim's copy engine (one cycle a word), reports inline */
#else
#include "reloc_cpu.h" /* any core: the CPU copies (a load and a store a word) */
#endif

#if !CACTUS_STACK_WINDOW
#error "relocate needs the stack window (-DCACTUS_STACK_WINDOW=1, manifest stack = \"relocate\")"
#endif

#ifndef CACTUS_STACK_POOL_SIZE
#define CACTUS_STACK_POOL_SIZE (48 * 1024)
#endif
/* A donor task keeps at least this much free stack below its saved sp. */
#ifndef CACTUS_RELOC_HEADROOM
#define CACTUS_RELOC_HEADROOM 128u
#endif
_Static_assert(CACTUS_RELOC_HEADROOM % 16 == 0, "CACTUS_RELOC_HEADROOM: a multiple of 16");
_Static_assert(CACTUS_STACK_POOL_SIZE <= (int)(PORT_WINDOW_TOP - PORT_WINDOW_BASE),
               "relocate: the pool is larger than the window");
#define POOL_RED_ZONE 64u /* never allocated: what lies below the pool is not stack memory */
#define MAX_REGIONS (2 * CACTUS_MAX_TASKS + 1)
_Static_assert(CACTUS_MAX_TASKS < REGION_FREE, "relocate: task ids must fit a region's owner");

static uint32_t pool[CACTUS_STACK_POOL_SIZE / 4] __attribute__((section(".stack_pool"), aligned(16)));
static struct region reg_storage[MAX_REGIONS];
static struct region_set regs;
static uint32_t peak[CACTUS_MAX_TASKS]; /* the largest region each task has held */
static uint16_t at[CACTUS_MAX_TASKS];   /* each task's region index (regs.r[at[id]]) */
static cactus_relocate_counts stats;
static struct {
    uint32_t need, best;
    int task;
} refusal;

static uint32_t top(const struct region *r)
{
    return r->base + r->size;
}

/* The index of t's region: O(1) (at[] is rebuilt whenever regions are added or removed,
 * which a growth does only when it empties a free donor). */
static uint32_t find(const struct k_tcb *t)
{
    uint32_t k = at[k_id(t)];
    if (k >= regs.n || regs.r[k].owner != (uint8_t)k_id(t))
        k_panic("relocate: task without a region");
    return k;
}

static void index_regions(void)
{
    for (uint32_t k = 0; k < regs.n; k++)
        if (regs.r[k].owner != REGION_FREE)
            at[regs.r[k].owner] = (uint16_t)k;
}

/* The lowest physical byte of r's live stack (from its owner's saved sp, 16-byte aligned,
 * and the 16 bytes below it: code built with preempt-traps may hold a spilled register at
 * sp - 4 when it is switched out, docs/sensmart.md), clamped to the region; a free region's
 * is its top (nothing lives there). */
static uint32_t live_low(const struct region *r)
{
    if (r->owner == REGION_FREE)
        return top(r);
    const struct k_tcb *t = &k_tasks[r->owner];
    uint32_t p = (PORT_WINDOW_SP_LOGICAL(t->ctx.sp, t->stack_disp) + t->stack_disp - 16u) & ~15u;
    if (p < r->base)
        p = r->base;
    if (p > top(r))
        p = top(r);
    return p;
}

/* Bound and displacement of r's owner (not free) from its region; returns the owner. */
static inline struct k_tcb *set_window(const struct region *r)
{
    struct k_tcb *t = &k_tasks[r->owner];
    t->stack_disp = top(r) - PORT_WINDOW_TOP;
    t->stack.limit = PORT_WINDOW_LIMIT(PORT_WINDOW_TOP - r->size, t->stack_disp);
    return t;
}

/* Records r's size as its owner's largest if it is (only a region that grew can be). */
static inline void note_peak(const struct region *r)
{
    if (r->size > peak[r->owner])
        peak[r->owner] = r->size;
}

static inline void report(const struct region *r)
{
    if (r->owner == REGION_FREE)
        reloc_release(r->base, r->size);
    else
        reloc_assign(r->base, r->size, r->owner);
}

/* A mark in the code for `cactus bench sensmart`'s cycle breakdown of a relocation
 * (crates/bench/src/sensmart/breakdown.rs): a global label the simulator's call probes stop
 * at, which costs no instruction and no cycle. Used once each, in code inlined once. */
#define RELOC_MARK(name) __asm__ volatile(".globl " #name "\n" #name ":")

/* Region d gives g bytes to region i (Figure 3): the bytes move (one copy), and only the
 * regions between the two change: their owners' bounds and displacements, the software
 * window's fix-ups of the tasks whose stacks moved, the running task's window (written once),
 * and the oracle hears of each of them, except a free donor: the bytes it keeps were free and
 * stay free, the ones it gives are in its neighbour's report. */
static inline void relocate(uint32_t i, uint32_t d, uint32_t g)
{
    RELOC_MARK(reloc_mark_regions);
    uint32_t live = live_low(&regs.r[d < i ? d : i]);
    struct region_move m = regions_give(&regs, i, d, g, live);
    reloc_bracket_enter();
    reloc_copy(m.dst, m.src, m.n);
    reloc_bracket_leave();
    /* Regions lo..hi-1 had their contents moved by delta (their tops, so their owners'
     * displacements, changed by it); hi kept its top. The end region among them (lo: the
     * donor below i, or i below the donor) kept its base, the ones in between moved whole: so
     * each one's old place is [base or base - delta, top - delta). */
    int32_t delta = (int32_t)(m.dst - m.src);
    const struct region *r = &regs.r[m.lo], *end = &regs.r[m.hi];
    for (; r <= end; r++) {
        if (r->owner == REGION_FREE)
            continue;
        struct k_tcb *t = set_window(r);
        if (PORT_WINDOW_SOFTWARE && r < end)
            port_window_moved(&t->ctx, delta,
                              r == &regs.r[m.lo] ? r->base : r->base - (uint32_t)delta,
                              top(r) - (uint32_t)delta);
    }
    note_peak(&regs.r[i]); /* the one region that grew */
    stats.relocations++;
    stats.bytes_moved += m.n;
    struct k_tcb *cur = k_cur();
    if (cur)
        port_window_set((uint32_t)cur->stack.limit, cur->stack_disp);
    const struct region *donor = &regs.r[d];
    for (r = &regs.r[m.lo]; r <= end; r++)
        if (r->size && !(r == donor && r->owner == REGION_FREE))
            report(r);
    if (donor->size == 0) {
        regions_remove(&regs, d); /* a free region given away whole */
        index_regions();
    }
}

void stack_init(void)
{
    port_window_init();
    regions_init(&regs, reg_storage, MAX_REGIONS, (uintptr_t)pool + POOL_RED_ZONE,
                 sizeof(pool) - POOL_RED_ZONE);
    ktrace_region_assign((uintptr_t)pool, POOL_RED_ZONE, KTRACE_NOBODY);
    report(&regs.r[0]);
}

uintptr_t stack_alloc(struct k_tcb *t, uint32_t size)
{
    size = (size + 15u) & ~15u;
    if (size < 64u)
        return 0;
    int k = regions_alloc(&regs, size, (uint8_t)k_id(t));
    if (k < 0)
        return 0;
    index_regions();
    peak[k_id(t)] = 0;
    set_window(&regs.r[k]);
    note_peak(&regs.r[k]);
    report(&regs.r[k]);
    return PORT_WINDOW_SP(PORT_WINDOW_TOP, t->stack_disp);
}

int stack_grow(struct k_tcb *t, uintptr_t low)
{
    uintptr_t bound = PORT_WINDOW_BOUND(t->stack.limit, t->stack_disp);
    if (low >= bound)
        return 0;
    uint32_t need = (uint32_t)((bound - low + 15u) & ~15u);
    uint32_t i = find(t), best = 0;
    int d = -1;
    /* The donor: the region with the most surplus (a region's surplus is at most its size, so
     * one no larger than the best so far is passed over without looking at its task). */
    const struct region *r = regs.r, *mine = &regs.r[i];
    for (uint32_t k = 0; k < regs.n; k++, r++) {
        if (r->size <= best || r == mine)
            continue;
        uint32_t s = r->owner == REGION_FREE
                         ? r->size
                         : regions_surplus(r, live_low(r), CACTUS_RELOC_HEADROOM);
        if (s > best)
            best = s, d = (int)k;
    }
    if (d < 0 || best < need) {
        refusal.need = need, refusal.best = best, refusal.task = k_id(t);
        stats.refusals++;
        return -1;
    }
    uint32_t g = (best / 2) & ~15u;
    relocate(i, (uint32_t)d, g > need ? g : need);
    reloc_overflow((uint32_t)k_id(t), t->ctx.sp, need);
    return 0;
}

void *stack_task_ptr(struct k_tcb *t, void *p, uint32_t n)
{
    uintptr_t a = (uintptr_t)p;
    (void)n;
    if (a - PORT_WINDOW_BASE >= PORT_WINDOW_TOP - PORT_WINDOW_BASE)
        return p;
    if (a < PORT_WINDOW_BOUND(t->stack.limit, t->stack_disp) && stack_grow(t, a) != 0)
        return p; /* no room: the kernel's access faults (a kernel panic report) */
    return (void *)(a + t->stack_disp);
}

/* The window checks every access: the switch adds nothing. */
int stack_check_switch(const struct k_tcb *t)
{
    (void)t;
    return STACK_OK;
}

int stack_out_of_stack(struct k_tcb *t, uintptr_t sp, uint32_t requested)
{
    if (sp >= t->stack.limit && sp - t->stack.limit >= requested)
        return 0;
    return t == k_cur()
               ? stack_grow(t, PORT_WINDOW_SP_LOGICAL(sp, t->stack_disp) - requested)
               : -1;
}

int stack_request(struct k_tcb *t, const struct cactus_check_site *site)
{
    return stack_out_of_stack(t, t->ctx.sp, cactus_check_need(site));
}

void stack_refusal_print(void)
{
    k_report("  why: relocate: task %d needs %u more bytes; the most any region can give is %u\n",
            refusal.task, refusal.need, refusal.best);
}

int stack_frame_return(struct k_tcb *t)
{
    (void)t; /* relocate never moves a frame away from its stack */
    return -1;
}

void stack_frame_released(struct k_tcb *t, uintptr_t sp)
{
    (void)t, (void)sp;
}

/* base, size: t's region now (physical); limit: its physical bound (the region's base);
 * used: the largest region it has held (the stack memory it has needed at most). */
void stack_usage(const struct k_tcb *t, cactus_stack_info *out)
{
    const struct region *r = &regs.r[find(t)];
    out->base = r->base;
    out->size = r->size;
    out->limit = r->base;
    out->used = peak[k_id(t)];
}

void stack_free(struct k_tcb *t)
{
    ktrace_stack_hwm((uint32_t)k_id(t), peak[k_id(t)], t->desc->stack_size);
    report(&regs.r[regions_free(&regs, find(t))]);
    index_regions();
    k_stack_released();
}

void cactus_relocate_stats(cactus_relocate_counts *out)
{
    uint32_t irq = port_irq_save();
    cactus_relocate_counts *p = port_window_task_ptr(out); /* a task's logical pointer */
    if (p)
        *p = stats;
    port_irq_restore(irq);
}
