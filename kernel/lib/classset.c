/* The task-id class set (classset.h). */
#include "classset.h"

void classset_init(struct classset *s)
{
    for (unsigned c = 0; c < CLASSSET_CLASSES; c++) {
        s->summary[c] = 0;
        for (unsigned w = 0; w < CLASSSET_WORDS; w++)
            s->bits[c][w] = 0;
    }
    for (unsigned i = 0; i < CACTUS_MAX_TASKS; i++)
        s->cls[i] = CLASSSET_NONE;
}
