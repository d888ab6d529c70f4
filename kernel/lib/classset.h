/* A set of task ids, each member in one class (0..CLASSSET_CLASSES-1): per class a bitmap of
 * ids and a summary word of its non-empty bitmap words, so inserting, moving, removing and
 * finding a class's next member above an id are O(1) (a few word operations, whatever the
 * number of tasks). The `mtss` strategy keeps its possible lenders here by pages lent, so its
 * lender search visits the fewest-lent tasks first, in id order, and stops at the first that
 * can lend (kernel/stack/mtss.c). Pure code (inline: it sits on the stack-request path),
 * host-tested. */
#ifndef K_CLASSSET_H
#define K_CLASSSET_H

#include <stdint.h>
#include "../core/limits.h"
#include "bits.h"

#define CLASSSET_CLASSES 16
#define CLASSSET_WORDS ((CACTUS_MAX_TASKS + 31) / 32)
#define CLASSSET_NONE 0xFFu
_Static_assert(CLASSSET_WORDS <= 32, "classset: one summary word per class");
_Static_assert(CLASSSET_CLASSES < CLASSSET_NONE, "classset: classes fit a byte");

struct classset {
    uint32_t summary[CLASSSET_CLASSES];             /* bit w: bits[c][w] != 0 */
    uint32_t bits[CLASSSET_CLASSES][CLASSSET_WORDS]; /* bit i of word w: id 32w+i in class c */
    uint8_t cls[CACTUS_MAX_TASKS];                  /* each id's class, or CLASSSET_NONE */
};

/* An empty set. */
void classset_init(struct classset *s);

/* Removes id (0 <= id < CACTUS_MAX_TASKS) from the set; nothing if it is not a member. */
static inline void classset_remove(struct classset *s, int id)
{
    unsigned c = s->cls[id];
    if (c == CLASSSET_NONE)
        return;
    unsigned w = (unsigned)id / 32;
    s->bits[c][w] &= ~(1u << ((unsigned)id % 32));
    if (!s->bits[c][w])
        s->summary[c] &= ~(1u << w);
    s->cls[id] = CLASSSET_NONE;
}

/* Puts id in class min(cls, CLASSSET_CLASSES - 1), inserting or moving it. */
static inline void classset_put(struct classset *s, int id, uint32_t cls)
{
    unsigned c = cls < CLASSSET_CLASSES - 1 ? cls : CLASSSET_CLASSES - 1;
    if (s->cls[id] == c)
        return;
    classset_remove(s, id);
    unsigned w = (unsigned)id / 32;
    s->bits[c][w] |= 1u << ((unsigned)id % 32);
    s->summary[c] |= 1u << w;
    s->cls[id] = (uint8_t)c;
}

/* id's class, or CLASSSET_NONE. */
static inline unsigned classset_class(const struct classset *s, int id)
{
    return s->cls[id];
}

/* The smallest member of class c greater than `after` (-1: the smallest), or -1 if none. */
static inline int classset_next(const struct classset *s, unsigned c, int after)
{
    unsigned from = (unsigned)(after + 1);
    unsigned w = from / 32;
    if (w < CLASSSET_WORDS) {
        uint32_t rest = s->bits[c][w] & (~0u << (from % 32));
        if (rest)
            return (int)(w * 32 + bits_ctz(rest));
        w++;
    }
    uint32_t words = w < 32 ? s->summary[c] & (~0u << w) : 0;
    if (!words)
        return -1;
    w = bits_ctz(words);
    return (int)(w * 32 + bits_ctz(s->bits[c][w]));
}

#endif
