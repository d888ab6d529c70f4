/* The logger (lowest priority): prints every DEMO_LOG_EVERY-th block's summary over the
 * UART, and at the end checks the consumer's results against an independent recomputation
 * (check.c), then ends the run through cactus_fw_finish. */
#include "demo.h"

static int stats_equal(const struct demo_stats *a, const struct demo_stats *b)
{
    return a->min == b->min && a->max == b->max && a->sum == b->sum && a->energy == b->energy;
}

static uint32_t periods[DEMO_BLOCKS]; /* the consumer's estimate after every block */

void demo_log_start(void)
{
    kprintf("demo: %d blocks of %d samples, %d-tap FIR\n", DEMO_BLOCKS, DEMO_BLOCK, DEMO_TAPS);
}

void demo_log(const struct demo_summary *s)
{
    if (s->seq < DEMO_BLOCKS)
        periods[s->seq] = s->period;
    if ((s->seq + 1) % DEMO_LOG_EVERY == 0)
        kprintf("block %2u: min %6d max %6d mean %6d energy %9u period %2u crc %08x\n",
                s->seq, s->block.min, s->block.max, s->block.sum / DEMO_BLOCK, s->block.energy,
                s->period, s->crc);
    if (!s->done)
        return;
    struct demo_stats want;
    static uint32_t want_periods[DEMO_BLOCKS];
    uint32_t crc = demo_check(&want, want_periods);
    kprintf("total: min %d max %d sum %d energy %u crc %08x\n", s->total.min, s->total.max,
            s->total.sum, s->total.energy, s->crc);
    if (crc != s->crc || !stats_equal(&want, &s->total)) {
        kprintf("FAIL demo: recomputed crc %08x min %d max %d sum %d energy %u\n", crc,
                want.min, want.max, want.sum, want.energy);
        cactus_fw_finish(1);
    }
    for (int b = 0; b < DEMO_BLOCKS; b++) {
        if (periods[b] != want_periods[b]) {
            kprintf("FAIL demo: block %d period %u, recomputed %u\n", b, periods[b],
                    want_periods[b]);
            cactus_fw_finish(1);
        }
    }
    kprintf("PASS demo: consumer results match the independent recomputation\n");
    cactus_fw_finish(0);
}

void logger_main(void *arg)
{
    (void)arg;
    demo_log_start();
    for (;;) {
        struct demo_summary s;
        cactus_queue_recv(&demo_summaries, &s, CACTUS_FOREVER);
        demo_log(&s);
    }
}
