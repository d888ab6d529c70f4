/* sha.h: SHA-1 over streamed 8 KiB buffers with a FIPS 180 known-answer check (MiBench
 * sha-like). Interface as in workloads/common/wl_program.h: sha_init, sha_round, sha_checksum,
 * sha_expected, and the descriptor sha_program. */
#ifndef MTSS_SHA_H
#define MTSS_SHA_H

#include <stdint.h>

#include "wl_program.h"

/** Resets all state and generates the input for size_class (0 small, 1 full). */
void sha_init(uint32_t size_class);
/** Does one round of work; returns 1 while rounds remain, 0 when done. */
int sha_round(void);
/** Checksum of everything computed so far (a failed internal self-check perturbs it). */
uint32_t sha_checksum(void);
/** Final checksum of a correct run of size_class. */
uint32_t sha_expected(uint32_t size_class);
/** Descriptor for drivers. */
extern const wl_program_t sha_program;

#endif
