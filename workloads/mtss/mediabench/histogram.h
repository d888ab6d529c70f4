/* histogram.h: global histogram equalisation of a synthetic greyscale image. Interface as in
 * workloads/common/wl_program.h: histogram_init, histogram_round, histogram_checksum,
 * histogram_expected, and the descriptor histogram_program. */
#ifndef MTSS_HISTOGRAM_H
#define MTSS_HISTOGRAM_H

#include <stdint.h>

#include "wl_program.h"

/** Resets all state and generates the input for size_class (0 small, 1 full). */
void histogram_init(uint32_t size_class);
/** Does one round of work; returns 1 while rounds remain, 0 when done. */
int histogram_round(void);
/** Checksum of everything computed so far (a failed internal self-check perturbs it). */
uint32_t histogram_checksum(void);
/** Final checksum of a correct run of size_class. */
uint32_t histogram_expected(uint32_t size_class);
/** Descriptor for drivers. */
extern const wl_program_t histogram_program;

#endif
