/* The kernel side of the software stack window (window_sw.h; docs/sensmart.md "The software
 * variant"): the slow path of the logical-stack pass's translation (lstack.S calls
 * k_lstack_trap) and the C library copies code built with the pass calls instead of the
 * kernel's uninstrumented string functions (cactus_ls_<name>: they translate the task's
 * logical pointers). Only a software-window kernel (CACTUS_STACK_WINDOW_SW) has them.
 *
 * The wrappers work in chunks of LS_CHUNK bytes with interrupts masked, translating both
 * pointers afresh for each chunk: a physical address never outlives the masked section, so a
 * move of the task's stack between chunks (another task's growth) cannot leave it stale, and
 * the interrupt latency they add is one chunk's copy. */
#include "../../core/k.h"
#include "../../stack/stack.h"

#if CACTUS_STACK_WINDOW_SW
#include <stddef.h>

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);

/* The translation found the logical address below the running task's bound: grow its stack
 * (relocate.c) or apply its fault policy. `phys` is the address plus the displacement. */
void k_lstack_trap(uint32_t phys)
{
    struct k_tcb *cur = k_cur();
    k_stack_window_fault(&cur->ctx, phys - cur->stack_disp, 0);
}

uint32_t port_lstack_span;

void port_window_init(void)
{
    uint32_t span = 0, prev = 0;
    for (const struct port_lstack_record *r = __start_cactus_lstack; r < __stop_cactus_lstack;
         r++) {
        if (r->start < prev)
            return; /* not sorted: port_window_moved reads every record */
        prev = r->start;
        if (r->end > r->start && r->end - r->start > span)
            span = r->end - r->start;
    }
    port_lstack_span = span;
}

void k_lstack_kernel_panic(uint32_t phys)
{
    k_report("cactus: PANIC: logical stack address %08x below the bound in kernel code\n", phys);
    port_exit(CACTUS_EXIT_PANIC);
}

#define LS_CHUNK 64u

static K_SYSCALL(sys_ls_grow)
{
    (void)a2, (void)a3;
    stack_task_ptr(k_cur(), (void *)a0, (uint32_t)a1);
    return 0;
}

/* Both pointers translated with interrupts masked (returned state in *irq), growing the stack
 * through a kernel call while one lies below the bound. */
static void ls_pair(const void *a, const void *b, uint32_t n, void **pa, void **pb,
                    uint32_t *irq)
{
    for (;;) {
        *irq = port_irq_save();
        *pa = port_window_task_ptr((void *)a);
        *pb = b ? port_window_task_ptr((void *)b) : (void *)1;
        if (*pa && *pb)
            return;
        port_irq_restore(*irq);
        SYSCALL(sys_ls_grow, *pa ? b : a, n, 0, 0);
    }
}

static uint32_t chunk(size_t left)
{
    return left < LS_CHUNK ? (uint32_t)left : LS_CHUNK;
}

void *cactus_ls_memcpy(void *dst, const void *src, size_t n)
{
    for (size_t off = 0; off < n; off += LS_CHUNK) {
        uint32_t k = chunk(n - off), irq;
        void *d, *s;
        ls_pair((char *)dst + off, (const char *)src + off, k, &d, &s, &irq);
        memcpy(d, s, k);
        port_irq_restore(irq);
    }
    return dst;
}

void *cactus_ls_memmove(void *dst, const void *src, size_t n)
{
    if ((uintptr_t)dst <= (uintptr_t)src || (uintptr_t)dst >= (uintptr_t)src + n)
        return cactus_ls_memcpy(dst, src, n); /* forward chunks never overwrite unread bytes */
    for (size_t end = n; end > 0;) {
        uint32_t k = chunk(end), irq;
        end -= k;
        void *d, *s;
        ls_pair((char *)dst + end, (const char *)src + end, k, &d, &s, &irq);
        memmove(d, s, k);
        port_irq_restore(irq);
    }
    return dst;
}

void *cactus_ls_memset(void *dst, int c, size_t n)
{
    for (size_t off = 0; off < n; off += LS_CHUNK) {
        uint32_t k = chunk(n - off), irq;
        void *d, *unused;
        ls_pair((char *)dst + off, NULL, k, &d, &unused, &irq);
        memset(d, c, k);
        port_irq_restore(irq);
    }
    return dst;
}

int cactus_ls_memcmp(const void *a, const void *b, size_t n)
{
    for (size_t off = 0; off < n; off += LS_CHUNK) {
        uint32_t k = chunk(n - off), irq;
        void *x, *y;
        ls_pair((const char *)a + off, (const char *)b + off, k, &x, &y, &irq);
        int r = memcmp(x, y, k);
        port_irq_restore(irq);
        if (r)
            return r;
    }
    return 0;
}

size_t cactus_ls_strlen(const char *s)
{
    for (size_t n = 0;; n++) {
        uint32_t irq;
        void *p, *unused;
        ls_pair(s + n, NULL, 1, &p, &unused, &irq);
        char c = *(const char *)p;
        port_irq_restore(irq);
        if (!c)
            return n;
    }
}

int cactus_ls_strcmp(const char *a, const char *b)
{
    for (size_t n = 0;; n++) {
        uint32_t irq;
        void *x, *y;
        ls_pair(a + n, b + n, 1, &x, &y, &irq);
        unsigned char c = *(const unsigned char *)x, d = *(const unsigned char *)y;
        port_irq_restore(irq);
        if (c != d || !c)
            return c - d;
    }
}
#endif
