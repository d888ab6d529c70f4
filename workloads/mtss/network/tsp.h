/* tsp.h: divide-and-conquer travelling salesman tour over a recursive k-d tree of cities (Olden
 * tsp-like). Interface as in workloads/common/wl_program.h: tsp_init, tsp_round, tsp_checksum,
 * tsp_expected, and the descriptor tsp_program. */
#ifndef MTSS_TSP_H
#define MTSS_TSP_H

#include <stdint.h>

#include "wl_program.h"

/** Resets all state and generates the input for size_class (0 small, 1 full). */
void tsp_init(uint32_t size_class);
/** Does one round of work; returns 1 while rounds remain, 0 when done. */
int tsp_round(void);
/** Checksum of everything computed so far (a failed internal self-check perturbs it). */
uint32_t tsp_checksum(void);
/** Final checksum of a correct run of size_class. */
uint32_t tsp_expected(uint32_t size_class);
/** Descriptor for drivers. */
extern const wl_program_t tsp_program;

#endif
