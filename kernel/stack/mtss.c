/* The `mtss` stack strategy: multi-task stack sharing (MTSS paper, sections 6 and 7;
 * docs/mtss.md). Each task gets one contiguous region from a pool, as in `static`, divided into
 * pages of CACTUS_MTSS_PAGE bytes from the bottom. When a task's stack check fails at an entry
 * site, the function's frame is moved to contiguous free pages at the bottom of a switched-out
 * task's region (the "lender"): its stack arguments are copied there, sp points into the block,
 * its return address becomes the return trampoline (port_stack_return) and its limit the
 * block's bottom. When it returns, the trampoline traps and the record is popped: the caller's
 * sp, return address and limit come back and the pages go back to the lender.
 *
 * Invariants (interrupts masked: every entry point runs in the trap handler or a kernel call):
 *   - a region's pages [base, ovf) are lent or holes (lent before, returned since); its owner's
 *     limit is `ovf` while the owner runs in its own region, so it never writes them;
 *   - a page is lent only when it lies entirely below the lender's native sp minus its margin:
 *     what it may still write below that sp before it runs another check, on the strength of a
 *     check it already passed (or is about to pass with a limit it loaded before it was
 *     preempted: docs/mtss.md, "No lock"). The margin is the `cactus_margins` entry of the pc
 *     where it resumes in its native region (docs/mtss.md, "A margin per resume point"), or,
 *     where the table has none, `margin`, the largest `need` of any check site (but a
 *     hardware-bound site of a movable frame: past it a frame writes nothing below sp, and
 *     refused it moves; cactus_check_bound);
 *   - every lent page belongs to exactly one overflow record of one borrower; a region is
 *     returned to the pool only when no page of it is lent;
 *   - the region of a task that ended is *dead* (DEAD): nobody owns or resumes in it, so all
 *     of its free pages lend, with no margin, and it is searched before the live lenders
 *     (docs/mtss.md, "Lending from ended tasks"); it goes back to the pool only when a new
 *     region needs its memory or its slot and none of its pages is lent (reclaim_dead);
 *   - the oracle follows every move: a loan lends the block to the borrower (REGION_LEND, so
 *     the simulator counts bytes lent and borrowed; from a dead region the lender is nobody),
 *     a return assigns it back to the lender (or releases it, for a dead region or the
 *     worst-case mode's artificial region);
 *   - a borrower's moved frames form one chain, newest first (mt[].top, then each record's
 *     `prev`): loan records live at the tops of their blocks; with a stacklet heap (below)
 *     a stacklet is named by its payload, and an entry is a stacklet exactly when it lies in
 *     the heap (stacklet_owns);
 *   - the lender index holds exactly the live tasks whose region can ever lend a page, each in
 *     the class of its region's nlent (reindex after every change of nlent); the fit
 *     summaries hold, for every indexed task that is not stale and not running, the longest
 *     run it can lend now (fit_of), so the lender a request picks is the one a scan of every
 *     task would pick.
 *
 * The stacklet fallback (the `mtss+split` hybrid: stack/hybrid.c builds this file with
 * CACTUS_STACKLET_POOL > 0; docs/segmented.md, "The mtss+split hybrid"): the pool's lowest
 * CACTUS_STACKLET_POOL bytes (whole pages, above the red zone) are a stacklet heap
 * (stack/stacklets.h, the `segmented` strategy's stacklets), and the tasks' regions come from
 * the rest: one budget. A frame no lender can hold gets a stacklet instead, linked into the
 * same chain as the loans; when the heap has none either, the request answers STACK_RETRY
 * (the task waits for a release: a stacklet freed or a loan returned) or -1 when no release
 * can ever make room, as `segmented` does. With CACTUS_STACKLET_POOL 0 (plain `mtss`) the
 * heap is empty and every branch of it folds away. */
#include "stack.h"
#include "physical.h"
#include "frame_move.h"
#include "../lib/classset.h"
#include "../lib/extent.h"
#include "../trace/ktrace.h"

#ifndef CACTUS_STACK_POOL_SIZE
#define CACTUS_STACK_POOL_SIZE (48 * 1024)
#endif
#ifndef CACTUS_STACKLET_POOL
#define CACTUS_STACKLET_POOL 0
#endif
#include "stacklets.h"
#ifndef CACTUS_MTSS_PAGE
#define CACTUS_MTSS_PAGE 128
#endif
#ifndef CACTUS_MTSS_WORST_CASE
/* Measurement mode of the paper's worst-case estimate (section 10, Figures 12/13): every
 * search scans every task and every page of it, and the frame then goes to an artificial
 * region (the pool's spare memory) that never runs out. */
#define CACTUS_MTSS_WORST_CASE 0
#endif
#define PAGE ((uint32_t)CACTUS_MTSS_PAGE)
_Static_assert(CACTUS_MTSS_PAGE >= 32 && CACTUS_MTSS_PAGE <= 1024 &&
                   (CACTUS_MTSS_PAGE & (CACTUS_MTSS_PAGE - 1)) == 0,
               "CACTUS_MTSS_PAGE must be a power of two in 32..1024");
_Static_assert(CACTUS_STACK_POOL_SIZE % CACTUS_MTSS_PAGE == 0, "pool: whole pages");
#define NPAGES (CACTUS_STACK_POOL_SIZE / CACTUS_MTSS_PAGE)
#define POOL_RED_ZONE ((64u + PAGE - 1) & ~(PAGE - 1)) /* never allocated, as in static */
/* The stacklet heap's bytes: CACTUS_STACKLET_POOL in whole pages, 0 in plain mtss. */
#define HEAP_BYTES ((((uint32_t)CACTUS_STACKLET_POOL + PAGE - 1) & ~(PAGE - 1)))
_Static_assert(CACTUS_STACKLET_POOL == 0 || (CACTUS_STACKLET_POOL >= 256 &&
                   POOL_RED_ZONE + HEAP_BYTES + PAGE <= CACTUS_STACK_POOL_SIZE),
               "CACTUS_STACKLET_POOL: at least 256 bytes, leaving a page of the pool for regions");
