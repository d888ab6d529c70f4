/* The `relocate` stack strategy's counters (kernel/stack/relocate.c, docs/sensmart.md): only
 * firmware linked against that strategy has cactus_relocate_stats. */
#ifndef CACTUS_RELOCATE_H
#define CACTUS_RELOCATE_H

#include <stdint.h>

typedef struct {
    uint32_t relocations; /* stacks grown by moving regions (Figure 3 of the SenSmart paper) */
    uint32_t bytes_moved; /* bytes the relocations copied */
    uint32_t refusals;    /* growths no region could give room for (fault policy applied) */
} cactus_relocate_counts;

/* Copies the counters since boot into *out (interrupts masked while copying). */
void cactus_relocate_stats(cactus_relocate_counts *out);

#endif
