/* workload.c: the ptrdist workload of MTSS Table I (four programs, in task order). */
#include "anagram.h"
#include "ks.h"
#include "ft.h"
#include "yacr2.h"

/** Name printed by the bare-metal runner. */
const char wl_workload_name[] = "ptrdist";

/** The four programs, run round-robin by the runner. */
const wl_program_t *const wl_workload_programs[4] = {
    &anagram_program,
    &ks_program,
    &ft_program,
    &yacr2_program,
};
