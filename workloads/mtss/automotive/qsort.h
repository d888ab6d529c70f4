/* qsort.h: recursive quicksort of 3-D vectors by distance over partly sorted input (MiBench
 * qsort-like). Interface as in workloads/common/wl_program.h: qsort_init, qsort_round,
 * qsort_checksum, qsort_expected, and the descriptor qsort_program. */
#ifndef MTSS_QSORT_H
#define MTSS_QSORT_H

#include <stdint.h>

#include "wl_program.h"

/** Resets all state and generates the input for size_class (0 small, 1 full). */
void qsort_init(uint32_t size_class);
/** Does one round of work; returns 1 while rounds remain, 0 when done. */
int qsort_round(void);
/** Checksum of everything computed so far (a failed internal self-check perturbs it). */
uint32_t qsort_checksum(void);
/** Final checksum of a correct run of size_class. */
uint32_t qsort_expected(uint32_t size_class);
/** Descriptor for drivers. */
extern const wl_program_t qsort_program;

#endif
