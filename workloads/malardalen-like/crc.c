/* crc.c: CRC-16/CCITT-FALSE (polynomial 0x1021, initial value 0xffff) of a 64-byte message,
 * computed twice per activation: bit by bit with a branch-free conditional xor, and a byte at
 * a time through a 256-entry table built at initialisation. Init checks the published check
 * value CRC("123456789") = 0x29b1 with both methods. Per activation: a new random message.
 * Check: both methods agree. */
#include "mal_sp.h"
#include "malardalen.h"

#define CRC_N 64
#define CRC_POLY 0x1021u

static struct {
    wl_run_t run;
    uint16_t table[256];
    uint8_t msg[CRC_N];
} st;

static uint16_t crc_bitwise(const uint8_t *p, uint32_t n)
{
    uint32_t crc = 0xffffu;
    for (uint32_t i = 0; i < n; i++) {
        crc ^= (uint32_t)p[i] << 8;
        for (int b = 0; b < 8; b++)
            crc = ((crc << 1) ^ (CRC_POLY & sp_mask((crc >> 15) & 1u))) & 0xffffu;
    }
    return (uint16_t)crc;
}

static uint16_t crc_table(const uint8_t *p, uint32_t n)
{
    uint32_t crc = 0xffffu;
    for (uint32_t i = 0; i < n; i++)
        crc = ((crc << 8) ^ st.table[((crc >> 8) ^ p[i]) & 0xffu]) & 0xffffu;
    return (uint16_t)crc;
}

void crc_init(uint32_t size_class)
{
    mal_run_init(&st.run, size_class, 0xc4c16u);
    for (uint32_t i = 0; i < 256; i++) {
        uint8_t byte = (uint8_t)i;
        /* The table entry is the CRC register change caused by one byte from a zero start. */
        uint32_t crc = (uint32_t)byte << 8;
        for (int b = 0; b < 8; b++)
            crc = ((crc << 1) ^ (CRC_POLY & sp_mask((crc >> 15) & 1u))) & 0xffffu;
        st.table[i] = (uint16_t)crc;
    }
    static const uint8_t check[9] = {'1', '2', '3', '4', '5', '6', '7', '8', '9'};
    st.run.failures += crc_bitwise(check, 9) != 0x29b1u;
    st.run.failures += crc_table(check, 9) != 0x29b1u;
}

int crc_round(void)
{
    wl_run_t *r = &st.run;
    for (uint32_t i = 0; i < CRC_N; i++)
        st.msg[i] = (uint8_t)wl_prng_next(&r->rng);
    uint16_t a = crc_bitwise(st.msg, CRC_N), b = crc_table(st.msg, CRC_N);
    r->failures += a != b;
    r->sum = wl_mix32(r->sum, a);
    return wl_run_next(r);
}

uint32_t crc_checksum(void)
{
    return wl_run_checksum(&st.run);
}

uint32_t crc_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0xaf563cbfu, 0x3a6a96a2u};
    return wl_run_expected(expected, size_class);
}

const wl_program_t crc_program = {"crc", crc_init, crc_round, crc_checksum, crc_expected};
