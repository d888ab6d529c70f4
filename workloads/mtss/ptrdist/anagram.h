/* anagram.h: multi-word anagram search over a generated dictionary with recursive backtracking
 * (Ptrdist anagram-like). Interface as in workloads/common/wl_program.h: anagram_init,
 * anagram_round, anagram_checksum, anagram_expected, and the descriptor anagram_program. */
#ifndef MTSS_ANAGRAM_H
#define MTSS_ANAGRAM_H

#include <stdint.h>

#include "wl_program.h"

/** Resets all state and generates the input for size_class (0 small, 1 full). */
void anagram_init(uint32_t size_class);
/** Does one round of work; returns 1 while rounds remain, 0 when done. */
int anagram_round(void);
/** Checksum of everything computed so far (a failed internal self-check perturbs it). */
uint32_t anagram_checksum(void);
/** Final checksum of a correct run of size_class. */
uint32_t anagram_expected(uint32_t size_class);
/** Descriptor for drivers. */
extern const wl_program_t anagram_program;

#endif
