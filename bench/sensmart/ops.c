/* The key-operation firmware of `cactus bench sensmart` (docs/sensmart.md, Table II): one task
 * times single operations with mcycle, interrupts masked, each probe a noinline function
 * called between two mcycle reads, the minimum of REPS runs. The bench builds it `static`
 * (the baseline: no translation), `relocate` with the hardware window and `relocate` with the
 * software window (`cactus cc --logical-stack`, `mtss` checks), and reports each operation's
 * cycles less the empty probe's; the difference from `static` is what the variant adds.
 * Markers: 300 + k = cycles of operation k (below, OP_*) less the empty probe's; 299 = the
 * number of operations. */
#include "cactus/cactus.h"
#include "cactus/trace.h"

#define REPS 8u

enum {
    OP_DIRECT,      /* a load from a global (`lw` through %lo: never translated) */
    OP_STACK,       /* a load through a pointer to a local of the caller (a stack frame) */
    OP_HEAP,        /* a load through a pointer to a global array element (the heap) */
    OP_GET_SP,      /* the address of a local taken (sp escapes into a register) */
    OP_SET_SP,      /* a frame-pointer epilogue (sp set from s0) after a variable-size frame */
    OP_KERNEL_CALL, /* a kernel call that resumes the caller: context save and restore */
    OP_COUNT
};

static volatile uint32_t global_word = 7;
static volatile uint32_t heap[16];

static uint32_t mcycle(void)
{
    uint32_t c;
    __asm__ volatile("csrr %0, mcycle" : "=r"(c)::"memory");
    return c;
}

static uint32_t __attribute__((noinline)) probe_empty(volatile uint32_t *p)
{
    __asm__ volatile("" ::"r"(p) : "memory");
    return 0;
}

static uint32_t __attribute__((noinline)) probe_direct(volatile uint32_t *p)
{
    (void)p;
    return global_word;
}

static uint32_t __attribute__((noinline)) probe_load(volatile uint32_t *p)
{
    return *p;
}

static uint32_t __attribute__((noinline)) probe_get_sp(volatile uint32_t *p)
{
    volatile uint32_t local = 0;
    (void)p;
    return (uint32_t)(uintptr_t)&local;
}

static uint32_t __attribute__((noinline)) probe_set_sp(volatile uint32_t *p)
{
    /* A variable-size frame: GCC restores sp from the frame pointer (`addi sp, s0, -k`). */
    volatile uint8_t *buf = __builtin_alloca((*p & 15u) + 1u);
    buf[0] = 1;
    return buf[0];
}

static uint32_t __attribute__((noinline)) probe_kernel_call(volatile uint32_t *p)
{
    (void)p;
    cactus_yield(); /* the only task: the kernel resumes it */
    return 0;
}

typedef uint32_t (*probe_fn)(volatile uint32_t *);

/* noinline: every probe is timed by the same instructions (f and arg in registers). */
static uint32_t __attribute__((noinline)) time_probe(probe_fn f, volatile uint32_t *arg)
{
    uint32_t best = ~0u;
    for (uint32_t r = 0; r < REPS; r++) {
        uint32_t before = mcycle();
        f(arg);
        uint32_t cycles = mcycle() - before;
        if (cycles < best)
            best = cycles;
    }
    return best;
}

void ops_main(void *arg)
{
    (void)arg;
    volatile uint32_t local = 3;
    heap[3] = 5;
    struct {
        probe_fn f;
        volatile uint32_t *arg;
    } const ops[OP_COUNT] = {
        [OP_DIRECT] = { probe_direct, &local },
        [OP_STACK] = { probe_load, &local },
        [OP_HEAP] = { probe_load, &heap[3] },
        [OP_GET_SP] = { probe_get_sp, &local },
        [OP_SET_SP] = { probe_set_sp, &heap[3] },
        [OP_KERNEL_CALL] = { probe_kernel_call, &local },
    };
    uint32_t irq = cactus_irq_save();
    uint32_t empty = time_probe(probe_empty, &local);
    for (uint32_t k = 0; k < OP_COUNT; k++) {
        /* The kernel call runs with interrupts as the kernel leaves them. */
        if (k == OP_KERNEL_CALL)
            cactus_irq_restore(irq);
        uint32_t c = time_probe(ops[k].f, ops[k].arg);
        if (k == OP_KERNEL_CALL)
            irq = cactus_irq_save();
        cactus_trace_marker(300 + k, c - empty);
    }
    cactus_irq_restore(irq);
    cactus_trace_marker(299, OP_COUNT);
    cactus_exit(0);
}
