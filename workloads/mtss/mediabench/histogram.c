/* histogram.c: global histogram equalisation of greyscale frames. Each round synthesises a
 * low-contrast 64x64 frame (a gradient, blobs and noise squeezed into a narrow grey range),
 * builds its 256-bin histogram and cumulative distribution in local arrays, derives the
 * equalisation look-up table lut[v] = round(255 * (cdf(v) - cdf_min) / (N - cdf_min)) and
 * remaps the frame. Checks: the table is monotone, maps the darkest present level to 0 and the
 * brightest to 255, and the output occupies no more levels than the input (and at least 2). */
#include "histogram.h"

#include "wl_checksum.h"
#include "wl_prng.h"

#define SIDE 64
#define PIXELS (SIDE * SIDE)

static struct {
    uint8_t frame[SIDE][SIDE];
    uint32_t rounds;
    uint32_t failures;
    wl_prng_t rng;
    wl_result_t res;
} st;

static void make_frame(void)
{
    uint32_t base = 70 + wl_prng_below(&st.rng, 40), span = 30 + wl_prng_below(&st.rng, 30);
    int32_t bx = (int32_t)wl_prng_below(&st.rng, SIDE), by = (int32_t)wl_prng_below(&st.rng, SIDE);
    for (int32_t y = 0; y < SIDE; y++) {
        for (int32_t x = 0; x < SIDE; x++) {
            uint32_t v = base + (uint32_t)(x + y) * span / (2 * SIDE);
            int32_t d2 = (x - bx) * (x - bx) + (y - by) * (y - by);
            if (d2 < 100)
                v += 12;
            v += wl_prng_below(&st.rng, 5);
            st.frame[y][x] = (uint8_t)v;
        }
    }
}

void histogram_init(uint32_t size_class)
{
    st.rounds = size_class ? 300u : 4u;
    st.failures = 0;
    wl_prng_seed(&st.rng, 0x415du);
    st.res.checksum = WL_CHECKSUM_INIT;
    st.res.rounds_done = 0;
}

int histogram_round(void)
{
    uint32_t hist[256];
    uint8_t lut[256];
    make_frame();
    for (int v = 0; v < 256; v++)
        hist[v] = 0;
    for (int y = 0; y < SIDE; y++)
        for (int x = 0; x < SIDE; x++)
            hist[st.frame[y][x]]++;
    uint32_t cdf = 0, cdf_min = 0, occupied = 0;
    int lo = -1, hi = -1;
    for (int v = 0; v < 256; v++) {
        if (hist[v]) {
            occupied++;
            if (lo < 0) {
                lo = v;
                cdf_min = hist[v];
            }
            hi = v;
        }
    }
    for (int v = 0; v < 256; v++) {
        cdf += hist[v];
        uint32_t num = cdf > cdf_min ? cdf - cdf_min : 0;
        uint32_t den = PIXELS - cdf_min;
        lut[v] = (uint8_t)(den ? (255u * num + den / 2) / den : 0);
    }
    for (int v = 1; v < 256; v++)
        if (lut[v] < lut[v - 1])
            st.failures++;
    if (lut[lo] != 0 || lut[hi] != 255)
        st.failures++;
    for (int v = 0; v < 256; v++)
        hist[v] = 0;
    for (int y = 0; y < SIDE; y++) {
        for (int x = 0; x < SIDE; x++) {
            uint8_t o = lut[st.frame[y][x]];
            hist[o]++;
            st.frame[y][x] = o;
        }
    }
    uint32_t occupied_out = 0;
    for (int v = 0; v < 256; v++)
        occupied_out += hist[v] != 0;
    /* A monotone table can merge neighbouring levels but never create new ones. */
    if (occupied_out > occupied || occupied_out < 2)
        st.failures++;
    st.res.checksum = wl_mix_bytes(st.res.checksum, lut, 256);
    st.res.checksum = wl_mix_bytes(st.res.checksum, st.frame[st.res.rounds_done % SIDE], SIDE);
    st.res.rounds_done++;
    return st.res.rounds_done < st.rounds;
}

uint32_t histogram_checksum(void)
{
    return wl_final(st.res.checksum, st.failures);
}

uint32_t histogram_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0x5fff23d2u, 0xe5c00a0fu};
    return size_class < WL_SIZE_CLASSES ? expected[size_class] : 0;
}

const wl_program_t histogram_program = {"histogram", histogram_init, histogram_round,
                                        histogram_checksum, histogram_expected};
