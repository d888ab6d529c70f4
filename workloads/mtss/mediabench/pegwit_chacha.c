/* pegwit_chacha.c: ChaCha20 (see pegwit_chacha.h). */
#include "pegwit_chacha.h"

static uint32_t rotl(uint32_t x, int n)
{
    return (x << n) | (x >> (32 - n));
}

static void quarter(uint32_t *s, int a, int b, int c, int d)
{
    s[a] += s[b];
    s[d] = rotl(s[d] ^ s[a], 16);
    s[c] += s[d];
    s[b] = rotl(s[b] ^ s[c], 12);
    s[a] += s[b];
    s[d] = rotl(s[d] ^ s[a], 8);
    s[c] += s[d];
    s[b] = rotl(s[b] ^ s[c], 7);
}

void chacha20_block(const uint32_t *key, uint32_t counter, const uint32_t *nonce,
                    uint32_t *out)
{
    uint32_t in[16] = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u};
    for (int i = 0; i < 8; i++)
        in[4 + i] = key[i];
    in[12] = counter;
    for (int i = 0; i < 3; i++)
        in[13 + i] = nonce[i];
    for (int i = 0; i < 16; i++)
        out[i] = in[i];
    for (int r = 0; r < 10; r++) {
        quarter(out, 0, 4, 8, 12);
        quarter(out, 1, 5, 9, 13);
        quarter(out, 2, 6, 10, 14);
        quarter(out, 3, 7, 11, 15);
        quarter(out, 0, 5, 10, 15);
        quarter(out, 1, 6, 11, 12);
        quarter(out, 2, 7, 8, 13);
        quarter(out, 3, 4, 9, 14);
    }
    for (int i = 0; i < 16; i++)
        out[i] += in[i];
}

void chacha20_xor(const uint32_t *key, uint32_t counter, const uint32_t *nonce,
                  const uint8_t *in, uint8_t *out, uint32_t n)
{
    uint32_t ks[16];
    for (uint32_t off = 0; off < n; off += 64, counter++) {
        chacha20_block(key, counter, nonce, ks);
        for (uint32_t i = 0; i < 64 && off + i < n; i++)
            out[off + i] = in[off + i] ^ (uint8_t)(ks[i / 4] >> (8 * (i % 4)));
    }
}