_Static_assert(CACTUS_STACKLET_POOL == 0 || CACTUS_STACK_POOL_SIZE <= STACKLET_REACH,
               "mtss+split: the stack pool may span at most 512 KiB (stacklets.h, chain tags)");
_Static_assert(CACTUS_STACKLET_POOL == 0 || !CACTUS_MTSS_WORST_CASE,
               "the worst-case mode has no stacklet fallback");
#define NREGIONS (2 * CACTUS_MAX_TASKS) /* live regions plus dead ones */
#define NO_REGION 0xFFFFu
_Static_assert(NREGIONS <= 512, "mtss keeps region indices in 9 bits (struct loan)");
#define FREE_SLOT (-1)
#define DEAD (-2) /* an ended task's region: it lends every free page */
#define SPARE (-3) /* the worst-case mode's artificial region */
#define PAINT 0xA5A5A5A5u

static uint32_t pool[CACTUS_STACK_POOL_SIZE / 4]
    __attribute__((section(".stack_pool"), aligned(CACTUS_MTSS_PAGE)));
static struct extent_pool extents;
static uint32_t lent[(NPAGES + 31) / 32]; /* one bit per pool page: lent to a borrower */
static uint32_t margin;                   /* the largest need of any check site */
static int margins_sorted;                /* the per-pc margin table is usable */
static uint32_t min_margin;               /* the smallest margin any lender can have */
static int spare;                         /* worst-case mode: its region, or -1 */
static volatile int worst_case_sink;      /* keeps the worst-case scan from being elided */
/* The lender index: every task whose region is large enough ever to lend a page (its size is
 * at least min_margin + PAGE), in the class of the pages its region has lent now. The request
 * visits the classes from the fewest pages lent and each class in id order, and takes the
 * first task that can lend: the paper's choice (fewest pages lent, then the lowest id). */
static struct classset lenders;

/* The fit summaries (docs/mtss.md, "Fit summaries"): which task can lend a run of n pages
 * now, so a request finds its lender without looking at the tasks that cannot.
 *   - fit[u]: the longest run of free pages of u's region below native_sp(u) minus its
 *     margin, in pages: exactly the largest n for which lend_at(u, n) finds a run (0 for a
 *     task that is not indexed, the running task, or a dead one);
 *   - fitsum[k][w], bit u % 32 of word w = u / 32: fit[u] >= k + 1 (k < FITS); fitany[k],
 *     bit w: fitsum[k][w] != 0 (a request no task can serve is refused at once);
 *   - bigsum[c][k], bit w: set whenever some member of lender class c in word w has
 *     fit >= k + 1 (set when a task enters class c or its fit rises; it may stay set after
 *     the member left or shrank: the search clears it when it finds no such member, so each
 *     stale bit costs one visit). For each c and w the k with bit w set are a prefix
 *     0..top-1 (a member that fits k + 1 pages fits k; the search clears k and every larger
 *     one), so a task entering a class sets bits only from its fit down to the first that
 *     is set already: nothing, when it comes back to a class it left. A request of n pages
 *     visits in class c only the words of bigsum[c][k] & fitany[k] (k = min(n, FITS) - 1),
 *     and in each only the members that fit (fitsum; fit itself past FITS pages).
 * A fit depends on u's saved context (sp, resume pc: its margin), its moved frames and its
 * region's lent pages. The first three change only while u runs, so every switch-out of u
 * (stack_check_switch) and a new region mark it stale, and the next request recomputes the
 * stale fits (but the requester's: its own fit is 0 while it runs) before it searches; a
 * loan or a return of u's pages recomputes its fit at once from the bound fit_of kept
 * (refit). The work per request is the tasks that
 * ran or whose pages moved since the previous one, not the number of tasks, and a fit change
 * touches only the summaries of the page counts between its old and new value. */
#define FITS 8
static uint16_t fit[CACTUS_MAX_TASKS];
static uint32_t fitsum[FITS][CLASSSET_WORDS];
static uint32_t fitany[FITS];
static uint32_t bigsum[CLASSSET_CLASSES][FITS];
static uint8_t stale_flag[CACTUS_MAX_TASKS];
static uint16_t stale_ids[CACTUS_MAX_TASKS];
static uint32_t nstale;

/* Notes that a member of class c in word w has fit f: bit w of bigsum[c][k] for every
 * k < min(f, FITS), set from the top down to the first that is set (the prefix). */
static void bigsum_add(unsigned c, unsigned w, uint32_t f)
{
    uint32_t bit = 1u << w;
    for (uint32_t k = f < FITS ? f : FITS; k-- > 0 && !(bigsum[c][k] & bit);)
        bigsum[c][k] |= bit;
}

/* Sets fit[u] to f, keeping fitsum, fitany and bigsum true. */
static void fit_set(int u, uint32_t f)
{
    uint32_t of = fit[u];
    if (f > 0xFFFFu)
        f = 0xFFFFu;
    if (of == f)
        return;
    fit[u] = (uint16_t)f;
    unsigned w = (unsigned)u / 32;
    uint32_t bit = 1u << ((unsigned)u % 32);
    if (f > of) {
        for (uint32_t k = of; k < f && k < FITS; k++) {
            fitsum[k][w] |= bit;
            fitany[k] |= 1u << w;
        }
        unsigned c = classset_class(&lenders, u);
        if (c != CLASSSET_NONE)
            bigsum_add(c, w, f);
        return;
    }
    for (uint32_t k = f; k < of && k < FITS; k++)
        if (!(fitsum[k][w] &= ~bit))
            fitany[k] &= ~(1u << w);
}

