/* carousel_call_on(stack, fn, arg): runs fn(arg) with sp = stack, then returns on the
 * caller's stack (kernel/include/cactus/carousel.h). The caller's s0 and ra are saved on the
 * caller's own stack (s0 then holds the caller's sp; fn preserves it), so nothing of the
 * caller is written to the new stack. */
    .section .text.carousel_call_on, "ax"
    .globl carousel_call_on
    .type carousel_call_on, @function
carousel_call_on:
    addi sp, sp, -16
    sw s0, 8(sp)
    sw ra, 12(sp)
    mv s0, sp
    mv sp, a0
    mv t0, a1
    mv a0, a2
    jalr t0
    mv sp, s0
    lw s0, 8(sp)
    lw ra, 12(sp)
    addi sp, sp, 16
    ret
    .size carousel_call_on, . - carousel_call_on
