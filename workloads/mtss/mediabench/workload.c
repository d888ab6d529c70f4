/* workload.c: the mediabench workload of MTSS Table I (four programs, in task order). */
#include "histogram.h"
#include "edgedetect.h"
#include "g721.h"
#include "pegwit.h"

/** Name printed by the bare-metal runner. */
const char wl_workload_name[] = "mediabench";

/** The four programs, run round-robin by the runner. */
const wl_program_t *const wl_workload_programs[4] = {
    &histogram_program,
    &edgedetect_program,
    &g721_program,
    &pegwit_program,
};
