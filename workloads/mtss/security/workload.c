/* workload.c: the security workload of MTSS Table I (four programs, in task order). */
#include "blowfish.h"
#include "pgp.h"
#include "rijndael.h"
#include "sha.h"

/** Name printed by the bare-metal runner. */
const char wl_workload_name[] = "security";

/** The four programs, run round-robin by the runner. */
const wl_program_t *const wl_workload_programs[4] = {
    &blowfish_program,
    &pgp_program,
    &rijndael_program,
    &sha_program,
};
