/* The Carousel operations of section IV-D (kernel/include/cactus/carousel.h says what each
 * guarantees; docs/carousel.md how they are used). Hardware: carousel_hw.h. */
#include "cactus/carousel.h"
#include "../arch/rv32/carousel_hw.h"

#define MASK (CAROUSEL_BLOCK_SIZE - 1u)

static unsigned top;                           /* T */
static uint32_t saved[CAROUSEL_SAVED_MAX];     /* pushed tags */
static unsigned nsaved;

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

/* open/close without the critical section (callers hold it). */
static void open_block(uint32_t addr, unsigned i, carousel_kind kind)
{
    CAROUSEL_TAG(i) = addr;
    if (kind != CAROUSEL_STACK)
        dma_copy(CAROUSEL_SPM_BLOCK(i), addr, CAROUSEL_BLOCK_SIZE);
}

static void close_block(unsigned i, carousel_kind kind)
{
    uint32_t addr = CAROUSEL_TAG(i);
    if (addr == CAROUSEL_UNUSED)
        return;
    if (kind == CAROUSEL_DATA)
        dma_copy(addr, CAROUSEL_SPM_BLOCK(i), CAROUSEL_BLOCK_SIZE);
    CAROUSEL_TAG(i) = CAROUSEL_UNUSED;
}

void carousel_open(uint32_t addr, unsigned block, carousel_kind kind)
{
    uint32_t m = irq_off();
    open_block(addr & ~MASK, slot(block), kind);
    irq_restore(m);
}

void carousel_close(unsigned block, carousel_kind kind)
{
    uint32_t m = irq_off();
    close_block(slot(block), kind);
    irq_restore(m);
}

static int swap_out(unsigned p)
{
    if (p > CAROUSEL_BLOCKS || nsaved + p > CAROUSEL_SAVED_MAX)
        return -1;
    for (unsigned j = 0; j < p; j++) {
        unsigned i = slot(top + j);
        saved[nsaved++] = CAROUSEL_TAG(i);
        close_block(i, CAROUSEL_DATA); /* always copied: its contents are not known */
    }
    top = slot(top + p);
    return 0;
}

static int swap_in(unsigned p)
{
    if (p > nsaved)
        return -1;
    top = slot(top + CAROUSEL_BLOCKS - p % CAROUSEL_BLOCKS);
    for (unsigned j = p; j-- > 0;) {
        uint32_t addr = saved[--nsaved];
        if (addr != CAROUSEL_UNUSED)
            open_block(addr, slot(top + j), CAROUSEL_DATA);
    }
    return 0;
}

int carousel_swap_out(unsigned p)
{
    uint32_t m = irq_off();
    int r = swap_out(p);
    irq_restore(m);
    return r;
}

int carousel_swap_in(unsigned p)
{
    uint32_t m = irq_off();
    int r = swap_in(p);
    irq_restore(m);
    return r;
}

unsigned carousel_top(void)
{
    return top;
}

int32_t carousel_invoke(carousel_method m, unsigned code_blocks, unsigned stack_blocks,
                        void *arg, uint32_t stack_top)
{
    unsigned p = code_blocks + stack_blocks;
    uint32_t stack = stack_top & ~MASK;
    uint32_t code = (uint32_t)(uintptr_t)m & ~MASK;
    uint32_t irq = irq_off();
    unsigned base = top;
    if (swap_out(p) != 0) {
        irq_restore(irq);
        return -1;
    }
    for (unsigned k = 0; k < code_blocks; k++)
        open_block(code + k * CAROUSEL_BLOCK_SIZE, slot(base + k), CAROUSEL_CODE);
    for (unsigned k = 0; k < stack_blocks; k++)
        open_block(stack - (k + 1) * CAROUSEL_BLOCK_SIZE, slot(base + code_blocks + k),
                   CAROUSEL_STACK);
    irq_restore(irq);
    uint32_t t0 = cycles();
    carousel_call_on(stack, m, arg);
    uint32_t ran = cycles() - t0;
    irq = irq_off();
    for (unsigned k = stack_blocks; k-- > 0;)
        close_block(slot(base + code_blocks + k), CAROUSEL_STACK);
    for (unsigned k = code_blocks; k-- > 0;)
        close_block(slot(base + k), CAROUSEL_CODE);
    swap_in(p);
    irq_restore(irq);
    return (int32_t)ran;
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
