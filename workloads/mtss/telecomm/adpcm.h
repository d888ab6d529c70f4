/* adpcm.h: IMA ADPCM encoding and decoding of a synthetic waveform (MiBench adpcm-like).
 * Interface as in workloads/common/wl_program.h: adpcm_init, adpcm_round, adpcm_checksum,
 * adpcm_expected, and the descriptor adpcm_program. */
#ifndef MTSS_ADPCM_H
#define MTSS_ADPCM_H

#include <stdint.h>

#include "wl_program.h"

/** Resets all state and generates the input for size_class (0 small, 1 full). */
void adpcm_init(uint32_t size_class);
/** Does one round of work; returns 1 while rounds remain, 0 when done. */
int adpcm_round(void);
/** Checksum of everything computed so far (a failed internal self-check perturbs it). */
uint32_t adpcm_checksum(void);
/** Final checksum of a correct run of size_class. */
uint32_t adpcm_expected(uint32_t size_class);
/** Descriptor for drivers. */
extern const wl_program_t adpcm_program;

#endif
