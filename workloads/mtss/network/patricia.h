/* patricia.h: Patricia trie of IPv4 routes with inserts, longest-prefix lookups and deletes
 * (MiBench patricia-like). Interface as in workloads/common/wl_program.h: patricia_init,
 * patricia_round, patricia_checksum, patricia_expected, and the descriptor patricia_program. */
#ifndef MTSS_PATRICIA_H
#define MTSS_PATRICIA_H

#include <stdint.h>

#include "wl_program.h"

/** Resets all state and generates the input for size_class (0 small, 1 full). */
void patricia_init(uint32_t size_class);
/** Does one round of work; returns 1 while rounds remain, 0 when done. */
int patricia_round(void);
/** Checksum of everything computed so far (a failed internal self-check perturbs it). */
uint32_t patricia_checksum(void);
/** Final checksum of a correct run of size_class. */
uint32_t patricia_expected(uint32_t size_class);
/** Descriptor for drivers. */
extern const wl_program_t patricia_program;

#endif
