/* Ready queue (see readyq.h): the de Bruijn table and initialisation. */
#include "readyq.h"

const uint8_t readyq_debruijn[32] = {
    0,  1,  28, 2,  29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4,  8,
    31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6,  11, 5,  10, 9,
};

void readyq_init(struct readyq *q)
{
    q->bitmap = 0;
    q->top = -1;
    for (unsigned i = 0; i < READYQ_LEVELS; i++)
        q->head[i] = 0;
}
