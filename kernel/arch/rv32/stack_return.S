/* The return trampoline of frames a stack strategy moved (mtss: docs/mtss.md).
 *
 * A function whose frame the strategy placed in another task's pages gets this address as its
 * return address; its `ret` lands here with sp = its entry sp in the moved block and a0/a1
 * holding its result. The single ecall traps with every register intact (the trap entry saves
 * them all); port_exception recognises mepc == port_stack_return and the strategy pops its
 * record: sp = the caller's sp, pc = ra = the real return address, the limit as before. The
 * trampoline stores nothing: 0 bytes of stack. */
    .section .text.port_stack_return, "ax"
    .globl port_stack_return
    .p2align 2
port_stack_return:
    ecall

    .pushsection .cactus.stack_depth, "", @progbits
    .asciz "port_stack_return 0"
    .popsection
