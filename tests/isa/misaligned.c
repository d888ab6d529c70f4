/* Misaligned loads and stores (lw/lh/lhu/sw/sh at every misaligned offset,
 * including ones that cross a 4- and an 8-byte boundary). QEMU performs them
 * in hardware without a trap, so this test checks that they complete and
 * give the same bytes as byte-wise little-endian access; a trap would end the
 * test through the default handler (exit 100). */
#include "rt.h"

static uint8_t buf[32] __attribute__((aligned(16)));

static uint32_t lw_at(const uint8_t *p)
{
    uint32_t v;
    __asm__ volatile("lw %0, 0(%1)" : "=r"(v) : "r"(p) : "memory");
    return v;
}
static uint32_t lh_at(const uint8_t *p)
{
    uint32_t v;
    __asm__ volatile("lh %0, 0(%1)" : "=r"(v) : "r"(p) : "memory");
    return v;
}
static uint32_t lhu_at(const uint8_t *p)
{
    uint32_t v;
    __asm__ volatile("lhu %0, 0(%1)" : "=r"(v) : "r"(p) : "memory");
    return v;
}
static void sw_at(uint8_t *p, uint32_t v)
{
    __asm__ volatile("sw %0, 0(%1)" ::"r"(v), "r"(p) : "memory");
}
static void sh_at(uint8_t *p, uint32_t v)
{
    __asm__ volatile("sh %0, 0(%1)" ::"r"(v), "r"(p) : "memory");
}

static uint32_t bytes_le(const uint8_t *p, int n)
{
    uint32_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = (v << 8) | ((volatile const uint8_t *)p)[i];
    return v;
}

static void fill(void)
{
    for (int i = 0; i < 32; i++)
        buf[i] = (uint8_t)(0x81 + i * 0x11);
}

int main(void)
{
    rt_puts("misaligned loads\n");
    fill();
    for (int off = 1; off < 12; off++) {
        if (off % 4 == 0)
            continue;
        CHECK_EQ(100 + off, lw_at(buf + off), bytes_le(buf + off, 4));
        if (off % 2) {
            uint32_t h = bytes_le(buf + off, 2);
            CHECK_EQ(200 + off, lhu_at(buf + off), h);
            CHECK_EQ(300 + off, lh_at(buf + off), (uint32_t)(int32_t)(int16_t)h);
        }
    }

    rt_puts("misaligned stores\n");
    for (int off = 1; off < 12; off++) {
        if (off % 4 == 0)
            continue;
        fill();
        uint32_t v = 0xa1b2c3d4u + (uint32_t)off;
        sw_at(buf + off, v);
        CHECK_EQ(400 + off, bytes_le(buf + off, 4), v);
        CHECK_EQ(500 + off, buf[off - 1], (uint8_t)(0x81 + (off - 1) * 0x11));
        CHECK_EQ(600 + off, buf[off + 4], (uint8_t)(0x81 + (off + 4) * 0x11));
        CHECK_EQ(700 + off, lw_at(buf + off), v);
        if (off % 2) {
            fill();
            sh_at(buf + off, 0xfeed0000u | (uint32_t)off);
            CHECK_EQ(800 + off, bytes_le(buf + off, 2), (uint32_t)off);
            CHECK_EQ(900 + off, buf[off + 2], (uint8_t)(0x81 + (off + 2) * 0x11));
        }
    }
    return rt_summary("misaligned");
}
