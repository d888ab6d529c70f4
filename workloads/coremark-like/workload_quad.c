/* workload_quad.c: the four-task CoreMark-like run: four instances with different seed sets,
 * interleaved one iteration at a time by the runner. */
#include "coremark.h"

/** Name printed by the bare-metal runner. */
const char wl_workload_name[] = "coremark-quad";

/** The four programs. */
const wl_program_t *const wl_workload_programs[4] = {
    &coremark0_program,
    &coremark1_program,
    &coremark2_program,
    &coremark3_program,
};
