/* Hand-written stack-check sites for the kernel's check scenarios (tests/kernel/check_*.c) and
 * the bare-metal runtime's test (tests/rt/stack_site.c): each function contains exactly the
 * check sequence of docs/stack-checks.md and its `cactus_checks` table entry, as
 * `cactus cc --checks detect` emits them, so the kernel's request path and the runtime's report
 * are tested without the compiler. Kernel scenarios link it through libktest-asm.a (only tests
 * that call these pull the object, and with it the table, in). Each function exports
 * NAME_site, the address of its out-of-line ecall, so a test can compare the fault report's pc
 * with it.
 *
 *   uint32_t ck_fill_E(uint32_t byte)   E = 256, 2048, 4096, 32768 (32k): an entry check
 *       (KIND 0) of a function that uses E bytes below its entry sp: a 16-byte frame (F1 = 16) plus a
 *       child's E - 16 bytes the check covers (as if rolled in). After the check it writes all
 *       E - 16 child bytes with `byte` and returns E. The check fails when fewer than E bytes
 *       lie between the entry sp and the limit, before any store.
 *   uint32_t ck_alloca(uint32_t n, uint32_t byte)  entry check (E = F1 = 16), then sp -= n
 *       rounded up to 16 and a dynamic check (KIND 1, E = 0), then writes the n bytes; returns
 *       the rounded n.
 *   uint32_t ck_resume(a0..a7)  an entry check that always fails in the code (EXTRA =
 *       0x40000000) while its table entry asks for only E = 64 bytes: a strategy that grants
 *       the table's request (the `static` one does, on any stack with 64 bytes left) makes the
 *       kernel resume at the check's continuation, the way a growing strategy resumes after it
 *       made room. Returns a0 + ... + a7, so every argument register must survive the trap.
 *   void ck_plain_ecall(void)   an ecall that is not a check site (keeps its meaning).
 */
    .section .text.check_sites, "ax"

/* One table entry (16 bytes). */
.macro CHECK_SITE ovf, ok, e, f1, args, kind
    .pushsection cactus_checks, "ao", @progbits, \ovf /* dropped with its function under -z start-stop-gc */
    .p2align 2
    .word \ovf
    .word \ok
    .word \e
    .word (\f1) | ((\args) << 16) | ((\kind) << 30)
    .popsection
.endm

/* The inline check after a first decrement of F1 bytes for a function of effective size E. */
.macro ENTRY_CHECK e, f1, ovf
    lw t0, -4(tp)
    .if (\e - \f1) > 2047
    li t1, \e - \f1
    add t0, t0, t1
    .elseif (\e - \f1) > 0
    addi t0, t0, \e - \f1
    .endif
    bltu sp, t0, \ovf
.endm

.macro CK_FILL name, e
    .globl \name
    .globl \name\()_site
    .type \name, @function
    .p2align 2
\name:
    addi sp, sp, -16
    ENTRY_CHECK \e, 16, \name\()_site
.Lok_\name:
    sw ra, 12(sp)
    li t2, \e - 16
    sub sp, sp, t2                  /* the child frame the check covered */
    mv t0, sp
    add t1, sp, t2
1:  sb a0, 0(t0)
    addi t0, t0, 1
    bltu t0, t1, 1b
    add sp, sp, t2
    lw ra, 12(sp)
    addi sp, sp, 16
    li a0, \e
    ret
\name\()_site:
    ecall
    .size \name, . - \name
    CHECK_SITE \name\()_site, .Lok_\name, \e, 16, 0, 0
.endm

    CK_FILL ck_fill_256, 256
    CK_FILL ck_fill_2048, 2048
    CK_FILL ck_fill_4096, 4096
    CK_FILL ck_fill_32k, 32768

    .globl ck_alloca
    .globl ck_alloca_site
    .globl ck_alloca_dyn_site
    .type ck_alloca, @function
    .p2align 2
ck_alloca:
    addi sp, sp, -16
    ENTRY_CHECK 16, 16, ck_alloca_site
.Lok_alloca_entry:
    sw ra, 12(sp)
    sw s0, 8(sp)
    mv s0, sp
    addi a0, a0, 15
    andi a0, a0, -16
    sub sp, sp, a0                  /* the dynamic allocation */
    lw t0, -4(tp)
    bltu sp, t0, ck_alloca_dyn_site
.Lok_alloca_dyn:
    mv t0, sp
    add t1, sp, a0
    beq t0, t1, 2f
1:  sb a1, 0(t0)
    addi t0, t0, 1
    bltu t0, t1, 1b
2:  mv sp, s0
    lw s0, 8(sp)
    lw ra, 12(sp)
    addi sp, sp, 16
    ret
ck_alloca_site:
    ecall
ck_alloca_dyn_site:
    ecall
    .size ck_alloca, . - ck_alloca
    CHECK_SITE ck_alloca_site, .Lok_alloca_entry, 16, 16, 0, 0
    CHECK_SITE ck_alloca_dyn_site, .Lok_alloca_dyn, 0, 0, 0, 1

    .globl ck_resume
    .globl ck_resume_site
    .type ck_resume, @function
    .p2align 2
ck_resume:
    addi sp, sp, -16
    lw t0, -4(tp)
    li t1, 0x40000000               /* fails on every stack below 0xC000_0000 */
    add t0, t0, t1
    bltu sp, t0, ck_resume_site
.Lok_resume:
    sw s0, 12(sp)
    add s0, a0, a1
    add s0, s0, a2
    add s0, s0, a3
    add s0, s0, a4
    add s0, s0, a5
    add s0, s0, a6
    add a0, s0, a7
    lw s0, 12(sp)
    addi sp, sp, 16
    ret
ck_resume_site:
    ecall
    .size ck_resume, . - ck_resume
    CHECK_SITE ck_resume_site, .Lok_resume, 64, 16, 0, 0

    .globl ck_plain_ecall
    .type ck_plain_ecall, @function
    .p2align 2
ck_plain_ecall:
    ecall
    ret
    .size ck_plain_ecall, . - ck_plain_ecall
