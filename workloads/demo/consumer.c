/* The consumer: waits for blocks, runs the Q15 FIR low-pass over them (keeping the filter's
 * history across blocks), computes statistics, the running CRC-32 of the filtered samples and
 * an autocorrelation period estimate over the last DEMO_WINDOW filtered samples, and hands a
 * summary to the logger. */
#include "demo.h"

/* y[n] = sum h[k] x[n-k], with x[n-k] for n-k < 0 taken from `hist` (the previous block's
 * last DEMO_TAPS-1 samples, oldest first). */
static void fir_block(const int16_t *x, int16_t *hist, int16_t *y)
{
    for (int n = 0; n < DEMO_BLOCK; n++) {
        int32_t acc = 0;
        for (int k = 0; k < DEMO_TAPS; k++) {
            int i = n - k;
            int16_t v = i >= 0 ? x[i] : hist[DEMO_TAPS - 1 + i];
            acc += (int32_t)demo_fir[k] * v;
        }
        y[n] = demo_saturate(acc >> 15);
    }
    for (int i = 0; i < DEMO_TAPS - 1; i++)
        hist[i] = x[DEMO_BLOCK - (DEMO_TAPS - 1) + i];
}

/* The last DEMO_WINDOW filtered samples (zeros before the first), as a ring. */
static int16_t window[DEMO_WINDOW];
static uint32_t window_pos; /* index of the oldest sample */

static void window_push(const int16_t *y)
{
    for (int n = 0; n < DEMO_BLOCK; n++) {
        window[window_pos] = y[n];
        window_pos = (window_pos + 1) % DEMO_WINDOW;
    }
}

/* The lag in [DEMO_LAG_MIN, DEMO_LAG_MAX] with the largest mean-removed autocorrelation per
 * term over the window (the smallest such lag on ties). Ratios are compared by
 * cross-multiplication, so everything is exact integer arithmetic. */
static uint32_t estimate_period(void)
{
    int32_t sum = 0;
    for (int n = 0; n < DEMO_WINDOW; n++)
        sum += window[n];
    int32_t mean = sum / DEMO_WINDOW;
    uint32_t best_lag = DEMO_LAG_MIN;
    int64_t best = 0, best_terms = 1;
    for (uint32_t lag = DEMO_LAG_MIN; lag <= DEMO_LAG_MAX; lag++) {
        int64_t r = 0;
        for (uint32_t n = lag; n < DEMO_WINDOW; n++) {
            int32_t a = window[(window_pos + n) % DEMO_WINDOW] - mean;
            int32_t b = window[(window_pos + n - lag) % DEMO_WINDOW] - mean;
            r += (int64_t)a * b;
        }
        int64_t terms = DEMO_WINDOW - lag;
        if (lag == DEMO_LAG_MIN || r * best_terms > best * terms) {
            best = r;
            best_terms = terms;
            best_lag = lag;
        }
    }
    return best_lag;
}

/* The consumer's state across blocks. */
static int16_t hist[DEMO_TAPS - 1];
static struct demo_summary sum;
static uint32_t crc = 0xFFFFFFFFu;
static uint32_t blocks_done;

void demo_consume(const struct demo_block *in, struct demo_summary *out)
{
    int16_t y[DEMO_BLOCK];
    if (blocks_done == 0)
        demo_stats_init(&sum.total);
    fir_block(in->s, hist, y);
    demo_stats_init(&sum.block);
    for (int n = 0; n < DEMO_BLOCK; n++) {
        demo_stats_add(&sum.block, y[n]);
        demo_stats_add(&sum.total, y[n]);
        uint8_t le[2] = {(uint8_t)y[n], (uint8_t)((uint16_t)y[n] >> 8)};
        crc = demo_crc32(crc, le, 2);
    }
    window_push(y);
    sum.period = estimate_period();
    sum.seq = in->seq;
    sum.crc = crc ^ 0xFFFFFFFFu;
    sum.done = ++blocks_done == DEMO_BLOCKS;
    *out = sum;
}

void consumer_main(void *arg)
{
    (void)arg;
    for (uint32_t b = 0; b < DEMO_BLOCKS; b++) {
        struct demo_block in;
        struct demo_summary out;
        cactus_queue_recv(&demo_blocks, &in, CACTUS_FOREVER);
        demo_consume(&in, &out);
        cactus_queue_send(&demo_summaries, &out, CACTUS_FOREVER);
    }
}
