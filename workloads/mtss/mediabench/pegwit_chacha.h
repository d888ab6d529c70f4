/* pegwit_chacha.h: ChaCha20 stream cipher (RFC 7539 block function) used as the symmetric layer
 * of the pegwit-like program. */
#ifndef MTSS_PEGWIT_CHACHA_H
#define MTSS_PEGWIT_CHACHA_H

#include <stdint.h>

/** Writes the 64-byte keystream block for key (8 words), counter and nonce (3 words) as
 * 16 little-endian words. */
void chacha20_block(const uint32_t *key, uint32_t counter, const uint32_t *nonce,
                    uint32_t *out);
/** out[i] = in[i] ^ keystream starting at block `counter` (in and out may be equal). */
void chacha20_xor(const uint32_t *key, uint32_t counter, const uint32_t *nonce,
                  const uint8_t *in, uint8_t *out, uint32_t n);

#endif
