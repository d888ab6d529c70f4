/* runner.c: bare-metal driver for one workload of WL_PROGRAMS programs (default four) on QEMU
 * virt.
 *
 * Mimics the task interleaving: each program gets its own painted stack, is initialised on it,
 * and then the four programs run round-robin, one round each in turn, until all are done.
 * Prints each program's checksum, rounds and stack high water (bytes below the 16-byte call
 * frame of wl_call_on_stack), then exits through the finisher: pass iff every checksum equals
 * the program's expected value and no stack was exhausted. Output depends only on the code.
 *
 * Build options (all -D): WL_PROGRAMS (programs in the workload, default 4), WL_STACK_BYTES
 * (painted stack per program, default 128 KiB), WL_COUNT_INSNS (print "insns <name> <round>
 * <count>" with the minstret delta of every P_round; meaningful under QEMU -icount shift=0),
 * WL_INPUT_VARIANT (non-zero: the programs were built with another input seed, so the
 * checksum cannot equal P_expected; pass then only requires no failed self-check),
 * WL_ROUND_STACK (repaint each program's stack before every round and print
 * "round-stack <name> min <bytes> max <bytes>": the smallest and largest stack one round
 * used, excluding P_init). */
#include "bm_io.h"
#include "wl_checksum.h"
#include "wl_program.h"

#ifndef WL_SIZE_CLASS
#define WL_SIZE_CLASS 0
#endif

#ifndef WL_PROGRAMS
#define WL_PROGRAMS 4
#endif
#ifndef WL_STACK_BYTES
#define WL_STACK_BYTES (128u * 1024u)
#endif
#ifndef WL_INPUT_VARIANT
#define WL_INPUT_VARIANT 0
#endif
#define WL_STACK_WORDS (WL_STACK_BYTES / 4u)
#define WL_PAINT 0xa5c3e187u
#define WL_CALL_FRAME 16u
#define WL_MAX_ROUNDS 10000000u

/** The workload's programs and its name (defined in mtss/<workload>/workload.c). */
extern const wl_program_t *const wl_workload_programs[WL_PROGRAMS];
extern const char wl_workload_name[];

/** Calls fn(arg) on the stack whose top is sp_top, with tp = desc (its check limit; crt0.S). */
uint32_t wl_call_on_stack(uint32_t (*fn)(uint32_t), uint32_t arg, void *sp_top,
                          struct cactus_stack_desc *desc);

int main(void);

static uint32_t stacks[WL_PROGRAMS][WL_STACK_WORDS] __attribute__((aligned(16)));
/* Each program stack's stack-check descriptor: its limit is the stack's lowest byte. */
static struct cactus_stack_desc stack_descs[WL_PROGRAMS];
static const wl_program_t *current;

static uint32_t do_init(uint32_t size_class)
{
    current->init(size_class);
    return 0;
}

#ifdef WL_COUNT_INSNS
static uint32_t round_insns;

static inline uint32_t read_minstret(void)
{
    uint32_t v;
    /* Runners are compiled by the link command (-march=rv32imac, no zicsr), so enable the
     * CSR instructions for this one statement. */
    __asm__ volatile(".option push\n.option arch, +zicsr\ncsrr %0, minstret\n.option pop"
                     : "=r"(v));
    return v;
}

static uint32_t do_round(uint32_t unused)
{
    (void)unused;
    uint32_t t0 = read_minstret();
    int more = current->round();
    round_insns = read_minstret() - t0;
    return (uint32_t)more;
}
#else
static uint32_t do_round(uint32_t unused)
{
    (void)unused;
    return (uint32_t)current->round();
}
#endif

/* Whether a final checksum counts as correct (see WL_INPUT_VARIANT). */
static int checksum_ok(uint32_t got, uint32_t want)
{
    if (WL_INPUT_VARIANT != 0)
        return (got & 0xffff0000u) != WL_FAILED;
    return got == want;
}

static uint32_t run_on(int i, uint32_t (*fn)(uint32_t), uint32_t arg)
{
    current = wl_workload_programs[i];
    stack_descs[i].limit = (uint32_t)(uintptr_t)&stacks[i][0];
    return wl_call_on_stack(fn, arg, &stacks[i][WL_STACK_WORDS], &stack_descs[i]);
}

