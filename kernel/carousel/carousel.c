/* The Carousel operations of section IV-D (kernel/include/cactus/carousel.h says what each
 * guarantees; docs/carousel.md how they are used). Hardware: carousel_hw.h. */
#include "cactus/carousel.h"
#include "../arch/rv32/carousel_hw.h"

#define MASK (CAROUSEL_BLOCK_SIZE - 1u)

static unsigned top;                           /* T */
static uint32_t saved[CAROUSEL_SAVED_MAX];     /* pushed tags */
static unsigned nsaved;

/* Where swap_out and swap_in copy an unused block to and from: they always copy, so that they
 * take the same time whatever the blocks hold (a job's invocation costs the same whether it
 * preempted something or not: the paper's zero interference). */
static uint8_t void_block[CAROUSEL_BLOCK_SIZE]
    __attribute__((aligned(CAROUSEL_BLOCK_SIZE), section(".carousel.data.void")));

static inline uint32_t irq_off(void)
{
    uint32_t m;
    __asm__ volatile("csrrci %0, mstatus, 8" : "=r"(m)::"memory");
    return m;
}

static inline void irq_restore(uint32_t m)
{
    if (m & 8u)
        __asm__ volatile("csrsi mstatus, 8" ::: "memory");
}

static inline uint32_t cycles(void)
{
    uint32_t c;
    __asm__ volatile("csrr %0, mcycle" : "=r"(c));
    return c;
}

static inline unsigned slot(unsigned i)
{
    return i % CAROUSEL_BLOCKS;
}

void carousel_init(void)
{
    for (unsigned i = 0; i < CAROUSEL_BLOCKS; i++)
        CAROUSEL_TAG(i) = CAROUSEL_UNUSED;
    top = 0;
    nsaved = 0;
}

/* Every copy of a critical section is queued on the DMA engine (its FIFO holds several) and
 * the section ends with dma_wait(): the engine moves block after block while the core writes
 * the next copy's registers, and nothing outside the section sees a copy in flight. Every
 * copy is a whole block, so a section writes LEN once. */
static inline void copies_begin(void)
{
    DMA_REG(DMA_LEN_OFF) = CAROUSEL_BLOCK_SIZE;
}

/* open/close without the critical section (callers hold it and wait). */
static void open_block(uint32_t addr, unsigned i, carousel_kind kind)
{
    CAROUSEL_TAG(i) = addr;
    if (kind != CAROUSEL_STACK)
        dma_queue(CAROUSEL_SPM_BLOCK(i), addr);
}

static void close_block(unsigned i, carousel_kind kind)
{
    uint32_t addr = CAROUSEL_TAG(i);
    if (addr == CAROUSEL_UNUSED)
        return;
    if (kind == CAROUSEL_DATA)
        dma_queue(addr, CAROUSEL_SPM_BLOCK(i));
    CAROUSEL_TAG(i) = CAROUSEL_UNUSED;
}

void carousel_open(uint32_t addr, unsigned block, carousel_kind kind)
{
    uint32_t m = irq_off();
    copies_begin();
    open_block(addr & ~MASK, slot(block), kind);
    dma_wait();
    irq_restore(m);
}

void carousel_close(unsigned block, carousel_kind kind)
{
    uint32_t m = irq_off();
    copies_begin();
    close_block(slot(block), kind);
    dma_wait();
    irq_restore(m);
}

/* addr, or the void block for an unused one, without a branch: a swap takes the same cycles
 * whatever the blocks hold (a taken branch costs more than one not taken). */
static inline uint32_t or_void(uint32_t addr)
{
    uint32_t unused = (uint32_t)(addr == CAROUSEL_UNUSED);
    uint32_t mask = 0u - unused;
    __asm__("" : "+r"(mask)); /* keep the select branch-free */
    return (addr & ~mask) | ((uint32_t)(uintptr_t)void_block & mask);
}

/* Pushes block i's tag into *save and queues its copy out (always: its contents are not
 * known; an unused block's go to the void). The tag is left as it is. */
static inline void push_block(unsigned i, uint32_t *save)
{
    uint32_t addr = CAROUSEL_TAG(i);
    *save = addr;
    dma_queue(or_void(addr), CAROUSEL_SPM_BLOCK(i));
}

/* Maps block i back to the popped tag addr and queues its copy in (from the void for an
 * unused one). */
static inline void pop_block(unsigned i, uint32_t addr)
{
    CAROUSEL_TAG(i) = addr;
    dma_queue(CAROUSEL_SPM_BLOCK(i), or_void(addr));
}

/* T and the saved-tag count are read once and written once: GCC 12's loop store motion,
 * given a loop that updates them in memory beside volatile stores, re-issued the last
 * iteration's register writes after the loop, a whole extra DMA copy per swap
 * (docs/carousel.md, "The +350 cycles"). */