/* Moves indexed task u to the lender class of nlent pages lent. */
static void class_set(int u, uint32_t nlent)
{
    unsigned oc = classset_class(&lenders, u);
    if (oc == CLASSSET_NONE)
        return;
    classset_put(&lenders, u, nlent);
    unsigned nc = classset_class(&lenders, u);
    if (nc != oc)
        bigsum_add(nc, (unsigned)u / 32, fit[u]);
}

/* Marks u's fit stale: the next request recomputes it. */
static void mark_stale(int u)
{
    if (!stale_flag[u]) {
        stale_flag[u] = 1;
        stale_ids[nstale++] = (uint16_t)u;
    }
}

struct region {
    uintptr_t base, top; /* [base, top): whole pages */
    uintptr_t ovf;       /* pages [base, ovf) are lent or holes */
    uint32_t nlent;      /* pages lent now */
    int16_t owner;       /* task id, FREE_SLOT, DEAD or SPARE */
};
static struct region regions[NREGIONS];
/* The dead regions (a bit per region index) and each one's fit: its longest run of free
 * pages, kept on every loan and return of its pages (refit). */
#define DEAD_WORDS ((NREGIONS + 31) / 32)
static uint32_t dead_set[DEAD_WORDS];
static uint32_t dead_sum; /* bit w: dead_set[w] != 0 */
_Static_assert(DEAD_WORDS <= 32, "dead regions: one summary word");
static uint16_t dead_fit[NREGIONS];

/* One moved frame of a borrower: kept in the top REC bytes of its own block, above the
 * copied arguments (no function writes above its incoming arguments), so a task can nest
 * moved frames as deep as memory allows. */
struct loan {
    uintptr_t entry_sp;   /* the moved function's entry sp where it was called */
    uint32_t ra;          /* its real return address */
    uintptr_t prev;       /* the borrower's next outer moved frame (a loan or a stacklet), 0 */
    uint32_t npages : 15; /* pages of the block (at most MAX_BLOCK_PAGES) */
    uint32_t copy16 : 8;  /* 16-byte units of stack arguments copied below the record */
    uint32_t region : 9;  /* the lender's region (NREGIONS <= 512) */
};
#define MAX_BLOCK_PAGES 0x7FFFu
#define REC 16u /* the record's bytes at the block's top (keeps sp 16-byte aligned) */
_Static_assert(sizeof(struct loan) == REC, "loan record: one 16-byte slot");
_Static_assert(offsetof(struct loan, entry_sp) == 0 && offsetof(struct loan, ra) == 4,
               "frame_move.h: entry sp then return address, where split.S's CFI reads them");

struct mtss_task {
    uint16_t region;
    uintptr_t top;         /* innermost moved frame (a loan's record or a stacklet), or 0 */
    uintptr_t native_sp;   /* with top: the outermost moved frame's entry sp */
    uint32_t native_ra;    /* with top: its return address (where it resumes natively) */
    uint32_t keep_pc;      /* the resume pc `keep` was looked up for (0: none yet) */
    uint32_t keep;         /* the lending margin at keep_pc (lender_margin's cache) */
    uintptr_t hi;          /* with a fit: the top of the pages it may lend (fit_of) */
};
static struct mtss_task mt[CACTUS_MAX_TASKS];

static uint32_t page_of(uintptr_t a)
{
    return (uint32_t)(a - (uintptr_t)pool) / PAGE;
}
static uintptr_t addr_of(uint32_t page)
{
    return (uintptr_t)pool + page * PAGE;
}
/* The moved function's entry sp in the block: what it returns with. */
static uintptr_t block_entry(const struct loan *l)
{
    return (uintptr_t)l - 16u * l->copy16;
}
/* The first pool page of l's block (the record sits at the block's top). */
static uint32_t block_first(const struct loan *l)
{
    return page_of((uintptr_t)l + REC) - l->npages;
}
static int is_lent(uint32_t p)
{
    return (lent[p / 32] >> (p % 32)) & 1u;
}
static void set_lent(uint32_t first, uint32_t n, int on)
{
    while (n) { /* a word's worth of pages at a time */
        uint32_t sh = first % 32, k = 32 - sh < n ? 32 - sh : n;
        uint32_t mask = (k == 32 ? ~0u : (1u << k) - 1u) << sh;
        if (on)
            lent[first / 32] |= mask;
        else
            lent[first / 32] &= ~mask;
        first += k;
        n -= k;
    }
}

/* Paints [base, base + size): size is whole pages (PAGE >= 32), so eight words a turn (the
 * return path paints every block it gives back). */
static void paint(uintptr_t base, uint32_t size)
{
    ktrace_kernel_enter();
    for (uint32_t *w = (uint32_t *)base, *end = (uint32_t *)(base + size); w < end; w += 8) {
        w[0] = PAINT;
        w[1] = PAINT;
        w[2] = PAINT;
        w[3] = PAINT;
        w[4] = PAINT;
        w[5] = PAINT;
        w[6] = PAINT;
        w[7] = PAINT;
    }
    ktrace_kernel_leave();
}

/* 1 if chain entry a (mt[].top or a record's prev) is a stacklet, not a loan record. */
static int is_stacklet(uintptr_t a)
{
    return HEAP_BYTES && stacklet_owns(a);
}

/* The hybrid's stacklets do not report a high-water mark: a task's STACK_HWM is its region's
 * (stack_free), the heap's use is cactus_stacklet_heap_peak. */
static void stacklet_peak_rose(const struct k_tcb *t, uint32_t peak)
{
    (void)t, (void)peak;
}

