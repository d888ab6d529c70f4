/* coremark.c: CoreMark-like iterations (see coremark.h) and the four instance programs.
 * One round = one iteration: list, matrix and state-machine kernels, each result folded into
 * the instance's CRC-16, and the CRC mixed into the checksum. Iterations: 4 (small) and 400
 * (full). Init checks the CRC-16/ARC check value. */
#include "coremark.h"

/* CoreMark-style seed sets, one per instance (seed3 is the "data size" seed). */
static const uint16_t cm_seeds[4][3] = {
    {0x3415, 0x3415, 0x66},
    {0x0001, 0x7b05, 0x66},
    {0x4e21, 0x1d3f, 0x5a},
    {0x9c5e, 0x0bad, 0x71},
};

void cm_instance_init(cm_state_t *s, uint32_t instance, uint32_t size_class)
{
    s->seed1 = cm_seeds[instance & 3u][0];
    s->seed2 = cm_seeds[instance & 3u][1];
    s->seed3 = cm_seeds[instance & 3u][2];
    wl_run_init(&s->run, (uint32_t)s->seed1 << 16 | s->seed2, size_class ? 400u : 4u);
    s->crc = 0;
    static const uint8_t check[9] = {'1', '2', '3', '4', '5', '6', '7', '8', '9'};
    s->run.failures += cm_crc_bytes(check, 9, 0) != 0xbb3du;
    cm_list_init(s);
    cm_matrix_init(s);
    cm_text_init(s);
}

int cm_instance_round(cm_state_t *s)
{
    uint32_t it = s->run.rounds;
    uint16_t list = cm_list_iterate(s, it, &s->run.failures);
    uint16_t matrix = cm_matrix_iterate(s, it, &s->run.failures);
    uint16_t text = cm_text_iterate(s, it, &s->run.failures);
    s->crc = cm_crc16(list, s->crc);
    s->crc = cm_crc16(matrix, s->crc);
    s->crc = cm_crc16(text, s->crc);
    s->run.sum = wl_mix32(s->run.sum, s->crc);
    return wl_run_next(&s->run);
}

static cm_state_t instances[4];

/* The four programs differ only in the instance (and so the seed set) they drive. */
void coremark0_init(uint32_t size_class)
{
    cm_instance_init(&instances[0], 0, size_class);
}
int coremark0_round(void)
{
    return cm_instance_round(&instances[0]);
}
uint32_t coremark0_checksum(void)
{
    return wl_run_checksum(&instances[0].run);
}
uint32_t coremark0_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0xe5b8a6ccu, 0xda674e6au};
    return wl_run_expected(expected, size_class);
}

void coremark1_init(uint32_t size_class)
{
    cm_instance_init(&instances[1], 1, size_class);
}
int coremark1_round(void)
{
    return cm_instance_round(&instances[1]);
}
uint32_t coremark1_checksum(void)
{
    return wl_run_checksum(&instances[1].run);
}
uint32_t coremark1_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0x53f207e1u, 0x580492e8u};
    return wl_run_expected(expected, size_class);
}

void coremark2_init(uint32_t size_class)
{
    cm_instance_init(&instances[2], 2, size_class);
}
int coremark2_round(void)
{
    return cm_instance_round(&instances[2]);
}
uint32_t coremark2_checksum(void)
{
    return wl_run_checksum(&instances[2].run);
}
uint32_t coremark2_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0x774fc848u, 0xc64a6f6fu};
    return wl_run_expected(expected, size_class);
}

void coremark3_init(uint32_t size_class)
{
    cm_instance_init(&instances[3], 3, size_class);
}
int coremark3_round(void)
{
    return cm_instance_round(&instances[3]);
}
uint32_t coremark3_checksum(void)
{
    return wl_run_checksum(&instances[3].run);
}
uint32_t coremark3_expected(uint32_t size_class)
{
    static const uint32_t expected[WL_SIZE_CLASSES] = {0xbd94fb87u, 0x2250626fu};
    return wl_run_expected(expected, size_class);
}

const wl_program_t coremark0_program = {"coremark0", coremark0_init, coremark0_round,
                                        coremark0_checksum, coremark0_expected};
const wl_program_t coremark1_program = {"coremark1", coremark1_init, coremark1_round,
                                        coremark1_checksum, coremark1_expected};
const wl_program_t coremark2_program = {"coremark2", coremark2_init, coremark2_round,
                                        coremark2_checksum, coremark2_expected};
const wl_program_t coremark3_program = {"coremark3", coremark3_init, coremark3_round,
                                        coremark3_checksum, coremark3_expected};
