/* TLSF allocator (see tlsf.h). */
#include "tlsf.h"
#include "bits.h"

#define GRAN_LOG2 4
#define GRAN (1u << GRAN_LOG2)                   /* block granularity: 16 bytes */
#define SMALL (GRAN << TLSF_SL_LOG2)              /* blocks below 256 bytes: first level 0 */
#define EXACT (SMALL << 1)                        /* classes are 16 bytes wide below 512 */
#define FREE_SIZE (~(GRAN - 1))                   /* a free header's size field: n itself */

_Static_assert(TLSF_FL_COUNT <= 32, "tlsf: one fl_map bit per first-level class");
_Static_assert(TLSF_SL_COUNT == 16, "tlsf: one uint16_t sl_map bit per second-level class");
_Static_assert(TLSF_POOL_MAX + GRAN == 1u << (TLSF_FL_COUNT - 1 + TLSF_SL_LOG2 + GRAN_LOG2),
               "tlsf: the largest free block maps to the last first-level class");

static inline uint32_t *word(uintptr_t a)
{
    return (uint32_t *)a;
}

/* Index of the highest set bit of x; x must not be 0. Five steps. */
static unsigned fls32(uint32_t x)
{
    unsigned r = 0;
    for (unsigned s = 16; s; s >>= 1) {
        if (x >> s) {
            x >>= s;
            r += s;
        }
    }
    return r;
}

/* The class of a block of n bytes (16 <= n <= TLSF_POOL_MAX). */
static void mapping(uint32_t n, unsigned *fl, unsigned *sl)
{
    if (n < SMALL) {
        *fl = 0;
        *sl = n / GRAN;
    } else {
        unsigned k = fls32(n);
        *fl = k - (TLSF_SL_LOG2 + GRAN_LOG2) + 1;
        *sl = (n >> (k - TLSF_SL_LOG2)) & (TLSF_SL_COUNT - 1);
    }
}

/* The lower bound of class (fl, sl): the smallest n that maps to it. */
static uint32_t class_bound(unsigned fl, unsigned sl)
{
    if (fl == 0)
        return sl * GRAN;
    return (uint32_t)(TLSF_SL_COUNT + sl) << (fl + GRAN_LOG2 - 1);
}

static void list_insert(struct tlsf *h, uintptr_t b, uint32_t n)
{
    unsigned fl, sl;
    mapping(n, &fl, &sl);
    uint32_t off = (uint32_t)(b - h->base), first = h->head[fl][sl];
    word(b)[1] = first;
    word(b)[2] = TLSF_NIL;
    if (first != TLSF_NIL)
        word(h->base + first)[2] = off;
    h->head[fl][sl] = off;
    h->sl_map[fl] |= (uint16_t)(1u << sl);
    h->fl_map |= 1u << fl;
}

static void list_remove(struct tlsf *h, uintptr_t b, uint32_t n)
{
    unsigned fl, sl;
    mapping(n, &fl, &sl);
    uint32_t next = word(b)[1], prev = word(b)[2];
    if (next != TLSF_NIL)
        word(h->base + next)[2] = prev;
    if (prev != TLSF_NIL) {
        word(h->base + prev)[1] = next;
    } else {
        h->head[fl][sl] = next;
        if (next == TLSF_NIL) {
            h->sl_map[fl] &= (uint16_t)~(1u << sl);
            if (!h->sl_map[fl])
                h->fl_map &= ~(1u << fl);
        }
    }
}

/* Makes [b, b + n) a free block (header with prev_free, footer) and lists it. */
static void make_free(struct tlsf *h, uintptr_t b, uint32_t n, uint32_t prev_free)
{
    *word(b) = n | TLSF_FREE | prev_free;
    *word(b + n - 4) = (uint32_t)(b - h->base);
    list_insert(h, b, n);
}

void tlsf_init(struct tlsf *h, uintptr_t base, uint32_t size)
{
    h->fl_map = 0;
    for (unsigned f = 0; f < TLSF_FL_COUNT; f++) {
        h->sl_map[f] = 0;
        for (unsigned s = 0; s < TLSF_SL_COUNT; s++)
            h->head[f][s] = TLSF_NIL;
    }
    uint32_t usable = size < 4 + GRAN ? 0 : (size - 4) & ~(GRAN - 1);
    if (usable > TLSF_POOL_MAX)
        usable = TLSF_POOL_MAX;
    h->base = base;
    h->end = base + usable;
    h->free_bytes = usable;
    if (usable) {
        make_free(h, base, usable, 0);
        *word(h->end) = TLSF_PREV_FREE; /* the sentinel: used, size 0 */
    }
}

