/* gsm.c: a gsm-like LPC speech codec (the structure of GSM 06.10 full rate, our own simplified
 * quantisers). Each round codes one 160-sample frame of synthetic voiced speech:
 *   encoder: pre-emphasis; autocorrelation (9 lags, normalised); Schur recursion to 8 reflection
 *   coefficients; log-area-ratio style quantisation (6,6,5,5,4,4,3,3 bits); lattice short-term
 *   analysis filter to a residual; per 40-sample subframe a long-term predictor (lag 40..120,
 *   2-bit gain) and RPE-style coding (best of 4 decimation grids, block maximum with 7-bit
 *   exponent/mantissa, 3-bit samples);
 *   decoder: rebuilds the residual from the parameters alone, lattice synthesis, de-emphasis.
 * Self-checks: decoder residual equals the encoder's reconstruction exactly, and the decoded
 * speech has a signal-to-noise ratio of at least 3 dB. All arithmetic is integer fixed point. */
#include "gsm.h"

#include "gsm_lpc.h"
#include "wl_checksum.h"
#include "wl_prng.h"

#define FRAME GSM_FRAME
#define SUB 40
#define ORDER GSM_ORDER
#define HIST 120
#define RPE 13

typedef struct {
    int8_t lar[ORDER];
    uint8_t lag[4], gain[4], grid[4], xmax[4];
    int8_t pulses[4][RPE];
} gsm_frame_t;

typedef struct {
    int16_t dp[HIST]; /* past reconstructed residual, oldest first */
} ltp_state_t;

static const int32_t gain_q15[4] = {3277, 11469, 21299, 32767};

static struct {
    int32_t pre_prev;           /* pre-emphasis input history */
    int32_t u[ORDER];           /* analysis lattice state */
    int32_t v[ORDER + 1];       /* decoder synthesis lattice state */
    int32_t deemph;             /* decoder de-emphasis state */
    ltp_state_t enc_ltp, dec_ltp;
    int32_t pitch, phase, noise_mix;
    int32_t f1, f2;             /* formant resonator state of the speech source */
    uint32_t rounds;
    uint32_t failures;
    wl_prng_t rng;
    wl_result_t res;
} st;

static int32_t sat16(int32_t v)
{
    return v > 32767 ? 32767 : v < -32768 ? -32768 : v;
}

static int32_t mul_q15(int32_t a, int32_t b)
{
    return (int32_t)(((int64_t)a * b) >> 15);
}

/* Synthetic voiced speech: a glottal pulse train through two resonators, plus breath noise. */
static void make_speech(int16_t *s)
{
    if (wl_prng_below(&st.rng, 4) == 0)
        st.pitch = 45 + (int32_t)wl_prng_below(&st.rng, 70);
    for (int n = 0; n < FRAME; n++) {
        int32_t x = (st.phase == 0) ? 6000 : 0;
        st.phase = (st.phase + 1) % st.pitch;
        x += (int32_t)(wl_prng_next(&st.rng) & 255u) - 128;
        /* y = x + 1.6 y1 - 0.8 y2 (Q14), state held in f1 (y1) and f2 (y2) */
        int32_t y = x + (int32_t)(((int64_t)26214 * st.f1 - (int64_t)13107 * st.f2) >> 14);
        y = sat16(y);
        st.f2 = st.f1;
        st.f1 = y;
        s[n] = (int16_t)(y / 2);
    }
}

static int32_t abs32(int32_t v)
{
    return v < 0 ? -v : v;
}

/* 7-bit block maximum code (exponent 4 bits, mantissa 3 bits) and its value. */
static int32_t xmax_value(uint32_t code)
{
    return ((int32_t)(code & 7u) + 8) << (code >> 3) >> 3;
}

static uint8_t xmax_code(int32_t xmax)
{
    for (uint32_t c = 0; c < 128; c++)
        if (xmax_value(c) >= xmax)
            return (uint8_t)c;
    return 127;
}

