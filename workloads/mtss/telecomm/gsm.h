/* gsm.h: gsm-like LPC speech codec: autocorrelation, Schur reflection coefficients, LTP,
 * RPE-style residual coding and synthesis. Interface as in workloads/common/wl_program.h:
 * gsm_init, gsm_round, gsm_checksum, gsm_expected, and the descriptor gsm_program. */
#ifndef MTSS_GSM_H
#define MTSS_GSM_H

#include <stdint.h>

#include "wl_program.h"

/** Resets all state and generates the input for size_class (0 small, 1 full). */
void gsm_init(uint32_t size_class);
/** Does one round of work; returns 1 while rounds remain, 0 when done. */
int gsm_round(void);
/** Checksum of everything computed so far (a failed internal self-check perturbs it). */
uint32_t gsm_checksum(void);
/** Final checksum of a correct run of size_class. */
uint32_t gsm_expected(uint32_t size_class);
/** Descriptor for drivers. */
extern const wl_program_t gsm_program;

#endif
