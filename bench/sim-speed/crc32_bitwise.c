/* sim-speed benchmark: bit-at-a-time CRC-32 (no table) over a 1 KiB buffer,
 * ITERS times, each round seeded with the previous CRC. Exercises a short
 * data-dependent inner loop of shifts, ands, negation and xors with a
 * backward branch every 8 bits: ALU throughput and branch handling. */
#include "bench.h"

#ifndef ITERS
#define ITERS 16000
#endif

#define BUF_SIZE 1024

static uint8_t buf[BUF_SIZE];

static uint32_t crc32_bits(uint32_t crc, const uint8_t *p, uint32_t n)
{
    uint32_t c = ~crc;
    while (n--) {
        c ^= *p++;
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
    }
    return ~c;
}

int main(void)
{
    uint32_t seed = 2;
    for (uint32_t i = 0; i < BUF_SIZE; i++)
        buf[i] = (uint8_t)(bench_lcg(&seed) >> 24);
    if (crc32_bits(0, (const uint8_t *)"123456789", 9) != 0xcbf43926u) {
        rt_puts("crc32_bitwise: wrong check value\n");
        return 1;
    }
    uint32_t crc = 0;
    for (uint32_t it = 0; it < ITERS; it++)
        crc = crc32_bits(crc, buf, BUF_SIZE);
    return bench_finish("crc32_bitwise", ITERS, crc);
}
