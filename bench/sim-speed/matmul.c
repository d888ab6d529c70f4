/* sim-speed benchmark: 32x32 integer matrix multiply, ITERS times; after each
 * product, the result is folded back into A so no round can be skipped.
 * Exercises mul, strided and sequential word loads/stores and nested loops
 * (about 32K multiply-accumulates per round). */
#include "bench.h"

#ifndef ITERS
#define ITERS 4000
#endif

#define N 32

static int32_t a[N][N], b[N][N], c[N][N];

static void multiply(void)
{
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++) {
            int32_t s = 0;
            for (int k = 0; k < N; k++)
                s += a[i][k] * b[k][j];
            c[i][j] = s;
        }
    }
}

int main(void)
{
    uint32_t seed = 3;
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++) {
            a[i][j] = (int32_t)(bench_lcg(&seed) >> 24) - 128;
            b[i][j] = (int32_t)(bench_lcg(&seed) >> 24) - 128;
        }
    }
    uint32_t sum = 0;
    for (uint32_t it = 0; it < ITERS; it++) {
        multiply();
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < N; j++) {
                sum = sum * 31u + (uint32_t)c[i][j];
                a[i][j] = (c[i][j] >> 8) & 0xff;
            }
        }
    }
    return bench_finish("matmul", ITERS, sum);
}
