/* gsm_lpc.h: short-term LPC analysis for the gsm-like codec: reflection coefficients by
 * autocorrelation and Schur recursion, and their log-area-ratio style quantisation. All values
 * are Q15 fixed point; every |r| stays below 1, so lattice filters built from them are stable. */
#ifndef MTSS_GSM_LPC_H
#define MTSS_GSM_LPC_H

#include <stdint.h>

/** Samples per frame. */
#define GSM_FRAME 160
/** LPC order. */
#define GSM_ORDER 8

/** Writes GSM_ORDER reflection coefficients (Q15) of the GSM_FRAME samples s to r; trailing
 * coefficients are 0 when the recursion becomes numerically singular. */
void gsm_lpc_analysis(const int16_t *s, int32_t *r);
/** Quantises reflection coefficient r (Q15) of order i to its LAR code (6,6,5,5,4,4,3,3 bits,
 * two's complement range). */
int8_t gsm_quant_lar(int i, int32_t r);
/** Decodes GSM_ORDER LAR codes back to reflection coefficients (Q15). */
void gsm_decode_lar(const int8_t *lar, int32_t *r);

#endif
