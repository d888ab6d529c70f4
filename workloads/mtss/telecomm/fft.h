/* fft.h: radix-2 complex FFT and inverse FFT of synthetic signals in double precision (MiBench
 * fft-like). Interface as in workloads/common/wl_program.h: fft_init, fft_round, fft_checksum,
 * fft_expected, and the descriptor fft_program. */
#ifndef MTSS_FFT_H
#define MTSS_FFT_H

#include <stdint.h>

#include "wl_program.h"

/** Resets all state and generates the input for size_class (0 small, 1 full). */
void fft_init(uint32_t size_class);
/** Does one round of work; returns 1 while rounds remain, 0 when done. */
int fft_round(void);
/** Checksum of everything computed so far (a failed internal self-check perturbs it). */
uint32_t fft_checksum(void);
/** Final checksum of a correct run of size_class. */
uint32_t fft_expected(uint32_t size_class);
/** Descriptor for drivers. */
extern const wl_program_t fft_program;

#endif
