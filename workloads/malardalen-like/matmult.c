/* matmult.c: 20x20 integer matrix multiplication C = A B (triple loop). Per activation: new A
 * and B with entries in [-128, 127]. Check (Freivalds): C r = A (B r) for a random vector r. */
#include "mal_sp.h"
#include "malardalen.h"

#define MM_N 20

static struct {
    wl_run_t run;
    int32_t a[MM_N][MM_N], b[MM_N][MM_N], c[MM_N][MM_N];
} st;

void matmult_init(uint32_t size_class)
{
    mal_run_init(&st.run, size_class, 0x3a73u);
}

int matmult_round(void)
{
    wl_run_t *r = &st.run;
    for (int i = 0; i < MM_N; i++)
        for (int j = 0; j < MM_N; j++) {
            st.a[i][j] = (int32_t)wl_prng_below(&r->rng, 256) - 128;
            st.b[i][j] = (int32_t)wl_prng_below(&r->rng, 256) - 128;
        }
    for (int i = 0; i < MM_N; i++)
        for (int j = 0; j < MM_N; j++) {
            int32_t sum = 0;
            for (int k = 0; k < MM_N; k++)
                sum += st.a[i][k] * st.b[k][j];
            st.c[i][j] = sum;
        }
    int32_t v[MM_N], br[MM_N];
    for (int i = 0; i < MM_N; i++)
        v[i] = (int32_t)wl_prng_below(&r->rng, 16);
    for (int i = 0; i < MM_N; i++) {
        br[i] = 0;
        for (int k = 0; k < MM_N; k++)
            br[i] += st.b[i][k] * v[k];
    }
    uint32_t bad = 0;
    for (int i = 0; i < MM_N; i++) {
        int32_t cr = 0, abr = 0;
        for (int k = 0; k < MM_N; k++) {
            cr += st.c[i][k] * v[k];
            abr += st.a[i][k] * br[k];
        }
        bad |= (uint32_t)(cr ^ abr);
        r->sum = wl_mix32(r->sum, (uint32_t)st.c[i][i]);
    }
    r->failures += bad != 0;
    return wl_run_next(r);
}

uint32_t matmult_checksum(void)
{
    return wl_run_checksum(&st.run);
}

uint32_t matmult_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0xa5b36afdu, 0x6ce74c7au};
    return wl_run_expected(expected, size_class);
}

const wl_program_t matmult_program = {"matmult", matmult_init, matmult_round, matmult_checksum,
                                      matmult_expected};
