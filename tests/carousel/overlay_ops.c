/* The overlay variant (kernel/carousel/overlay.c) on cactus-sim's `overlay-paper` profile: three
 * tasks L, M and H linked at overlapping scratchpad addresses (overlay_ops.ld), invoked nested
 * as SRP would (L preempted by M preempted by H, each preemption entering the kernel on its own
 * stack in the OS scratchpad, as an interrupt does). Checked: each task runs from the
 * scratchpad with its image loaded; after a nested task returns, the preempted one finds its
 * whole scratchpad range as it left it (its data, what it wrote over its constants, its stack);
 * the data reach the images in external RAM and the code and constants do not; each
 * invocation makes exactly its copies (save, load, write-back, restore); a task's invocation
 * costs the same cycles nested as alone; an invocation from a scratchpad stack and a
 * malformed descriptor are refused. Prints `overlay task=X save=S image=I data=D cycles=C` per
 * task (the invocation's cycles beyond what the task ran). */
#include <stdint.h>
#include "rt.h"
#include "cactus/overlay.h"
#include "../../kernel/arch/rv32/carousel_hw.h"

#define WORDS 32u
#define SPM_END (OVERLAY_SPM_BASE + OVERLAY_SPM_SIZE)

/* One invocation's instructions and what the task saw. */
typedef struct run {
    const overlay_task *desc;
    struct run *nested;   /* the invocation that preempts this task, or 0 */
    uint32_t *os_stack;   /* the kernel stack the preemption enters on */
    uint32_t seed;        /* what the task's data hold when it starts */
    uint32_t loaded, in_spm, refused, intact;
    int32_t ran;
    uint32_t overhead;    /* the invocation's cycles beyond what the task ran */
} run_t;

static void preempt(run_t *r);

/* A task: WORDS words of data and four of constants in its image; it checks both are loaded,
 * fills a stack array, adds 1 to its data, writes over a constant (the copy in the scratchpad
 * only), tries an invocation from its own stack, lets its preemptor run, then checks that its
 * data, constants and stack are as it left them. */
