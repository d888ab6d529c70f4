/* susan.h: SUSAN-style image smoothing, edge and corner detection on a synthetic image (MiBench
 * susan-like). Interface as in workloads/common/wl_program.h: susan_init, susan_round,
 * susan_checksum, susan_expected, and the descriptor susan_program. */
#ifndef MTSS_SUSAN_H
#define MTSS_SUSAN_H

#include <stdint.h>

#include "wl_program.h"

/** Resets all state and generates the input for size_class (0 small, 1 full). */
void susan_init(uint32_t size_class);
/** Does one round of work; returns 1 while rounds remain, 0 when done. */
int susan_round(void);
/** Checksum of everything computed so far (a failed internal self-check perturbs it). */
uint32_t susan_checksum(void);
/** Final checksum of a correct run of size_class. */
uint32_t susan_expected(uint32_t size_class);
/** Descriptor for drivers. */
extern const wl_program_t susan_program;

#endif
