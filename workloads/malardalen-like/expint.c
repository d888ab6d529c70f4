/* expint.c: exponential integrals E_1..E_5 in Q20 fixed point, single path. E_1(x) by its
 * power series -gamma - ln x + sum_{k=1..24} (-1)^(k+1) x^k / (k k!), ln x by 12 terms of the
 * atanh series, e^-x by 24 Taylor terms, and E_(n+1) = (e^-x - x E_n) / n; every loop has a
 * fixed trip count and the divisions are fixed-step (mal_fixed.h). Per activation: four x in
 * [0.5, 2.5). Checks: init compares E_1(1) with 0.2193839344 (Abramowitz & Stegun table 5.1);
 * every result satisfies A&S 5.1.19, e^-x / (x + n) < E_n(x) <= e^-x / (x + n - 1). */
#include "mal_fixed.h"
#include "malardalen.h"

#define EI_TERMS 24
#define EI_N 5
#define EI_GAMMA 605246 /* Euler-Mascheroni constant 0.5772156649 in Q20 */
#define EI_TOL 256      /* tolerance of the bound checks, in Q20 units (2.4e-4) */

static struct {
    wl_run_t run;
    int32_t en[EI_N + 1];
} st;

static int32_t ln_q(int32_t x)
{
    int32_t y = qdiv(x - Q_ONE, x + Q_ONE), y2 = qmul(y, y), p = y, sum = 0;
    for (int32_t k = 0; k < 12; k++) {
        sum += p / (2 * k + 1);
        p = qmul(p, y2);
    }
    return 2 * sum;
}

static int32_t exp_neg_q(int32_t x)
{
    int32_t term = Q_ONE, sum = Q_ONE;
    for (int32_t k = 1; k <= EI_TERMS; k++) {
        term = qmul(term, -x) / k;
        sum += term;
    }
    return sum;
}

/* Fills st.en[1..EI_N] with E_n(x); returns e^-x. */
static int32_t expint_all(int32_t x)
{
    int32_t t = Q_ONE, s = 0;
    for (int32_t k = 1; k <= EI_TERMS; k++) {
        t = qmul(t, x) / k;
        s += sp_sel((uint32_t)k & 1u, t, -t) / k;
    }
    st.en[1] = -EI_GAMMA - ln_q(x) + s;
    int32_t em = exp_neg_q(x);
    for (int32_t n = 1; n < EI_N; n++)
        st.en[n + 1] = (em - qmul(x, st.en[n])) / n;
    return em;
}

void expint_init(uint32_t size_class)
{
    mal_run_init(&st.run, size_class, 0xe1e1u);
    expint_all(Q_ONE);
    st.run.failures += sp_abs(st.en[1] - 230040) > 32; /* 0.2193839344 * 2^20 */
}

int expint_round(void)
{
    wl_run_t *r = &st.run;
    for (int j = 0; j < 4; j++) {
        int32_t x = Q_ONE / 2 + (int32_t)wl_prng_below(&r->rng, 2u << Q);
        int32_t em = expint_all(x);
        for (int32_t n = 1; n <= EI_N; n++) {
            int32_t lo = qdiv(em, x + n * Q_ONE), hi = qdiv(em, x + (n - 1) * Q_ONE);
            r->failures += st.en[n] <= lo - EI_TOL;
            r->failures += st.en[n] > hi + EI_TOL;
            r->sum = wl_mix32(r->sum, (uint32_t)st.en[n]);
        }
    }
    return wl_run_next(r);
}

uint32_t expint_checksum(void)
{
    return wl_run_checksum(&st.run);
}

uint32_t expint_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0x3b207d71u, 0xe3be19a8u};
    return wl_run_expected(expected, size_class);
}

const wl_program_t expint_program = {"expint", expint_init, expint_round, expint_checksum,
                                     expint_expected};
