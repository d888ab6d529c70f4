/* The Carousel operations (kernel/carousel/carousel.c) on cactus-sim's `carousel-paper`
 * profile: what they keep and move, checked; then the overhead of a trivial task needing y
 * code blocks and z stack blocks (the paper's Table IV), printed one line per (y, z) as
 * `overhead y=Y z=Z cycles=C` for `cactus bench carousel`. The program runs in the OS
 * scratchpad; the tasks' code, data and the shared stack are in external RAM (link.ld). */
#include <stdint.h>
#include "rt.h"
#include "cactus/carousel.h"
#include "../../kernel/arch/rv32/carousel_hw.h"

#define BLOCK CAROUSEL_BLOCK_SIZE
#define SECTION(s) __attribute__((section(s), aligned(BLOCK)))

extern char __carousel_stack_top[];

/* A preempted task's data, four blocks. */
static volatile uint32_t victim[4 * BLOCK / 4] SECTION(".carousel.data.victim");
/* A task's own data, one block. */
static volatile uint32_t own[BLOCK / 4] SECTION(".carousel.data.own");

static uint32_t ext_word(uint32_t addr)
{
    /* The external copy, bypassing any tag: DMA it to the OS scratchpad. */
    static uint32_t buf;
    dma_copy((uint32_t)(uintptr_t)&buf, addr, 4);
    return buf;
}

static uint32_t tag_of(uint32_t addr)
{
    for (unsigned i = 0; i < CAROUSEL_BLOCKS; i++)
        if (CAROUSEL_TAG(i) == (addr & ~(BLOCK - 1u)))
            return i;
    return CAROUSEL_UNUSED;
}

/* A method in external RAM, four blocks of code: it checks it runs with its code mapped, that
 * its stack is mapped, and writes its own data block through an open/close of its own. */
static volatile uint32_t seen_code, seen_stack;
__attribute__((noinline, section(".carousel.text.method"), aligned(BLOCK))) static void
method(void *arg)
{
    volatile uint32_t local = (uint32_t)(uintptr_t)arg;
    seen_code = tag_of((uint32_t)(uintptr_t)&method) != CAROUSEL_UNUSED;
    seen_stack = tag_of((uint32_t)(uintptr_t)&local) != CAROUSEL_UNUSED;
    unsigned b = carousel_top() + 0; /* a block above this method's own: the next free one */
    if (carousel_swap_out(1) != 0)
        return;
    carousel_open((uint32_t)(uintptr_t)own, b, CAROUSEL_DATA);
    for (unsigned k = 0; k < BLOCK / 4; k++)
        own[k] = local + k;
    carousel_close(b, CAROUSEL_DATA);
    carousel_swap_in(1);
}

/* The trivial task of Table IV: returns at once; its code spans as many blocks as asked. */
__attribute__((noinline, section(".carousel.text.trivial"), aligned(BLOCK))) static void
trivial(void *arg)
{
    (void)arg;
}

static uint32_t cycles(void)
{
    uint32_t c;
    __asm__ volatile("csrr %0, mcycle" : "=r"(c));
    return c;
}

/* The preempted state every measurement starts from: all n blocks used by the victim's data
 * (the worst case: swap_out writes back every block it takes). */
static void fill_carousel(void)
{
    carousel_init();
    for (unsigned i = 0; i < CAROUSEL_BLOCKS; i++)
        carousel_open((uint32_t)(uintptr_t)&victim[(i % 4) * BLOCK / 4], i, CAROUSEL_DATA);
}

static void scenario(void *arg)
{
    (void)arg;
    carousel_init();
    /* open/close of data: the SPM copy is written, the external copy only on close. */
    victim[0] = 11;
    carousel_open((uint32_t)(uintptr_t)victim, 0, CAROUSEL_DATA);
    CHECK(tag_of((uint32_t)(uintptr_t)victim) == 0);
    CHECK(victim[0] == 11);
    victim[0] = 22;
    CHECK(ext_word((uint32_t)(uintptr_t)victim) == 11);
    carousel_close(0, CAROUSEL_DATA);
    CHECK(ext_word((uint32_t)(uintptr_t)victim) == 22);
    CHECK(CAROUSEL_TAG(0) == CAROUSEL_UNUSED);

    /* A preempted task holds blocks 0-3 (the oldest: T = 0), its data in the SPM only. */
    carousel_init();
    for (unsigned i = 0; i < 4; i++) {
        carousel_open((uint32_t)(uintptr_t)&victim[i * BLOCK / 4], i, CAROUSEL_DATA);
        victim[i * BLOCK / 4] = 100 + i;
    }
    /* call_method at T = 0: 3 code + 2 stack blocks (and the method's own data block at T = 5)
     * swap the victim's blocks out and, when it returns, back in where they were, with the
     * data the victim wrote, which reached external RAM only through swap_out. */
    int32_t ran = carousel_call_method(method, 3, 2, (void *)0x1234);
    CHECK(ran > 0);
    CHECK(seen_code == 1);
    CHECK(seen_stack == 1);
    CHECK(carousel_top() == 0);
    for (unsigned i = 0; i < 4; i++) {
        CHECK(tag_of((uint32_t)(uintptr_t)&victim[i * BLOCK / 4]) == i);
        CHECK(victim[i * BLOCK / 4] == 100 + i);
    }
    CHECK(ext_word((uint32_t)(uintptr_t)&own[5]) == 0x1234 + 5);
    CHECK(carousel_call_method(method, 17, 0, 0) == -1);
}

int main(void)
{
    /* The tasks' shared stack is in external RAM, where Carousel can map it. */
    uint32_t tasks = (uint32_t)(uintptr_t)__carousel_stack_top;
    carousel_call_on(tasks, scenario, 0);
    /* Table IV: the kernel invokes the trivial task with y code and z stack blocks from a full
     * Carousel, running itself on its own stack in the OS scratchpad. */
    for (unsigned y = 1; y <= 4; y++) {
        for (unsigned z = 0; z <= 2; z++) {
            fill_carousel();
            uint32_t copies = DMA_REG(DMA_COPIES_OFF);
            uint32_t t0 = cycles();
            int32_t inner = carousel_invoke(trivial, y, z, 0, tasks);
            uint32_t total = cycles() - t0;
            CHECK(inner >= 0);
            /* Exactly the paper's copies: swap_out and swap_in one per block each, open one
             * per code block (stack blocks are not copied on open and close). */
            CHECK(DMA_REG(DMA_COPIES_OFF) - copies == 3 * y + 2 * z);
            rt_puts("overhead y=");
            rt_putu(y);
            rt_puts(" z=");
            rt_putu(z);
            rt_puts(" cycles=");
            rt_putu(total - (uint32_t)inner);
            rt_puts("\n");
        }
    }
    return rt_summary("carousel_ops");
}
