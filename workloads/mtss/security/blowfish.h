/* blowfish.h: Blowfish key schedule and CBC encryption/decryption of message chunks (MiBench
 * blowfish-like). Interface as in workloads/common/wl_program.h: blowfish_init, blowfish_round,
 * blowfish_checksum, blowfish_expected, and the descriptor blowfish_program. */
#ifndef MTSS_BLOWFISH_H
#define MTSS_BLOWFISH_H

#include <stdint.h>

#include "wl_program.h"

/** Resets all state and generates the input for size_class (0 small, 1 full). */
void blowfish_init(uint32_t size_class);
/** Does one round of work; returns 1 while rounds remain, 0 when done. */
int blowfish_round(void);
/** Checksum of everything computed so far (a failed internal self-check perturbs it). */
uint32_t blowfish_checksum(void);
/** Final checksum of a correct run of size_class. */
uint32_t blowfish_expected(uint32_t size_class);
/** Descriptor for drivers. */
extern const wl_program_t blowfish_program;

#endif
