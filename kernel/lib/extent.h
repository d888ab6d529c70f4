/* Extent allocator: first-fit over an address-ordered table of free extents, with coalescing
 * on free. Book-keeping lives outside the managed memory, so the memory itself is never written
 * (stack pools stay painted and owned by nobody). Pure code, host-tested. */
#ifndef K_EXTENT_H
#define K_EXTENT_H

#include <stdint.h>
#include "../core/limits.h"

/* Free extents a pool can track. Each one but the last lies below an allocated block, so a
 * pool of B blocks needs at most B + 1. The largest user, mtss, holds at most
 * 2 * CACTUS_MAX_TASKS regions (live ones plus ended tasks' dead ones; static: one per
 * task), so the table scales with the task slots (8 bytes per extent: a 2-task firmware's
 * table is 44 bytes). */
#define EXTENT_MAX (2 * CACTUS_MAX_TASKS + 1)

struct extent_pool {
    uint32_t n;
    struct {
        uintptr_t base;
        uint32_t size;
    } free[EXTENT_MAX];
};

void extent_init(struct extent_pool *p, uintptr_t base, uint32_t size);
/* Lowest-addressed free block of `size` bytes, or 0 if none fits. */
uintptr_t extent_alloc(struct extent_pool *p, uint32_t size);
/* Returns [base, base+size) to the pool; -1 if the table is full (block then lost). */
int extent_free(struct extent_pool *p, uintptr_t base, uint32_t size);
uint32_t extent_free_bytes(const struct extent_pool *p);

#endif
