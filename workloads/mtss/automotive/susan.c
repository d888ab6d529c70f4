/* susan.c: SUSAN-style low-level image processing (Smith & Brady's USAN principle), our own
 * implementation: brightness-similarity smoothing, edge detection and corner detection over a
 * synthetic 96-pixel-wide image of rectangles and a disc with noise. Work is done per 16-row
 * band (the small size class processes only the middle third of the columns); each round
 * runs one of the three operations on one band, holding the band's padded
 * window and the response map in local arrays (the large frame the original's working buffers
 * give it). Edges: USAN area over the 37-pixel circular mask below 3/4 of the maximum, with
 * horizontal non-maximum suppression. Corners: area below 1/2 of the maximum and a USAN centroid
 * away from the nucleus. Self-checks: smoothing stays within each window's range and leaves flat
 * regions unchanged; the disc and rectangles must produce edges and corners. */
#include "susan.h"

#include "wl_checksum.h"
#include "wl_math.h"
#include "wl_prng.h"

#define W 96
#define MAX_H 192
#define BAND 16
#define R 3
#define THRESH 20.0

static struct {
    uint8_t img[MAX_H][W];
    uint8_t bp[511];  /* 100 * exp(-(d/t)^6), d = -255..255: edge/corner similarity */
    uint8_t bs[256];  /* 100 * exp(-(d/t)^2): smoothing similarity */
    uint32_t h, bands;
    uint32_t x0, w; /* columns processed: [x0, x0 + w) (the window always holds W) */
    uint32_t edges, corners;
    uint32_t rounds;
    uint32_t failures;
    wl_prng_t rng;
    wl_result_t res;
} st;

static const int8_t mask_half[2 * R + 1] = {1, 2, 3, 3, 3, 2, 1}; /* 37-pixel disc */

/* e^-x for x >= 0: Taylor series of e^(x/1024), squared ten times, inverted. */
static double exp_neg(double x)
{
    if (x > 30.0)
        return 0.0; /* below 1e-13: rounds to 0 in every table */
    double y = x / 1024.0, term = 1.0, sum = 1.0;
    for (int n = 1; n < 10; n++) {
        term = term * y / (double)n;
        sum += term;
    }
    for (int i = 0; i < 10; i++)
        sum *= sum;
    return 1.0 / sum;
}

static void make_image(void)
{
    for (uint32_t y = 0; y < st.h; y++)
        for (uint32_t x = 0; x < W; x++)
            st.img[y][x] = 60;
    for (int k = 0; k < 6; k++) {
        uint32_t x0 = wl_prng_below(&st.rng, W - 20), y0 = wl_prng_below(&st.rng, st.h - 8);
        uint32_t w = 8 + wl_prng_below(&st.rng, 12), hh = 6 + wl_prng_below(&st.rng, 10);
        uint8_t v = (uint8_t)(140 + wl_prng_below(&st.rng, 60));
        for (uint32_t y = y0; y < y0 + hh && y < st.h; y++)
            for (uint32_t x = x0; x < x0 + w; x++)
                st.img[y][x] = v;
    }
    int32_t cx = W / 2, cy = (int32_t)st.h / 2, rad = (int32_t)st.h / 3;
    for (int32_t y = 0; y < (int32_t)st.h; y++)
        for (int32_t x = 0; x < W; x++)
            if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= rad * rad)
                st.img[y][x] = 230;
    for (uint32_t y = 0; y < st.h; y++)
        for (uint32_t x = 0; x < W; x++)
            if (wl_prng_below(&st.rng, 4) == 0)
                st.img[y][x] = (uint8_t)(st.img[y][x] + wl_prng_below(&st.rng, 5) - 2);
}

/* Copies band b with R pixels of replicated border into win. */
static void load_window(uint32_t b, uint8_t win[BAND + 2 * R][W + 2 * R])
{
    for (int y = 0; y < BAND + 2 * R; y++) {
        int32_t sy = (int32_t)(b * BAND) + y - R;
        sy = sy < 0 ? 0 : sy >= (int32_t)st.h ? (int32_t)st.h - 1 : sy;
        for (int x = 0; x < W + 2 * R; x++) {
            int32_t sx = x - R;
            sx = sx < 0 ? 0 : sx >= W ? W - 1 : sx;
            win[y][x] = st.img[sy][sx];
        }
    }
}

static void usan(uint8_t win[BAND + 2 * R][W + 2 * R], int y, int x, int32_t *n, int32_t *cx,
                 int32_t *cy)
{
    int32_t c = win[y + R][x + R], area = 0, sx = 0, sy = 0;
    for (int dy = -R; dy <= R; dy++) {
        for (int dx = -mask_half[dy + R]; dx <= mask_half[dy + R]; dx++) {
            int32_t w = st.bp[win[y + R + dy][x + R + dx] - c + 255];
            area += w;
            sx += w * dx;
            sy += w * dy;
        }
    }
    *n = area;
    *cx = sx;
    *cy = sy;
}

