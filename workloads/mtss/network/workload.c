/* workload.c: the network workload of MTSS Table I (four programs, in task order). */
#include "dijkstra.h"
#include "patricia.h"
#include "treeadd.h"
#include "tsp.h"

/** Name printed by the bare-metal runner. */
const char wl_workload_name[] = "network";

/** The four programs, run round-robin by the runner. */
const wl_program_t *const wl_workload_programs[4] = {
    &dijkstra_program,
    &patricia_program,
    &treeadd_program,
    &tsp_program,
};
