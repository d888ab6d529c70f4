/* workload_single.c: the single-task CoreMark-like run (instance 0). */
#include "coremark.h"

/** Name printed by the bare-metal runner. */
const char wl_workload_name[] = "coremark-single";

/** The one program. */
const wl_program_t *const wl_workload_programs[1] = {&coremark0_program};