static void smooth_band(uint8_t win[BAND + 2 * R][W + 2 * R], int32_t resp[BAND][W])
{
    static const uint8_t gauss[5] = {1, 4, 6, 4, 1};
    for (int y = 0; y < BAND; y++) {
        for (int x = (int)st.x0; x < (int)(st.x0 + st.w); x++) {
            int32_t c = win[y + R][x + R], total = 0, acc = 0, lo = 255, hi = 0;
            for (int dy = -2; dy <= 2; dy++) {
                for (int dx = -2; dx <= 2; dx++) {
                    if (dx == 0 && dy == 0)
                        continue;
                    int32_t p = win[y + R + dy][x + R + dx], d = p - c;
                    int32_t w = gauss[dy + 2] * gauss[dx + 2] * st.bs[d < 0 ? -d : d];
                    total += w;
                    acc += w * p;
                    lo = p < lo ? p : lo;
                    hi = p > hi ? p : hi;
                }
            }
            int32_t out = total ? (acc + total / 2) / total : c;
            if (total && (out < lo || out > hi))
                st.failures++;
            resp[y][x] = out;
        }
    }
}

static uint32_t edge_band(uint8_t win[BAND + 2 * R][W + 2 * R], int32_t resp[BAND][W])
{
    const int32_t max_no = 3 * 37 * 100 / 4;
    uint32_t found = 0;
    for (int y = 0; y < BAND; y++) {
        for (int x = (int)st.x0; x < (int)(st.x0 + st.w); x++) {
            int32_t n, cx, cy;
            usan(win, y, x, &n, &cx, &cy);
            resp[y][x] = n < max_no ? max_no - n : 0;
        }
        for (int x = (int)st.x0 + 1; x < (int)(st.x0 + st.w) - 1; x++)
            found += resp[y][x] > 0 && resp[y][x] >= resp[y][x - 1] && resp[y][x] > resp[y][x + 1];
    }
    return found;
}

static uint32_t corner_band(uint8_t win[BAND + 2 * R][W + 2 * R], int32_t resp[BAND][W])
{
    const int32_t max_no = 37 * 100 / 2;
    uint32_t found = 0;
    for (int y = 0; y < BAND; y++) {
        for (int x = (int)st.x0; x < (int)(st.x0 + st.w); x++) {
            int32_t n, cx, cy;
            usan(win, y, x, &n, &cx, &cy);
            int64_t d2 = (int64_t)cx * cx + (int64_t)cy * cy;
            resp[y][x] = (n < max_no && d2 * 4 >= (int64_t)n * n) ? max_no - n : 0;
            found += resp[y][x] > 0;
        }
    }
    return found;
}

void susan_init(uint32_t size_class)
{
    for (int d = -255; d <= 255; d++) {
        double r = (double)d / THRESH;
        double r2 = r * r;
        st.bp[d + 255] = (uint8_t)wl_fix(100.0 * exp_neg(r2 * r2 * r2), 1.0);
    }
    for (int d = 0; d < 256; d++) {
        double r = (double)d / THRESH;
        st.bs[d] = (uint8_t)wl_fix(100.0 * exp_neg(r * r), 1.0);
    }
    st.h = size_class ? MAX_H : BAND;
    st.w = size_class ? W : W / 3u;
    st.x0 = (W - st.w) / 2u;
    st.bands = st.h / BAND;
    st.rounds = 3u * st.bands;
    st.edges = st.corners = 0;
    st.failures = st.bp[255] != 100 || st.bs[0] != 100;
    wl_prng_seed(&st.rng, 0x5a5a1u);
    make_image();
    st.res.checksum = WL_CHECKSUM_INIT;
    st.res.rounds_done = 0;
}

int susan_round(void)
{
    uint8_t win[BAND + 2 * R][W + 2 * R];
    int32_t resp[BAND][W];
    uint32_t band = st.res.rounds_done / 3u, op = st.res.rounds_done % 3u;
    load_window(band, win);
    if (op == 0)
        smooth_band(win, resp);
    else if (op == 1)
        st.edges += edge_band(win, resp);
    else
        st.corners += corner_band(win, resp);
    for (int y = 0; y < BAND; y++)
        for (int x = (int)st.x0; x < (int)(st.x0 + st.w); x++)
            st.res.checksum = wl_mix32(st.res.checksum, (uint32_t)resp[y][x]);
    st.res.rounds_done++;
    if (st.res.rounds_done < st.rounds)
        return 1;
    st.failures += st.edges == 0 || st.corners == 0;
    st.res.checksum = wl_mix32(wl_mix32(st.res.checksum, st.edges), st.corners);
    return 0;
}

uint32_t susan_checksum(void)
{
    return wl_final(st.res.checksum, st.failures);
}

uint32_t susan_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0xeb973371u, 0xce8d7b78u};
    return size_class < WL_SIZE_CLASSES ? expected[size_class] : 0;
}

const wl_program_t susan_program = {"susan", susan_init, susan_round, susan_checksum,
                                    susan_expected};
