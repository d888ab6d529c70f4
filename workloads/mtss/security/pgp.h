/* pgp.h: pgp-like RSA signing/verification with a multi-precision integer library. Interface as
 * in workloads/common/wl_program.h: pgp_init, pgp_round, pgp_checksum, pgp_expected, and the
 * descriptor pgp_program. */
#ifndef MTSS_PGP_H
#define MTSS_PGP_H

#include <stdint.h>

#include "wl_program.h"

/** Resets all state and generates the input for size_class (0 small, 1 full). */
void pgp_init(uint32_t size_class);
/** Does one round of work; returns 1 while rounds remain, 0 when done. */
int pgp_round(void);
/** Checksum of everything computed so far (a failed internal self-check perturbs it). */
uint32_t pgp_checksum(void);
/** Final checksum of a correct run of size_class. */
uint32_t pgp_expected(uint32_t size_class);
/** Descriptor for drivers. */
extern const wl_program_t pgp_program;

#endif
