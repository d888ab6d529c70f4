/* rijndael.c: AES (Rijndael, 128-bit blocks) with 256-bit keys (14 rounds) in CBC mode,
 * byte-oriented: S-box and inverse S-box generated at init from the GF(2^8) inverse and the
 * affine map, key expansion, SubBytes/ShiftRows/MixColumns and their inverses. Each round is
 * one message session: the round routine holds the expanded key and the message buffers in its
 * frame, expands a fresh session key, encrypts 256 bytes, decrypts and checks the round trip.
 * Init checks the FIPS-197 appendix C.3 known answer. */
#include "rijndael.h"

#include "wl_checksum.h"
#include "wl_prng.h"
#include "wl_string.h"

#define NK 8
#define NR 14
#define RK_BYTES (16 * (NR + 1))
#define MSG 256

static struct {
    uint8_t sbox[256], inv_sbox[256];
    uint32_t rounds;
    uint32_t failures;
    wl_prng_t rng;
    wl_result_t res;
} st;

static uint8_t xtime(uint8_t x)
{
    return (uint8_t)((x << 1) ^ ((x & 0x80u) ? 0x1bu : 0u));
}

static void make_sboxes(void)
{
    /* Powers and logarithms of the generator 3 give inverses: x^-1 = 3^(255 - log3(x)). */
    uint8_t pow3[255], log3[256];
    uint8_t g = 1;
    for (int i = 0; i < 255; i++) {
        pow3[i] = g;
        log3[g] = (uint8_t)i;
        g ^= xtime(g);
    }
    for (int x = 0; x < 256; x++) {
        uint8_t inv = x ? pow3[(255 - log3[x]) % 255] : 0;
        uint8_t s = inv;
        for (int r = 1; r <= 4; r++)
            s ^= (uint8_t)((inv << r) | (inv >> (8 - r)));
        s ^= 0x63u;
        st.sbox[x] = s;
        st.inv_sbox[s] = (uint8_t)x;
    }
}

static void expand_key(const uint8_t *key, uint8_t *rk)
{
    memcpy(rk, key, 4 * NK);
    uint8_t rcon = 1;
    for (int i = NK; i < 4 * (NR + 1); i++) {
        uint8_t t[4];
        memcpy(t, rk + 4 * (i - 1), 4);
        if (i % NK == 0) {
            uint8_t t0 = t[0];
            t[0] = (uint8_t)(st.sbox[t[1]] ^ rcon);
            t[1] = st.sbox[t[2]];
            t[2] = st.sbox[t[3]];
            t[3] = st.sbox[t0];
            rcon = xtime(rcon);
        } else if (i % NK == 4) {
            for (int j = 0; j < 4; j++)
                t[j] = st.sbox[t[j]];
        }
        for (int j = 0; j < 4; j++)
            rk[4 * i + j] = rk[4 * (i - NK) + j] ^ t[j];
    }
}

static void add_round_key(uint8_t *s, const uint8_t *rk)
{
    for (int i = 0; i < 16; i++)
        s[i] ^= rk[i];
}

/* State is column-major: s[4*c + r]. */
static void shift_rows(uint8_t *s, int inverse)
{
    uint8_t t[16];
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            int src = inverse ? (c - r + 4) % 4 : (c + r) % 4;
            t[4 * c + r] = s[4 * src + r];
        }
    memcpy(s, t, 16);
}

/* MixColumns with xtime; InvMixColumns as a pre-multiplication by {04}x^2 + {05} followed by
 * MixColumns (the two polynomials multiply to the inverse). */
static void mix_columns(uint8_t *s, int inverse)
{
    for (int c = 0; c < 4; c++) {
        uint8_t *a = s + 4 * c;
        if (inverse) {
            uint8_t u = xtime(xtime((uint8_t)(a[0] ^ a[2])));
            uint8_t v = xtime(xtime((uint8_t)(a[1] ^ a[3])));
            a[0] ^= u;
            a[1] ^= v;
            a[2] ^= u;
            a[3] ^= v;
        }
        uint8_t all = (uint8_t)(a[0] ^ a[1] ^ a[2] ^ a[3]), a0 = a[0];
        a[0] ^= (uint8_t)(all ^ xtime((uint8_t)(a[0] ^ a[1])));
        a[1] ^= (uint8_t)(all ^ xtime((uint8_t)(a[1] ^ a[2])));
        a[2] ^= (uint8_t)(all ^ xtime((uint8_t)(a[2] ^ a[3])));
        a[3] ^= (uint8_t)(all ^ xtime((uint8_t)(a[3] ^ a0)));
    }
}

