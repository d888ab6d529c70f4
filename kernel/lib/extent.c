/* Extent allocator (see extent.h). */
#include "extent.h"

void extent_init(struct extent_pool *p, uintptr_t base, uint32_t size)
{
    p->n = 1;
    p->free[0].base = base;
    p->free[0].size = size;
}

uintptr_t extent_alloc(struct extent_pool *p, uint32_t size)
{
    if (size == 0)
        return 0;
    for (uint32_t i = 0; i < p->n; i++) {
        if (p->free[i].size < size)
            continue;
        uintptr_t base = p->free[i].base;
        p->free[i].base += size;
        p->free[i].size -= size;
        if (p->free[i].size == 0) {
            for (uint32_t j = i + 1; j < p->n; j++)
                p->free[j - 1] = p->free[j];
            p->n--;
        }
        return base;
    }
    return 0;
}

int extent_free(struct extent_pool *p, uintptr_t base, uint32_t size)
{
    uint32_t i = 0;
    while (i < p->n && p->free[i].base < base)
        i++;
    int joins_prev = i > 0 && p->free[i - 1].base + p->free[i - 1].size == base;
    int joins_next = i < p->n && base + size == p->free[i].base;
    if (joins_prev && joins_next) {
        p->free[i - 1].size += size + p->free[i].size;
        for (uint32_t j = i + 1; j < p->n; j++)
            p->free[j - 1] = p->free[j];
        p->n--;
    } else if (joins_prev) {
        p->free[i - 1].size += size;
    } else if (joins_next) {
        p->free[i].base = base;
        p->free[i].size += size;
    } else {
        if (p->n == EXTENT_MAX)
            return -1;
        for (uint32_t j = p->n; j > i; j--)
            p->free[j] = p->free[j - 1];
        p->free[i].base = base;
        p->free[i].size = size;
        p->n++;
    }
    return 0;
}

uint32_t extent_free_bytes(const struct extent_pool *p)
{
    uint32_t sum = 0;
    for (uint32_t i = 0; i < p->n; i++)
        sum += p->free[i].size;
    return sum;
}
