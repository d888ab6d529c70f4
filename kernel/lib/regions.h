/* Packed memory regions: the arithmetic of the `relocate` stack strategy (stack/relocate.c,
 * docs/sensmart.md; SenSmart's Figures 2-3), pure and host-tested (tests/kernel/host).
 *
 * A region set covers [base, base + size) with regions in address order and no gaps, each
 * owned by one owner id or free (REGION_FREE); every base and size is a multiple of 16. An
 * owner's live bytes are the top of its region, from its *live low* (which the caller
 * computes: a task's saved sp, physically) to the region's top.
 *
 * Guarantees: every operation keeps the set covering the same range with no gap or overlap,
 * and touches no memory but the set's own array (moving bytes is the caller's: regions_give
 * says which bytes). */
#ifndef K_LIB_REGIONS_H
#define K_LIB_REGIONS_H

#include <stdint.h>

#define REGION_FREE 0xFFu

struct region {
    uint32_t base, size;
    uint8_t owner; /* an owner id, or REGION_FREE */
};

struct region_set {
    struct region *r; /* storage for cap regions */
    uint32_t n, cap;
};

/* The bytes a growth copies (the caller memmoves them) and the regions it changed. */
struct region_move {
    uint32_t dst, src, n; /* copy n bytes from src to dst (overlapping: memmove) */
    uint32_t lo, hi;      /* regions lo..hi changed place or size; lo..hi-1 had their
                           * contents moved by dst - src */
};

/* One free region covering [base, base + size) (cap >= 1). */
void regions_init(struct region_set *s, struct region *storage, uint32_t cap, uint32_t base,
                  uint32_t size);
/* The index of owner's region, or -1. */
int regions_find(const struct region_set *s, uint8_t owner);
/* Carves `size` bytes (a multiple of 16) for owner from the bottom of the first free region
 * large enough; returns the new region's index, or -1 (nothing large enough, or the array is
 * full and the fit is not exact). */
int regions_alloc(struct region_set *s, uint32_t size, uint8_t owner);
/* Region k becomes free and merges with free neighbours; returns the merged region's index. */
uint32_t regions_free(struct region_set *s, uint32_t k);
/* Bytes region k can give: a free region all of it, an owned one what lies below `live_low`
 * (clamped to the region) less `headroom`, rounded down to 16. */
static inline uint32_t regions_surplus(const struct region *r, uint32_t live_low,
                                       uint32_t headroom)
{
    if (r->owner == REGION_FREE)
        return r->size;
    if (live_low > r->base + r->size)
        live_low = r->base + r->size;
    uint32_t below = live_low > r->base ? live_low - r->base : 0;
    return below > headroom ? (below - headroom) & ~15u : 0;
}
/* Moves g bytes (a multiple of 16, at most the donor's surplus) from the bottom of region d
 * to the bottom of region i (SenSmart's Figure 3): the donor shrinks, i grows, and what lies
 * between d's live bytes (d < i) or i's live bytes (d > i) and the other region shifts by g.
 * `live_low` is the live low of d (d < i) or of i (d > i), within its region. A free donor
 * left empty stays in the set (size 0) until the caller, done with lo..hi, removes it.
 * Inline: it is the growth path's arithmetic, a few instructions per region moved. */
static inline struct region_move regions_give(struct region_set *s, uint32_t i, uint32_t d,
                                              uint32_t g, uint32_t live_low)
{
    struct region *r = s->r;
    struct region_move m;
    if (d < i) {
        /* The donor's live bytes and every region up to i move down by g. */
        m = (struct region_move){ .dst = live_low - g, .src = live_low,
                                  .n = r[i].base - live_low, .lo = d, .hi = i };
        r[d].size -= g;
        for (uint32_t k = d + 1; k < i; k++)
            r[k].base -= g;
        r[i].base -= g;
        r[i].size += g;
    } else {
        /* i's live bytes and every region up to the donor move up by g. */
        m = (struct region_move){ .dst = live_low + g, .src = live_low,
                                  .n = r[d].base - live_low, .lo = i, .hi = d };
        r[i].size += g;
        for (uint32_t k = i + 1; k < d; k++)
            r[k].base += g;
        r[d].base += g;
        r[d].size -= g;
    }
    return m;
}
/* Removes region k (an empty free region: regions_give's donor). */
void regions_remove(struct region_set *s, uint32_t k);

#endif
