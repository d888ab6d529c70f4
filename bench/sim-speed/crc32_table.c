/* sim-speed benchmark: table-driven CRC-32 (reflected, polynomial
 * 0xEDB88320) over a 4 KiB buffer, ITERS times, each round seeded with the
 * previous CRC. Exercises byte loads (lbu), table loads (lw with computed
 * index), shifts and xors in a tight loop: the load/ALU fast path. */
#include "bench.h"

#ifndef ITERS
#define ITERS 24400
#endif

#define BUF_SIZE 4096

static uint32_t table[256];
static uint8_t buf[BUF_SIZE];

static void make_table(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
        table[i] = c;
    }
}

static uint32_t crc32(uint32_t crc, const uint8_t *p, uint32_t n)
{
    uint32_t c = ~crc;
    while (n--)
        c = table[(c ^ *p++) & 0xff] ^ (c >> 8);
    return ~c;
}

int main(void)
{
    uint32_t seed = 1;
    make_table();
    for (uint32_t i = 0; i < BUF_SIZE; i++)
        buf[i] = (uint8_t)(bench_lcg(&seed) >> 24);
    if (crc32(0, (const uint8_t *)"123456789", 9) != 0xcbf43926u) {
        rt_puts("crc32_table: wrong check value\n");
        return 1;
    }
    uint32_t crc = 0;
    for (uint32_t it = 0; it < ITERS; it++)
        crc = crc32(crc, buf, BUF_SIZE);
    return bench_finish("crc32_table", ITERS, crc);
}
