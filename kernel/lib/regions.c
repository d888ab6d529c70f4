/* Packed memory regions (regions.h). */
#include "regions.h"

void regions_init(struct region_set *s, struct region *storage, uint32_t cap, uint32_t base,
                  uint32_t size)
{
    s->r = storage;
    s->cap = cap;
    s->n = 1;
    s->r[0] = (struct region){ .base = base, .size = size, .owner = REGION_FREE };
}

int regions_find(const struct region_set *s, uint8_t owner)
{
    for (uint32_t k = 0; k < s->n; k++)
        if (s->r[k].owner == owner)
            return (int)k;
    return -1;
}

static void insert(struct region_set *s, uint32_t k, struct region r)
{
    for (uint32_t j = s->n; j > k; j--)
        s->r[j] = s->r[j - 1];
    s->r[k] = r;
    s->n++;
}

void regions_remove(struct region_set *s, uint32_t k)
{
    for (uint32_t j = k; j + 1 < s->n; j++)
        s->r[j] = s->r[j + 1];
    s->n--;
}

int regions_alloc(struct region_set *s, uint32_t size, uint8_t owner)
{
    for (uint32_t k = 0; k < s->n; k++) {
        struct region *f = &s->r[k];
        if (f->owner != REGION_FREE || f->size < size)
            continue;
        if (f->size == size) {
            f->owner = owner;
            return (int)k;
        }
        if (s->n == s->cap)
            return -1;
        struct region r = { .base = f->base, .size = size, .owner = owner };
        f->base += size;
        f->size -= size;
        insert(s, k, r);
        return (int)k;
    }
    return -1;
}

uint32_t regions_free(struct region_set *s, uint32_t k)
{
    s->r[k].owner = REGION_FREE;
    if (k + 1 < s->n && s->r[k + 1].owner == REGION_FREE) {
        s->r[k].size += s->r[k + 1].size;
        regions_remove(s, k + 1);
    }
    if (k > 0 && s->r[k - 1].owner == REGION_FREE) {
        s->r[k - 1].size += s->r[k].size;
        regions_remove(s, k);
        k--;
    }
    return k;
}