static void aes_encrypt(const uint8_t *rk, uint8_t *s)
{
    add_round_key(s, rk);
    for (int round = 1; round <= NR; round++) {
        for (int i = 0; i < 16; i++)
            s[i] = st.sbox[s[i]];
        shift_rows(s, 0);
        if (round != NR)
            mix_columns(s, 0);
        add_round_key(s, rk + 16 * round);
    }
}

static void aes_decrypt(const uint8_t *rk, uint8_t *s)
{
    add_round_key(s, rk + 16 * NR);
    for (int round = NR - 1; round >= 0; round--) {
        shift_rows(s, 1);
        for (int i = 0; i < 16; i++)
            s[i] = st.inv_sbox[s[i]];
        add_round_key(s, rk + 16 * round);
        if (round != 0)
            mix_columns(s, 1);
    }
}

static uint32_t known_answer(void)
{
    uint8_t key[32], block[16], rk[RK_BYTES];
    static const uint8_t want[16] = {0x8e, 0xa2, 0xb7, 0xca, 0x51, 0x67, 0x45, 0xbf,
                                     0xea, 0xfc, 0x49, 0x90, 0x4b, 0x49, 0x60, 0x89};
    for (int i = 0; i < 32; i++)
        key[i] = (uint8_t)i;
    for (int i = 0; i < 16; i++)
        block[i] = (uint8_t)(i * 0x11);
    expand_key(key, rk);
    aes_encrypt(rk, block);
    uint32_t bad = memcmp(block, want, 16) != 0;
    aes_decrypt(rk, block);
    for (int i = 0; i < 16; i++)
        bad += block[i] != (uint8_t)(i * 0x11);
    return bad;
}

void rijndael_init(uint32_t size_class)
{
    make_sboxes();
    st.rounds = size_class ? 100u : 2u;
    st.failures = known_answer();
    wl_prng_seed(&st.rng, 0xae5u);
    st.res.checksum = WL_CHECKSUM_INIT;
    st.res.rounds_done = 0;
}

int rijndael_round(void)
{
    uint8_t rk[RK_BYTES], key[32], iv[16], chain[16];
    uint8_t plain[MSG], cipher[MSG], back[MSG];
    for (int i = 0; i < 32; i++)
        key[i] = (uint8_t)wl_prng_next(&st.rng);
    for (int i = 0; i < 16; i++)
        iv[i] = (uint8_t)wl_prng_next(&st.rng);
    for (int i = 0; i < MSG; i++)
        plain[i] = (uint8_t)wl_prng_below(&st.rng, 96) + 32u;
    expand_key(key, rk);
    memcpy(chain, iv, 16);
    for (int b = 0; b < MSG; b += 16) {
        for (int i = 0; i < 16; i++)
            chain[i] ^= plain[b + i];
        aes_encrypt(rk, chain);
        memcpy(cipher + b, chain, 16);
    }
    memcpy(chain, iv, 16);
    for (int b = 0; b < MSG; b += 16) {
        uint8_t blk[16];
        memcpy(blk, cipher + b, 16);
        aes_decrypt(rk, blk);
        for (int i = 0; i < 16; i++)
            back[b + i] = blk[i] ^ chain[i];
        memcpy(chain, cipher + b, 16);
    }
    if (memcmp(plain, back, MSG) != 0)
        st.failures++;
    st.res.checksum = wl_mix_bytes(st.res.checksum, cipher, MSG);
    st.res.rounds_done++;
    return st.res.rounds_done < st.rounds;
}

uint32_t rijndael_checksum(void)
{
    return wl_final(st.res.checksum, st.failures);
}

uint32_t rijndael_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0x082f24b3u, 0x6dc4b714u};
    return size_class < WL_SIZE_CLASSES ? expected[size_class] : 0;
}

const wl_program_t rijndael_program = {"rijndael", rijndael_init, rijndael_round,
                                       rijndael_checksum, rijndael_expected};
