/* qsort.c: recursive quicksort (textbook Lomuto partition, last element as pivot, comparison
 * through a function pointer like libc qsort) of 3-D vectors by their distance from the origin,
 * as MiBench qsort_large sorts vectors. Each round sorts a new batch that arrives partly
 * sorted (random readings followed by a long ascending run further out); the sorted run
 * drives the recursion depth to the run length, which gives the deep stack this task is known
 * for. Checks: the output is ordered and is a permutation of the input (sum and xor of keys). */
#include "qsort.h"

#include "wl_checksum.h"
#include "wl_prng.h"

#define MAX_N 1600

typedef struct {
    int32_t x, y, z;
    uint32_t dist2; /* x^2 + y^2 + z^2 */
} vec_t;

typedef int (*vec_cmp_t)(const vec_t *, const vec_t *);

static struct {
    vec_t v[MAX_N];
    uint32_t n, run;
    uint32_t rounds;
    uint32_t failures;
    wl_prng_t rng;
    wl_result_t res;
} st;

static int cmp_dist(const vec_t *a, const vec_t *b)
{
    if (a->dist2 != b->dist2)
        return a->dist2 < b->dist2 ? -1 : 1;
    if (a->x != b->x)
        return a->x < b->x ? -1 : 1;
    if (a->y != b->y)
        return a->y < b->y ? -1 : 1;
    return a->z < b->z ? -1 : a->z > b->z;
}

static void swap(vec_t *a, vec_t *b)
{
    vec_t t = *a;
    *a = *b;
    *b = t;
}

static void quicksort(vec_t *a, int32_t lo, int32_t hi, vec_cmp_t cmp)
{
    if (lo >= hi)
        return;
    vec_t pivot = a[hi];
    int32_t i = lo;
    for (int32_t j = lo; j < hi; j++) {
        if (cmp(&a[j], &pivot) < 0) {
            swap(&a[i], &a[j]);
            i++;
        }
    }
    swap(&a[i], &a[hi]);
    quicksort(a, lo, i - 1, cmp);
    quicksort(a, i + 1, hi, cmp);
}

void qsort_init(uint32_t size_class)
{
    st.n = size_class ? 1600u : 200u;
    st.run = size_class ? 1200u : 100u;
    st.rounds = size_class ? 3u : 2u;
    st.failures = 0;
    wl_prng_seed(&st.rng, 0x9507u);
    st.res.checksum = WL_CHECKSUM_INIT;
    st.res.rounds_done = 0;
}

static vec_t random_vec(void)
{
    vec_t v;
    v.x = (int32_t)wl_prng_below(&st.rng, 20001) - 10000;
    v.y = (int32_t)wl_prng_below(&st.rng, 20001) - 10000;
    v.z = (int32_t)wl_prng_below(&st.rng, 20001) - 10000;
    v.dist2 = (uint32_t)(v.x * v.x) + (uint32_t)(v.y * v.y) + (uint32_t)(v.z * v.z);
    return v;
}

int qsort_round(void)
{
    uint32_t sum = 0, xr = 0;
    /* Random readings, then a run of readings moving steadily away from the origin, beyond
     * the random ones (so each partition step peels one element off the run). */
    uint32_t first_run = st.n - st.run;
    for (uint32_t i = 0; i < first_run; i++)
        st.v[i] = random_vec();
    for (uint32_t i = first_run; i < st.n; i++) {
        int32_t r = 20000 + (int32_t)((i - first_run) * 8u + wl_prng_below(&st.rng, 8));
        vec_t v = {r, r / 2, -r / 3, 0};
        v.dist2 = (uint32_t)(v.x * v.x) + (uint32_t)(v.y * v.y) + (uint32_t)(v.z * v.z);
        st.v[i] = v;
    }
    for (uint32_t i = 0; i < st.n; i++) {
        sum += st.v[i].dist2;
        xr ^= st.v[i].dist2 * 2654435761u;
    }
    quicksort(st.v, 0, (int32_t)st.n - 1, cmp_dist);
    for (uint32_t i = 0; i < st.n; i++) {
        if (i > 0 && cmp_dist(&st.v[i - 1], &st.v[i]) > 0)
            st.failures++;
        sum -= st.v[i].dist2;
        xr ^= st.v[i].dist2 * 2654435761u;
        if (i % 16u == 0)
            st.res.checksum = wl_mix32(st.res.checksum, (uint32_t)st.v[i].x);
    }
    st.failures += sum != 0 || xr != 0;
    st.res.checksum = wl_mix32(st.res.checksum, st.v[st.n / 2].dist2);
    st.res.rounds_done++;
    return st.res.rounds_done < st.rounds;
}

uint32_t qsort_checksum(void)
{
    return wl_final(st.res.checksum, st.failures);
}

uint32_t qsort_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0xc87c5cb0u, 0xd4306bf8u};
    return size_class < WL_SIZE_CLASSES ? expected[size_class] : 0;
}

const wl_program_t qsort_program = {"qsort", qsort_init, qsort_round, qsort_checksum,
                                    qsort_expected};
