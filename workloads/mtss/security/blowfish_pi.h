/* blowfish_pi.h: hexadecimal digits of pi that initialise Blowfish's P-array (18 words) and four
 * S-boxes (4 x 256 words), in that order. */
#ifndef MTSS_BLOWFISH_PI_H
#define MTSS_BLOWFISH_PI_H

#include <stdint.h>

/** 18 P-array words followed by 1024 S-box words. */
#define BLOWFISH_PI_WORDS 1042
/** Fractional hex digits of pi, 8 per word. */
extern const uint32_t blowfish_pi_words[BLOWFISH_PI_WORDS];

#endif