uintptr_t tlsf_alloc(struct tlsf *h, uint32_t bytes)
{
    if (bytes > TLSF_BLOCK_MAX - 4)
        return 0;
    uint32_t n = (bytes + 4 + GRAN - 1) & ~(GRAN - 1);
    /* Round n up to a class bound, so any block of the class found is large enough. */
    uint32_t r = n < EXACT ? n : n + (1u << (fls32(n) - TLSF_SL_LOG2)) - 1;
    unsigned fl, sl;
    mapping(r, &fl, &sl);
    uint32_t m = h->sl_map[fl] & (~0u << sl);
    if (!m) {
        uint32_t f = h->fl_map & (~0u << (fl + 1));
        if (!f)
            return 0;
        fl = bits_ctz(f);
        m = h->sl_map[fl];
    }
    sl = bits_ctz(m);

    uintptr_t b = h->base + h->head[fl][sl];
    uint32_t hd = *word(b), size = hd & FREE_SIZE;
    list_remove(h, b, size);
    if (size - n >= GRAN)
        make_free(h, b + n, size - n, 0); /* its successor keeps its prev-free bit */
    else
        *word(b + size) &= ~TLSF_PREV_FREE;
    *word(b) = n | (hd & TLSF_PREV_FREE); /* tag 0 */
    h->free_bytes -= n;
    return b + 4;
}

void tlsf_free(struct tlsf *h, uintptr_t p)
{
    uintptr_t b = p - 4;
    uint32_t hd = *word(b), n = hd & TLSF_USED_SIZE, prev_free = hd & TLSF_PREV_FREE;
    h->free_bytes += n;
    uint32_t next = *word(b + n);
    if (next & TLSF_FREE) {
        list_remove(h, b + n, next & FREE_SIZE);
        n += next & FREE_SIZE;
    }
    if (prev_free) {
        uintptr_t prev = h->base + *word(b - 4);
        uint32_t ph = *word(prev);
        list_remove(h, prev, ph & FREE_SIZE);
        n += (uint32_t)(b - prev);
        b = prev;
        prev_free = ph & TLSF_PREV_FREE;
    }
    make_free(h, b, n, prev_free);
    *word(b + n) |= TLSF_PREV_FREE;
}

uint32_t tlsf_free_bytes(const struct tlsf *h)
{
    return h->free_bytes;
}

uint32_t tlsf_largest_free(const struct tlsf *h)
{
    if (!h->fl_map)
        return 0;
    unsigned fl = fls32(h->fl_map);
    uint32_t bound = class_bound(fl, fls32(h->sl_map[fl]));
    return bound < TLSF_BLOCK_MAX ? bound : TLSF_BLOCK_MAX;
}

/* A free-list link's target is a 16-byte step inside the pool (or TLSF_NIL). */
static int link_ok(const struct tlsf *h, uint32_t off)
{
    return off == TLSF_NIL || (off % GRAN == 0 && off < h->end - h->base);
}

int tlsf_check(const struct tlsf *h)
{
    uint32_t usable = (uint32_t)(h->end - h->base), free_blocks = 0, free_sum = 0;
    if (!usable)
        return h->fl_map || h->free_bytes ? -1 : 0;
    /* The physical blocks, in address order. */
    uint32_t prev_free = 0;
    uintptr_t b = h->base;
    while (b < h->end) {
        uint32_t hd = *word(b), off = (uint32_t)(b - h->base), n;
        if ((hd & TLSF_PREV_FREE) != prev_free || (hd & 0xCu))
            return -1;
        if (hd & TLSF_FREE) {
            n = hd & FREE_SIZE;
            if (prev_free || n < GRAN || n > (uint32_t)(h->end - b))
                return -1;
            uint32_t next = word(b)[1], prev = word(b)[2];
            if (*word(b + n - 4) != off || !link_ok(h, next) || !link_ok(h, prev))
                return -1;
            unsigned fl, sl;
            mapping(n, &fl, &sl);
            if (prev == TLSF_NIL ? h->head[fl][sl] != off : word(h->base + prev)[1] != off)
                return -1;
            if (next != TLSF_NIL && word(h->base + next)[2] != off)
                return -1;
            free_blocks++;
            free_sum += n;
            prev_free = TLSF_PREV_FREE;
        } else {
            n = hd & TLSF_USED_SIZE;
            if (n < GRAN || n > (uint32_t)(h->end - b))
                return -1;
            prev_free = 0;
        }
        b += n;
    }
    if (*word(h->end) != prev_free || free_sum != h->free_bytes)
        return -1;
    /* The lists: each node a free block of its class, linked both ways; the bitmaps. */
    uint32_t listed = 0;
    for (unsigned f = 0; f < TLSF_FL_COUNT; f++) {
        if (!!(h->fl_map >> f & 1) != !!h->sl_map[f])
            return -1;
        for (unsigned s = 0; s < TLSF_SL_COUNT; s++) {
            uint32_t off = h->head[f][s], back = TLSF_NIL;
            if (!link_ok(h, off) || (off != TLSF_NIL) != (h->sl_map[f] >> s & 1))
                return -1;
            for (; off != TLSF_NIL; back = off, off = word(h->base + off)[1]) {
                uint32_t hd = *word(h->base + off), n = hd & FREE_SIZE;
                unsigned fl, sl;
                if (++listed > free_blocks || !(hd & TLSF_FREE) || n < GRAN || n > usable - off)
                    return -1;
                mapping(n, &fl, &sl);
                if (fl != f || sl != s || word(h->base + off)[2] != back ||
                    *word(h->base + off + n - 4) != off || !link_ok(h, word(h->base + off)[1]))
                    return -1;
            }
        }
    }
    return listed == free_blocks ? 0 : -1;
}
