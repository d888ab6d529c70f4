/* wl_string.h: the four memory functions programs may use. Hosted builds take them from
 * <string.h>; freestanding builds link workloads/common/baremetal/libc_min.c. */
#ifndef WL_STRING_H
#define WL_STRING_H

#include <stddef.h>

#if __STDC_HOSTED__
#include <string.h>
#else
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
#endif

#endif
