/* g721.h: g721-like adaptive-predictor ADPCM codec (2-pole/6-zero predictor, adaptive
 * quantiser). Interface as in workloads/common/wl_program.h: g721_init, g721_round,
 * g721_checksum, g721_expected, and the descriptor g721_program. */
#ifndef MTSS_G721_H
#define MTSS_G721_H

#include <stdint.h>

#include "wl_program.h"

/** Resets all state and generates the input for size_class (0 small, 1 full). */
void g721_init(uint32_t size_class);
/** Does one round of work; returns 1 while rounds remain, 0 when done. */
int g721_round(void);
/** Checksum of everything computed so far (a failed internal self-check perturbs it). */
uint32_t g721_checksum(void);
/** Final checksum of a correct run of size_class. */
uint32_t g721_expected(uint32_t size_class);
/** Descriptor for drivers. */
extern const wl_program_t g721_program;

#endif