void stack_init(void)
{
    uintptr_t regions_lo = (uintptr_t)pool + POOL_RED_ZONE + HEAP_BYTES;
    uint32_t regions_size = sizeof(pool) - POOL_RED_ZONE - HEAP_BYTES;
    extent_init(&extents, regions_lo, regions_size);
    paint((uintptr_t)pool, sizeof(pool));
    ktrace_region_assign((uintptr_t)pool, POOL_RED_ZONE, KTRACE_NOBODY);
    ktrace_region_release(regions_lo, regions_size);
    if (HEAP_BYTES)
        stacklets_init((uintptr_t)pool + POOL_RED_ZONE, HEAP_BYTES);
    for (int i = 0; i < NREGIONS; i++)
        regions[i].owner = FREE_SLOT;
    margin = 0;
    spare = -1;
    classset_init(&lenders);
    for (const struct cactus_check_site *s = __start_cactus_checks; s < __stop_cactus_checks; s++)
        if (!(cactus_check_bound(s) && cactus_check_kind(s) == CACTUS_CHECK_ENTRY) &&
            cactus_check_need(s) > margin)
            margin = cactus_check_need(s);
    for (int i = 0; i < CACTUS_MAX_TASKS; i++) {
        mt[i].region = NO_REGION;
        mt[i].keep = margin; /* margin_at(0), the cache's starting key */
    }
    /* One pass over the margin table: it is searched by bisection, so it is used only if the
     * link kept it in pc order; and its smallest entry bounds what any lender keeps. */
    margins_sorted = 1;
    min_margin = margin;
    for (const struct cactus_margin *e = __start_cactus_margins; e && e < __stop_cactus_margins;
         e++) {
        if (e + 1 < __stop_cactus_margins && e[1].pc < e[0].pc)
            margins_sorted = 0;
        if (e->margin < min_margin)
            min_margin = e->margin;
    }
    if (!margins_sorted)
        min_margin = margin;
}

/* The margin of a task resumed at `pc`: its table entry, or the firmware-wide margin when the
 * table has none (uninstrumented code, dynamic frames) or cannot be searched. */
static uint32_t margin_at(uint32_t pc)
{
    const struct cactus_margin *lo = __start_cactus_margins, *hi = __stop_cactus_margins;
    if (!margins_sorted || !lo || lo == hi || pc < lo->pc)
        return margin;
    while (hi - lo > 1) { /* invariant: lo->pc <= pc, and hi is past the answer */
        const struct cactus_margin *mid = lo + (hi - lo) / 2;
        if (mid->pc <= pc)
            lo = mid;
        else
            hi = mid;
    }
    return lo->margin == CACTUS_NO_MARGIN || lo->margin > margin ? margin : lo->margin;
}

/* What switched-out task u may still write below native_sp(u) before it runs another check:
 * the margin where it resumes in its own region (its saved pc, or its ra after a kernel call,
 * or, with moved frames, the return address of the outermost one, where it comes back to the
 * native region). */
static uint32_t lender_margin(int u)
{
    struct mtss_task *m = &mt[u];
    /* A voluntary context (a kernel call) has pc 0 and resumes by returning to ra. */
    const struct port_context *c = &k_tasks[u].ctx;
    uint32_t pc = m->top ? m->native_ra : c->pc ? c->pc : c->ra;
    if (pc != m->keep_pc) { /* a blocked lender is asked again and again: look up once */
        m->keep = margin_at(pc);
        m->keep_pc = pc;
    }
    return m->keep;
}

static int reclaim_dead(void);
static int dead_merge(int ri);

uintptr_t stack_alloc(struct k_tcb *t, uint32_t size)
{
    if (size < 64u)
        return 0;
    size = (size + PAGE - 1) & ~(PAGE - 1);
    int r = 0;
    while (r < NREGIONS && regions[r].owner != FREE_SLOT)
        r++;
    if (r == NREGIONS) { /* dead regions hold every slot: the idle ones go back first */
        if (!reclaim_dead())
            return 0;
        for (r = 0; regions[r].owner != FREE_SLOT; r++)
            ;
    }
    uintptr_t base = extent_alloc(&extents, size);
    if (!base && reclaim_dead()) /* the memory may be in dead regions no loan holds */
        base = extent_alloc(&extents, size);
    if (!base)
        return 0;
    paint(base, size);
    ktrace_region_assign(base, size, (uint32_t)k_id(t));
    regions[r] = (struct region){ .base = base, .top = base + size, .ovf = base, .nlent = 0,
                                  .owner = (int16_t)k_id(t) };
    mt[k_id(t)].region = (uint16_t)r;
    mt[k_id(t)].top = 0;
    if (HEAP_BYTES)
        stacklet_task_start(t);
    if (size >= min_margin + PAGE) {
        fit_set(k_id(t), 0);
        classset_put(&lenders, k_id(t), 0);
        mark_stale(k_id(t)); /* its first fit is its initial context's */
    }
    t->stack.limit = base;
    return base + size;
}

/* Every frame is checked before it is written, and a task switched out between its sp
 * decrement and its check (or an alloca and its check) legitimately has sp below its limit:
 * the checks are the detection, the switch adds none. */
int stack_check_switch(const struct k_tcb *t)
{
    mark_stale(k_id(t)); /* its saved context changed: its fit is recomputed when needed */
    return STACK_OK;
}

int stack_out_of_stack(struct k_tcb *t, uintptr_t sp, uint32_t requested)
{
    uintptr_t limit = t->stack.limit;
    return sp >= limit && sp - limit >= requested ? 0 : -1;
}

/* Lowers r's ovf over the free pages at its top end, and gives its owner the new limit when
 * the owner runs in its own region. */
