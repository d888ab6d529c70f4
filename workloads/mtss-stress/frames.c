/* frames.c: the recursion of the MTSS stress workload (stress.h).
 *
 * The frame functions have local arrays of 16, 48, 128, 256 and 600 bytes; `wide` has twelve
 * arguments, four of them on the stack (the MTSS strategy copies them when it moves the
 * frame). Each fills its array, then `level` (inlined into each) picks from the data
 * generator which of them runs the next recursion level (mutual recursion, never a tail
 * call), and once the callee has returned it checks that the array and its stack arguments
 * still hold what was written: a word changed while the frame was suspended counts in
 * `corrupt`. The larger ones also call `scratch` first, whose frame their own check covers. */
#include "stress.h"

/* Bytes a level claims from its chain's allowance: its array plus 64 for saved registers,
 * outgoing arguments and alignment (more than GCC uses, so that the chain's real stack use
 * stays below STRESS_MAX_BYTES plus the caller's frames). */
#define CLAIM(array_bytes) ((array_bytes) + 64u)
#define KINDS 6u
#define STOP_WEIGHT 1u /* the chain ends at a level with odds STOP_WEIGHT in KINDS + STOP_WEIGHT */

static uint32_t f16(stress_ctx *c, uint32_t left, uint32_t depth, uint32_t salt);
static uint32_t f48(stress_ctx *c, uint32_t left, uint32_t depth, uint32_t salt);
static uint32_t f128(stress_ctx *c, uint32_t left, uint32_t depth, uint32_t salt);
static uint32_t f256(stress_ctx *c, uint32_t left, uint32_t depth, uint32_t salt);
static uint32_t f600(stress_ctx *c, uint32_t left, uint32_t depth, uint32_t salt);
static uint32_t wide(stress_ctx *c, uint32_t left, uint32_t depth, uint32_t salt, uint32_t p4,
                     uint32_t p5, uint32_t p6, uint32_t p7, uint32_t p8, uint32_t p9, uint32_t p10,
                     uint32_t p11);

/* The value word i of an array filled with `salt` holds. */
static inline uint32_t expected(uint32_t salt, uint32_t i)
{
    return (salt * (2u * i + 1u)) ^ (i << 24);
}

/* Fills a[0..n); not inlined, so the array is real memory in its frame. */
__attribute__((noinline)) static void fill(uint32_t *a, uint32_t n, uint32_t salt)
{
    for (uint32_t i = 0; i < n; i++)
        a[i] = expected(salt, i);
}

/* Counts words of a[0..n) that differ from what fill wrote, and hashes the array. */
__attribute__((noinline)) static uint32_t fold(stress_ctx *c, const uint32_t *a, uint32_t n,
                                               uint32_t salt)
{
    uint32_t h = salt;
    for (uint32_t i = 0; i < n; i++) {
        c->corrupt += a[i] != expected(salt, i);
        h = (h ^ a[i]) * 16777619u;
    }
    return h;
}

/* One recursion level: a frame kind chosen by the data generator, or the chain's end when the
 * generator says stop (STOP_WEIGHT), the allowance is spent or the depth is reached. Inlined
 * into every frame function, so that one recursion level is one frame and one check: the
 * `mtss` strategy keeps at most CACTUS_MTSS_DEPTH (8) moved frames per task. */
static inline __attribute__((always_inline)) uint32_t level(stress_ctx *c, uint32_t left,
                                                            uint32_t depth, uint32_t salt)
{
    static const uint32_t claim[KINDS] = { CLAIM(16), CLAIM(48),  CLAIM(128),
                                           CLAIM(256), CLAIM(600), CLAIM(64) };
    uint32_t x = stress_next(&c->data);
    uint32_t kind = x % (KINDS + STOP_WEIGHT);
    salt = stress_mix(salt, x);
    if (depth >= STRESS_MAX_LEVELS || kind >= KINDS || claim[kind] > left)
        return salt;
    left -= claim[kind];
    c->levels++;
    uint32_t r;
    switch (kind) {
    case 0:
        r = f16(c, left, depth, salt);
        break;
    case 1:
        r = f48(c, left, depth, salt);
        break;
    case 2:
        r = f128(c, left, depth, salt);
        break;
    case 3:
        r = f256(c, left, depth, salt);
        break;
    case 4:
        r = f600(c, left, depth, salt);
        break;
    default:
        r = wide(c, left, depth, salt, salt * 4u, salt * 5u, salt * 6u, salt * 7u, salt * 8u,
                 salt * 9u, salt * 10u, salt * 11u);
        break;
    }
    return stress_mix(r, depth);
}

