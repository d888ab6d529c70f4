/* Queue item copies: word by word when the item size and both addresses are multiples of 4,
 * byte by byte otherwise, with the same result. For sizes 16 (words), 8, 6, 7 and 1 and for
 * source and destination offsets 0..3 inside byte buffers, every byte of an item arrives and no
 * byte next to it changes: through the ring (send then receive), straight into a blocked
 * receiver's buffer, and from a blocked sender's buffer when a slot frees. */
#include "ktest.h"

const char ktest_name[] = "queue_copy";

#define MAXSZ 16
#define GUARD 4
static uint32_t ring[2 * MAXSZ / 4 + 1]; /* capacity 2 of up to 16 bytes, word aligned */
static uint8_t ring_bytes[2 * MAXSZ + 1] __attribute__((aligned(4)));
static cactus_queue q;
static uint32_t size;
static int step; /* what the helper task does next */

static uint8_t pat(uint32_t seq, uint32_t i)
{
    return (uint8_t)(seq * 31u + i * 7u + 1u);
}

static void fill(uint8_t *p, uint32_t seq)
{
    for (uint32_t i = 0; i < size; i++)
        p[i] = pat(seq, i);
}

/* dst[0..size) holds item seq and the GUARD bytes on each side are still 0xEE. */
static void check_item(const uint8_t *dst, uint32_t seq)
{
    for (uint32_t i = 0; i < size; i++)
        CHECK_EQ(dst[i], pat(seq, i));
    for (uint32_t g = 1; g <= GUARD; g++) {
        CHECK_EQ(dst[-(int32_t)g], 0xEE);
        CHECK_EQ(dst[size - 1 + g], 0xEE);
    }
}

static uint8_t rx_area[MAXSZ + 2 * GUARD + 4] __attribute__((aligned(4)));
static uint8_t tx_area[MAXSZ + 2 * GUARD + 4] __attribute__((aligned(4)));
static uint32_t rx_off, tx_off, seq_sent;

static uint8_t *rx_buf(void)
{
    for (uint32_t i = 0; i < sizeof(rx_area); i++)
        rx_area[i] = 0xEE;
    return rx_area + GUARD + rx_off;
}

static uint8_t *tx_buf(uint32_t seq)
{
    uint8_t *p = tx_area + GUARD + tx_off;
    fill(p, seq);
    return p;
}

static void helper(void *arg) /* prio 5: the other side of the blocking copies */
{
    (void)arg;
    for (;;) {
        if (step == 1) { /* a receiver waiting on the empty queue: the send copies into it */
            uint8_t *d = rx_buf();
            CHECK_EQ(cactus_queue_recv(&q, d, CACTUS_FOREVER), CACTUS_OK);
            check_item(d, seq_sent);
        } else if (step == 2) { /* a sender waiting on the full queue */
            CHECK_EQ(cactus_queue_send(&q, tx_buf(seq_sent), CACTUS_FOREVER), CACTUS_OK);
        }
        step = 0;
        cactus_sleep(1);
    }
}

static void run_case(void *buf, uint32_t sz)
{
    size = sz;
    CHECK_EQ(cactus_queue_init(&q, buf, sz, 2), CACTUS_OK);
    for (rx_off = 0; rx_off < 4; rx_off++) {
        for (tx_off = 0; tx_off < 4; tx_off++) {
            /* through the ring, wrapping it */
            for (uint32_t k = 0; k < 3; k++) {
                uint32_t seq = rx_off * 16 + tx_off * 4 + k;
                CHECK_EQ(cactus_queue_send(&q, tx_buf(seq), CACTUS_NO_WAIT), CACTUS_OK);
                uint8_t *d = rx_buf();
                CHECK_EQ(cactus_queue_recv(&q, d, CACTUS_NO_WAIT), CACTUS_OK);
                check_item(d, seq);
            }
            /* into a blocked receiver's buffer (the helper waits, higher priority) */
            step = 1;
            cactus_sleep(2); /* the helper is now blocked in its receive */
            seq_sent = 200 + rx_off * 4 + tx_off;
            CHECK_EQ(cactus_queue_send(&q, tx_buf(seq_sent), CACTUS_NO_WAIT), CACTUS_OK);
            CHECK_EQ(step, 0); /* it ran and checked the item */
            /* from a blocked sender's buffer */
            CHECK_EQ(cactus_queue_send(&q, tx_buf(1), CACTUS_NO_WAIT), CACTUS_OK);
            CHECK_EQ(cactus_queue_send(&q, tx_buf(2), CACTUS_NO_WAIT), CACTUS_OK);
            seq_sent = 100 + rx_off * 4 + tx_off;
            step = 2;
            cactus_sleep(2); /* the helper is now blocked in its send: the queue is full */
            uint8_t *d = rx_buf();
            CHECK_EQ(cactus_queue_recv(&q, d, CACTUS_NO_WAIT), CACTUS_OK);
            check_item(d, 1);
            CHECK_EQ(step, 0);
            d = rx_buf();
            CHECK_EQ(cactus_queue_recv(&q, d, CACTUS_NO_WAIT), CACTUS_OK);
            check_item(d, 2);
            d = rx_buf();
            CHECK_EQ(cactus_queue_recv(&q, d, CACTUS_NO_WAIT), CACTUS_OK);
            check_item(d, seq_sent);
            CHECK_EQ(cactus_queue_count(&q), 0);
        }
    }
}

static void main_task(void *arg)
{
    (void)arg;
    static const uint32_t sizes[] = { 16, 8, 6, 7, 1 };
    for (uint32_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        run_case(ring, sizes[i]);
        run_case(ring_bytes + 1, sizes[i]); /* a ring at an odd address: bytes everywhere */
    }
    ktest_pass();
}

static const cactus_task_desc tasks[] = {
    { .name = "main", .entry = main_task, .stack_size = 1024, .prio = 3 },
    { .name = "helper", .entry = helper, .stack_size = 1024, .prio = 5 },
};

int main(void)
{
    ktest_start(tasks, 2);
}
