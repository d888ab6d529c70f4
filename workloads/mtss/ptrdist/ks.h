/* ks.h: Kernighan-Lin graph bipartitioning of a generated netlist graph (Ptrdist ks-like).
 * Interface as in workloads/common/wl_program.h: ks_init, ks_round, ks_checksum, ks_expected,
 * and the descriptor ks_program. */
#ifndef MTSS_KS_H
#define MTSS_KS_H

#include <stdint.h>

#include "wl_program.h"

/** Resets all state and generates the input for size_class (0 small, 1 full). */
void ks_init(uint32_t size_class);
/** Does one round of work; returns 1 while rounds remain, 0 when done. */
int ks_round(void);
/** Checksum of everything computed so far (a failed internal self-check perturbs it). */
uint32_t ks_checksum(void);
/** Final checksum of a correct run of size_class. */
uint32_t ks_expected(uint32_t size_class);
/** Descriptor for drivers. */
extern const wl_program_t ks_program;

#endif
