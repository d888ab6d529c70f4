/* ft.h: Prim's minimum spanning tree with a Fibonacci heap, checked against O(n^2) Prim (Ptrdist
 * ft-like). Interface as in workloads/common/wl_program.h: ft_init, ft_round, ft_checksum,
 * ft_expected, and the descriptor ft_program. */
#ifndef MTSS_FT_H
#define MTSS_FT_H

#include <stdint.h>

#include "wl_program.h"

/** Resets all state and generates the input for size_class (0 small, 1 full). */
void ft_init(uint32_t size_class);
/** Does one round of work; returns 1 while rounds remain, 0 when done. */
int ft_round(void);
/** Checksum of everything computed so far (a failed internal self-check perturbs it). */
uint32_t ft_checksum(void);
/** Final checksum of a correct run of size_class. */
uint32_t ft_expected(uint32_t size_class);
/** Descriptor for drivers. */
extern const wl_program_t ft_program;

#endif
