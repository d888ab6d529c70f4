/* edgedetect.c: edge detection as in MediaBench's image pipeline: separable 5-tap Gaussian
 * smoothing (1 4 6 4 1)/16 in each direction, Sobel gradients |Gx| + |Gy| and thresholding.
 * Rows are streamed through local ring buffers (horizontally smoothed rows, then fully smoothed
 * rows), as an embedded implementation with little RAM does. Each round processes one frame
 * (96x48 pixels; 96x16 in the small size class) of rectangles and a disc over a noisy
 * background, and re-computes sampled output pixels directly from the 2-D definitions to check
 * the streamed result. */
#include "edgedetect.h"

#include "wl_checksum.h"
#include "wl_prng.h"

#define W 96
#define MAX_H 48
#define THRESH 60

static struct {
    uint8_t img[MAX_H][W];
    uint8_t edges[MAX_H][W];
    uint32_t h; /* frame height */
    uint32_t rounds;
    uint32_t failures;
    wl_prng_t rng;
    wl_result_t res;
} st;

static const int32_t gk[5] = {1, 4, 6, 4, 1};

static int32_t clampi(int32_t v, int32_t lo, int32_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static void make_frame(void)
{
    for (int y = 0; y < (int)st.h; y++)
        for (int x = 0; x < W; x++)
            st.img[y][x] = (uint8_t)(40 + wl_prng_below(&st.rng, 16));
    for (int k = 0; k < 4; k++) {
        int x0 = (int)wl_prng_below(&st.rng, W - 16);
        int y0 = (int)wl_prng_below(&st.rng, st.h - 12u);
        uint8_t v = (uint8_t)(120 + wl_prng_below(&st.rng, 100));
        for (int y = y0; y < y0 + 12; y++)
            for (int x = x0; x < x0 + 16; x++)
                st.img[y][x] = v;
    }
    int cx = (int)wl_prng_below(&st.rng, W), cy = (int)wl_prng_below(&st.rng, st.h);
    for (int y = 0; y < (int)st.h; y++)
        for (int x = 0; x < W; x++)
            if ((x - cx) * (x - cx) + (y - cy) * (y - cy) < 81)
                st.img[y][x] = 250;
}

/* Horizontal 5-tap smoothing of image row y (clamped at the borders), in units of 1/16. */
static void hsmooth(int y, int16_t *out)
{
    y = clampi(y, 0, (int)st.h - 1);
    for (int x = 0; x < W; x++) {
        int32_t acc = 0;
        for (int k = -2; k <= 2; k++)
            acc += gk[k + 2] * st.img[y][clampi(x + k, 0, W - 1)];
        out[x] = (int16_t)acc;
    }
}

/* Direct 2-D reference of the smoothed value at (y, x), in units of 1/256 rounded to 1/16. */
static int32_t smooth_ref(int y, int x)
{
    y = clampi(y, 0, (int)st.h - 1);
    x = clampi(x, 0, W - 1);
    int32_t acc = 0;
    for (int j = -2; j <= 2; j++)
        for (int k = -2; k <= 2; k++)
            acc += gk[j + 2] * gk[k + 2] *
                   st.img[clampi(y + j, 0, (int)st.h - 1)][clampi(x + k, 0, W - 1)];
    return (acc + 8) >> 4;
}

static int32_t gradient(int32_t p[3][3])
{
    int32_t gx = (p[0][2] + 2 * p[1][2] + p[2][2]) - (p[0][0] + 2 * p[1][0] + p[2][0]);
    int32_t gy = (p[2][0] + 2 * p[2][1] + p[2][2]) - (p[0][0] + 2 * p[0][1] + p[0][2]);
    return (gx < 0 ? -gx : gx) + (gy < 0 ? -gy : gy);
}

void edgedetect_init(uint32_t size_class)
{
    st.h = size_class ? MAX_H : 16u;
    st.rounds = size_class ? 60u : 2u;
    st.failures = 0;
    wl_prng_seed(&st.rng, 0xed9eu);
    st.res.checksum = WL_CHECKSUM_INIT;
    st.res.rounds_done = 0;
}

int edgedetect_round(void)
{
    int16_t hring[5][W]; /* horizontally smoothed rows y-2 .. y+2 */
    int16_t sring[3][W]; /* fully smoothed rows, units of 1/16 */
    make_frame();
    /* Smoothed row r is ready once rows r-2..r+2 are in hring; Sobel at row y needs rows
     * y-1..y+1 (clamped at the borders), all in sring once row y+1 is smoothed. */
    for (int r = -2; r <= 1; r++)
        hsmooth(r, hring[(r + 5) % 5]);
    uint32_t count = 0;
    for (int r = 0; r <= (int)st.h; r++) {
        if (r < (int)st.h) {
            hsmooth(r + 2, hring[(r + 2) % 5]);
            int16_t *dst = sring[r % 3];
            for (int x = 0; x < W; x++) {
                int32_t acc = 0;
                for (int j = -2; j <= 2; j++)
                    acc += gk[j + 2] * hring[(r + j + 5) % 5][x];
                dst[x] = (int16_t)((acc + 8) >> 4);
            }
        }
        int y = r - 1;
        if (y < 0)
            continue;
        const int16_t *rows[3] = {sring[clampi(y - 1, 0, (int)st.h - 1) % 3], sring[y % 3],
                                  sring[clampi(y + 1, 0, (int)st.h - 1) % 3]};
        for (int x = 0; x < W; x++) {
            int32_t p[3][3];
            for (int j = 0; j < 3; j++)
                for (int k = 0; k < 3; k++)
                    p[j][k] = rows[j][clampi(x + k - 1, 0, W - 1)];
            int32_t g = gradient(p) >> 4;
            st.edges[y][x] = g > THRESH ? 255 : 0;
            count += g > THRESH;
            if (((uint32_t)(x * 7 + y * 13) % 61u) == 0) { /* sampled 2-D reference */
                int32_t q[3][3];
                for (int j = 0; j < 3; j++)
                    for (int k = 0; k < 3; k++)
                        q[j][k] = smooth_ref(y - 1 + j, x + k - 1);
                if (gradient(q) != gradient(p))
                    st.failures++;
            }
        }
    }
    if (count == 0)
        st.failures++;
    st.res.checksum = wl_mix32(st.res.checksum, count);
    for (int y = 0; y < (int)st.h; y++)
        st.res.checksum = wl_mix_bytes(st.res.checksum, st.edges[y], W);
    st.res.rounds_done++;
    return st.res.rounds_done < st.rounds;
}

uint32_t edgedetect_checksum(void)
{
    return wl_final(st.res.checksum, st.failures);
}

uint32_t edgedetect_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0xe1ac88ecu, 0xbeb462cfu};
    return size_class < WL_SIZE_CLASSES ? expected[size_class] : 0;
}

const wl_program_t edgedetect_program = {"edgedetect", edgedetect_init, edgedetect_round,
                                         edgedetect_checksum, edgedetect_expected};
