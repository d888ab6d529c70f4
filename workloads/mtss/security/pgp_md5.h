/* pgp_md5.h: MD5 message digest for the pgp-like program. */
#ifndef MTSS_PGP_MD5_H
#define MTSS_PGP_MD5_H

#include <stdint.h>

/** Writes the 16-byte MD5 digest of p[0..n) to digest. */
void pgp_md5(const uint8_t *p, uint32_t n, uint8_t *digest);

#endif