static void recede(struct region *r)
{
    while (r->ovf > r->base && !is_lent(page_of(r->ovf - PAGE)))
        r->ovf -= PAGE;
    if (r->owner >= 0 && !mt[r->owner].top)
        k_tasks[r->owner].stack.limit = r->ovf;
}

static void region_free(int ri)
{
    struct region *r = &regions[ri];
    paint(r->base, r->top - r->base);
    ktrace_region_release(r->base, r->top - r->base);
    if (extent_free(&extents, r->base, r->top - r->base) != 0)
        k_panic("stack pool: free-extent table full");
    r->owner = FREE_SLOT;
}

/* Merges dead region ri with the dead regions next to it in the pool, where one of the two
 * has no page lent (no loan record names it): the one with loans, or ri, takes the other's
 * pages, the other's slot is freed. A run can then cross what were two regions. Returns the
 * index that now holds ri's pages. O(regions), at a task end only. */
static int dead_merge(int ri)
{
    for (int e = 0; e < NREGIONS; e++) {
        struct region *a = &regions[ri], *b = &regions[e];
        if (e == ri || b->owner != DEAD || (a->top != b->base && b->top != a->base))
            continue;
        if (a->nlent && b->nlent)
            continue;
        int keep = b->nlent ? e : ri, drop = keep == ri ? e : ri;
        struct region *k = &regions[keep], *d = &regions[drop];
        if (d->base < k->base)
            k->base = d->base; /* its pages lie below ovf: holes, or ovf recedes to them */
        else
            k->top = d->top;
        if (k->nlent == 0)
            k->ovf = k->base;
        if (!(dead_set[drop / 32] &= ~(1u << (drop % 32))))
            dead_sum &= ~(1u << (drop / 32));
        d->owner = FREE_SLOT;
        ri = keep;
        e = -1; /* the merged region may touch another dead one */
    }
    return ri;
}

/* Returns every dead region with no page lent to the pool (a new region needs the memory or
 * a slot); the number returned. */
static int reclaim_dead(void)
{
    int n = 0;
    for (int ri = 0; ri < NREGIONS; ri++)
        if (regions[ri].owner == DEAD && regions[ri].nlent == 0) {
            if (!(dead_set[ri / 32] &= ~(1u << (ri % 32))))
                dead_sum &= ~(1u << (ri / 32));
            region_free(ri);
            n++;
        }
    return n;
}

/* Gives the block of loan l (its record, in the block) back to its lender (pages, oracle, ovf
 * and limit); the record is painted over with the block. */
/* Moves r's owner to the lender class of r's pages lent now (if it is in the index). */
static void reindex(const struct region *r)
{
    if (r->owner >= 0)
        class_set(r->owner, r->nlent);
}

static uint32_t longest_run(const struct region *r, uintptr_t hi);

/* The longest run of free pages of r below hi, in pages: at ovf when r has no holes. */
static uint32_t run_fit(const struct region *r, uintptr_t hi)
{
    if ((r->ovf - r->base) / PAGE == r->nlent)
        return hi >= r->ovf ? (uint32_t)(hi - r->ovf) / PAGE : 0;
    return longest_run(r, hi);
}

/* r's pages changed (a loan or a return, its ovf settled): its owner's fit follows, from the
 * bound fit_of kept, unless it is stale (recomputed before the next search anyway) or could
 * lend nothing whatever its pages (hi 0). Its context has not changed since fit_of: it
 * was not switched out since, so it has not run, or it is the running task, whose fit no
 * search reads (refresh_fits sets it to 0 first). */
static void refit(const struct region *r)
{
    int u = r->owner;
    if (u == DEAD) /* no margin: nothing resumes in it */
        dead_fit[r - regions] = (uint16_t)run_fit(r, r->top);
    else if (u >= 0 && !stale_flag[u] && mt[u].hi)
        fit_set(u, run_fit(r, mt[u].hi));
}

static void give_back(const struct loan *l)
{
    int ri = (int)l->region;
    uint32_t npages = l->npages;
    uint32_t first = block_first(l);
    struct region *r = &regions[ri];
    uintptr_t bot = addr_of(first);
    uint32_t bytes = (uint32_t)npages * PAGE;
    set_lent(first, npages, 0);
    r->nlent -= npages;
    reindex(r);
    paint(bot, bytes); /* the owner's high-water mark stays its own */
    if (r->owner == SPARE) {
        ktrace_region_release(bot, bytes);
        recede(r);
        return;
    }
    if (r->owner == DEAD) {
        ktrace_region_release(bot, bytes); /* nobody's again: it lends them on */
        recede(r);
        refit(r);
        if (HEAP_BYTES)
            k_stack_released();
        return;
    }
    ktrace_region_assign(bot, bytes, (uint32_t)r->owner);
    recede(r);
    refit(r);
    if (HEAP_BYTES)
        k_stack_released(); /* a task waiting for stack memory may borrow these pages now */
}

/* t's limit: the bottom of its innermost moved frame's block, or its region's ovf. */
static uintptr_t own_limit(const struct mtss_task *m)
{
    if (!m->top)
        return regions[m->region].ovf;
    if (is_stacklet(m->top))
        return m->top;
    return addr_of(block_first((const struct loan *)m->top));
}

/* The lowest run of `n` pages of region r that are not lent and lie entirely below `hi`;
 * 0 if none. Holes below ovf are found before the pages at ovf (first fit from the bottom).
 * The worst-case mode looks at every page even after it found the run. */
static uintptr_t find_run(const struct region *r, uint32_t n, uintptr_t hi)
{
    uint32_t run = 0;
    uintptr_t found = 0;
    for (uintptr_t a = r->base; a + PAGE <= hi; a += PAGE) {
        run = is_lent(page_of(a)) ? 0 : run + 1;
        if (run == n && !found) {
            found = a + PAGE - n * PAGE;
            if (!CACTUS_MTSS_WORST_CASE)
                break;
        }
    }
    return found;
}

