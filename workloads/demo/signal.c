/* The synthetic sensor signal: deterministic waveform plus pseudo-random noise, the same
 * sequence on every machine (no dependence on time). */
#include "demo.h"

void demo_signal_init(struct demo_signal *g)
{
    g->n = 0;
    g->noise = 0x2545F491u;
}

int16_t demo_signal_next(struct demo_signal *g)
{
    uint32_t n = g->n++;
    /* Triangle, period 50 samples (20 Hz at 1 kHz), amplitude +-8000. */
    int32_t phase = (int32_t)(n % 50u);
    int32_t tri = phase < 25 ? -8000 + phase * 640 : 8000 - (phase - 25) * 640;
    /* Square, period 128 samples, amplitude +-2000. */
    int32_t sq = (n / 64u) % 2u ? 2000 : -2000;
    /* xorshift32 noise in [-1024, 1023]. */
    uint32_t x = g->noise;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    g->noise = x;
    int32_t noise = (int32_t)(x >> 21) - 1024;
    return (int16_t)(tri + sq + noise);
}
