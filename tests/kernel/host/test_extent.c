/* Extent allocator: first fit from the low end, coalescing, exhaustion. */
#include "htest.h"
#include "extent.h"

void test_extent_first_fit(void)
{
    struct extent_pool p;
    extent_init(&p, 0x1000, 0x1000);
    HT_CHECK(extent_alloc(&p, 0x100) == 0x1000);
    HT_CHECK(extent_alloc(&p, 0x200) == 0x1100);
    HT_CHECK(extent_free(&p, 0x1000, 0x100) == 0);
    HT_CHECK(extent_alloc(&p, 0x200) == 0x1300); /* the 0x100 hole is too small */
    HT_CHECK(extent_alloc(&p, 0x80) == 0x1000);  /* but takes a smaller block */
    HT_CHECK(extent_free_bytes(&p) == 0x1000 - 0x200 - 0x200 - 0x80);
}

void test_extent_coalesce(void)
{
    struct extent_pool p;
    extent_init(&p, 0x1000, 0x300);
    uintptr_t a = extent_alloc(&p, 0x100), b = extent_alloc(&p, 0x100),
              c = extent_alloc(&p, 0x100);
    HT_CHECK(extent_free_bytes(&p) == 0);
    HT_CHECK(extent_free(&p, a, 0x100) == 0);
    HT_CHECK(extent_free(&p, c, 0x100) == 0);
    HT_CHECK(p.n == 2);
    HT_CHECK(extent_free(&p, b, 0x100) == 0);
    HT_CHECK(p.n == 1);
    HT_CHECK(p.free[0].base == 0x1000 && p.free[0].size == 0x300);
    HT_CHECK(extent_alloc(&p, 0x300) == 0x1000);
}

void test_extent_exhaust(void)
{
    struct extent_pool p;
    extent_init(&p, 0x1000, 0x100);
    HT_CHECK(extent_alloc(&p, 0x101) == 0);
    HT_CHECK(extent_alloc(&p, 0) == 0);
    HT_CHECK(extent_alloc(&p, 0x100) == 0x1000);
    HT_CHECK(extent_alloc(&p, 0x10) == 0);
}
