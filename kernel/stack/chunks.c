/* The `chunks` stack strategy: Capriccio-style linked stack chunks (von Behren et al., SOSP
 * 2003; the MTSS paper's section 10 comparison, docs/mtss.md "Capriccio"), as a configuration
 * of the `segmented` strategy (stack/segmented.c, which documents the mechanism): every task
 * starts with one CACTUS_CHUNK_SIZE chunk whatever its budget (the budget is not reserved),
 * every chunk linked for a frame has at least CACTUS_CHUNK_SIZE bytes, and a returned chunk
 * goes straight back to the heap (nothing is cached, no call site learns a size). */
#ifndef CACTUS_CHUNK_SIZE
#define CACTUS_CHUNK_SIZE 256
#endif
_Static_assert(CACTUS_CHUNK_SIZE >= 128 && CACTUS_CHUNK_SIZE % 16 == 0,
               "CACTUS_CHUNK_SIZE must be a multiple of 16, at least 128");
#define CACTUS_STACKLET_FIRST CACTUS_CHUNK_SIZE
#define CACTUS_STACKLET_MIN CACTUS_CHUNK_SIZE
#define CACTUS_STACKLET_CACHE 0
#define CACTUS_STACKLET_LEARN 0
#include "segmented.c"
