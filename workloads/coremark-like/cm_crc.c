/* cm_crc.c: CRC-16/ARC, bit by bit (see coremark.h). Check value: "123456789" -> 0xbb3d. */
#include "coremark.h"

static uint16_t crc_byte(uint8_t byte, uint16_t crc)
{
    crc ^= byte;
    for (int b = 0; b < 8; b++)
        crc = (uint16_t)((crc & 1u) ? (crc >> 1) ^ 0xa001u : crc >> 1);
    return crc;
}

uint16_t cm_crc16(uint16_t value, uint16_t crc)
{
    crc = crc_byte((uint8_t)value, crc);
    return crc_byte((uint8_t)(value >> 8), crc);
}

uint16_t cm_crc_bytes(const uint8_t *p, uint32_t n, uint16_t crc)
{
    for (uint32_t i = 0; i < n; i++)
        crc = crc_byte(p[i], crc);
    return crc;
}
