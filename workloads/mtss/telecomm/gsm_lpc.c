/* gsm_lpc.c: short-term LPC analysis of the gsm-like codec (see gsm_lpc.h). */
#include "gsm_lpc.h"

static const uint8_t lar_bits[GSM_ORDER] = {6, 6, 5, 5, 4, 4, 3, 3};

static int32_t abs32(int32_t v)
{
    return v < 0 ? -v : v;
}

void gsm_lpc_analysis(const int16_t *s, int32_t *r)
{
    int32_t smax = 1;
    for (int n = 0; n < GSM_FRAME; n++)
        if (abs32(s[n]) > smax)
            smax = abs32(s[n]);
    int shift = 0;
    while ((smax >> shift) > 4095)
        shift++;
    int16_t sc[GSM_FRAME];
    for (int n = 0; n < GSM_FRAME; n++)
        sc[n] = (int16_t)(s[n] >> shift);
    int64_t acf[GSM_ORDER + 1];
    for (int k = 0; k <= GSM_ORDER; k++) {
        acf[k] = 0;
        for (int n = k; n < GSM_FRAME; n++)
            acf[k] += (int64_t)sc[n] * sc[n - k];
    }
    for (int i = 0; i < GSM_ORDER; i++)
        r[i] = 0;
    if (acf[0] == 0)
        return;
    int norm = 0;
    while ((acf[0] >> norm) >= (1 << 30))
        norm++;
    int64_t p[GSM_ORDER + 1], k[GSM_ORDER + 1];
    for (int i = 0; i <= GSM_ORDER; i++)
        p[i] = k[i] = acf[i] >> norm;
    for (int n = 0; n < GSM_ORDER; n++) {
        if (p[0] <= 0 || (p[1] < 0 ? -p[1] : p[1]) >= p[0])
            break; /* numerically singular: leave the remaining coefficients zero */
        int32_t rn = (int32_t)(-(p[1] * 32768) / p[0]);
        r[n] = rn;
        p[0] += (p[1] * rn) >> 15;
        for (int m = 1; m < GSM_ORDER - n; m++) {
            int64_t pm1 = p[m + 1];
            p[m] = pm1 + ((k[m] * rn) >> 15);
            k[m] = k[m] + ((pm1 * rn) >> 15);
        }
    }
}

/* Piecewise-linear log-area-ratio companding of a Q15 reflection coefficient. */
static int32_t to_lar(int32_t r)
{
    int32_t a = abs32(r), l;
    if (a < 22118)
        l = a;
    else if (a < 31130)
        l = 2 * a - 22118;
    else
        l = 8 * a - 208896;
    return r < 0 ? -l : l;
}

static int32_t from_lar(int32_t l)
{
    int32_t a = abs32(l), r;
    if (a < 22118)
        r = a;
    else if (a < 40142)
        r = (a + 22118) / 2;
    else
        r = (a + 208896) / 8;
    if (r > 32767)
        r = 32767;
    return l < 0 ? -r : r;
}

static int32_t lar_step(int i)
{
    return 106480 >> lar_bits[i];
}

int8_t gsm_quant_lar(int i, int32_t r)
{
    int32_t step = lar_step(i), l = to_lar(r), lim = 1 << (lar_bits[i] - 1);
    int32_t q = (l >= 0 ? l + step / 2 : l - step / 2) / step;
    q = q < -lim ? -lim : q > lim - 1 ? lim - 1 : q;
    return (int8_t)q;
}

void gsm_decode_lar(const int8_t *lar, int32_t *r)
{
    for (int i = 0; i < GSM_ORDER; i++)
        r[i] = from_lar(lar[i] * lar_step(i));
}
