/* Packed regions (lib/regions.h, the relocate strategy's arithmetic): first-fit allocation and
 * merging frees, surplus, and both directions of a growth (Figure 3 of the SenSmart paper):
 * the bytes to copy, the new bases and sizes, no gap or overlap, the emptied free donor. */
#include "htest.h"
#include "regions.h"

#define BASE 0x1000u

/* The regions tile [BASE, BASE + size) in order, every base and size a multiple of 16. */
static int tiles(const struct region_set *s, uint32_t size)
{
    uint32_t at = BASE;
    for (uint32_t k = 0; k < s->n; k++) {
        if (s->r[k].base != at || (s->r[k].base | s->r[k].size) & 15u)
            return 0;
        at += s->r[k].size;
    }
    return at == BASE + size;
}

void test_regions_alloc_free(void)
{
    struct region st[5];
    struct region_set s;
    regions_init(&s, st, 5, BASE, 0x1000);
    HT_CHECK(regions_alloc(&s, 0x200, 0) == 0);
    HT_CHECK(regions_alloc(&s, 0x300, 1) == 1);
    HT_CHECK(regions_alloc(&s, 0x100, 2) == 2);
    HT_CHECK(s.n == 4 && s.r[3].owner == REGION_FREE && s.r[3].size == 0xa00);
    HT_CHECK(regions_find(&s, 1) == 1 && regions_find(&s, 7) == -1);
    HT_CHECK(regions_alloc(&s, 0xb00, 3) == -1); /* nothing large enough */
    HT_CHECK(tiles(&s, 0x1000));
    /* Freeing 1 leaves a hole; freeing 0 merges with it; freeing 2 merges all. */
    HT_CHECK(regions_free(&s, 1) == 1 && s.n == 4);
    HT_CHECK(regions_alloc(&s, 0x100, 4) == 1 && s.r[2].size == 0x200); /* first fit */
    HT_CHECK(regions_free(&s, regions_find(&s, 0)) == 0 && s.n == 5);
    HT_CHECK(regions_alloc(&s, 0x10, 5) == -1); /* the array is full: only exact fits */
    HT_CHECK(regions_alloc(&s, 0x200, 5) == 0);
    HT_CHECK(regions_free(&s, 0) == 0);
    HT_CHECK(regions_free(&s, regions_find(&s, 4)) == 0);
    HT_CHECK(regions_free(&s, regions_find(&s, 2)) == 0);
    HT_CHECK(s.n == 1 && s.r[0].size == 0x1000 && tiles(&s, 0x1000));
}

void test_regions_surplus(void)
{
    struct region owned = { .base = 0x1000, .size = 0x400, .owner = 3 };
    struct region free_r = { .base = 0x1400, .size = 0x230, .owner = REGION_FREE };
    HT_CHECK(regions_surplus(&free_r, 0, 128) == 0x230);
    HT_CHECK(regions_surplus(&owned, 0x1300, 128) == 0x300 - 128);
    HT_CHECK(regions_surplus(&owned, 0x1088, 0) == 0x80);   /* rounded down to 16 */
    HT_CHECK(regions_surplus(&owned, 0x1040, 128) == 0);    /* less than the headroom */
    HT_CHECK(regions_surplus(&owned, 0x0800, 0) == 0);      /* live below the region */
    HT_CHECK(regions_surplus(&owned, 0x9000, 0) == 0x400);  /* clamped to the top */
}

void test_regions_give_from_below(void)
{
    /* [a 0x400][b 0x200][c 0x100][free]: c grows by 0x80 from a (live from 0x1300). */
    struct region st[5];
    struct region_set s;
    regions_init(&s, st, 5, BASE, 0x1000);
    regions_alloc(&s, 0x400, 0);
    regions_alloc(&s, 0x200, 1);
    regions_alloc(&s, 0x100, 2);
    struct region_move m = regions_give(&s, 2, 0, 0x80, 0x1300);
    HT_CHECK(m.src == 0x1300 && m.dst == 0x1280 && m.n == 0x1600 - 0x1300);
    HT_CHECK(m.lo == 0 && m.hi == 2);
    HT_CHECK(s.r[0].base == 0x1000 && s.r[0].size == 0x380);
    HT_CHECK(s.r[1].base == 0x1380 && s.r[1].size == 0x200);
    HT_CHECK(s.r[2].base == 0x1580 && s.r[2].size == 0x180);
    HT_CHECK(tiles(&s, 0x1000));
}

void test_regions_give_from_above(void)
{
    /* [a 0x100][b 0x200][free 0xd00]: a (live from 0x10c0) takes all the free region. */
    struct region st[4];
    struct region_set s;
    regions_init(&s, st, 4, BASE, 0x1000);
    regions_alloc(&s, 0x100, 0);
    regions_alloc(&s, 0x200, 1);
    struct region_move m = regions_give(&s, 0, 2, 0xd00, 0x10c0);
    HT_CHECK(m.src == 0x10c0 && m.dst == 0x10c0 + 0xd00 && m.n == 0x1300 - 0x10c0);
    HT_CHECK(m.lo == 0 && m.hi == 2);
    HT_CHECK(s.r[0].size == 0xe00 && s.r[1].base == 0x1e00 && s.r[2].size == 0);
    regions_remove(&s, 2);
    HT_CHECK(s.n == 2 && tiles(&s, 0x1000));
    /* Back the other way: b gives 0x40 to a from above (b's live bytes stay put). */
    m = regions_give(&s, 0, 1, 0x40, 0x1dc0); /* a's live bytes moved: [0x1dc0, 0x1e00) */
    HT_CHECK(m.src == 0x1dc0 && m.dst == 0x1e00 && m.n == 0x40 && m.lo == 0 && m.hi == 1);
    HT_CHECK(s.r[0].size == 0xe40 && s.r[1].base == 0x1e40 && s.r[1].size == 0x1c0);
    HT_CHECK(tiles(&s, 0x1000));
}
