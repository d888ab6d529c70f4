/* wl_checksum.h: order-sensitive 32-bit checksum helpers (FNV-1a style with a final avalanche
 * per word). Guarantee: the result depends on every value and on their order, and is the same on
 * every target. */
#ifndef WL_CHECKSUM_H
#define WL_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

/** Initial value of a running checksum. */
#define WL_CHECKSUM_INIT 0x811c9dc5u

/** Mixes one 32-bit word into running checksum h. */
static inline uint32_t wl_mix32(uint32_t h, uint32_t v)
{
    h ^= v;
    h *= 0x01000193u;
    h ^= h >> 15;
    return h;
}

/** Mixes n bytes into running checksum h. */
static inline uint32_t wl_mix_bytes(uint32_t h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x01000193u;
    }
    return wl_mix32(h, (uint32_t)n);
}

/** Mixes n 16-bit values into running checksum h. */
static inline uint32_t wl_mix_i16(uint32_t h, const int16_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = wl_mix32(h, (uint16_t)p[i]);
    return h;
}

/** Marker of a failed internal self-check: wl_final returns WL_FAILED | failure count. */
#define WL_FAILED 0xbad00000u

/** A program's reported checksum: the running checksum if no internal self-check failed,
 * otherwise WL_FAILED | min(failures, 0xffff), so failures are visible and never match. */
static inline uint32_t wl_final(uint32_t checksum, uint32_t failures)
{
    if (failures == 0)
        return checksum;
    return WL_FAILED | (failures > 0xffffu ? 0xffffu : failures);
}

#endif
