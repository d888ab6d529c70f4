/* crtp.h: CRTP packets as the Crazyflie radio link carries them: one header byte (port in bits
 * 7..4, link bits 3..2 set, channel in bits 1..0) and up to 30 payload bytes; little-endian
 * payload fields. Shared by crtp_rx and crtp_tx. */
#ifndef CRTP_H
#define CRTP_H

#include <stdint.h>

#include "wl_string.h"

#define CRTP_MAX_DATA 30

/** CRTP ports used by the core tasks. */
enum {
    CRTP_PORT_CONSOLE = 0,
    CRTP_PORT_PARAM = 2,
    CRTP_PORT_COMMANDER = 3,
    CRTP_PORT_LOG = 5,
    CRTP_PORT_LINK = 15,
};

/** One packet. */
typedef struct {
    uint8_t header;
    uint8_t size; /* payload bytes, <= CRTP_MAX_DATA */
    uint8_t data[CRTP_MAX_DATA];
} crtp_packet_t;

/** Header byte for port and channel. */
static inline uint8_t crtp_header(uint32_t port, uint32_t channel)
{
    return (uint8_t)((port & 15u) << 4 | 0x0cu | (channel & 3u));
}

/** Port of a header byte. */
static inline uint32_t crtp_port(uint8_t header)
{
    return header >> 4;
}

/** Channel of a header byte. */
static inline uint32_t crtp_channel(uint8_t header)
{
    return header & 3u;
}

/** Stores v little-endian at p. */
static inline void crtp_put_u16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

/** Reads a little-endian 16-bit value. */
static inline uint16_t crtp_get_u16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

/** Stores v little-endian at p. */
static inline void crtp_put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/** Reads a little-endian 32-bit value. */
static inline uint32_t crtp_get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/** Stores a float's IEEE-754 bits little-endian at p. */
static inline void crtp_put_f32(uint8_t *p, float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    crtp_put_u32(p, bits);
}

/** Reads a float stored by crtp_put_f32. */
static inline float crtp_get_f32(const uint8_t *p)
{
    uint32_t bits = crtp_get_u32(p);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

#endif
