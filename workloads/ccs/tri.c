/* tri.c: tridiagonal systems by the Thomas algorithm (forward elimination, then back
 * substitution: the kernel's two hot spots). Per round: 8 new diagonally dominant systems
 * a_i x_(i-1) + b_i x_i + c_i x_(i+1) = d_i of n unknowns with b_i = |a_i| + |c_i| + [1, 2);
 * n = 32 and 3 rounds (small), 256 and 12 rounds (full). Check: the residual
 * max|A x - d| < 1e-12 for every system. */
#include "ccs.h"
#include "wl_math.h"

#define TRI_MAX 256
#define TRI_SYSTEMS 8

static struct {
    wl_run_t run;
    uint32_t n;
    double a[TRI_MAX], b[TRI_MAX], c[TRI_MAX], d[TRI_MAX];
    double cp[TRI_MAX], dp[TRI_MAX], x[TRI_MAX];
} st;

void tri_init(uint32_t size_class)
{
    st.n = size_class ? TRI_MAX : 32u;
    wl_run_init(&st.run, 0x7e1d1a9u, size_class ? 12u : 3u);
}

static double rnd(double lo, double hi)
{
    return lo + (hi - lo) * (double)wl_prng_below(&st.run.rng, 1u << 20) / (double)(1u << 20);
}

static void thomas(void)
{
    uint32_t n = st.n;
    st.cp[0] = st.c[0] / st.b[0];
    st.dp[0] = st.d[0] / st.b[0];
    for (uint32_t i = 1; i < n; i++) {
        double m = st.b[i] - st.a[i] * st.cp[i - 1];
        st.cp[i] = st.c[i] / m;
        st.dp[i] = (st.d[i] - st.a[i] * st.dp[i - 1]) / m;
    }
    st.x[n - 1] = st.dp[n - 1];
    for (uint32_t i = n - 1; i-- > 0;)
        st.x[i] = st.dp[i] - st.cp[i] * st.x[i + 1];
}

int tri_round(void)
{
    wl_run_t *r = &st.run;
    uint32_t n = st.n;
    for (int s = 0; s < TRI_SYSTEMS; s++) {
        for (uint32_t i = 0; i < n; i++) {
            st.a[i] = i == 0 ? 0.0 : rnd(-1.0, 1.0);
            st.c[i] = i == n - 1 ? 0.0 : rnd(-1.0, 1.0);
            st.b[i] = wl_fabs(st.a[i]) + wl_fabs(st.c[i]) + rnd(1.0, 2.0);
            st.d[i] = rnd(-10.0, 10.0);
        }
        thomas();
        double worst = 0.0;
        for (uint32_t i = 0; i < n; i++) {
            double ax = st.b[i] * st.x[i];
            if (i > 0)
                ax += st.a[i] * st.x[i - 1];
            if (i + 1 < n)
                ax += st.c[i] * st.x[i + 1];
            double e = wl_fabs(ax - st.d[i]);
            worst = e > worst ? e : worst;
        }
        r->failures += worst >= 1e-12;
        r->sum = wl_mix32(r->sum, (uint32_t)wl_fix(st.x[s], 1e6));
        r->sum = wl_mix32(r->sum, (uint32_t)wl_fix(st.x[n - 1 - (uint32_t)s], 1e6));
    }
    return wl_run_next(r);
}

uint32_t tri_checksum(void)
{
    return wl_run_checksum(&st.run);
}

uint32_t tri_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0x8cc260f7u, 0xe9f7e61du};
    return wl_run_expected(expected, size_class);
}

const wl_program_t tri_program = {"tri", tri_init, tri_round, tri_checksum, tri_expected};
