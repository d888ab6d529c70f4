/* yacr2.h: yacr2-like channel router: vertical constraint graph and constrained left-edge track
 * assignment. Interface as in workloads/common/wl_program.h: yacr2_init, yacr2_round,
 * yacr2_checksum, yacr2_expected, and the descriptor yacr2_program. */
#ifndef MTSS_YACR2_H
#define MTSS_YACR2_H

#include <stdint.h>

#include "wl_program.h"

/** Resets all state and generates the input for size_class (0 small, 1 full). */
void yacr2_init(uint32_t size_class);
/** Does one round of work; returns 1 while rounds remain, 0 when done. */
int yacr2_round(void);
/** Checksum of everything computed so far (a failed internal self-check perturbs it). */
uint32_t yacr2_checksum(void);
/** Final checksum of a correct run of size_class. */
uint32_t yacr2_expected(uint32_t size_class);
/** Descriptor for drivers. */
extern const wl_program_t yacr2_program;

#endif