/* A child with a 192-byte array of its own, called unconditionally before the recursion, so
 * `cactus cc` rolls its check into its caller's (certainty): the caller's entry check claims
 * these bytes below the caller's frame in advance. A caller switched out between that check and
 * this call (the busy-work in between) is the window the strategy's lending margin protects
 * (docs/mtss.md, "No lock"): pages lent from below its sp in that window would be written here. */
__attribute__((noinline)) static uint32_t scratch(stress_ctx *c, uint32_t salt)
{
    uint32_t a[192 / 4];
    fill(a, 192 / 4, salt);
    return fold(c, a, 192 / 4, salt);
}

__attribute__((noinline)) static uint32_t f16(stress_ctx *c, uint32_t left, uint32_t depth,
                                              uint32_t salt)
{
    uint32_t a[16 / 4];
    fill(a, 16 / 4, salt);
    stress_spin(c);
    uint32_t r = level(c, left, depth + 1, salt ^ a[1]);
    return stress_mix(r, fold(c, a, 16 / 4, salt));
}

__attribute__((noinline)) static uint32_t f48(stress_ctx *c, uint32_t left, uint32_t depth,
                                              uint32_t salt)
{
    uint32_t a[48 / 4];
    fill(a, 48 / 4, salt);
    stress_spin(c);
    uint32_t r = level(c, left, depth + 1, salt + a[7]);
    return stress_mix(r, fold(c, a, 48 / 4, salt));
}

__attribute__((noinline)) static uint32_t f128(stress_ctx *c, uint32_t left, uint32_t depth,
                                               uint32_t salt)
{
    uint32_t a[128 / 4];
    fill(a, 128 / 4, salt);
    stress_spin(c);
    uint32_t z = scratch(c, salt + 1u);
    uint32_t r = level(c, left, depth + 1, salt * 3u + a[31]);
    stress_spin(c);
    r ^= z;
    return stress_mix(r, fold(c, a, 128 / 4, salt));
}

__attribute__((noinline)) static uint32_t f256(stress_ctx *c, uint32_t left, uint32_t depth,
                                               uint32_t salt)
{
    uint32_t a[256 / 4];
    fill(a, 256 / 4, salt);
    stress_spin(c);
    uint32_t z = scratch(c, salt + 2u);
    uint32_t r = level(c, left, depth + 1, salt ^ a[40]);
    r ^= z;
    return stress_mix(r, fold(c, a, 256 / 4, salt));
}

__attribute__((noinline)) static uint32_t f600(stress_ctx *c, uint32_t left, uint32_t depth,
                                               uint32_t salt)
{
    uint32_t a[600 / 4];
    fill(a, 600 / 4, salt);
    stress_spin(c);
    uint32_t z = scratch(c, salt + 3u);
    uint32_t r = level(c, left, depth + 1, salt + a[149]);
    stress_spin(c);
    r ^= z;
    return stress_mix(r, fold(c, a, 600 / 4, salt));
}

/* Twelve arguments: p8..p11 are passed on the stack and read after the recursive call, so a
 * moved frame must have had them copied. Each p_k is salt * k; a wrong one counts as corrupt. */
__attribute__((noinline)) static uint32_t wide(stress_ctx *c, uint32_t left, uint32_t depth,
                                               uint32_t salt, uint32_t p4, uint32_t p5,
                                               uint32_t p6, uint32_t p7, uint32_t p8, uint32_t p9,
                                               uint32_t p10, uint32_t p11)
{
    uint32_t a[64 / 4];
    fill(a, 64 / 4, salt);
    stress_spin(c);
    uint32_t z = scratch(c, salt + 4u);
    uint32_t r = level(c, left, depth + 1, salt - a[3]);
    uint32_t h = fold(c, a, 64 / 4, salt);
    const uint32_t p[8] = { p4, p5, p6, p7, p8, p9, p10, p11 };
    for (uint32_t k = 0; k < 8; k++) {
        c->corrupt += p[k] != salt * (k + 4u);
        h = (h ^ p[k]) * 16777619u;
    }
    r ^= z;
    return stress_mix(r, h);
}

uint32_t stress_chain(stress_ctx *c, uint32_t bytes)
{
    return level(c, bytes, 0, 0x243F6A88u);
}
