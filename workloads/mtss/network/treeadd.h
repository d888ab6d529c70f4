/* treeadd.h: recursive construction and summation of a balanced binary tree (Olden
 * treeadd-like). Interface as in workloads/common/wl_program.h: treeadd_init, treeadd_round,
 * treeadd_checksum, treeadd_expected, and the descriptor treeadd_program. */
#ifndef MTSS_TREEADD_H
#define MTSS_TREEADD_H

#include <stdint.h>

#include "wl_program.h"

/** Resets all state and generates the input for size_class (0 small, 1 full). */
void treeadd_init(uint32_t size_class);
/** Does one round of work; returns 1 while rounds remain, 0 when done. */
int treeadd_round(void);
/** Checksum of everything computed so far (a failed internal self-check perturbs it). */
uint32_t treeadd_checksum(void);
/** Final checksum of a correct run of size_class. */
uint32_t treeadd_expected(uint32_t size_class);
/** Descriptor for drivers. */
extern const wl_program_t treeadd_program;

#endif
