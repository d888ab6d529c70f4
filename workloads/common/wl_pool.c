/* wl_pool.c: bump and free-list allocators over static buffers (see wl_pool.h). */
#include "wl_pool.h"

#include "wl_string.h"

void wl_pool_init(wl_pool_t *pool, void *buf, size_t size)
{
    pool->base = buf;
    pool->size = size;
    pool->used = 0;
}

void *wl_pool_alloc(wl_pool_t *pool, size_t n)
{
    uintptr_t at = (uintptr_t)(pool->base + pool->used);
    size_t start = pool->used + (size_t)((8u - (at & 7u)) & 7u);
    if (start > pool->size || n > pool->size - start)
        return NULL;
    pool->used = start + n;
    void *p = pool->base + start;
    memset(p, 0, n);
    return p;
}

void wl_pool_reset(wl_pool_t *pool)
{
    pool->used = 0;
}

void wl_freelist_init(wl_freelist_t *fl, wl_pool_t *pool, size_t obj_size)
{
    fl->pool = pool;
    fl->obj_size = obj_size < sizeof(void *) ? sizeof(void *) : obj_size;
    fl->head = NULL;
}

void *wl_freelist_alloc(wl_freelist_t *fl)
{
    if (fl->head) {
        void *p = fl->head;
        memcpy(&fl->head, p, sizeof(void *));
        memset(p, 0, fl->obj_size);
        return p;
    }
    return wl_pool_alloc(fl->pool, fl->obj_size);
}

void wl_freelist_free(wl_freelist_t *fl, void *obj)
{
    memcpy(obj, &fl->head, sizeof(void *));
    fl->head = obj;
}
