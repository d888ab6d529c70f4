/* basicmath.h: cubic equations, integer square roots and angle conversions (MiBench
 * basicmath-like). Interface as in workloads/common/wl_program.h: basicmath_init,
 * basicmath_round, basicmath_checksum, basicmath_expected, and the descriptor basicmath_program. */
#ifndef MTSS_BASICMATH_H
#define MTSS_BASICMATH_H

#include <stdint.h>

#include "wl_program.h"

/** Resets all state and generates the input for size_class (0 small, 1 full). */
void basicmath_init(uint32_t size_class);
/** Does one round of work; returns 1 while rounds remain, 0 when done. */
int basicmath_round(void);
/** Checksum of everything computed so far (a failed internal self-check perturbs it). */
uint32_t basicmath_checksum(void);
/** Final checksum of a correct run of size_class. */
uint32_t basicmath_expected(uint32_t size_class);
/** Descriptor for drivers. */
extern const wl_program_t basicmath_program;

#endif
