/* The hand-written stack-check sites of check_sites.S (see there for what each does), shared by
 * the kernel scenarios and the bare-metal runtime's test. */
#ifndef CHECK_SITES_H
#define CHECK_SITES_H

#include <stdint.h>

uint32_t ck_fill_256(uint32_t byte);
uint32_t ck_fill_2048(uint32_t byte);
uint32_t ck_fill_4096(uint32_t byte);
uint32_t ck_fill_32k(uint32_t byte);
uint32_t ck_alloca(uint32_t n, uint32_t byte);
uint32_t ck_resume(uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4, uint32_t a5,
                   uint32_t a6, uint32_t a7);
void ck_plain_ecall(void);
/* Addresses of the out-of-line ecalls (the fault report's pc). */
extern const char ck_fill_2048_site[], ck_fill_4096_site[], ck_fill_32k_site[],
    ck_alloca_dyn_site[];

#endif
