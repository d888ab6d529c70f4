/* Extent allocator: first-fit over an address-ordered table of free extents, with coalescing
 * on free. Book-keeping lives outside the managed memory, so the memory itself is never written
 * (stack pools stay painted and owned by nobody). Pure code, host-tested. */
#ifndef K_EXTENT_H
#define K_EXTENT_H

#include <stdint.h>
#include "../core/limits.h"

/* Free extents a pool can track. Each one but the last lies below an allocated block, so a
 * stack pool (one block per task) needs at most CACTUS_MAX_TASKS + 1; never fewer than 48. */
#define EXTENT_MAX (CACTUS_MAX_TASKS + 1 > 48 ? CACTUS_MAX_TASKS + 1 : 48)

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