static int swap_out(unsigned p)
{
    unsigned t = top, n = nsaved;
    if (p > CAROUSEL_BLOCKS || n + p > CAROUSEL_SAVED_MAX)
        return -1;
    copies_begin();
    for (unsigned j = 0; j < p; j++) {
        unsigned i = slot(t + j);
        push_block(i, &saved[n + j]);
        CAROUSEL_TAG(i) = CAROUSEL_UNUSED;
    }
    nsaved = n + p;
    top = slot(t + p);
    return 0;
}

static int swap_in(unsigned p)
{
    unsigned n = nsaved;
    if (p > n)
        return -1;
    unsigned t = slot(top + CAROUSEL_BLOCKS - p % CAROUSEL_BLOCKS);
    n -= p;
    copies_begin();
    for (unsigned j = 0; j < p; j++)
        pop_block(slot(t + j), saved[n + j]);
    nsaved = n;
    top = t;
    return 0;
}

int carousel_swap_out(unsigned p)
{
    uint32_t m = irq_off();
    int r = swap_out(p);
    dma_wait();
    irq_restore(m);
    return r;
}

int carousel_swap_in(unsigned p)
{
    uint32_t m = irq_off();
    int r = swap_in(p);
    dma_wait();
    irq_restore(m);
    return r;
}

unsigned carousel_top(void)
{
    return top;
}

/* Figure 8, steps 2-6, for a laid-out task, in two critical sections whose copies are queued
 * and waited for at their ends. The first is swap_out(p) fused with open, block by block (the
 * block's tag pushed and its copy out queued, then its new tag written and its copy in
 * queued: the FIFO keeps the order); the second closes the data blocks (written back) and
 * swaps the p blocks back in (tags popped, copies in queued). The code and stack blocks need
 * no UNUSED in between: the next tag write of their slot follows at once. The copies are
 * exactly those of swap_out(p), open, close and swap_in(p). */
int32_t carousel_run_task(const carousel_task *t, void *arg)
{
    unsigned y = t->code_blocks, d = t->data_blocks, z = t->stack_blocks;
    unsigned p = y + d + z;
    uint32_t irq = irq_off();
    unsigned base = top, n = nsaved;
    if (p > CAROUSEL_BLOCKS || n + p > CAROUSEL_SAVED_MAX) {
        irq_restore(irq);
        return -1;
    }
    uint32_t *save = &saved[n];
    unsigned i = base;
    copies_begin();
    uint32_t a = t->code;
    for (unsigned k = 0; k < y; k++, i++, a += CAROUSEL_BLOCK_SIZE) {
        unsigned b = slot(i);
        push_block(b, save++);
        open_block(a, b, CAROUSEL_CODE);
    }
    a = t->data;
    for (unsigned k = 0; k < d; k++, i++, a += CAROUSEL_BLOCK_SIZE) {
        unsigned b = slot(i);
        push_block(b, save++);
        open_block(a, b, CAROUSEL_DATA);
    }
    uint32_t stack = t->stack_top & ~MASK;
    a = stack;
    for (unsigned k = 0; k < z; k++, i++) {
        unsigned b = slot(i);
        a -= CAROUSEL_BLOCK_SIZE;
        push_block(b, save++);
        open_block(a, b, CAROUSEL_STACK);
    }
    nsaved = n + p;
    top = slot(i);
    dma_wait();
    irq_restore(irq);
    uint32_t t0 = cycles();
    carousel_call_on(stack, t->entry, arg);
    uint32_t ran = cycles() - t0;
    irq = irq_off();
    copies_begin();
    for (unsigned k = d; k-- > 0;)
        close_block(slot(base + y + k), CAROUSEL_DATA);
    save = &saved[n];
    for (unsigned k = 0; k < p; k++)
        pop_block(slot(base + k), save[k]);
    nsaved = n;
    top = base;
    dma_wait();
    irq_restore(irq);
    return (int32_t)ran;
}

int32_t carousel_invoke(carousel_method m, unsigned code_blocks, unsigned stack_blocks,
                        void *arg, uint32_t stack_top)
{
    carousel_task t = {
        .entry = m,
        .code = (uint32_t)(uintptr_t)m & ~MASK,
        .stack_top = stack_top,
        .data = 0,
        .code_blocks = (uint8_t)code_blocks,
        .data_blocks = 0,
        .stack_blocks = (uint8_t)stack_blocks,
    };
    if (code_blocks > CAROUSEL_BLOCKS || stack_blocks > CAROUSEL_BLOCKS)
        return -1;
    return carousel_run_task(&t, arg);
}

int32_t carousel_call_method(carousel_method m, unsigned code_blocks, unsigned stack_blocks,
                             void *arg)
{
    uint32_t sp;
    __asm__ volatile("mv %0, sp" : "=r"(sp));
    /* Below everything this caller uses: its frame is above sp, and carousel_invoke's and the
     * trampoline's frames take less than the 128 bytes left below sp. */
    return carousel_invoke(m, code_blocks, stack_blocks, arg, sp - 128u);
}
