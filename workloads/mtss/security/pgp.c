/* pgp.c: a pgp-like public-key program: RSA signatures and session-key encryption with a
 * multi-precision integer library (32-bit limbs, Montgomery multiplication, 4-bit fixed-window
 * exponentiation). Each round handles one message the way PGP 2 does: the message text sits in
 * a large local buffer (PGP's file buffer), is digested with MD5, the digest is padded
 * (00 01 FF..FF 00 || digest) and signed with the private exponent, the signature is verified
 * with e = 65537, then a random session key is RSA-encrypted and decrypted again.
 * Init checks n = p * q, MD5("abc") and Montgomery set-up. */
#include "pgp.h"

#include "pgp_keys.h"
#include "pgp_md5.h"
#include "wl_checksum.h"
#include "wl_prng.h"
#include "wl_string.h"

#define MAXL 16
#define TEXT 32768
#define WINDOW 4

typedef struct {
    uint32_t v[MAXL];
} bn_t;

static struct {
    const pgp_key_t *key;
    uint32_t l;     /* limbs in the modulus */
    uint32_t text_len; /* bytes of the message buffer used per round */
    bn_t n, d, rr;  /* modulus, private exponent, R^2 mod n */
    uint32_t n0inv; /* -n^-1 mod 2^32 */
    uint32_t rounds;
    uint32_t failures;
    wl_prng_t rng;
    wl_result_t res;
} st;

static void bn_load(bn_t *a, const uint32_t *limbs, uint32_t n)
{
    memset(a, 0, sizeof *a);
    memcpy(a->v, limbs, 4u * n);
}

