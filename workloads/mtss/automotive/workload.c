/* workload.c: the automotive workload of MTSS Table I (four programs, in task order). */
#include "basicmath.h"
#include "qsort.h"
#include "bitcount.h"
#include "susan.h"

/** Name printed by the bare-metal runner. */
const char wl_workload_name[] = "automotive";

/** The four programs, run round-robin by the runner. */
const wl_program_t *const wl_workload_programs[4] = {
    &basicmath_program,
    &qsort_program,
    &bitcount_program,
    &susan_program,
};