/* Rebuilds a subframe's residual from its parameters and appends it to the LTP history. */
static void rebuild_subframe(ltp_state_t *ltp, const gsm_frame_t *f, int sub, int16_t *out)
{
    int32_t e[SUB] = {0};
    int32_t xm = xmax_value(f->xmax[sub]);
    for (int i = 0; i < RPE; i++)
        e[f->grid[sub] + 3 * i] = f->pulses[sub][i] * xm / 4;
    int32_t lag = f->lag[sub], b = gain_q15[f->gain[sub]];
    int16_t next[SUB];
    for (int j = 0; j < SUB; j++) {
        int32_t past = j - lag >= 0 ? next[j - lag] : ltp->dp[HIST + j - lag];
        next[j] = (int16_t)sat16(e[j] + mul_q15(b, past));
        out[j] = next[j];
    }
    for (int j = 0; j < HIST - SUB; j++)
        ltp->dp[j] = ltp->dp[j + SUB];
    for (int j = 0; j < SUB; j++)
        ltp->dp[HIST - SUB + j] = next[j];
}

static void encode_subframe(gsm_frame_t *f, int sub, const int16_t *d, int16_t *recon)
{
    int64_t best = -1;
    int32_t lag = 40;
    for (int32_t l = 40; l <= HIST; l++) {
        int64_t c = 0;
        for (int j = 0; j < SUB; j++)
            c += (int64_t)d[j] * st.enc_ltp.dp[HIST + j - l];
        if (c > best) {
            best = c;
            lag = l;
        }
    }
    int64_t energy = 0;
    for (int j = 0; j < SUB; j++) {
        int32_t x = st.enc_ltp.dp[HIST + j - lag];
        energy += (int64_t)x * x;
    }
    uint8_t g = 0;
    if (best > 0 && energy > 0) {
        int64_t ratio = best * 32768 / energy; /* Q15 gain estimate */
        g = ratio < 6554 ? 0 : ratio < 16384 ? 1 : ratio < 26214 ? 2 : 3;
    }
    f->lag[sub] = (uint8_t)lag;
    f->gain[sub] = g;
    int32_t e[SUB];
    for (int j = 0; j < SUB; j++)
        e[j] = d[j] - mul_q15(gain_q15[g], st.enc_ltp.dp[HIST + j - lag]);
    int64_t best_en = -1;
    uint8_t grid = 0;
    for (uint8_t m = 0; m < 4; m++) {
        int64_t en = 0;
        for (int i = 0; i < RPE; i++)
            en += (int64_t)e[m + 3 * i] * e[m + 3 * i];
        if (en > best_en) {
            best_en = en;
            grid = m;
        }
    }
    int32_t xmax = 0;
    for (int i = 0; i < RPE; i++)
        if (abs32(e[grid + 3 * i]) > xmax)
            xmax = abs32(e[grid + 3 * i]);
    f->grid[sub] = grid;
    f->xmax[sub] = xmax_code(xmax);
    int32_t xm = xmax_value(f->xmax[sub]);
    for (int i = 0; i < RPE; i++) {
        int32_t x = e[grid + 3 * i];
        int32_t q = xm ? (x * 4 + (x >= 0 ? xm / 2 : -xm / 2)) / xm : 0;
        f->pulses[sub][i] = (int8_t)(q < -4 ? -4 : q > 3 ? 3 : q);
    }
    rebuild_subframe(&st.enc_ltp, f, sub, recon);
}

static void encode(const int16_t *s, gsm_frame_t *f, int16_t *recon)
{
    int16_t pre[FRAME], d[FRAME];
    for (int n = 0; n < FRAME; n++) {
        pre[n] = (int16_t)sat16(s[n] - mul_q15(28180, st.pre_prev));
        st.pre_prev = s[n];
    }
    int32_t r[ORDER];
    gsm_lpc_analysis(pre, r);
    for (int i = 0; i < ORDER; i++)
        f->lar[i] = gsm_quant_lar(i, r[i]);
    gsm_decode_lar(f->lar, r);
    for (int n = 0; n < FRAME; n++) {
        int32_t di = pre[n], sav = di;
        for (int i = 0; i < ORDER; i++) {
            int32_t ui = st.u[i];
            st.u[i] = sav;
            sav = sat16(ui + mul_q15(r[i], di));
            di = sat16(di + mul_q15(r[i], ui));
        }
        d[n] = (int16_t)di;
    }
    for (int sub = 0; sub < 4; sub++)
        encode_subframe(f, sub, d + SUB * sub, recon + SUB * sub);
}

