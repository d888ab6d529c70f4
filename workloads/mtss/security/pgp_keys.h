/* pgp_keys.h: the RSA key pairs of the pgp-like program (generated offline with sympy: p, q
 * random primes in [0.75 * 2^k, 2^k), e = 65537, d = e^-1 mod (p-1)(q-1)). Little-endian 32-bit
 * limbs. Size class 0: 256-bit modulus; 1: 512-bit. */
#ifndef MTSS_PGP_KEYS_H
#define MTSS_PGP_KEYS_H

#include <stdint.h>

/** One RSA key pair; n and d have `limbs` limbs, p and q have limbs / 2. */
typedef struct {
    uint32_t limbs;
    const uint32_t *p, *q, *n, *d;
} pgp_key_t;

/** Key of each size class. */
extern const pgp_key_t pgp_keys[2];

#endif