/* The longest run of free pages of r below hi, in pages (the refusal report only). */
static uint32_t longest_run(const struct region *r, uintptr_t hi)
{
    uint32_t run = 0, longest = 0;
    for (uintptr_t a = r->base; a + PAGE <= hi; a += PAGE) {
        run = is_lent(page_of(a)) ? 0 : run + 1;
        if (run > longest)
            longest = run;
    }
    return longest;
}

/* Why the last request was refused, for stack_refusal_print. */
static struct {
    enum { REFUSED_PINNED, REFUSED_DYNAMIC, REFUSED_TOO_LARGE, REFUSED_NO_LENDER } why;
    uint32_t pages;      /* pages the frame needed */
    uint32_t switched;   /* switched-out tasks with a region, and dead regions */
    uint32_t in_margin;  /* of them, with less than `margin` bytes below their sp */
    uint32_t longest;    /* the longest free run below sp - margin of any of them, pages */
    uint32_t largest_margin; /* the largest of their margins, bytes */
    int heap;                /* the stacklet heap refused it too (the hybrid) */
} refusal;

void stack_refusal_print(void)
{
    switch (refusal.why) {
    case REFUSED_PINNED:
        k_report("  why: the frame is pinned (its address escapes) and cannot move\n");
        break;
    case REFUSED_DYNAMIC:
        k_report("  why: a dynamic allocation (alloca, VLA) is never moved\n");
        break;
    case REFUSED_TOO_LARGE:
        k_report("  why: the frame (%u pages) is larger than a loan can be\n", refusal.pages);
        break;
    case REFUSED_NO_LENDER:
        k_report("  why: no lender: the frame needs %u contiguous pages of %u bytes; of %u "
                "possible lenders (switched-out tasks and ended tasks' regions), %u have less "
                "than their margin (at most %u bytes, the firmware-wide one %u) below their sp, "
                "the others' longest free run below sp - margin is %u pages\n",
                refusal.pages, PAGE, refusal.switched, refusal.in_margin,
                refusal.largest_margin, margin, refusal.longest);
        break;
    }
    if (HEAP_BYTES && refusal.heap)
        stacklet_refusal_print();
}

/* Worst-case mode: the artificial region, made on first use from the largest power-of-two
 * fraction of the pool that is free (the rest stays for tasks created later); -1 if none. */
static int spare_region(void)
{
    if (spare >= 0)
        return spare;
    int r = 0;
    while (r < NREGIONS && regions[r].owner != FREE_SLOT)
        r++;
    if (r == NREGIONS)
        return -1;
    for (uint32_t size = sizeof(pool); size >= PAGE; size = (size / 2) & ~(PAGE - 1)) {
        uintptr_t base = extent_alloc(&extents, size);
        if (base) {
            regions[r] = (struct region){ .base = base, .top = base + size, .ovf = base,
                                          .nlent = 0, .owner = SPARE };
            spare = r;
            return r;
        }
    }
    return -1;
}

/* Whether task u is a possible lender to t: alive, not t, with a region of its own. */
static int may_lend(const struct k_tcb *t, int u)
{
    return &k_tasks[u] != t && k_alive(&k_tasks[u]) && mt[u].region != NO_REGION;
}

/* The lowest sp task u's native region may be used down to without a further check. */
static uintptr_t native_sp(int u)
{
    return mt[u].top ? mt[u].native_sp : k_tasks[u].ctx.sp;
}

/* The pages task u can lend to t now: the longest run of free pages of its region below its
 * native sp less its margin (0 if none); that bound is kept in mt[u].hi for lend_at. */
static uint32_t fit_of(const struct k_tcb *t, int u)
{
    if (!may_lend(t, u))
        return 0;
    const struct region *r = &regions[mt[u].region];
    uintptr_t sp = native_sp(u);
    uint32_t keep = lender_margin(u);
    if (sp < r->base + keep)
        return 0;
    mt[u].hi = sp - keep;
    return run_fit(r, sp - keep);
}

/* Where task u, whose fit (not stale) is at least n, lends n pages: the lowest run of its
 * region below mt[u].hi (find_run's answer). Without holes (every page below ovf lent) the
 * run can only start at ovf, so no page is walked. */
static uintptr_t lend_at(int u, uint32_t n)
{
    const struct region *r = &regions[mt[u].region];
    if ((r->ovf - r->base) / PAGE == r->nlent)
        return r->ovf + n * PAGE <= mt[u].hi ? r->ovf : 0;
    return find_run(r, n, mt[u].hi);
}

/* Brings the fit summaries up to date for a request of the running task t: every stale fit
 * but t's is recomputed, and t's is 0 while it runs (t stays stale: it is recomputed after
 * it was switched out). */
static void refresh_fits(const struct k_tcb *t)
{
    int self = k_id(t);
    uint32_t keep = 0;
    for (uint32_t i = 0; i < nstale; i++) {
        int u = stale_ids[i];
        if (u == self) {
            stale_ids[keep++] = (uint16_t)u;
            continue;
        }
        stale_flag[u] = 0;
        mt[u].hi = 0; /* fit_of sets it when u can lend */
        fit_set(u, classset_class(&lenders, u) == CLASSSET_NONE ? 0 : fit_of(t, u));
    }
    nstale = keep;
    fit_set(self, 0); /* until it is switched out (stack_check_switch marks it stale) */
}

/* The lender of n pages for t (paper, section 6: the switched-out task with n free
 * contiguous pages that has the fewest pages lent already, the lowest id among equals) from
 * the index and the fit summaries (refresh_fits first); -1 if none. Its run is stored at
 * *at. The last class holds every larger count, so it is searched whole for its fewest. */
