/* dijkstra.h: Dijkstra shortest paths over an adjacency matrix with a pooled list queue (MiBench
 * dijkstra-like). Interface as in workloads/common/wl_program.h: dijkstra_init, dijkstra_round,
 * dijkstra_checksum, dijkstra_expected, and the descriptor dijkstra_program. */
#ifndef MTSS_DIJKSTRA_H
#define MTSS_DIJKSTRA_H

#include <stdint.h>

#include "wl_program.h"

/** Resets all state and generates the input for size_class (0 small, 1 full). */
void dijkstra_init(uint32_t size_class);
/** Does one round of work; returns 1 while rounds remain, 0 when done. */
int dijkstra_round(void);
/** Checksum of everything computed so far (a failed internal self-check perturbs it). */
uint32_t dijkstra_checksum(void);
/** Final checksum of a correct run of size_class. */
uint32_t dijkstra_expected(uint32_t size_class);
/** Descriptor for drivers. */
extern const wl_program_t dijkstra_program;

#endif
