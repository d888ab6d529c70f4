/* The software-only overlay variant of Carousel (kernel/include/cactus/overlay.h says what it
 * guarantees; docs/carousel.md, "The overlay variant", how it is used). Hardware: the DMA
 * engine of carousel_hw.h; no Carousel tag register is touched. */
#include "cactus/overlay.h"
#include "../arch/rv32/carousel_hw.h"

#define SPM_END (OVERLAY_SPM_BASE + OVERLAY_SPM_SIZE)

/* The saved ranges of the invocations in progress, innermost last, in external RAM (the
 * linker scripts put .carousel.data there). */
static uint8_t save_area[OVERLAY_SAVE_MAX]
    __attribute__((aligned(64), section(".carousel.data.overlay_save")));
static uint32_t save_used;

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

/* Queues a copy of len bytes (len > 0). */
static inline void copy(uint32_t dst, uint32_t src, uint32_t len)
{
    DMA_REG(DMA_LEN_OFF) = len;
    dma_queue(dst, src);
}

static int in_spm(uint32_t addr, uint32_t len)
{
    return addr >= OVERLAY_SPM_BASE && len <= SPM_END - addr;
}

void overlay_init(void)
{
    save_used = 0;
}

int overlay_check(const overlay_task *t)
{
    if ((t->save_bytes | t->image_bytes | t->data_bytes | t->save | t->image) & 3u)
        return -1;
    if (!in_spm(t->save, t->save_bytes) || !in_spm(t->image, t->image_bytes))
        return -1;
    if (t->data_bytes > t->image_bytes || (t->stack_top & 15u))
        return -1;
    if (t->image_bytes && t->image_lma < SPM_END && t->image_lma + t->image_bytes > OVERLAY_SPM_BASE)
        return -1;
    return 0;
}

/* Every branch below depends on the descriptor alone (which copies it has), never on what the
 * scratchpad holds or on the nesting depth, so a task's invocation always takes the same
 * cycles. The copies of a section are queued in order (save before load, write-back before
 * restore: the engine's FIFO keeps it) and waited for at the section's end. */
int32_t overlay_run_task(const overlay_task *t, void *arg)
{
    uint32_t sp;
    __asm__ volatile("mv %0, sp" : "=r"(sp));
    uint32_t irq = irq_off();
    uint32_t used = save_used, n = t->save_bytes;
    if (n > OVERLAY_SAVE_MAX - used || (sp > OVERLAY_SPM_BASE && sp <= SPM_END)) {
        irq_restore(irq);
        return -1;
    }
    uint32_t slot = (uint32_t)(uintptr_t)&save_area[used];
    if (n)
        copy(slot, t->save, n);
    if (t->image_bytes)
        copy(t->image, t->image_lma, t->image_bytes);
    save_used = used + n;
    dma_wait();
    irq_restore(irq);
    uint32_t t0 = cycles();
    carousel_call_on(t->stack_top, t->entry, arg);
    uint32_t ran = cycles() - t0;
    irq = irq_off();
    uint32_t d = t->data_bytes, keep = t->image_bytes - d;
    if (d)
        copy(t->image_lma + keep, t->image + keep, d);
    if (n)
        copy(t->save, slot, n);
    save_used = used;
    dma_wait();
    irq_restore(irq);
    return (int32_t)ran;
}

uint32_t overlay_saved_bytes(void)
{
    return save_used;
}
