/* DSP helpers shared by the consumer: Q15 FIR coefficients, statistics, table-driven CRC-32. */
#include "demo.h"

/* 16-tap Hamming-windowed low-pass, cutoff 0.08 fs, Q15 (sum 32764). */
const int16_t demo_fir[DEMO_TAPS] = {
    -71, -26, 177, 774, 1876, 3329, 4731, 5592, 5592, 4731, 3329, 1876, 774, 177, -26, -71,
};

void demo_stats_init(struct demo_stats *st)
{
    st->min = INT16_MAX;
    st->max = INT16_MIN;
    st->sum = 0;
    st->energy = 0;
}

void demo_stats_add(struct demo_stats *st, int32_t y)
{
    if (y < st->min)
        st->min = y;
    if (y > st->max)
        st->max = y;
    st->sum += y;
    st->energy += (uint32_t)(y * y) >> 8;
}

int16_t demo_saturate(int32_t v)
{
    return v > INT16_MAX ? INT16_MAX : v < INT16_MIN ? INT16_MIN : (int16_t)v;
}

static uint32_t crc_table[256];

void demo_crc32_setup(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = c & 1u ? (c >> 1) ^ 0xEDB88320u : c >> 1;
        crc_table[i] = c;
    }
}

uint32_t demo_crc32(uint32_t crc, const uint8_t *data, uint32_t len)
{
    for (uint32_t i = 0; i < len; i++)
        crc = crc_table[(crc ^ data[i]) & 0xFFu] ^ (crc >> 8);
    return crc;
}
