/* The bare-metal side of `--isolate` code in fuzz programs (docs/sensmart.md "Memory
 * isolation", docs/fuzz.md): the windows every check site reads and the slow-path entries
 * port_isolate_<kind>_<A>_<B> (crates/cc/src/isolate.rs; the kernel's are
 * kernel/arch/rv32/isolate.S). Included by crt0.S.
 *
 * A fuzz program is one task: its globals are the data and .bss sections [__data_start,
 * __bss_end), its stack [__stack_bottom, __stack_top); nothing is shared; its code is
 * [_start, __text_end). The slow path decides exactly what the inline check cannot (a
 * narrower store in a region's last word, a write crossing a window's end, strcpy): inside one
 * region it returns to the site; anything else is a violation, an illegal instruction
 * (`unimp`) that fuzz_trap reports (exit 92), so a pass that misjudges a legal access fails
 * the differential run. A (the address) and B (the return address) are dead at the site; the
 * entry saves two more registers, C and D, in the scratch words at tp - 12 and tp - 16
 * (crt0.S) and restores them. */

    .section .sdata.cactus_iso_win, "aw"
    .balign 4
    .globl cactus_iso_win
cactus_iso_win:
    .word __data_start, __bss_end - 4       /* own globals [lo, hi - 4] */
    .word __stack_bottom, __stack_top - 4   /* stack [lo, hi - 4] */
    .word __stack_bottom, 0                 /* shared globals: none (a check picks the
                                             * stack first for anything at or above this) */
    .word _start, __text_end                /* code [lo, hi) */

/* To 8f when [\c, \a) lies in [\lo, \hi), else on to \next; \d is clobbered. */
.macro IN_REGION a, c, d, lo, hi, next
    lla \d, \lo
    bltu \c, \d, \next
    lla \d, \hi
    bleu \a, \d, 8f
.endm

/* One entry: kind \k (b, h, w: a store of \n bytes at A; j: a jump to A, never allowed here
 * since the inline check covers all code; r: a write of [a0, a0 + a2); s: strcpy's
 * [a0, a0 + strlen(a1) + 1)), address register \a, return register \b, scratch \c and \d. */
.macro ISOLATE_ENTRY k, n, a, b, c, d
    .section .text.port_isolate_\k\()_\a\()_\b, "ax"
    .globl port_isolate_\k\()_\a\()_\b
    .p2align 1
port_isolate_\k\()_\a\()_\b:
    sw \c, -12(tp)
    sw \d, -16(tp)
    .ifc \k,j
    j 9f
    .endif
    .ifc \k,r
    mv \c, a0
    add \a, a0, a2
    .endif
    .ifc \k,s
    mv \a, a1
1:  lbu \c, 0(\a)
    addi \a, \a, 1
    bnez \c, 1b
    sub \a, \a, a1
    add \a, \a, a0
    mv \c, a0
    .endif
    .ifge \n
    mv \c, \a
    addi \a, \a, \n
    .endif
    /* [\c, \a): the start and the end; an end below the start wrapped. */
    bltu \a, \c, 9f
    IN_REGION \a, \c, \d, __data_start, __bss_end, 2f
2:  IN_REGION \a, \c, \d, __stack_bottom, __stack_top, 9f
9:  lw \c, -12(tp)
    lw \d, -16(tp)
    unimp
8:  lw \c, -12(tp)
    lw \d, -16(tp)
    jr \b
.endm

/* Every kind for one pair (crates/cc/src/isolate.rs PAIRS); n = -1: not a store. */
.macro ISOLATE_PAIR a, b, c, d
    ISOLATE_ENTRY b, 1, \a, \b, \c, \d
    ISOLATE_ENTRY h, 2, \a, \b, \c, \d
    ISOLATE_ENTRY w, 4, \a, \b, \c, \d
    ISOLATE_ENTRY j, -1, \a, \b, \c, \d
    ISOLATE_ENTRY r, -1, \a, \b, \c, \d
    ISOLATE_ENTRY s, -1, \a, \b, \c, \d
.endm

    ISOLATE_PAIR t0, t1, t2, t3
    ISOLATE_PAIR t2, t3, t0, t1
    ISOLATE_PAIR t4, t5, t0, t1
    ISOLATE_PAIR t6, a7, t0, t1
    ISOLATE_PAIR a6, a5, t0, t1
    ISOLATE_PAIR a4, a3, t0, t1
    ISOLATE_PAIR a2, a1, t0, t1
    .text
