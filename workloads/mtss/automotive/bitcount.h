/* bitcount.h: seven bit-counting methods cross-checked on pseudo-random words (MiBench
 * bitcount-like). Interface as in workloads/common/wl_program.h: bitcount_init, bitcount_round,
 * bitcount_checksum, bitcount_expected, and the descriptor bitcount_program. */
#ifndef MTSS_BITCOUNT_H
#define MTSS_BITCOUNT_H

#include <stdint.h>

#include "wl_program.h"

/** Resets all state and generates the input for size_class (0 small, 1 full). */
void bitcount_init(uint32_t size_class);
/** Does one round of work; returns 1 while rounds remain, 0 when done. */
int bitcount_round(void);
/** Checksum of everything computed so far (a failed internal self-check perturbs it). */
uint32_t bitcount_checksum(void);
/** Final checksum of a correct run of size_class. */
uint32_t bitcount_expected(uint32_t size_class);
/** Descriptor for drivers. */
extern const wl_program_t bitcount_program;

#endif
