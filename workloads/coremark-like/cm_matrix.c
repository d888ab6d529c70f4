/* cm_matrix.c: the matrix kernel over 10 x 10 matrices A, B (16-bit entries masked to 12 bits)
 * and C (32-bit). Per iteration, with a small constant k that changes every iteration:
 * A += k; C = k A; v = A b (b = first row of B); C = A B; C = the bit-field products
 * ((a b >> 2) & 15) * ((a b >> 5) & 127) summed over the inner index; A -= k. Each result is
 * summarised (running sum with a clip, counting rises) into the CRC. Checks: A B passes a
 * row-sum test (C 1 = A (B 1)), and A is unchanged at the end (its CRC before and after). */
#include "coremark.h"

#define N CM_MAT_N
#define CM_MASK 0x0fff
#define CM_CLIP (1 << 24)

void cm_matrix_init(cm_state_t *s)
{
    wl_prng_t rng;
    wl_prng_seed(&rng, (uint32_t)s->seed2 << 16 | s->seed1 | 1u);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            s->ma[i][j] = (int16_t)(wl_prng_next(&rng) & CM_MASK);
            s->mb[i][j] = (int16_t)(wl_prng_next(&rng) & CM_MASK);
        }
}

/* Running sum that resets above the clip (scoring 10) and otherwise scores rises. */
static uint16_t summarize(const int32_t *c, int n)
{
    int32_t acc = 0, prev = 0;
    uint16_t score = 0;
    for (int i = 0; i < n; i++) {
        acc += c[i];
        if (acc > CM_CLIP) {
            score += 10;
            acc = 0;
        } else {
            score += c[i] > prev;
        }
        prev = c[i];
    }
    return (uint16_t)(score ^ (uint16_t)acc);
}

static uint16_t crc_of_a(const cm_state_t *s, uint16_t crc)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            crc = cm_crc16((uint16_t)s->ma[i][j], crc);
    return crc;
}

uint16_t cm_matrix_iterate(cm_state_t *s, uint32_t iteration, uint32_t *failures)
{
    int16_t k = (int16_t)(((uint32_t)s->seed3 + iteration) & 0x0f);
    uint16_t a_before = crc_of_a(s, 0), crc = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            s->ma[i][j] = (int16_t)(s->ma[i][j] + k);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            s->mc[i][j] = (int32_t)s->ma[i][j] * k;
    crc = cm_crc16(summarize(&s->mc[0][0], N * N), crc);
    int32_t v[N];
    for (int i = 0; i < N; i++) {
        v[i] = 0;
        for (int j = 0; j < N; j++)
            v[i] += (int32_t)s->ma[i][j] * s->mb[0][j];
    }
    crc = cm_crc16(summarize(v, N), crc);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            int32_t sum = 0;
            for (int m = 0; m < N; m++)
                sum += (int32_t)s->ma[i][m] * s->mb[m][j];
            s->mc[i][j] = sum;
        }
    for (int i = 0; i < N; i++) {
        int64_t row = 0, check = 0;
        for (int j = 0; j < N; j++)
            row += s->mc[i][j];
        for (int m = 0; m < N; m++) {
            int64_t bsum = 0;
            for (int j = 0; j < N; j++)
                bsum += s->mb[m][j];
            check += (int64_t)s->ma[i][m] * bsum;
        }
        *failures += row != check;
    }
    crc = cm_crc16(summarize(&s->mc[0][0], N * N), crc);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            int32_t sum = 0;
            for (int m = 0; m < N; m++) {
                int32_t p = (int32_t)s->ma[i][m] * s->mb[m][j];
                sum += ((p >> 2) & 15) * ((p >> 5) & 127);
            }
            s->mc[i][j] = sum;
        }
    crc = cm_crc16(summarize(&s->mc[0][0], N * N), crc);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            s->ma[i][j] = (int16_t)(s->ma[i][j] - k);
    *failures += crc_of_a(s, 0) != a_before;
    return crc;
}