/* Bytes of stack i ever written, not counting the helper's own 16-byte call frame. */
static uint32_t high_water(int i)
{
    uint32_t w = 0;
    while (w < WL_STACK_WORDS && stacks[i][w] == WL_PAINT)
        w++;
    uint32_t used = (WL_STACK_WORDS - w) * 4u;
    return used > WL_CALL_FRAME ? used - WL_CALL_FRAME : 0u;
}

#ifdef WL_ROUND_STACK
static uint32_t round_min[WL_PROGRAMS], round_max[WL_PROGRAMS], init_hw[WL_PROGRAMS];

/* Repaints the part of stack i that is not paint any more (everything the last call wrote). */
static void repaint(int i)
{
    uint32_t used_words = (high_water(i) + WL_CALL_FRAME) / 4u;
    for (uint32_t w = WL_STACK_WORDS - used_words; w < WL_STACK_WORDS; w++)
        stacks[i][w] = WL_PAINT;
}

/* Records the stack the round just run on stack i used. */
static void record_round(int i, uint32_t round)
{
    uint32_t hw = high_water(i);
    if (round == 1 || hw < round_min[i])
        round_min[i] = hw;
    if (hw > round_max[i])
        round_max[i] = hw;
}
#endif

int main(void)
{
    int active[WL_PROGRAMS];
    uint32_t rounds[WL_PROGRAMS];
    bm_puts("workload ");
    bm_puts(wl_workload_name);
    bm_puts(" size_class ");
    bm_put_dec(WL_SIZE_CLASS);
    bm_putc('\n');
    for (int i = 0; i < WL_PROGRAMS; i++) {
        for (uint32_t w = 0; w < WL_STACK_WORDS; w++)
            stacks[i][w] = WL_PAINT;
        run_on(i, do_init, WL_SIZE_CLASS);
#ifdef WL_ROUND_STACK
        init_hw[i] = high_water(i);
#endif
        active[i] = 1;
        rounds[i] = 0;
    }
    int left = WL_PROGRAMS;
    uint32_t turns = 0;
    while (left > 0 && turns < WL_MAX_ROUNDS) {
        for (int i = 0; i < WL_PROGRAMS; i++) {
            if (!active[i])
                continue;
            rounds[i]++;
#ifdef WL_ROUND_STACK
            repaint(i);
#endif
            uint32_t more = run_on(i, do_round, 0);
#ifdef WL_ROUND_STACK
            record_round(i, rounds[i]);
#endif
#ifdef WL_COUNT_INSNS
            bm_puts("insns ");
            bm_puts(wl_workload_programs[i]->name);
            bm_putc(' ');
            bm_put_dec(rounds[i]);
            bm_putc(' ');
            bm_put_dec(round_insns);
            bm_putc('\n');
#endif
            if (more == 0) {
                active[i] = 0;
                left--;
            }
        }
        turns++;
    }
    int failed = 0;
    for (int i = 0; i < WL_PROGRAMS; i++) {
        const wl_program_t *p = wl_workload_programs[i];
        uint32_t got = p->checksum(), want = p->expected(WL_SIZE_CLASS);
        uint32_t hw = high_water(i);
#ifdef WL_ROUND_STACK
        /* The stack was repainted before every round: the overall high water is the larger
         * of P_init's and the largest round's. */
        hw = init_hw[i] > round_max[i] ? init_hw[i] : round_max[i];
        bm_puts("round-stack ");
        bm_puts(p->name);
        bm_puts(" min ");
        bm_put_dec(round_min[i]);
        bm_puts(" max ");
        bm_put_dec(round_max[i]);
        bm_putc('\n');
#endif
        int ok = !active[i] && checksum_ok(got, want) && hw + WL_CALL_FRAME < WL_STACK_BYTES;
        bm_puts(ok ? "  ok   " : "  FAIL ");
        bm_puts(p->name);
        bm_puts(" checksum ");
        bm_put_hex(got);
        bm_puts(" expected ");
        bm_put_hex(want);
        bm_puts(" rounds ");
        bm_put_dec(rounds[i]);
        bm_puts(" stack ");
        bm_put_dec(hw);
        bm_putc('\n');
        if (!ok)
            failed++;
    }
    bm_puts(failed ? "FAIL " : "PASS ");
    bm_puts(wl_workload_name);
    bm_putc('\n');
    return failed;
}
