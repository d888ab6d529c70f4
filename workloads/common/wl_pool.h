/* wl_pool.h: static-memory allocators for programs whose originals call malloc.
 *
 * wl_pool_t is a bump allocator over a caller-provided static buffer; allocations are 8-byte
 * aligned and never overlap; wl_pool_alloc returns NULL when the pool is exhausted (callers
 * treat that as a failed self-check, never as undefined behaviour). wl_pool_reset frees all.
 * wl_freelist_t recycles fixed-size objects on top of a pool. */
#ifndef WL_POOL_H
#define WL_POOL_H

#include <stddef.h>
#include <stdint.h>

/** Bytes a pool needs for n objects of size bytes each (every allocation is 8-byte aligned). */
#define WL_POOL_BYTES(n, size) ((n) * (((size) + 7u) & ~(size_t)7u) + 8u)

/** Bump allocator over a static buffer. */
typedef struct {
    uint8_t *base;
    size_t size;
    size_t used;
} wl_pool_t;

/** Fixed-size object recycler backed by a pool. */
typedef struct {
    wl_pool_t *pool;
    size_t obj_size;
    void *head;
} wl_freelist_t;

/** Makes pool hand out memory from buf[0..size). */
void wl_pool_init(wl_pool_t *pool, void *buf, size_t size);
/** Returns 8-byte aligned zeroed memory of n bytes, or NULL if the pool is exhausted. */
void *wl_pool_alloc(wl_pool_t *pool, size_t n);
/** Frees everything allocated from the pool. */
void wl_pool_reset(wl_pool_t *pool);
/** Makes fl recycle objects of obj_size bytes taken from pool. */
void wl_freelist_init(wl_freelist_t *fl, wl_pool_t *pool, size_t obj_size);
/** Returns a zeroed object (recycled or new), or NULL if the pool is exhausted. */
void *wl_freelist_alloc(wl_freelist_t *fl);
/** Returns obj (from wl_freelist_alloc) for reuse. */
void wl_freelist_free(wl_freelist_t *fl, void *obj);

#endif