static int pick_lender(uint32_t n, uintptr_t *at)
{
    unsigned k = (n < FITS ? n : FITS) - 1;
    if (!fitany[k])
        return -1; /* no task can lend n pages (or FITS, when n is larger) */
    for (unsigned c = 0; c < CLASSSET_CLASSES; c++) {
        int best = -1;
        /* Only the words of class c that may hold a member that fits (bigsum), and in each
         * only the members that fit (fitsum; fit itself past FITS pages). */
        for (uint32_t words = bigsum[c][k] & fitany[k]; words; words &= words - 1) {
            unsigned w = bits_ctz(words);
            uint32_t ids = lenders.bits[c][w] & fitsum[k][w];
            if (!ids) /* stale: no member of class c in word w fits k + 1 pages, nor more */
                for (unsigned j = k; j < FITS; j++)
                    bigsum[c][j] &= ~(1u << w);
            for (; ids; ids &= ids - 1) {
                int u = (int)(w * 32 + bits_ctz(ids));
                if (fit[u] < n)
                    continue;
                uintptr_t a = lend_at(u, n); /* finds the run; fit[u] >= n says there is one */
                if (!a)
                    continue;
                if (c + 1 < CLASSSET_CLASSES) {
                    *at = a;
                    return u;
                }
                if (best < 0 || regions[mt[u].region].nlent < regions[mt[best].region].nlent) {
                    best = u;
                    *at = a;
                }
            }
        }
        if (best >= 0)
            return best;
    }
    return -1;
}

/* A dead region that can lend n pages (the lowest index; its lowest run at *at), or -1. Dead
 * regions come first: nothing resumes in them, so what they lend costs no task a margin. The
 * work is one look per dead region with a run that large (tasks that ended). */
static __attribute__((noinline)) int pick_dead(uint32_t n, uintptr_t *at)
{
    for (uint32_t words = dead_sum; words; words &= words - 1) {
        unsigned w = bits_ctz(words);
        for (uint32_t ids = dead_set[w]; ids; ids &= ids - 1) {
            unsigned ri = w * 32 + bits_ctz(ids);
            const struct region *r = &regions[ri];
            if (dead_fit[ri] < n)
                continue;
            uintptr_t a = (r->ovf - r->base) / PAGE == r->nlent ? r->ovf
                                                                : find_run(r, n, r->top);
            if (a) {
                *at = a;
                return (int)ri;
            }
        }
    }
    return -1;
}

/* Worst-case mode: the same choice made by looking at every task and every page of it
 * (the paper's worst-case search, section 10); only its cost counts. */
static int scan_lenders(const struct k_tcb *t, uint32_t n)
{
    int best = -1;
    for (int u = 0; u < CACTUS_MAX_TASKS; u++) {
        if (!may_lend(t, u))
            continue;
        const struct region *r = &regions[mt[u].region];
        uintptr_t sp = native_sp(u);
        uint32_t keep = lender_margin(u);
        if (sp < r->base + keep)
            continue;
        if (find_run(r, n, sp - keep) &&
            (best < 0 || r->nlent < regions[mt[best].region].nlent))
            best = u;
    }
    return best;
}

/* The hybrid's fallback when no lender can hold the frame of t's entry check `site`: a
 * stacklet from the heap (stacklets.h), linked into t's chain. Returns stacklet_link's answer
 * (0, STACK_RETRY or -1). */
static int link_stacklet(struct k_tcb *t, struct mtss_task *m,
                         const struct cactus_check_site *site)
{
    uintptr_t p;
    struct frame_move fm;
    int r = stacklet_link(t, site, is_stacklet(m->top) ? m->top : 0, m->top, &p, &fm);
    if (r != 0) {
        refusal.heap = 1;
        return r;
    }
    if (!m->top) {
        m->native_sp = fm.entry_sp;
        m->native_ra = fm.ra;
    }
    m->top = p;
    t->stack.limit = p;
    return 0;
}

