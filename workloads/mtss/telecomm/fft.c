/* fft.c: in-place iterative radix-2 complex FFT (decimation in time, bit-reversal permutation)
 * in double precision. Each round builds a 64-point signal that is a sum of four random
 * sinusoids (integer bins, random phases and amplitudes) in local arrays, transforms it, checks
 * that the four strongest bins are the generated ones, inverts the transform and checks the
 * round trip error. Twiddles come from wl_sin/wl_cos (only +,-,*,/), so host x86-64 and rv32
 * soft-float produce bit-identical spectra; the checksum uses the spectrum rounded to 1e-3. */
#include "fft.h"

#include "wl_checksum.h"
#include "wl_math.h"
#include "wl_prng.h"

#define N 64
#define LOG2N 6
#define WAVES 4

static struct {
    double cos_t[N], sin_t[N]; /* cos/sin(2*pi*k/N) */
    uint32_t rounds;
    uint32_t failures;
    wl_prng_t rng;
    wl_result_t res;
} st;

static uint32_t bit_reverse(uint32_t x)
{
    uint32_t r = 0;
    for (int i = 0; i < LOG2N; i++) {
        r = (r << 1) | (x & 1u);
        x >>= 1;
    }
    return r;
}

/* Transforms (re, im) in place; inverse selects the conjugate twiddles and scales by 1/N. */
static void fft(double *re, double *im, int inverse)
{
    for (uint32_t i = 0; i < N; i++) {
        uint32_t j = bit_reverse(i);
        if (j > i) {
            double t = re[i];
            re[i] = re[j];
            re[j] = t;
            t = im[i];
            im[i] = im[j];
            im[j] = t;
        }
    }
    for (uint32_t len = 2; len <= N; len <<= 1) {
        uint32_t half = len / 2, stride = N / len;
        for (uint32_t start = 0; start < N; start += len) {
            for (uint32_t k = 0; k < half; k++) {
                double wr = st.cos_t[k * stride];
                double wi = inverse ? st.sin_t[k * stride] : -st.sin_t[k * stride];
                uint32_t a = start + k, b = a + half;
                double tr = re[b] * wr - im[b] * wi;
                double ti = re[b] * wi + im[b] * wr;
                re[b] = re[a] - tr;
                im[b] = im[a] - ti;
                re[a] += tr;
                im[a] += ti;
            }
        }
    }
    if (inverse) {
        for (uint32_t i = 0; i < N; i++) {
            re[i] /= (double)N;
            im[i] /= (double)N;
        }
    }
}

void fft_init(uint32_t size_class)
{
    for (int k = 0; k < N; k++) {
        double a = 2.0 * WL_PI * (double)k / (double)N;
        st.cos_t[k] = wl_cos(a);
        st.sin_t[k] = wl_sin(a);
    }
    st.rounds = size_class ? 150u : 2u;
    st.failures = 0;
    wl_prng_seed(&st.rng, 0xff7u);
    st.res.checksum = WL_CHECKSUM_INIT;
    st.res.rounds_done = 0;
}

int fft_round(void)
{
    double re[N], im[N], orig[N];
    uint32_t bins[WAVES];
    for (int i = 0; i < N; i++)
        re[i] = im[i] = 0.0;
    for (int w = 0; w < WAVES; w++) {
        /* Distinct bins in [1, N/2), so each appears once in the positive half. */
        uint32_t bin;
        int dup;
        do {
            bin = 1u + wl_prng_below(&st.rng, N / 2 - 1);
            dup = 0;
            for (int v = 0; v < w; v++)
                dup |= bins[v] == bin;
        } while (dup);
        bins[w] = bin;
        uint32_t phase = wl_prng_below(&st.rng, N);
        double amp = 1.0 + (double)wl_prng_below(&st.rng, 1000) / 100.0;
        for (uint32_t n = 0; n < N; n++)
            re[n] += amp * st.cos_t[(bin * n + phase) % N];
    }
    for (int i = 0; i < N; i++)
        orig[i] = re[i];
    fft(re, im, 0);
    for (int i = 0; i < N; i++) {
        st.res.checksum = wl_mix32(st.res.checksum, (uint32_t)wl_fix(re[i], 1000.0));
        st.res.checksum = wl_mix32(st.res.checksum, (uint32_t)wl_fix(im[i], 1000.0));
    }
    /* Every generated bin must carry at least N/2 (amplitude >= 1) of energy; others ~0. */
    for (uint32_t k = 1; k < N / 2; k++) {
        double mag2 = re[k] * re[k] + im[k] * im[k];
        int generated = 0;
        for (int w = 0; w < WAVES; w++)
            generated |= bins[w] == k;
        if (generated != (mag2 > (double)(N * N) / 16.0))
            st.failures++;
    }
    fft(re, im, 1);
    for (int i = 0; i < N; i++)
        if (wl_fabs(re[i] - orig[i]) > 1e-9 || wl_fabs(im[i]) > 1e-9)
            st.failures++;
    st.res.rounds_done++;
    return st.res.rounds_done < st.rounds;
}

uint32_t fft_checksum(void)
{
    return wl_final(st.res.checksum, st.failures);
}

uint32_t fft_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0x43f977bbu, 0x776c395fu};
    return size_class < WL_SIZE_CLASSES ? expected[size_class] : 0;
}

const wl_program_t fft_program = {"fft", fft_init, fft_round, fft_checksum, fft_expected};
