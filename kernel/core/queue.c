/* Message queues: fixed-size items copied into a ring buffer. A receiver waiting on an empty
 * queue gets the item copied straight into its buffer; a sender waiting on a full queue has its
 * item copied in when a slot frees. Waiters are served highest priority first.
 *
 * The common case of each call, where nobody waits on the queue (a send with a free slot, a
 * receive of a stored item), runs in the caller's context in a critical section (interrupts
 * masked: safe in any context), without entering the kernel: it changes nothing but the ring.
 * Everything else (a waiter to serve, a full or empty queue) is the kernel call sys_send or
 * sys_recv, which decides again under the kernel's own masking. The kernel calls reach every
 * task's item through stack_task_ptr (a waiter's item is a logical address of its own stack
 * under the `relocate` strategy, docs/sensmart.md). */
#include "k.h"
#include "../trace/ktrace.h"
#include "../stack/stack.h"

/* A word that may alias any object: the word copy reads and writes the caller's items, whatever
 * their declared type. */
typedef uint32_t __attribute__((may_alias)) q_word;

/* Copies one item: word by word when the size and both addresses are multiples of 4 (a 16-byte
 * item is 4 loads and 4 stores, the loop unrolled four times), else byte by byte. The result
 * is the same either way. */
static inline void copy(void *dst, const void *src, uint32_t n)
{
    if ((((uintptr_t)dst | (uintptr_t)src | n) & 3u) == 0) {
        q_word *d = dst;
        const q_word *s = src;
#pragma GCC unroll 4
        for (const q_word *end = s + n / 4; s != end;)
            *d++ = *s++;
        return;
    }
    uint8_t *d = dst;
    const uint8_t *s = src;
    while (n--)
        *d++ = *s++;
}

/* The i-th occupied slot from the head (i <= count <= capacity), or the first free one for
 * i == count. head < capacity, so one subtraction wraps the index: no division on the path. */
static uint8_t *slot(const cactus_queue *q, uint32_t i)
{
    uint32_t at = (uint32_t)q->head + i;
    if (at >= q->capacity)
        at -= q->capacity;
    return q->buf + at * q->item_size;
}

/* Stores item in the first free slot (count < capacity). */
static inline void put(cactus_queue *q, const void *item)
{
    copy(slot(q, q->count), item, q->item_size);
    q->count++;
}

/* Takes the head item into item (count > 0). */
static inline void get(cactus_queue *q, void *item)
{
    copy(item, slot(q, 0), q->item_size);
    q->head = (uint16_t)(q->head + 1 == q->capacity ? 0 : q->head + 1);
    q->count--;
}

static K_SYSCALL(sys_send)
{
    cactus_queue *q = (cactus_queue *)a0;
    const void *item = (const void *)a1;
    struct k_tcb *rx = k_wait_first(&q->w);
    if (q->count == 0 && rx) {
        /* The receiver's buffer is usually on its own stack: tell the oracle it is us. */
        ktrace_kernel_enter();
        /* The receiver's buffer first: making room for it (it may lie below its stack's bound,
         * never written yet) may move other stacks, the caller's included; the caller's item
         * was written by the caller, so translating it moves nothing. */
        void *dst = stack_task_ptr(rx, (void *)(uintptr_t)rx->ctx.a1, q->item_size);
        copy(dst, stack_task_ptr(k_cur(), (void *)(uintptr_t)item, q->item_size), q->item_size);
        ktrace_kernel_leave();
        k_wake(rx, CACTUS_OK);
        k_reschedule();
        return CACTUS_OK;
    }
    if (q->count < q->capacity) {
        put(q, stack_task_ptr(k_cur(), (void *)(uintptr_t)item, q->item_size));
        return CACTUS_OK;
    }
    if (a2 == CACTUS_NO_WAIT)
        return (uintptr_t)CACTUS_ETIMEOUT;
    k_cur()->ctx.a1 = (uint32_t)a1;
    return k_block(&q->w, (uint32_t)a2, CACTUS_TASK_BLOCKED, (uintptr_t)CACTUS_ETIMEOUT);
}

static K_SYSCALL(sys_recv)
{
    cactus_queue *q = (cactus_queue *)a0;
    if (q->count) {
        /* The caller's buffer first (it may grow the caller's stack: see sys_send). */
        get(q, stack_task_ptr(k_cur(), (void *)a1, q->item_size));
        struct k_tcb *tx = k_wait_first(&q->w);
        if (tx) {
            copy(slot(q, q->count), stack_task_ptr(tx, (void *)(uintptr_t)tx->ctx.a1, q->item_size),
                 q->item_size);
            q->count++;
            k_wake(tx, CACTUS_OK);
            k_reschedule();
        }
        return CACTUS_OK;
    }
    if (a2 == CACTUS_NO_WAIT)
        return (uintptr_t)CACTUS_ETIMEOUT;
    k_cur()->ctx.a1 = (uint32_t)a1;
    return k_block(&q->w, (uint32_t)a2, CACTUS_TASK_BLOCKED, (uintptr_t)CACTUS_ETIMEOUT);
}

int cactus_queue_init(cactus_queue *q, void *buf, uint32_t item_size, uint32_t capacity)
{
    if (!q || !buf || item_size == 0 || item_size > 0xFFFF || capacity == 0 || capacity > 0xFFFF)
        return CACTUS_EINVAL;
    q->w.head = 0;
    q->w.kind = WAIT_QUEUE;
    q->buf = buf;
    q->item_size = (uint16_t)item_size;
    q->capacity = (uint16_t)capacity;
    q->head = 0;
    q->count = 0;
    return CACTUS_OK;
}

int cactus_queue_send(cactus_queue *q, const void *item, uint32_t timeout)
{
    uint32_t irq = cactus_irq_save();
    /* The caller's item as this code must use it (port_window_task_ptr: a logical stack address
     * under the software stack window; NULL sends it through the kernel call). */
    const void *mine = port_window_task_ptr((void *)item);
    /* Nobody waits (a waiter means an empty queue with receivers or a full one with senders). */
    if (__builtin_expect(!q->w.head && q->count < q->capacity && port_window_ptr_usable(mine), 1)) {
        put(q, mine);
        cactus_irq_restore(irq);
        return CACTUS_OK;
    }
    cactus_irq_restore(irq);
    return (int)SYSCALL(sys_send, q, item, timeout, 0);
}

int cactus_queue_recv(cactus_queue *q, void *item, uint32_t timeout)
{
    uint32_t irq = cactus_irq_save();
    /* An item to take and no sender waiting for its slot. */
    void *mine = port_window_task_ptr(item); /* as in cactus_queue_send */
    if (__builtin_expect(!q->w.head && q->count && port_window_ptr_usable(mine), 1)) {
        get(q, mine);
        cactus_irq_restore(irq);
        return CACTUS_OK;
    }
    cactus_irq_restore(irq);
    return (int)SYSCALL(sys_recv, q, item, timeout, 0);
}

uint32_t cactus_queue_count(const cactus_queue *q)
{
    k_fresh();
    return q->count;
}
