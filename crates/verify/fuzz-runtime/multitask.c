/* Shared part of the multi-task fuzz firmware (docs/fuzz.md, "Multi-task mode"), included by
 * the generated fuzz_tasks.c, which defines fuzz_printf_K and fuzz_task_K for every task K.
 *
 * Each task runs one csmith program (main renamed fuzz_main_K, printf renamed fuzz_printf_K)
 * with no arguments, so it prints only its final "checksum = X" line; that goes to the task's
 * own buffer, so preemption cannot interleave outputs. The last task to finish prints
 * "task K exit R: <output>" for every task in order and ends the run through
 * cactus_fw_finish(0) (which reports a success as exit code 1 if the oracle saw a
 * violation). */
#include <stdarg.h>
#include <stdint.h>
#include "cactus/cactus.h"
#include "cactus_firmware.h"

#define FUZZ_OUT_BYTES 96

static char fuzz_out[FW_NTASKS][FUZZ_OUT_BYTES];
static uint32_t fuzz_len[FW_NTASKS];
static int fuzz_result[FW_NTASKS];
static uint32_t fuzz_finished;

static void fuzz_put(int k, char c)
{
    if (fuzz_len[k] < FUZZ_OUT_BYTES - 1)
        fuzz_out[k][fuzz_len[k]++] = c;
}

static void fuzz_put_num(int k, uint32_t v, unsigned base, int upper)
{
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    char buf[12];
    int n = 0;
    do {
        buf[n++] = digits[v % base];
        v /= base;
    } while (v != 0);
    while (n > 0)
        fuzz_put(k, buf[--n]);
}

/* Formats into task k's buffer: %d %u %x %X %s %c %% with l/ll ignored (every value csmith
 * prints without its hash flag is 32-bit). */
static int fuzz_vprintf(int k, const char *f, va_list ap)
{
    for (; *f; f++) {
        if (*f != '%') {
            fuzz_put(k, *f);
            continue;
        }
        f++;
        while (*f == 'l')
            f++;
        switch (*f) {
        case 'd': {
            int v = va_arg(ap, int);
            if (v < 0) {
                fuzz_put(k, '-');
                fuzz_put_num(k, 0u - (uint32_t)v, 10, 0);
            } else {
                fuzz_put_num(k, (uint32_t)v, 10, 0);
            }
            break;
        }
        case 'u':
            fuzz_put_num(k, va_arg(ap, uint32_t), 10, 0);
            break;
        case 'x':
        case 'X':
            fuzz_put_num(k, va_arg(ap, uint32_t), 16, *f == 'X');
            break;
        case 'c':
            fuzz_put(k, (char)va_arg(ap, int));
            break;
        case 's':
            for (const char *s = va_arg(ap, const char *); *s; s++)
                fuzz_put(k, *s);
            break;
        case '%':
            fuzz_put(k, '%');
            break;
        default:
            fuzz_put(k, '?');
            if (*f == '\0')
                return 0;
            break;
        }
    }
    return 0;
}

/* The firmware compiles with -ffreestanding, so csmith's safe_math.h calls fabs and fabsf
 * instead of expanding them (at -O0 they stay even when unused); they are all it needs of
 * libm. Sign-bit arithmetic, so the compiler cannot turn them back into calls to themselves. */
double fabs(double x);
float fabsf(float x);
double fabs(double x)
{
    union {
        double d;
        uint64_t u;
    } v = { x };
    v.u &= ~(UINT64_C(1) << 63);
    return v.d;
}
float fabsf(float x)
{
    union {
        float f;
        uint32_t u;
    } v = { x };
    v.u &= ~(UINT32_C(1) << 31);
    return v.f;
}

static void fuzz_run(int k, int (*program_main)(int, char **))
{
    static char arg0[] = "fuzz";
    char *argv[] = { arg0, 0 };
    fuzz_result[k] = program_main(1, argv);
    uint32_t irq = cactus_irq_save();
    int last = ++fuzz_finished == FW_NTASKS;
    cactus_irq_restore(irq);
    if (last) {
        for (int i = 0; i < FW_NTASKS; i++)
            kprintf("task %d exit %d: %s", i, fuzz_result[i], fuzz_out[i]);
        cactus_fw_finish(0);
    }
}