static int bn_cmp(const uint32_t *a, const uint32_t *b, uint32_t l)
{
    for (uint32_t i = l; i-- > 0;)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* a -= b over l limbs; returns the borrow. */
static uint32_t bn_sub(uint32_t *a, const uint32_t *b, uint32_t l)
{
    uint32_t borrow = 0;
    for (uint32_t i = 0; i < l; i++) {
        uint64_t t = (uint64_t)a[i] - b[i] - borrow;
        a[i] = (uint32_t)t;
        borrow = (uint32_t)(t >> 63);
    }
    return borrow;
}

/* r = a * b (a, b of h limbs, r of 2h limbs). */
static void bn_mul_half(uint32_t *r, const uint32_t *a, const uint32_t *b, uint32_t h)
{
    for (uint32_t i = 0; i < 2 * h; i++)
        r[i] = 0;
    for (uint32_t i = 0; i < h; i++) {
        uint64_t carry = 0;
        for (uint32_t j = 0; j < h; j++) {
            uint64_t t = (uint64_t)a[i] * b[j] + r[i + j] + carry;
            r[i + j] = (uint32_t)t;
            carry = t >> 32;
        }
        r[i + h] = (uint32_t)carry;
    }
}

/* r = a * b * R^-1 mod n (CIOS Montgomery multiplication; r may alias a or b). */
static void mont_mul(bn_t *r, const bn_t *a, const bn_t *b)
{
    uint32_t l = st.l, t[MAXL + 2];
    for (uint32_t i = 0; i < l + 2; i++)
        t[i] = 0;
    for (uint32_t i = 0; i < l; i++) {
        uint64_t carry = 0;
        for (uint32_t j = 0; j < l; j++) {
            uint64_t x = (uint64_t)a->v[j] * b->v[i] + t[j] + carry;
            t[j] = (uint32_t)x;
            carry = x >> 32;
        }
        uint64_t x = (uint64_t)t[l] + carry;
        t[l] = (uint32_t)x;
        t[l + 1] = (uint32_t)(x >> 32);
        uint32_t m = t[0] * st.n0inv;
        x = (uint64_t)m * st.n.v[0] + t[0];
        carry = x >> 32;
        for (uint32_t j = 1; j < l; j++) {
            x = (uint64_t)m * st.n.v[j] + t[j] + carry;
            t[j - 1] = (uint32_t)x;
            carry = x >> 32;
        }
        x = (uint64_t)t[l] + carry;
        t[l - 1] = (uint32_t)x;
        t[l] = t[l + 1] + (uint32_t)(x >> 32);
    }
    if (t[l] != 0 || bn_cmp(t, st.n.v, l) >= 0)
        bn_sub(t, st.n.v, l);
    memset(r, 0, sizeof *r);
    memcpy(r->v, t, 4u * l);
}

/* r = base^exp mod n, exp of st.l limbs; base < n. */
static void mod_exp(bn_t *r, const bn_t *base, const bn_t *exp)
{
    bn_t table[1 << WINDOW], acc, one;
    memset(&one, 0, sizeof one);
    one.v[0] = 1;
    mont_mul(&table[0], &one, &st.rr); /* R mod n: Montgomery form of 1 */
    mont_mul(&table[1], base, &st.rr);
    for (int i = 2; i < (1 << WINDOW); i++)
        mont_mul(&table[i], &table[i - 1], &table[1]);
    acc = table[0];
    uint32_t top = 32u * st.l; /* skip leading zero windows (short public exponents) */
    while (top > WINDOW && ((exp->v[(top - WINDOW) / 32u] >> ((top - WINDOW) % 32u)) &
                            ((1u << WINDOW) - 1u)) == 0)
        top -= WINDOW;
    for (uint32_t bit = top; bit > 0; bit -= WINDOW) {
        for (int s = 0; s < WINDOW; s++)
            mont_mul(&acc, &acc, &acc);
        uint32_t limb = (bit - WINDOW) / 32u, sh = (bit - WINDOW) % 32u;
        mont_mul(&acc, &acc, &table[(exp->v[limb] >> sh) & ((1u << WINDOW) - 1u)]);
    }
    mont_mul(r, &acc, &one);
}

static void setup_key(const pgp_key_t *key)
{
    st.key = key;
    st.l = key->limbs;
    bn_load(&st.n, key->n, st.l);
    bn_load(&st.d, key->d, st.l);
    uint32_t x = 1; /* Newton iteration for n0^-1 mod 2^32 */
    for (int i = 0; i < 5; i++)
        x *= 2u - st.n.v[0] * x;
    st.n0inv = 0u - x;
    /* R^2 mod n by doubling 1 (2 * 32 * l) times with conditional subtraction. */
    uint32_t t[MAXL + 1];
    memset(t, 0, sizeof t);
    t[0] = 1;
    for (uint32_t i = 0; i < 64u * st.l; i++) {
        uint32_t top = t[st.l - 1] >> 31;
        for (uint32_t j = st.l - 1; j > 0; j--)
            t[j] = t[j] << 1 | t[j - 1] >> 31;
        t[0] <<= 1;
        if (top || bn_cmp(t, st.n.v, st.l) >= 0)
            bn_sub(t, st.n.v, st.l);
    }
    bn_load(&st.rr, t, st.l);
}

static uint32_t self_test(void)
{
    uint32_t bad = 0, prod[MAXL];
    bn_mul_half(prod, st.key->p, st.key->q, st.l / 2);
    bad += memcmp(prod, st.key->n, 4u * st.l) != 0;
    bad += st.n.v[0] * (0u - st.n0inv) != 1u;
    static const uint8_t abc_md5[16] = {0x90, 0x01, 0x50, 0x98, 0x3c, 0xd2, 0x4f, 0xb0,
                                        0xd6, 0x96, 0x3f, 0x7d, 0x28, 0xe1, 0x7f, 0x72};
    uint8_t dg[16];
    pgp_md5((const uint8_t *)"abc", 3, dg);
    bad += memcmp(dg, abc_md5, 16) != 0;
    return bad;
}

void pgp_init(uint32_t size_class)
{
    setup_key(&pgp_keys[size_class ? 1 : 0]);
    st.rounds = size_class ? 6u : 2u;
    st.text_len = size_class ? TEXT : TEXT / 8u;
    st.failures = self_test();
    wl_prng_seed(&st.rng, 0x9e9u);
    st.res.checksum = WL_CHECKSUM_INIT;
    st.res.rounds_done = 0;
}

static uint32_t mix_bn(uint32_t h, const bn_t *a)
{
    for (uint32_t i = 0; i < st.l; i++)
        h = wl_mix32(h, a->v[i]);
    return h;
}

int pgp_round(void)
{
    uint8_t text[TEXT]; /* the message file buffer */
    static const char words[][8] = {"key ", "sign ", "trust ", "ring ", "mail ", "the ", "of "};
    uint32_t len = 0;
    while (len < st.text_len) {
        const char *w = words[wl_prng_below(&st.rng, 7)];
        for (uint32_t i = 0; w[i] && len < st.text_len; i++)
            text[len++] = (uint8_t)w[i];
    }
    uint8_t digest[16];
    pgp_md5(text, st.text_len, digest);
    /* m = 00 01 FF .. FF 00 || digest, big-endian over 4 * l bytes. */
    bn_t m, sig, check, session, sealed, opened, e;
    memset(&m, 0, sizeof m);
    for (uint32_t i = 0; i < 16; i++)
        m.v[i / 4] |= (uint32_t)digest[15 - i] << (8 * (i % 4));
    for (uint32_t byte = 17; byte < 4u * st.l - 2u; byte++)
        m.v[byte / 4] |= 0xffu << (8 * (byte % 4));
    m.v[st.l - 1] |= 0x00010000u;
    mod_exp(&sig, &m, &st.d);
    memset(&e, 0, sizeof e);
    e.v[0] = 65537;
    mod_exp(&check, &sig, &e);
    st.failures += bn_cmp(check.v, m.v, st.l) != 0;
    /* Session key: random, below n because its top limb is cleared. */
    memset(&session, 0, sizeof session);
    for (uint32_t i = 0; i + 1 < st.l; i++)
        session.v[i] = wl_prng_next(&st.rng);
    mod_exp(&sealed, &session, &e);
    mod_exp(&opened, &sealed, &st.d);
    st.failures += bn_cmp(opened.v, session.v, st.l) != 0;
    st.res.checksum = wl_mix_bytes(st.res.checksum, digest, 16);
    st.res.checksum = mix_bn(st.res.checksum, &sig);
    st.res.checksum = mix_bn(st.res.checksum, &sealed);
    st.res.rounds_done++;
    return st.res.rounds_done < st.rounds;
}

uint32_t pgp_checksum(void)
{
    return wl_final(st.res.checksum, st.failures);
}

uint32_t pgp_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0xf6c69c6cu, 0x8b9b250au};
    return size_class < WL_SIZE_CLASSES ? expected[size_class] : 0;
}

const wl_program_t pgp_program = {"pgp", pgp_init, pgp_round, pgp_checksum, pgp_expected};
