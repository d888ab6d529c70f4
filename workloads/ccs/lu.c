/* lu.c: LU decomposition with partial pivoting (Doolittle, in place: PA = LU with unit lower
 * L) followed by forward and back substitution: the kernel's two hot spots are the
 * elimination and the solves. Per round: a new random n x n matrix (entries in [-1, 1]) and
 * a right-hand side b = A x* for a random x*; n = 16 and 3 rounds (small), 32 and 12 rounds
 * (full). Checks: max|x - x*| < 1e-8 and max|(LU - PA)_ij| < 1e-12 * n. */
#include "ccs.h"
#include "wl_math.h"

#define LU_MAX 32

static struct {
    wl_run_t run;
    uint32_t n;
    double a[LU_MAX][LU_MAX], lu[LU_MAX][LU_MAX];
    double x[LU_MAX], want[LU_MAX], b[LU_MAX];
    uint32_t perm[LU_MAX];
} st;

void lu_init(uint32_t size_class)
{
    st.n = size_class ? LU_MAX : 16u;
    wl_run_init(&st.run, 0x10decu, size_class ? 12u : 3u);
}

static double rnd(void)
{
    return (double)wl_prng_below(&st.run.rng, 20001) / 10000.0 - 1.0;
}

static void decompose(void)
{
    uint32_t n = st.n;
    for (uint32_t i = 0; i < n; i++)
        st.perm[i] = i;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t p = k;
        for (uint32_t i = k + 1; i < n; i++)
            if (wl_fabs(st.lu[i][k]) > wl_fabs(st.lu[p][k]))
                p = i;
        if (p != k) {
            for (uint32_t j = 0; j < n; j++) {
                double t = st.lu[k][j];
                st.lu[k][j] = st.lu[p][j];
                st.lu[p][j] = t;
            }
            uint32_t t = st.perm[k];
            st.perm[k] = st.perm[p];
            st.perm[p] = t;
        }
        for (uint32_t i = k + 1; i < n; i++) {
            double m = st.lu[i][k] / st.lu[k][k];
            st.lu[i][k] = m;
            for (uint32_t j = k + 1; j < n; j++)
                st.lu[i][j] -= m * st.lu[k][j];
        }
    }
}

static void solve(void)
{
    uint32_t n = st.n;
    for (uint32_t i = 0; i < n; i++) {
        double s = st.b[st.perm[i]];
        for (uint32_t j = 0; j < i; j++)
            s -= st.lu[i][j] * st.x[j];
        st.x[i] = s;
    }
    for (uint32_t i = n; i-- > 0;) {
        double s = st.x[i];
        for (uint32_t j = i + 1; j < n; j++)
            s -= st.lu[i][j] * st.x[j];
        st.x[i] = s / st.lu[i][i];
    }
}

int lu_round(void)
{
    wl_run_t *r = &st.run;
    uint32_t n = st.n;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++)
            st.lu[i][j] = st.a[i][j] = rnd();
    for (uint32_t i = 0; i < n; i++)
        st.want[i] = rnd();
    for (uint32_t i = 0; i < n; i++) {
        double s = 0.0;
        for (uint32_t j = 0; j < n; j++)
            s += st.a[i][j] * st.want[j];
        st.b[i] = s;
    }
    decompose();
    solve();
    double worst = 0.0, resid = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        double d = wl_fabs(st.x[i] - st.want[i]);
        worst = d > worst ? d : worst;
        for (uint32_t j = 0; j < n; j++) {
            double s = 0.0; /* (LU)_ij = sum_k L_ik U_kj, L unit lower, U upper */
            for (uint32_t k = 0; k <= i && k <= j; k++)
                s += (k == i ? 1.0 : st.lu[i][k]) * st.lu[k][j];
            double e = wl_fabs(s - st.a[st.perm[i]][j]);
            resid = e > resid ? e : resid;
        }
    }
    r->failures += worst >= 1e-8;
    r->failures += resid >= 1e-12 * (double)n;
    for (uint32_t i = 0; i < n; i++)
        r->sum = wl_mix32(r->sum, (uint32_t)wl_fix(st.lu[i][i], 1e6));
    r->sum = wl_mix32(r->sum, st.perm[n - 1]);
    return wl_run_next(r);
}

uint32_t lu_checksum(void)
{
    return wl_run_checksum(&st.run);
}

uint32_t lu_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0xf1b3e374u, 0x7c96ee91u};
    return wl_run_expected(expected, size_class);
}

const wl_program_t lu_program = {"lu", lu_init, lu_round, lu_checksum, lu_expected};
