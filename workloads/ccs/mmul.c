/* mmul.c: integer matrix multiplication C = A B of n x n matrices (i-k-j loop order, the
 * inner loop streaming a row of B). Per round: new A and B with entries in [-1000, 1000];
 * n = 16 and 3 rounds (small), 64 and 12 rounds (full). Check (Freivalds, three random
 * vectors): C r = A (B r) exactly. */
#include "ccs.h"

#define MM_MAX 64

static struct {
    wl_run_t run;
    uint32_t n;
    int32_t a[MM_MAX][MM_MAX], b[MM_MAX][MM_MAX], c[MM_MAX][MM_MAX];
} st;

void mmul_init(uint32_t size_class)
{
    st.n = size_class ? MM_MAX : 16u;
    wl_run_init(&st.run, 0x3303u, size_class ? 12u : 3u);
}

static void multiply(void)
{
    uint32_t n = st.n;
    for (uint32_t i = 0; i < n; i++) {
        for (uint32_t j = 0; j < n; j++)
            st.c[i][j] = 0;
        for (uint32_t k = 0; k < n; k++) {
            int32_t aik = st.a[i][k];
            for (uint32_t j = 0; j < n; j++)
                st.c[i][j] += aik * st.b[k][j];
        }
    }
}

/* Freivalds' check with one random vector of entries in [0, 7]; 1 if C r == A (B r). */
static int freivalds(void)
{
    uint32_t n = st.n;
    int64_t v[MM_MAX], br[MM_MAX];
    for (uint32_t i = 0; i < n; i++)
        v[i] = wl_prng_below(&st.run.rng, 8);
    for (uint32_t i = 0; i < n; i++) {
        br[i] = 0;
        for (uint32_t k = 0; k < n; k++)
            br[i] += st.b[i][k] * v[k];
    }
    for (uint32_t i = 0; i < n; i++) {
        int64_t cr = 0, abr = 0;
        for (uint32_t k = 0; k < n; k++) {
            cr += st.c[i][k] * v[k];
            abr += st.a[i][k] * br[k];
        }
        if (cr != abr)
            return 0;
    }
    return 1;
}

int mmul_round(void)
{
    wl_run_t *r = &st.run;
    uint32_t n = st.n;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++) {
            st.a[i][j] = (int32_t)wl_prng_below(&r->rng, 2001) - 1000;
            st.b[i][j] = (int32_t)wl_prng_below(&r->rng, 2001) - 1000;
        }
    multiply();
    for (int t = 0; t < 3; t++)
        r->failures += !freivalds();
    for (uint32_t i = 0; i < n; i++)
        r->sum = wl_mix32(r->sum, (uint32_t)st.c[i][(i * 7u) % n]);
    return wl_run_next(r);
}

uint32_t mmul_checksum(void)
{
    return wl_run_checksum(&st.run);
}

uint32_t mmul_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0x1c88be02u, 0xb0dc88c3u};
    return wl_run_expected(expected, size_class);
}

const wl_program_t mmul_program = {"mmul", mmul_init, mmul_round, mmul_checksum, mmul_expected};