int stack_request(struct k_tcb *t, const struct cactus_check_site *site)
{
    uint32_t need = cactus_check_need(site);
    if (stack_out_of_stack(t, t->ctx.sp, need) == 0)
        return 0; /* a lender's ovf receded after the check loaded the limit */
    struct mtss_task *m = &mt[k_id(t)];
    if (HEAP_BYTES)
        refusal.heap = 0;
    if (cactus_check_kind(site) != CACTUS_CHECK_ENTRY) {
        refusal.why = cactus_check_kind(site) == CACTUS_CHECK_DYNAMIC ? REFUSED_DYNAMIC
                                                                     : REFUSED_PINNED;
        return -1;
    }
    uint32_t copy = frame_move_copy(site);
    uint32_t n = (frame_move_bytes(site) + REC + PAGE - 1) / PAGE;
    refusal.pages = n;
    if (n > MAX_BLOCK_PAGES || copy / 16u > 0xFFu) {
        refusal.why = REFUSED_TOO_LARGE;
        return HEAP_BYTES ? link_stacklet(t, m, site) : -1;
    }

    uintptr_t best_at = 0;
    int ri = -1;
    if (CACTUS_MTSS_WORST_CASE) {
        worst_case_sink = scan_lenders(t, n);
        ri = spare_region();
        best_at = ri < 0 ? 0 : find_run(&regions[ri], n, regions[ri].top);
        if (!best_at)
            return -1;
    } else {
        ri = dead_sum ? pick_dead(n, &best_at) : -1; /* out of line: rare in most firmware */
        if (ri < 0) {
            refresh_fits(t);
            int best = pick_lender(n, &best_at);
            ri = best < 0 ? -1 : mt[best].region;
        }
    }
    if (ri < 0) {
        refusal.why = REFUSED_NO_LENDER;
        refusal.switched = refusal.in_margin = refusal.longest = refusal.largest_margin = 0;
        for (int u = 0; u < CACTUS_MAX_TASKS; u++) {
            if (!may_lend(t, u))
                continue;
            const struct region *r = &regions[mt[u].region];
            uintptr_t sp = native_sp(u);
            uint32_t keep = lender_margin(u);
            refusal.switched++;
            if (keep > refusal.largest_margin)
                refusal.largest_margin = keep;
            if (sp < r->base + keep) {
                refusal.in_margin++;
                continue;
            }
            uint32_t run = longest_run(r, sp - keep);
            if (run > refusal.longest)
                refusal.longest = run;
        }
        for (int d = 0; d < NREGIONS; d++) /* dead regions: no margin */
            if (regions[d].owner == DEAD) {
                refusal.switched++;
                if (dead_fit[d] > refusal.longest)
                    refusal.longest = dead_fit[d];
            }
        return HEAP_BYTES ? link_stacklet(t, m, site) : -1;
    }

    struct region *r = &regions[ri];
    uintptr_t top = best_at + n * PAGE;
    set_lent(page_of(best_at), n, 1);
    r->nlent += n;
    reindex(r);
    if (top > r->ovf) {
        r->ovf = top;
        if (r->owner >= 0 && !mt[r->owner].top)
            k_tasks[r->owner].stack.limit = top;
    }
    refit(r);
    if (r->owner >= 0)
        ktrace_region_lend(best_at, n * PAGE, (uint32_t)r->owner, (uint32_t)k_id(t));
    else if (r->owner == DEAD) /* nobody's pages: lent by nobody */
        ktrace_region_lend(best_at, n * PAGE, KTRACE_NOBODY, (uint32_t)k_id(t));
    else
        ktrace_region_assign(best_at, n * PAGE, (uint32_t)k_id(t));

    ktrace_overflow((uint32_t)k_id(t), t->ctx.sp, need, 3);
    struct frame_move fm = frame_move_to(t, site, top - REC);
    struct loan *l = (struct loan *)(top - REC);
    *l = (struct loan){ .entry_sp = fm.entry_sp, .ra = fm.ra, .prev = m->top,
                        .npages = n, .copy16 = copy / 16u, .region = (uint32_t)ri };
    if (!m->top) {
        m->native_sp = fm.entry_sp;
        m->native_ra = fm.ra;
    }
    m->top = (uintptr_t)l;
    t->stack.limit = best_at;
    return 0;
}

int stack_frame_return(struct k_tcb *t)
{
    struct mtss_task *m = &mt[k_id(t)];
    if (!m->top)
        return -1;
    if (is_stacklet(m->top)) {
        uintptr_t prev;
        if (stacklet_unlink(t, m->top, &prev) != 0)
            return -1; /* no moved frame returns here */
        m->top = prev;
        t->stack.limit = own_limit(m);
        return 0;
    }
    struct loan *l = (struct loan *)m->top;
    struct frame_move fm = { .entry_sp = l->entry_sp, .block_entry = block_entry(l), .ra = l->ra };
    if (!frame_move_returns(t, &fm))
        return -1; /* no moved frame returns here */
    m->top = l->prev;
    frame_move_back(t, &fm);
    give_back(l); /* paints the block, record included: l is not read after this */
    t->stack.limit = own_limit(m);
    return 0;
}

void stack_frame_released(struct k_tcb *t, uintptr_t sp)
{
    /* Moved frames come back through the trampoline (stack_frame_return). */
    (void)t, (void)sp;
}

void stack_usage(const struct k_tcb *t, cactus_stack_info *out)
{
    const struct region *r = &regions[mt[k_id(t)].region];
    /* The lowest byte that is no longer paint, outside the pages lent to others now. */
    const uint8_t *p = (const uint8_t *)r->base;
    const uint8_t *top = (const uint8_t *)r->top;
    while (p < top && (is_lent(page_of((uintptr_t)p)) || *p == (uint8_t)PAINT))
        p++;
    out->base = (uint32_t)r->base;
    out->size = (uint32_t)(r->top - r->base);
    out->limit = (uint32_t)t->stack.limit;
    out->used = (uint32_t)(top - p);
}

void stack_free(struct k_tcb *t)
{
    struct mtss_task *m = &mt[k_id(t)];
    while (m->top) { /* a task ended while borrowing: every borrowed page goes back */
        if (is_stacklet(m->top)) {
            m->top = stacklet_drop(t, m->top);
            continue;
        }
        struct loan *l = (struct loan *)m->top;
        m->top = l->prev;
        give_back(l);
    }
    if (HEAP_BYTES)
        stacklet_task_end(t);
    int ri = m->region;
    struct region *r = &regions[ri];
    fit_set(k_id(t), 0);
    mt[k_id(t)].hi = 0;
    classset_remove(&lenders, k_id(t));
    cactus_stack_info s;
    stack_usage(t, &s);
    ktrace_stack_hwm((uint32_t)k_id(t), s.used, s.size);
    m->region = NO_REGION;
    /* The region is dead: its free pages are painted and nobody's, and it lends them all
     * (its lent pages stay their borrowers' until they come back). */
    r->owner = DEAD;
    if (r->nlent == 0) {
        paint(r->base, r->top - r->base);
        ktrace_region_release(r->base, r->top - r->base);
    } else {
        for (uintptr_t a = r->base; a < r->top; a += PAGE)
            if (!is_lent(page_of(a))) {
                paint(a, PAGE);
                ktrace_region_release(a, PAGE);
            }
    }
    dead_set[ri / 32] |= 1u << (ri % 32);
    dead_sum |= 1u << (ri / 32);
    ri = dead_merge(ri);
    refit(&regions[ri]);
    if (HEAP_BYTES)
        k_stack_released(); /* a task waiting for stack memory may borrow these pages now */
}
