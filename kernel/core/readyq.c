/* Ready queue (see readyq.h): initialisation. */
#include "readyq.h"

void readyq_init(struct readyq *q)
{
    q->bitmap = 0;
    q->top = -1;
    for (unsigned i = 0; i < READYQ_LEVELS; i++)
        q->head[i] = 0;
}
