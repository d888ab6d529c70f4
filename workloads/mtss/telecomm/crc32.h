/* crc32.h: table-driven CRC-32 of streamed data cross-checked against a bitwise CRC (MiBench
 * crc32-like). Interface as in workloads/common/wl_program.h: crc32_init, crc32_round,
 * crc32_checksum, crc32_expected, and the descriptor crc32_program. */
#ifndef MTSS_CRC32_H
#define MTSS_CRC32_H

#include <stdint.h>

#include "wl_program.h"

/** Resets all state and generates the input for size_class (0 small, 1 full). */
void crc32_init(uint32_t size_class);
/** Does one round of work; returns 1 while rounds remain, 0 when done. */
int crc32_round(void);
/** Checksum of everything computed so far (a failed internal self-check perturbs it). */
uint32_t crc32_checksum(void);
/** Final checksum of a correct run of size_class. */
uint32_t crc32_expected(uint32_t size_class);
/** Descriptor for drivers. */
extern const wl_program_t crc32_program;

#endif
