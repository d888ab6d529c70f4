/* The independent check: regenerate the whole input at once, filter it by plain convolution
 * over one array (no blocks, no history buffer), take a bitwise CRC-32 (no table) and estimate
 * the period after every block by indexing the filtered array directly (no ring). Agreement
 * with the consumer's streaming results checks the block-wise filter, the ring window, the
 * queue transport of every block and the table-driven CRC. */
#include "demo.h"

static int16_t input[DEMO_SAMPLES];
static int16_t output[DEMO_SAMPLES];

static uint32_t crc32_bitwise(uint32_t crc, uint8_t byte)
{
    crc ^= byte;
    for (int k = 0; k < 8; k++)
        crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    return crc;
}

/* Filtered sample i of the run, 0 before the start. */
static int32_t out_at(int i)
{
    return i < 0 ? 0 : output[i];
}

/* The period estimate over the DEMO_WINDOW filtered samples ending before `end`: the lag
 * maximising the mean-removed autocorrelation divided by its number of terms. */
static uint32_t period_before(int end)
{
    int start = end - DEMO_WINDOW;
    int32_t sum = 0;
    for (int n = start; n < end; n++)
        sum += out_at(n);
    int32_t mean = sum / DEMO_WINDOW;
    uint32_t best_lag = 0;
    int64_t best = 0, best_terms = 1;
    for (int lag = DEMO_LAG_MIN; lag <= DEMO_LAG_MAX; lag++) {
        int64_t r = 0;
        for (int n = start + lag; n < end; n++)
            r += (int64_t)(out_at(n) - mean) * (out_at(n - lag) - mean);
        int64_t terms = DEMO_WINDOW - lag;
        if (best_lag == 0 || r * best_terms > best * terms) {
            best = r;
            best_terms = terms;
            best_lag = (uint32_t)lag;
        }
    }
    return best_lag;
}

uint32_t demo_check(struct demo_stats *total, uint32_t periods[DEMO_BLOCKS])
{
    struct demo_signal g;
    demo_signal_init(&g);
    for (int n = 0; n < DEMO_SAMPLES; n++)
        input[n] = demo_signal_next(&g);
    uint32_t crc = 0xFFFFFFFFu;
    demo_stats_init(total);
    for (int n = 0; n < DEMO_SAMPLES; n++) {
        int32_t acc = 0;
        for (int k = 0; k < DEMO_TAPS && k <= n; k++)
            acc += (int32_t)demo_fir[k] * input[n - k];
        int16_t y = demo_saturate(acc >> 15);
        output[n] = y;
        demo_stats_add(total, y);
        uint16_t u = (uint16_t)y;
        crc = crc32_bitwise(crc, (uint8_t)u);
        crc = crc32_bitwise(crc, (uint8_t)(u >> 8));
    }
    for (int b = 0; b < DEMO_BLOCKS; b++)
        periods[b] = period_before((b + 1) * DEMO_BLOCK);
    return crc ^ 0xFFFFFFFFu;
}
