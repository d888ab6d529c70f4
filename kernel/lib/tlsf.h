/* TLSF, Two-Level Segregated Fit (Masmano et al. 2004): a real-time allocator whose alloc and
 * free are O(1) (a few bit scans and list splices, no loop over blocks or free lists). Free
 * blocks are kept in size classes: a first level by power of two, each split into 16 second-level
 * classes; a bitmap of non-empty classes per level finds a large-enough class in two scans.
 * Shared by the segmented-stack stacklets and the application heap. Pure code, host-tested.
 *
 * Block format (the kernel packs stacklet metadata into it, so it is fixed): blocks tile
 * [base, base + usable) with no gaps; each is n bytes, n a multiple of 16 and >= 16, so every
 * block start is congruent to the pool base modulo 16. The block at b begins with one header
 * word; the payload of a used block is [b + 4, b + n).
 *   used: bit 0 = 0, bit 1 = previous physical block free, bits 2-3 = 0, bits 4-15 = n / 16
 *         (n <= TLSF_BLOCK_MAX), bits 16-31 = the owner's tag (tlsf never interprets it).
 *   free: bit 0 = 1, bit 1 = previous physical block free (always 0 once coalesced), bits 2-3 =
 *         0, bits 4-31 = n / 16 (the word is n | flags); then the next-free link at b + 4, the
 *         previous-free link at b + 8 and a footer at b + n - 4 holding b's offset.
 * Links and footers are 32-bit byte offsets from the pool base (so the format is the same on a
 * 64-bit host); a link with no block is TLSF_NIL, which no offset equals (offsets are multiples
 * of 16). The sentinel, a used header word of size 0 at base + usable, ends the pool: the last
 * block's successor is never free, so coalescing never runs off the end; the first block's
 * previous-free bit is always 0, so it never runs off the start.
 * tlsf writes header words and the bodies of free blocks only, never a used block's payload. */
#ifndef K_TLSF_H
#define K_TLSF_H

#include <stddef.h>
#include <stdint.h>

#define TLSF_FREE 1u           /* header bit 0: the block is free */
#define TLSF_PREV_FREE 2u      /* header bit 1: the previous physical block is free */
#define TLSF_USED_SIZE 0xFFF0u /* a used header's size field: n itself (n / 16 at bit 4) */
#define TLSF_BLOCK_MAX 65520u  /* largest used block: 4095 * 16 */
#define TLSF_NIL 0xFFFFFFFFu   /* a free-list link to no block */

#define TLSF_SL_LOG2 4
#define TLSF_SL_COUNT (1 << TLSF_SL_LOG2) /* second-level classes per first level (fixed) */
/* First level 0: blocks below 256 bytes, 16 classes of 16 bytes. First level f >= 1: blocks in
 * [2^(f+7), 2^(f+8)), 16 classes of 2^(f+3) bytes. Free blocks up to TLSF_POOL_MAX: f <= 16. */
#define TLSF_FL_COUNT 17
#define TLSF_POOL_MAX ((1u << (TLSF_FL_COUNT + 7)) - 16) /* largest usable pool: 16 MiB - 16 */

struct tlsf {
    uint32_t fl_map;                               /* bit f: sl_map[f] != 0 */
    uint16_t sl_map[TLSF_FL_COUNT];                /* bit s: head[f][s] != TLSF_NIL */
    uint32_t head[TLSF_FL_COUNT][TLSF_SL_COUNT];   /* first free block's offset, or TLSF_NIL */
    uintptr_t base;                                /* first block */
    uintptr_t end;                                 /* the sentinel: base + usable */
    uint32_t free_bytes;                           /* sum of the free blocks' n */
};

/* Makes [base, base + size) one pool (base 4-aligned). Its usable part is
 * min(floor((size - 4) / 16) * 16, TLSF_POOL_MAX) bytes from base, one free block, followed by
 * the 4-byte sentinel; bytes after the sentinel are not touched. A size below 20 gives an empty
 * pool (nothing written, every alloc fails). */
void tlsf_init(struct tlsf *h, uintptr_t base, uint32_t size);

/* A used block whose payload has at least `bytes` bytes: the block is exactly
 * n = round_up(bytes + 4, 16) bytes (so at least 16), tagged 0. Returns its payload address
 * (block start + 4), or 0 if n > TLSF_BLOCK_MAX or no free block of at least R bytes exists,
 * where R is n rounded up to a class bound: R = n when n < 512 (classes are exact there), else
 * R < n + n / 16. So a request fails while a large-enough free block exists only when every
 * such block lies in n's own second-level class, below R. O(1). */
uintptr_t tlsf_alloc(struct tlsf *h, uint32_t bytes);

/* Frees the used block whose payload is at p (as returned by tlsf_alloc, not yet freed) and
 * merges it with a free physical neighbour on either side. O(1). */
void tlsf_free(struct tlsf *h, uintptr_t p);

/* n, the whole size (header included) of the used block whose payload is at p. */
static inline uint32_t tlsf_block_bytes(uintptr_t p)
{
    return *(const uint32_t *)(p - 4) & TLSF_USED_SIZE;
}

/* The tag of the used block whose payload is at p: 0 from tlsf_alloc, then what tlsf_set_tag
 * last stored; tlsf keeps it while the block is used. */
static inline uint16_t tlsf_tag(uintptr_t p)
{
    return (uint16_t)(*(const uint32_t *)(p - 4) >> 16);
}

/* Stores tag in the header of the used block whose payload is at p. */
static inline void tlsf_set_tag(uintptr_t p, uint16_t tag)
{
    uint32_t *hd = (uint32_t *)(p - 4);
    *hd = (*hd & 0xFFFFu) | (uint32_t)tag << 16;
}

/* The sum of the free blocks' n (headers included). */
uint32_t tlsf_free_bytes(const struct tlsf *h);

/* The lower bound of the largest non-empty size class, capped at TLSF_BLOCK_MAX; 0 if no block
 * is free. Every alloc whose block n is at most this succeeds now, and the largest free block
 * is at least this (and, below the cap, smaller than the next class bound: less than 1/16
 * more, exact below 512). O(1). */
uint32_t tlsf_largest_free(const struct tlsf *h);

/* Checks every invariant by walking the physical blocks and the free lists: the blocks tile the
 * pool up to the sentinel, the flags, footers and sizes agree, no two free blocks are adjacent,
 * each free block is in its class's list exactly once, the bitmaps match the lists, and
 * free_bytes is right. 0 if all hold, else -1. O(blocks): for tests, not for the kernel. */
int tlsf_check(const struct tlsf *h);

#endif
