/* fir.c: 35-tap FIR filter (Q12 coefficients) over 256 12-bit samples, direct form with the
 * history outside the block taken as zero. Per activation: new coefficients (a smooth
 * low-pass shape plus random perturbation) and new samples. Check: the transposed form (one
 * accumulator per pending output) computes exactly the same outputs. Fixed loops only. */
#include "mal_sp.h"
#include "malardalen.h"

#define FIR_TAPS 35
#define FIR_N 256

static struct {
    wl_run_t run;
    int32_t h[FIR_TAPS];
    int32_t x[FIR_N];
    int32_t y[FIR_N];
    int32_t acc[FIR_N + FIR_TAPS];
} st;

void fir_init(uint32_t size_class)
{
    mal_run_init(&st.run, size_class, 0xf14u);
}

int fir_round(void)
{
    wl_run_t *r = &st.run;
    for (int32_t k = 0; k < FIR_TAPS; k++) {
        int32_t dist = k - FIR_TAPS / 2;
        st.h[k] = 1200 - dist * dist * 3 + (int32_t)wl_prng_below(&r->rng, 257) - 128;
    }
    for (int32_t n = 0; n < FIR_N; n++)
        st.x[n] = (int32_t)wl_prng_below(&r->rng, 4096) - 2048;
    /* Direct form: y[n] = sum_k h[k] x[n - k]; the zero history is a masked load. */
    for (int32_t n = 0; n < FIR_N; n++) {
        int32_t sum = 0;
        for (int32_t k = 0; k < FIR_TAPS; k++) {
            int32_t i = n - k;
            uint32_t valid = i >= 0;
            int32_t xi = st.x[sp_sel(valid, i, 0)] & (int32_t)sp_mask(valid);
            sum += st.h[k] * xi;
        }
        st.y[n] = sum;
    }
    /* Transposed form: each input sample adds its contribution to the next FIR_TAPS outputs. */
    for (int32_t i = 0; i < FIR_N + FIR_TAPS; i++)
        st.acc[i] = 0;
    for (int32_t n = 0; n < FIR_N; n++)
        for (int32_t k = 0; k < FIR_TAPS; k++)
            st.acc[n + k] += st.h[k] * st.x[n];
    uint32_t bad = 0;
    for (int32_t n = 0; n < FIR_N; n++) {
        bad |= (uint32_t)(st.acc[n] ^ st.y[n]);
        r->sum = wl_mix32(r->sum, (uint32_t)st.y[n] >> 8);
    }
    r->failures += bad != 0;
    return wl_run_next(r);
}

uint32_t fir_checksum(void)
{
    return wl_run_checksum(&st.run);
}

uint32_t fir_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0xa65dcfadu, 0x7d60b58fu};
    return wl_run_expected(expected, size_class);
}

const wl_program_t fir_program = {"fir", fir_init, fir_round, fir_checksum, fir_expected};
