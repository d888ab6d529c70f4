/* host_suite.c: host (sanitizer) test driver for a whole workload list: links one
 * <suite>/workload*.c (which defines wl_workload_programs[WL_PROGRAMS] and wl_workload_name)
 * with its programs. Usage: <exe> [classes] where classes is "0", "1" or "01" (default "0"),
 * or "print" to print every program's checksum of every size class without comparing.
 * Prints "PASS name[class]" or "FAIL name[class] ..." per program and class; exit status is
 * non-zero if any failed. */
#include <stdio.h>
#include <string.h>

#include "wl_program.h"

#ifndef WL_PROGRAMS
#define WL_PROGRAMS 4
#endif
#define WL_MAX_ROUNDS 100000000u

extern const wl_program_t *const wl_workload_programs[WL_PROGRAMS];
extern const char wl_workload_name[];

/* Runs prog in one size class to completion; returns rounds, or 0 if it never finished. */
static unsigned run(const wl_program_t *prog, unsigned size_class, unsigned *checksum)
{
    prog->init(size_class);
    unsigned rounds = 0;
    int more = 1;
    while (more && rounds < WL_MAX_ROUNDS) {
        more = prog->round();
        rounds++;
    }
    *checksum = prog->checksum();
    return more ? 0 : rounds;
}

int main(int argc, char **argv)
{
    const char *classes = argc > 1 ? argv[1] : "0";
    int print = strcmp(classes, "print") == 0;
    if (print)
        classes = "01";
    for (const char *c = classes; *c; c++) {
        if ((unsigned)(*c - '0') >= WL_SIZE_CLASSES) {
            fprintf(stderr, "host_suite: bad size class '%c' in \"%s\"\n", *c, classes);
            return 2;
        }
    }
    int failed = 0;
    for (unsigned i = 0; i < WL_PROGRAMS; i++) {
        const wl_program_t *prog = wl_workload_programs[i];
        for (const char *c = classes; *c; c++) {
            unsigned size_class = (unsigned)(*c - '0');
            unsigned sum;
            unsigned rounds = run(prog, size_class, &sum);
            unsigned want = prog->expected(size_class);
            if (print) {
                printf("%s %s %u 0x%08xu rounds %u\n", wl_workload_name, prog->name, size_class,
                       sum, rounds);
            } else if (rounds && sum == want) {
                printf("PASS %s/%s[%u]\n", wl_workload_name, prog->name, size_class);
            } else {
                printf("FAIL %s/%s[%u] checksum 0x%08x expected 0x%08x rounds %u\n",
                       wl_workload_name, prog->name, size_class, sum, want, rounds);
                failed = 1;
            }
        }
    }
    return failed;
}
