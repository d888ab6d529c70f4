/* The Carousel hardware of cactus-sim's `carousel-paper` profile (docs/profiles.md,
 * "Memory-system extensions"): the Carousel tag registers, the SPM window, the OS scratchpad
 * and the DMA engine. Addresses are the profile's defaults; a profile that moves a window
 * needs the matching -D override. Usable from C and assembly. The Carousel OS operations
 * (kernel/carousel/carousel.c) build on it.
 *
 * Tag register r_i (CAROUSEL_TAG(i)): reads the base address of the external-RAM block
 * mapped to SPM block i, or CAROUSEL_UNUSED. Write a block-aligned address inside external
 * RAM to map it (every fetch, load and store in that block is then served by SPM block i at
 * CAROUSEL_SPM_BLOCK(i)), or CAROUSEL_UNUSED to unmap. Any other value, a write to INFO or
 * SPM_BASE, and any access that is not an aligned 32-bit word raise a store (load) access
 * fault. A tag write does not copy anything: external RAM keeps its bytes until software
 * copies the block back (close), normally with dma_copy.
 *
 * DMA: write SRC, DST, LEN (bytes; the registers keep their values between copies), then
 * DMA_CTRL_START to CTRL: a synchronous copy, the store to CTRL completes when all bytes have
 * moved (behind any queued copies) and the hart stalls for the bus time (one 49 + len/4 cycle
 * transaction per 64-byte chunk per external side; SPM to SPM len/4 cycles). Or
 * DMA_CTRL_START | DMA_CTRL_QUEUE: a queued copy, the store completes at once (unless the
 * engine's FIFO, `[dma] queue` copies, is full) and the engine runs the copies one after
 * another while the hart goes on; a read of WAIT completes when every copy has finished.
 * Until then every access of the hart to external RAM or the Carousel SPM stalls (the
 * engine is using them); the OS scratchpad and the device registers stay free. Addresses
 * are physical (the DMA engine does not see the tags); each range must lie in one memory
 * region, or the CTRL store raises a store access fault (mcause 7) with mtval = the first bad
 * byte, copies nothing and sets DMA_STATUS_ERROR. LAST_CYCLES reads the last copy's bus time,
 * COPIES the copies started since reset. */
#ifndef CACTUS_CAROUSEL_HW_H
#define CACTUS_CAROUSEL_HW_H

/* Geometry (profile keys carousel.blocks, carousel.block_bits; INFO reads n | x << 8). */
#ifndef CAROUSEL_BLOCKS
#define CAROUSEL_BLOCKS 16
#endif
#ifndef CAROUSEL_BLOCK_BITS
#define CAROUSEL_BLOCK_BITS 7
#endif
#define CAROUSEL_BLOCK_SIZE (1u << CAROUSEL_BLOCK_BITS)

/* The SPM window S (carousel.spm_base): block i is at S + i * 2^x. */
#ifndef CAROUSEL_SPM_BASE
#define CAROUSEL_SPM_BASE 0x30000000u
#endif
#define CAROUSEL_SPM_BLOCK(i) (CAROUSEL_SPM_BASE + ((unsigned)(i) << CAROUSEL_BLOCK_BITS))

/* The tag register window (carousel.tags_base). */
#ifndef CAROUSEL_TAGS_BASE
#define CAROUSEL_TAGS_BASE 0x0F000000u
#endif
#define CAROUSEL_TAG_OFF(i) ((unsigned)(i) * 4u)
#define CAROUSEL_INFO_OFF 0x100u
#define CAROUSEL_SPM_BASE_OFF 0x104u
#define CAROUSEL_UNUSED 0xFFFFFFFFu

/* The OS scratchpad ([[memory]] "os_spm"): one-cycle RAM for the kernel. */
#ifndef OS_SPM_BASE
#define OS_SPM_BASE 0x20000000u
#endif
#ifndef OS_SPM_SIZE
#define OS_SPM_SIZE 0x40000u
#endif

/* External RAM ([[memory]] "ram", external.region). */
#define EXTERNAL_RAM_BASE 0x80000000u

/* The DMA engine (dma.base). */
#ifndef DMA_BASE
#define DMA_BASE 0x0F001000u
#endif
#define DMA_SRC_OFF 0x0u
#define DMA_DST_OFF 0x4u
#define DMA_LEN_OFF 0x8u
#define DMA_CTRL_OFF 0xCu
#define DMA_LAST_CYCLES_OFF 0x10u
#define DMA_WAIT_OFF 0x14u
#define DMA_COPIES_OFF 0x18u
#define DMA_CTRL_START 1u
#define DMA_CTRL_QUEUE 4u
#define DMA_STATUS_BUSY 1u
#define DMA_STATUS_ERROR 2u

#ifndef __ASSEMBLER__
#include <stdint.h>

#define CAROUSEL_REG(off) (*(volatile uint32_t *)(uintptr_t)(CAROUSEL_TAGS_BASE + (off)))
#define CAROUSEL_TAG(i) CAROUSEL_REG(CAROUSEL_TAG_OFF(i))
#define CAROUSEL_INFO CAROUSEL_REG(CAROUSEL_INFO_OFF)
#define DMA_REG(off) (*(volatile uint32_t *)(uintptr_t)(DMA_BASE + (off)))

/* dma_copy(dst, src, len) of the paper (section IV-D): returns when the bytes have moved. */
static inline void dma_copy(uint32_t dst, uint32_t src, uint32_t len)
{
    DMA_REG(DMA_SRC_OFF) = src;
    DMA_REG(DMA_DST_OFF) = dst;
    DMA_REG(DMA_LEN_OFF) = len;
    DMA_REG(DMA_CTRL_OFF) = DMA_CTRL_START;
}

/* Queues a copy of LEN bytes (the LEN register as last written) from src to dst: returns at
 * once unless the FIFO is full (synchronous on a profile whose `[dma] queue` is 0). */
static inline void dma_queue(uint32_t dst, uint32_t src)
{
    DMA_REG(DMA_SRC_OFF) = src;
    DMA_REG(DMA_DST_OFF) = dst;
    DMA_REG(DMA_CTRL_OFF) = DMA_CTRL_START | DMA_CTRL_QUEUE;
}

/* Returns when every queued copy has finished. */
static inline void dma_wait(void)
{
    (void)DMA_REG(DMA_WAIT_OFF);
}
#endif

#endif
