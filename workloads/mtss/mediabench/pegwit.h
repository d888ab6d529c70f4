/* pegwit.h: pegwit-like elliptic-curve Diffie-Hellman over GF(2^163) plus stream encryption of
 * messages. Interface as in workloads/common/wl_program.h: pegwit_init, pegwit_round,
 * pegwit_checksum, pegwit_expected, and the descriptor pegwit_program. */
#ifndef MTSS_PEGWIT_H
#define MTSS_PEGWIT_H

#include <stdint.h>

#include "wl_program.h"

/** Resets all state and generates the input for size_class (0 small, 1 full). */
void pegwit_init(uint32_t size_class);
/** Does one round of work; returns 1 while rounds remain, 0 when done. */
int pegwit_round(void);
/** Checksum of everything computed so far (a failed internal self-check perturbs it). */
uint32_t pegwit_checksum(void);
/** Final checksum of a correct run of size_class. */
uint32_t pegwit_expected(uint32_t size_class);
/** Descriptor for drivers. */
extern const wl_program_t pegwit_program;

#endif