#define TASK(x, K)                                                                              \
    static volatile uint32_t x##_const[4] __attribute__((section(".ov_" #x ".rodata"))) = {    \
        K, K + 1, K + 2, K + 3};                                                                \
    static volatile uint32_t x##_data[WORDS] __attribute__((section(".ov_" #x ".data"))) = {   \
        [0 ... WORDS - 1] = K};                                                                 \
    __attribute__((noinline, section(".ov_" #x ".text"))) static void task_##x(void *arg)      \
    {                                                                                           \
        run_t *r = arg;                                                                         \
        volatile uint32_t local[8];                                                             \
        uint32_t ok = x##_const[0] == K && x##_const[3] == K + 3;                               \
        for (unsigned k = 0; k < WORDS; k++)                                                    \
            ok &= x##_data[k] == r->seed;                                                       \
        r->loaded = ok;                                                                         \
        uint32_t here = (uint32_t)(uintptr_t)&task_##x, sp = (uint32_t)(uintptr_t)local;        \
        r->in_spm = here >= OVERLAY_SPM_BASE && here < SPM_END && sp >= OVERLAY_SPM_BASE &&     \
                    sp < SPM_END;                                                               \
        for (unsigned k = 0; k < 8; k++)                                                        \
            local[k] = K ^ k;                                                                   \
        for (unsigned k = 0; k < WORDS; k++)                                                    \
            x##_data[k] = r->seed + 1u;                                                         \
        x##_const[1] = ~K;                                                                      \
        r->refused = overlay_run_task(r->desc, 0) == -1;                                        \
        if (r->nested)                                                                          \
            preempt(r->nested);                                                                 \
        ok = x##_const[0] == K && x##_const[1] == ~K && x##_const[3] == K + 3;                  \
        for (unsigned k = 0; k < WORDS; k++)                                                    \
            ok &= x##_data[k] == r->seed + 1u;                                                  \
        for (unsigned k = 0; k < 8; k++)                                                        \
            ok &= local[k] == (K ^ k);                                                          \
        r->intact = ok;                                                                         \
    }

TASK(l, 0x4C000000u)
TASK(m, 0x4D000000u)
TASK(h, 0x48000000u)

#define SYMS(x) extern char __ov_##x[], __ov_##x##_data[], __ov_##x##_end[], __ov_##x##_lma[];
SYMS(l)
SYMS(m)
SYMS(h)

#define A(s) ((uint32_t)(uintptr_t)(s))

static overlay_task desc_l, desc_m, desc_h;
static uint32_t os_stacks[3][256] __attribute__((aligned(16)));

static uint32_t cycles(void)
{
    uint32_t c;
    __asm__ volatile("csrr %0, mcycle" : "=r"(c));
    return c;
}

/* The invocation, timed: the cycles of overlay_run_task less what the task ran. */
static void invoke(void *arg)
{
    run_t *r = arg;
    uint32_t t0 = cycles();
    r->ran = overlay_run_task(r->desc, r);
    r->overhead = cycles() - t0 - (uint32_t)r->ran;
}

/* A preemption: the kernel runs the invocation on its own stack. */
static void preempt(run_t *r)
{
    carousel_call_on(A(&r->os_stack[256]), invoke, r);
}

static overlay_task describe(carousel_method entry, uint32_t lo, uint32_t stack_top,
                             uint32_t data, uint32_t end, uint32_t lma, uint32_t below_end)
{
    /* The save range: [lo, end) where the lower tasks' ranges (all from the SPM's base to
     * below_end) overlap it. */
    uint32_t hi = end < below_end ? end : below_end;
    return (overlay_task){
        .entry = entry,
        .save = lo,
        .save_bytes = hi > lo ? hi - lo : 0,
        .image = stack_top,
        .image_lma = lma,
        .image_bytes = end - stack_top,
        .data_bytes = end - data,
        .stack_top = stack_top,
    };
}

static unsigned failures;

static void check(int ok, const char *what)
{
    rt_puts(ok ? "ok   " : "FAIL ");
    rt_puts(what);
    rt_puts("\n");
    failures += !ok;
}

static int ext_holds(uint32_t lma, uint32_t off, uint32_t words, uint32_t v)
{
    for (uint32_t k = 0; k < words; k++)
        if (*(volatile uint32_t *)(uintptr_t)(lma + off + 4u * k) != v + (words == 4 ? k : 0))
            return 0;
    return 1;
}

static void print_overhead(const char *x, const overlay_task *d, uint32_t c)
{
    rt_puts("overlay task=");
    rt_puts(x);
    rt_puts(" save=");
    rt_putu(d->save_bytes);
    rt_puts(" image=");
    rt_putu(d->image_bytes);
    rt_puts(" data=");
    rt_putu(d->data_bytes);
    rt_puts(" cycles=");
    rt_putu(c);
    rt_puts("\n");
}

int main(void)
{
    uint32_t base = OVERLAY_SPM_BASE;
    /* L (lowest) preempts nothing; M the ranges of L; H those of L and M. */
    uint32_t l_end = A(__ov_l_end), m_end = A(__ov_m_end);
    desc_l = describe(task_l, base, A(__ov_l), A(__ov_l_data), l_end, A(__ov_l_lma), base);
    desc_m = describe(task_m, base, A(__ov_m), A(__ov_m_data), m_end, A(__ov_m_lma), l_end);
    desc_h = describe(task_h, A(__ov_h) - 128u, A(__ov_h), A(__ov_h_data), A(__ov_h_end),
                      A(__ov_h_lma), l_end > m_end ? l_end : m_end);
    overlay_init();
    check(overlay_check(&desc_l) == 0 && overlay_check(&desc_m) == 0 &&
              overlay_check(&desc_h) == 0,
          "the linked descriptors are well-formed");
    check(desc_l.save_bytes == 0 && desc_m.save_bytes == m_end - base &&
              desc_h.save_bytes > 0 && desc_h.data_bytes == 4u * WORDS,
          "L saves nothing, M its whole range, H its overlap with L and M");
    overlay_task bad = desc_h;
    bad.image_lma = base;
    overlay_task bad2 = desc_h;
    bad2.save_bytes = OVERLAY_SPM_SIZE;
    check(overlay_check(&bad) == -1 && overlay_check(&bad2) == -1,
          "an image in the scratchpad and a save range past its end are refused");

    /* H alone, then M alone: the reference cycles. */
    run_t h1 = {.desc = &desc_h, .seed = 0x48000000u, .os_stack = os_stacks[0]};
    invoke(&h1);
    check(h1.ran > 0 && h1.loaded && h1.in_spm && h1.intact && h1.refused,
          "H alone: runs from the scratchpad with its image loaded; refused from its stack");
    run_t m1 = {.desc = &desc_m, .seed = 0x4D000000u, .os_stack = os_stacks[0]};
    invoke(&m1);
    check(m1.ran > 0 && m1.loaded && m1.intact, "M alone");

    /* L preempted by M preempted by H. */
    run_t h2 = {.desc = &desc_h, .seed = 0x48000001u, .os_stack = os_stacks[2]};
    run_t m2 = {.desc = &desc_m, .seed = 0x4D000001u, .os_stack = os_stacks[1], .nested = &h2};
    run_t l1 = {.desc = &desc_l, .seed = 0x4C000000u, .os_stack = os_stacks[0], .nested = &m2};
    uint32_t copies0 = DMA_REG(DMA_COPIES_OFF);
    invoke(&l1);
    uint32_t copies = DMA_REG(DMA_COPIES_OFF) - copies0;
    check(l1.ran > 0 && m2.ran > 0 && h2.ran > 0, "L, M and H ran nested");
    check(l1.loaded && m2.loaded && h2.loaded,
          "each nested task started with its image (its last data) loaded");
    check(m2.intact, "M found its data, constants and stack as it left them after H");
    check(l1.intact, "L found its data, constants and stack as it left them after M and H");
    check(l1.refused && m2.refused, "an invocation from a task's scratchpad stack is refused");
    check(copies == 2u + 4u + 4u,
          "copies: L load and write-back; M and H save, load, write-back, restore");
    check(overlay_saved_bytes() == 0, "nothing saved after the outermost invocation");
    check(h2.overhead == h1.overhead && m2.overhead == m1.overhead,
          "H's and M's invocations cost the same cycles nested as alone");
    check(ext_holds(A(__ov_l_lma), A(__ov_l_data) - A(__ov_l), WORDS, 0x4C000001u) &&
              ext_holds(A(__ov_m_lma), A(__ov_m_data) - A(__ov_m), WORDS, 0x4D000002u) &&
              ext_holds(A(__ov_h_lma), A(__ov_h_data) - A(__ov_h), WORDS, 0x48000002u),
          "the data reached the images in external RAM");
    check(ext_holds(A(__ov_l_lma), A(l_const) - A(__ov_l), 4, 0x4C000000u) &&
              ext_holds(A(__ov_m_lma), A(m_const) - A(__ov_m), 4, 0x4D000000u) &&
              ext_holds(A(__ov_h_lma), A(h_const) - A(__ov_h), 4, 0x48000000u),
          "the constants written over in the scratchpad were discarded");
    print_overhead("L", &desc_l, l1.overhead);
    print_overhead("M", &desc_m, m1.overhead);
    print_overhead("H", &desc_h, h1.overhead);
    rt_puts(failures ? "overlay_ops: FAIL\n" : "overlay_ops: PASS\n");
    return failures ? 1 : 0;
}
