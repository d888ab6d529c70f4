/* edgedetect.h: Gaussian smoothing, Sobel gradients and thresholding of a synthetic image
 * (MediaBench edge-like). Interface as in workloads/common/wl_program.h: edgedetect_init,
 * edgedetect_round, edgedetect_checksum, edgedetect_expected, and the descriptor
 * edgedetect_program. */
#ifndef MTSS_EDGEDETECT_H
#define MTSS_EDGEDETECT_H

#include <stdint.h>

#include "wl_program.h"

/** Resets all state and generates the input for size_class (0 small, 1 full). */
void edgedetect_init(uint32_t size_class);
/** Does one round of work; returns 1 while rounds remain, 0 when done. */
int edgedetect_round(void);
/** Checksum of everything computed so far (a failed internal self-check perturbs it). */
uint32_t edgedetect_checksum(void);
/** Final checksum of a correct run of size_class. */
uint32_t edgedetect_expected(uint32_t size_class);
/** Descriptor for drivers. */
extern const wl_program_t edgedetect_program;

#endif
