/* host_main.c: host (sanitizer) test driver for one program, selected at compile time with
 * -DWL_PROG=<name>. Usage: <exe> [classes] where classes is "0", "1" or "01" (default "0"),
 * or "print" to print the checksum of every size class without comparing.
 * For each class: init, run rounds to completion, compare with P_expected; prints
 * "PASS name[class]" or "FAIL name[class] ...". Exit status is non-zero if any class failed. */
#include <stdio.h>
#include <string.h>

#include "wl_program.h"

#define WL_CAT(a, b) a##b
#define WL_XCAT(a, b) WL_CAT(a, b)
#define WL_MAX_ROUNDS 100000000u

extern const wl_program_t WL_XCAT(WL_PROG, _program);

static const wl_program_t *const prog = &WL_XCAT(WL_PROG, _program);

/* Runs one size class to completion; returns rounds, or 0 if it never finished. */
static unsigned run(unsigned size_class, unsigned *checksum)
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
    if (strcmp(classes, "print") == 0) {
        for (unsigned c = 0; c < WL_SIZE_CLASSES; c++) {
            unsigned sum;
            unsigned rounds = run(c, &sum);
            printf("%s %u 0x%08xu rounds %u\n", prog->name, c, sum, rounds);
        }
        return 0;
    }
    int failed = 0;
    for (const char *c = classes; *c; c++) {
        unsigned size_class = (unsigned)(*c - '0');
        if (size_class >= WL_SIZE_CLASSES) {
            fprintf(stderr, "host_main: bad size class '%c' in \"%s\"\n", *c, classes);
            return 2;
        }
        unsigned sum;
        unsigned rounds = run(size_class, &sum);
        unsigned want = prog->expected(size_class);
        if (rounds && sum == want) {
            printf("PASS %s[%u]\n", prog->name, size_class);
        } else {
            printf("FAIL %s[%u] checksum 0x%08x expected 0x%08x rounds %u\n", prog->name,
                   size_class, sum, want, rounds);
            failed = 1;
        }
    }
    return failed;
}
