/* bm_io.h: console output on the QEMU virt UART (16550 at 0x10000000) and exit through the
 * test finisher (0x00100000). Output is unbuffered and blocking. */
#ifndef BM_IO_H
#define BM_IO_H

#include <stdint.h>

/** Writes one character. */
void bm_putc(char c);
/** Writes a NUL-terminated string. */
void bm_puts(const char *s);
/** Writes v in decimal. */
void bm_put_dec(uint32_t v);
/** Writes v as 0x followed by 8 hex digits. */
void bm_put_hex(uint32_t v);
/** Ends the run: code 0 = pass (0x5555), otherwise fail ((code << 16) | 0x3333). */
void bm_exit(int code) __attribute__((noreturn));

#endif
