/* bitcount.c: population count by seven methods, as MiBench bitcnts compares them: clearing
 * the lowest set bit, parallel (SWAR) sums, a recursive nibble-table count, an iterative
 * nibble-table count, a byte-table count, shift-and-test, and a byte-table count through a
 * union view. Each round counts a local batch of 192 pseudo-random words (of varying density)
 * with every method and checks that all methods agree word by word. */
#include "bitcount.h"

#include "wl_checksum.h"
#include "wl_prng.h"

#define BATCH 192
#define METHODS 7

static struct {
    uint8_t byte_table[256];
    uint32_t totals[METHODS];
    uint32_t rounds;
    uint32_t failures;
    wl_prng_t rng;
    wl_result_t res;
} st;

static const uint8_t nibble_bits[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

static uint32_t count_sparse(uint32_t x)
{
    uint32_t n = 0;
    while (x) {
        x &= x - 1u;
        n++;
    }
    return n;
}

static uint32_t count_parallel(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (x * 0x01010101u) >> 24;
}

static uint32_t count_nibble_recursive(uint32_t x)
{
    uint32_t n = nibble_bits[x & 15u];
    x >>= 4;
    if (x != 0)
        n += count_nibble_recursive(x);
    return n;
}

static uint32_t count_nibble(uint32_t x)
{
    uint32_t n = 0;
    for (int i = 0; i < 8; i++, x >>= 4)
        n += nibble_bits[x & 15u];
    return n;
}

static uint32_t count_bytes(uint32_t x)
{
    return (uint32_t)st.byte_table[x & 0xffu] + st.byte_table[(x >> 8) & 0xffu] +
           st.byte_table[(x >> 16) & 0xffu] + st.byte_table[x >> 24];
}

static uint32_t count_shift(uint32_t x)
{
    uint32_t n = 0;
    for (int i = 0; i < 32; i++, x >>= 1)
        n += x & 1u;
    return n;
}

static uint32_t count_union(uint32_t x)
{
    union {
        uint32_t word;
        uint8_t bytes[4];
    } u = {x};
    return (uint32_t)st.byte_table[u.bytes[0]] + st.byte_table[u.bytes[1]] +
           st.byte_table[u.bytes[2]] + st.byte_table[u.bytes[3]];
}

static uint32_t (*const methods[METHODS])(uint32_t) = {
    count_sparse, count_parallel, count_nibble_recursive, count_nibble,
    count_bytes,  count_shift,    count_union};

void bitcount_init(uint32_t size_class)
{
    for (uint32_t i = 0; i < 256; i++)
        st.byte_table[i] = (uint8_t)count_shift(i);
    for (int m = 0; m < METHODS; m++)
        st.totals[m] = 0;
    st.rounds = size_class ? 1000u : 4u;
    st.failures = 0;
    wl_prng_seed(&st.rng, 0xb17cu);
    st.res.checksum = WL_CHECKSUM_INIT;
    st.res.rounds_done = 0;
}

int bitcount_round(void)
{
    uint32_t words[BATCH];
    uint8_t counts[METHODS][BATCH / 4];
    for (int i = 0; i < BATCH; i++) {
        /* Density varies: AND/OR of several draws gives sparse and dense words. */
        uint32_t a = wl_prng_next(&st.rng), b = wl_prng_next(&st.rng);
        words[i] = (i % 3 == 0) ? a & b : (i % 3 == 1) ? a | b : a;
    }
    for (int part = 0; part < 4; part++) {
        for (int m = 0; m < METHODS; m++)
            for (int i = 0; i < BATCH / 4; i++)
                counts[m][i] = (uint8_t)methods[m](words[part * (BATCH / 4) + i]);
        for (int i = 0; i < BATCH / 4; i++) {
            for (int m = 0; m < METHODS; m++) {
                if (counts[m][i] != counts[0][i])
                    st.failures++;
                st.totals[m] += counts[m][i];
            }
        }
        st.res.checksum = wl_mix_bytes(st.res.checksum, counts[part % METHODS], BATCH / 4);
    }
    st.res.checksum = wl_mix32(st.res.checksum, st.totals[0]);
    st.res.rounds_done++;
    return st.res.rounds_done < st.rounds;
}

uint32_t bitcount_checksum(void)
{
    return wl_final(st.res.checksum, st.failures);
}

uint32_t bitcount_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0xee360182u, 0xc1389e8au};
    return size_class < WL_SIZE_CLASSES ? expected[size_class] : 0;
}

const wl_program_t bitcount_program = {"bitcount", bitcount_init, bitcount_round,
                                       bitcount_checksum, bitcount_expected};
