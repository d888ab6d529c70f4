/* pegwit_gf.c: GF(2^163) arithmetic (see pegwit_gf.h). */
#include "pegwit_gf.h"

#include "wl_string.h"

static uint16_t spread8[256]; /* bit i of x -> bit 2i */

void gf_setup(void)
{
    for (uint32_t x = 0; x < 256; x++) {
        uint32_t s = 0;
        for (int i = 0; i < 8; i++)
            s |= ((x >> i) & 1u) << (2 * i);
        spread8[x] = (uint16_t)s;
    }
}

void gf_add(gf_t *r, const gf_t *a, const gf_t *b)
{
    for (int i = 0; i < GF_WORDS; i++)
        r->w[i] = a->w[i] ^ b->w[i];
}

/* Reduces a 12-word product modulo x^163 + x^7 + x^6 + x^3 + 1 into r. Bit 32i + j with
 * i >= 6 folds onto bits 32i + j - 163 + {0, 3, 6, 7}; as 32i - 163 = 32(i - 6) + 29, word i
 * folds into words i-6 .. i-4 with the shifts below. */
static void reduce(gf_t *r, uint32_t *c)
{
    for (uint32_t i = 2 * GF_WORDS - 1; i >= GF_WORDS; i--) {
        uint32_t t = c[i];
        c[i - 6] ^= t << 29;
        c[i - 5] ^= t ^ (t >> 3) ^ (t << 3) ^ (t << 4);
        c[i - 4] ^= (t >> 28) ^ (t >> 29);
    }
    uint32_t t = c[5] >> 3; /* bits 163..191 fold onto bits 0..35 */
    c[0] ^= t ^ (t << 3) ^ (t << 6) ^ (t << 7);
    c[1] ^= (t >> 25) ^ (t >> 26) ^ (t >> 29);
    c[5] &= 7u;
    memcpy(r->w, c, sizeof r->w);
}

void gf_mul(gf_t *r, const gf_t *a, const gf_t *b)
{
    uint32_t table[16][GF_WORDS], c[2 * GF_WORDS];
    memset(table[0], 0, sizeof table[0]);
    memcpy(table[1], b->w, sizeof table[1]);
    for (int u = 2; u < 16; u += 2) { /* table[u] = u(x) * b(x); b < 2^163 so it fits */
        for (int i = GF_WORDS - 1; i > 0; i--)
            table[u][i] = table[u / 2][i] << 1 | table[u / 2][i - 1] >> 31;
        table[u][0] = table[u / 2][0] << 1;
        for (int i = 0; i < GF_WORDS; i++)
            table[u + 1][i] = table[u][i] ^ b->w[i];
    }
    memset(c, 0, sizeof c);
    for (int j = 7; j >= 0; j--) {
        for (int i = 0; i < GF_WORDS; i++) {
            const uint32_t *row = table[(a->w[i] >> (4 * j)) & 15u];
            for (int k = 0; k < GF_WORDS; k++)
                c[i + k] ^= row[k];
        }
        if (j > 0) {
            for (int i = 2 * GF_WORDS - 1; i > 0; i--)
                c[i] = c[i] << 4 | c[i - 1] >> 28;
            c[0] <<= 4;
        }
    }
    reduce(r, c);
}

void gf_sqr(gf_t *r, const gf_t *a)
{
    uint32_t c[2 * GF_WORDS];
    for (int i = 0; i < GF_WORDS; i++) {
        uint32_t x = a->w[i];
        c[2 * i] = spread8[x & 0xffu] | (uint32_t)spread8[(x >> 8) & 0xffu] << 16;
        c[2 * i + 1] = spread8[(x >> 16) & 0xffu] | (uint32_t)spread8[x >> 24] << 16;
    }
    reduce(r, c);
}

/* r = a^(2^n) */
static void sqr_n(gf_t *r, const gf_t *a, int n)
{
    *r = *a;
    for (int i = 0; i < n; i++)
        gf_sqr(r, r);
}

void gf_inv(gf_t *r, const gf_t *a)
{
    /* beta_k = a^(2^k - 1); beta_2k = beta_k^(2^k) * beta_k; beta_k+1 = beta_k^2 * a.
     * Walk the bits of m - 1 = 162 from the top; a^-1 = beta_162^2. */
    gf_t beta = *a, t;
    int k = 1;
    for (int bit = 6; bit >= 0; bit--) {
        sqr_n(&t, &beta, k);
        gf_mul(&beta, &t, &beta);
        k *= 2;
        if (((GF_M - 1) >> bit) & 1) {
            gf_sqr(&t, &beta);
            gf_mul(&beta, &t, a);
            k++;
        }
    }
    gf_sqr(r, &beta);
}

uint32_t gf_trace(const gf_t *a)
{
    gf_t t = *a, sum = *a;
    for (int i = 1; i < GF_M; i++) {
        gf_sqr(&t, &t);
        gf_add(&sum, &sum, &t);
    }
    for (int i = 1; i < GF_WORDS; i++)
        if (sum.w[i])
            return 2;
    return sum.w[0] > 1 ? 2 : sum.w[0];
}

int gf_is_zero(const gf_t *a)
{
    uint32_t acc = 0;
    for (int i = 0; i < GF_WORDS; i++)
        acc |= a->w[i];
    return acc == 0;
}

int gf_equal(const gf_t *a, const gf_t *b)
{
    return memcmp(a->w, b->w, sizeof a->w) == 0;
}
