/* rijndael.h: AES (Rijndael) 256-bit key CBC encryption/decryption with a FIPS-197 known-answer
 * check. Interface as in workloads/common/wl_program.h: rijndael_init, rijndael_round,
 * rijndael_checksum, rijndael_expected, and the descriptor rijndael_program. */
#ifndef MTSS_RIJNDAEL_H
#define MTSS_RIJNDAEL_H

#include <stdint.h>

#include "wl_program.h"

/** Resets all state and generates the input for size_class (0 small, 1 full). */
void rijndael_init(uint32_t size_class);
/** Does one round of work; returns 1 while rounds remain, 0 when done. */
int rijndael_round(void);
/** Checksum of everything computed so far (a failed internal self-check perturbs it). */
uint32_t rijndael_checksum(void);
/** Final checksum of a correct run of size_class. */
uint32_t rijndael_expected(uint32_t size_class);
/** Descriptor for drivers. */
extern const wl_program_t rijndael_program;

#endif