static void decode(const gsm_frame_t *f, int16_t *resid, int16_t *out)
{
    int32_t r[ORDER];
    gsm_decode_lar(f->lar, r);
    for (int sub = 0; sub < 4; sub++)
        rebuild_subframe(&st.dec_ltp, f, sub, resid + SUB * sub);
    for (int n = 0; n < FRAME; n++) {
        int32_t sri = resid[n];
        for (int i = ORDER - 1; i >= 0; i--) {
            sri = sat16(sri - mul_q15(r[i], st.v[i]));
            st.v[i + 1] = sat16(st.v[i] + mul_q15(r[i], sri));
        }
        st.v[0] = sri;
        st.deemph = sat16(sri + mul_q15(28180, st.deemph));
        out[n] = (int16_t)st.deemph;
    }
}

void gsm_init(uint32_t size_class)
{
    st.pre_prev = 0;
    st.deemph = 0;
    for (int i = 0; i < ORDER; i++)
        st.u[i] = 0;
    for (int i = 0; i <= ORDER; i++)
        st.v[i] = 0;
    for (int i = 0; i < HIST; i++)
        st.enc_ltp.dp[i] = st.dec_ltp.dp[i] = 0;
    st.pitch = 57;
    st.phase = 0;
    st.f1 = st.f2 = 0;
    st.rounds = size_class ? 400u : 4u;
    st.failures = 0;
    wl_prng_seed(&st.rng, 0x65e1u);
    st.res.checksum = WL_CHECKSUM_INIT;
    st.res.rounds_done = 0;
}

int gsm_round(void)
{
    int16_t speech[FRAME], recon[FRAME], resid[FRAME], out[FRAME];
    gsm_frame_t frame;
    make_speech(speech);
    encode(speech, &frame, recon);
    decode(&frame, resid, out);
    int64_t sig = 0, err = 0;
    for (int n = 0; n < FRAME; n++) {
        if (resid[n] != recon[n])
            st.failures++;
        int32_t e = out[n] - speech[n];
        sig += (int64_t)speech[n] * speech[n];
        err += (int64_t)e * e;
    }
    /* Frames after the first must reach 3 dB SNR (error energy below half the signal). */
    if (st.res.rounds_done > 0 && err * 2 >= sig)
        st.failures++;
    st.res.checksum = wl_mix_bytes(st.res.checksum, (const uint8_t *)frame.lar, ORDER);
    for (int sub = 0; sub < 4; sub++) {
        st.res.checksum = wl_mix32(st.res.checksum, (uint32_t)frame.lag[sub] << 24 |
                                                        (uint32_t)frame.gain[sub] << 16 |
                                                        (uint32_t)frame.grid[sub] << 8 |
                                                        frame.xmax[sub]);
        st.res.checksum = wl_mix_bytes(st.res.checksum, (const uint8_t *)frame.pulses[sub], RPE);
    }
    st.res.checksum = wl_mix_i16(st.res.checksum, out, FRAME);
    st.res.rounds_done++;
    return st.res.rounds_done < st.rounds;
}

uint32_t gsm_checksum(void)
{
    return wl_final(st.res.checksum, st.failures);
}

uint32_t gsm_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0xcca81c7du, 0x97ded417u};
    return size_class < WL_SIZE_CLASSES ? expected[size_class] : 0;
}

const wl_program_t gsm_program = {"gsm", gsm_init, gsm_round, gsm_checksum, gsm_expected};
