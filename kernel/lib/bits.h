/* Bit scans the kernel's bitmaps share (ready queue, mtss lender index): the lowest set bit
 * of a word with a de Bruijn multiply, since the target has no Zbb. Defined once. Pure code,
 * host-tested through its users. */
#ifndef K_BITS_H
#define K_BITS_H

#include <stdint.h>

extern const uint8_t bits_debruijn[32];

/* Index of the lowest set bit of x; x must not be 0. */
static inline unsigned bits_ctz(uint32_t x)
{
    return bits_debruijn[((x & (0u - x)) * 0x077CB531u) >> 27];
}

#endif
