/* pgp_keys.c: RSA key material (see pgp_keys.h); data, like a key ring file. */
#include "pgp_keys.h"

static const uint32_t small_p[4] = {
    0x229bd7f3u, 0xb8e56b26u, 0x830ab7c3u, 0xc4f4ebbdu
};
static const uint32_t small_q[4] = {
    0xb0ebc807u, 0xcc17935cu, 0x1211d350u, 0xfb54574du
};
static const uint32_t small_n[8] = {
    0xff09bfa5u, 0xd59fc6eeu, 0x1872dbaau, 0x4c31ba4eu, 0x06a022f9u, 0x43d70723u,
    0xb159c0a5u, 0xc15d06aau
};
static const uint32_t small_d[8] = {
    0xa9dd0c29u, 0x84deaef7u, 0xd753be75u, 0xea91d742u, 0xf0cc44a1u, 0xe8571c9du,
    0x64f09904u, 0xa9a81397u
};
static const uint32_t full_p[8] = {
    0x56600e07u, 0x54fb76c1u, 0x48226344u, 0xf42ab0deu, 0x4a39cce3u, 0x086a3a45u,
    0xd4357649u, 0xea16c533u
};
static const uint32_t full_q[8] = {
    0x2afc3ff3u, 0x56ccf968u, 0xc117b7deu, 0xecf9f42fu, 0x2e876bc6u, 0xa382d83cu,
    0x76fa4f8au, 0xe4acd055u
};
static const uint32_t full_n[16] = {
    0x958509a5u, 0x37a69879u, 0xa8fa83adu, 0x0b79d679u, 0x4c589772u, 0x710cf465u,
    0x4b0696abu, 0xea01e307u, 0xd8ff227eu, 0x88b3cf11u, 0xd115a436u, 0x9660be25u,
    0x6b8226d9u, 0xaf7f325du, 0x4e6729c3u, 0xd11a4d6fu
};
static const uint32_t full_d[16] = {
    0xdb45b2a1u, 0xaf55aabau, 0xaebf7f57u, 0x70e72d48u, 0xa0859ebbu, 0xdcad6d9fu,
    0xfda6a3bdu, 0xb066be57u, 0xd765032eu, 0x5e253797u, 0x16c781d2u, 0x30f2ec3fu,
    0x28a163b1u, 0x7f77adceu, 0x51f0c074u, 0x583037a8u
};

const pgp_key_t pgp_keys[2] = {
    {8, small_p, small_q, small_n, small_d},
    {16, full_p, full_q, full_n, full_d},
};
