/* Fixed-block pools: O(1) allocate and free of equal blocks from a caller's buffer.
 *
 * Freed blocks form a LIFO list linked through their first word; blocks never handed out are
 * taken from `fresh` upwards (so init is O(1) too, and fresh - base is the high water: a fresh
 * block is taken only when the list is empty, i.e. when every block handed out before is in
 * use). The common case of both calls is inline in cactus.h (a critical section: pop or push
 * the list, no call, no kernel entry). This file is the rest, linked only when a firmware uses
 * a pool:
 *   - alloc with an empty list: take a fresh block, in a critical section (at most `count`
 *     times in a pool's life); with none left, the kernel call sys_alloc decides again under
 *     the kernel's masking and blocks in k_block (waiters ordered as for semaphores: highest
 *     priority first, FIFO among equals) unless the timeout is CACTUS_NO_WAIT;
 *   - free with a task waiting: the kernel call sys_free hands the block straight to the first
 *     waiter (it never enters the list) and reschedules.
 *
 * free's block test is one multiply (no division): for block = d * 2^k with d odd and
 * x = blk - base, y = x * d^-1 mod 2^32 is j * 2^k when x = j * block; otherwise either y's low
 * k bits are not all 0 (x's are not: d^-1 is odd) or y >= 2^32 / d > count * 2^k (the exact
 * division test of Granlund and Montgomery: the multiples of d below 2^32 are exactly the x
 * whose y is at most (2^32 - 1) / d). So x starts a block if and only if y & (2^k - 1) == 0
 * and y < count * 2^k: one multiply and two compares check range and alignment. */
#include "k.h"

/* A block from the free list or a fresh one, or NULL; the caller masks interrupts. */
static inline void *take(cactus_pool *p)
{
    void *b = p->free;
    if (b) {
        p->free = *(cactus_pool_link *)b;
        return b;
    }
    if (p->fresh != p->end) {
        b = p->fresh;
        p->fresh += p->block;
    }
    return b;
}

static K_SYSCALL(sys_alloc)
{
    cactus_pool *p = (cactus_pool *)a0;
    void *b = take(p);
    if (b || a1 == CACTUS_NO_WAIT)
        return (uintptr_t)b;
    return k_block(&p->w, (uint32_t)a1, CACTUS_TASK_BLOCKED, 0);
}

static K_SYSCALL(sys_free)
{
    cactus_pool *p = (cactus_pool *)a0;
    struct k_tcb *t = k_wait_first(&p->w);
    if (t) {
        k_wake(t, a1); /* the block goes straight to the waiter: still in use */
        k_reschedule();
        return CACTUS_OK;
    }
    *(cactus_pool_link *)a1 = p->free;
    p->free = (void *)a1;
    return CACTUS_OK;
}

int cactus_pool_init(cactus_pool *p, void *buf, uint32_t block_size, uint32_t count)
{
    uintptr_t base = (uintptr_t)buf;
    if (!p || !buf || base % 4 || block_size == 0 || block_size % 4 || count == 0 ||
        count > (UINTPTR_MAX - base) / block_size)
        return CACTUS_EINVAL;
    uint32_t low = block_size & (0u - block_size); /* 2^k, block's lowest set bit */
    uint32_t odd = block_size / low, inv = odd;     /* odd * odd == 1 modulo 8: 3 bits right */
    for (int i = 0; i < 4; i++)                    /* Newton: 6, 12, 24, 48 bits */
        inv *= 2u - odd * inv;
    p->w.head = 0;
    p->w.kind = WAIT_POOL;
    p->free = 0;
    p->base = p->fresh = buf;
    p->end = p->base + block_size * count;
    p->block = block_size;
    p->inv = inv;
    p->mask = low - 1;
    p->lim = count * low;
    return CACTUS_OK;
}

void *cactus_pool_alloc_slow(cactus_pool *p, uint32_t timeout)
{
    uint32_t irq = cactus_irq_save();
    void *b = take(p);
    cactus_irq_restore(irq);
    if (b || timeout == CACTUS_NO_WAIT)
        return b;
    return (void *)SYSCALL(sys_alloc, p, timeout, 0, 0);
}

int cactus_pool_free_slow(cactus_pool *p, void *blk)
{
    if (!cactus_pool_is_block(p, blk))
        return CACTUS_EINVAL;
    return (int)SYSCALL(sys_free, p, blk, 0, 0);
}

uint32_t cactus_pool_high_water(const cactus_pool *p)
{
    k_fresh();
    return (uint32_t)(p->fresh - p->base) / p->block;
}
