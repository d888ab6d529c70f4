/* Message queues: fixed-size items copied into a ring buffer. A receiver waiting on an empty
 * queue gets the item copied straight into its buffer; a sender waiting on a full queue has its
 * item copied in when a slot frees. Waiters are served highest priority first. */
#include "k.h"
#include "../trace/ktrace.h"

static void copy(void *dst, const void *src, uint32_t n)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    while (n--)
        *d++ = *s++;
}

static uint8_t *slot(cactus_queue *q, uint32_t i)
{
    return q->buf + (uint32_t)((q->head + i) % q->capacity) * q->item_size;
}

static K_SYSCALL(sys_send)
{
    cactus_queue *q = (cactus_queue *)a0;
    const void *item = (const void *)a1;
    struct k_tcb *rx = k_wait_first(&q->w);
    if (q->count == 0 && rx) {
        /* The receiver's buffer is usually on its own stack: tell the oracle it is us. */
        ktrace_kernel_enter();
        copy((void *)(uintptr_t)rx->ctx.a1, item, q->item_size);
        ktrace_kernel_leave();
        k_wake(rx, CACTUS_OK);
        k_reschedule();
        return CACTUS_OK;
    }
    if (q->count < q->capacity) {
        copy(slot(q, q->count), item, q->item_size);
        q->count++;
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
        copy((void *)a1, slot(q, 0), q->item_size);
        q->head = (uint16_t)((q->head + 1) % q->capacity);
        q->count--;
        struct k_tcb *tx = k_wait_first(&q->w);
        if (tx) {
            copy(slot(q, q->count), (const void *)(uintptr_t)tx->ctx.a1, q->item_size);
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
    return (int)SYSCALL(sys_send, q, item, timeout, 0);
}

int cactus_queue_recv(cactus_queue *q, void *item, uint32_t timeout)
{
    return (int)SYSCALL(sys_recv, q, item, timeout, 0);
}

uint32_t cactus_queue_count(const cactus_queue *q)
{
    k_fresh();
    return q->count;
}
