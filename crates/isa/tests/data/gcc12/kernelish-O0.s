	.file	"kernelish.c"
	.option nopic
	.attribute arch, "rv32i2p1_m2p0_a2p1_c2p0_zicsr2p0_zifencei2p0"
	.attribute unaligned_access, 0
	.attribute stack_align, 16
	.text
	.local	ready
	.comm	ready,4,4
	.globl	ticks
	.section	.sbss,"aw",@nobits
	.align	2
	.type	ticks, @object
	.size	ticks, 4
ticks:
	.zero	4
	.local	counter
	.comm	counter,4,4
	.local	atom
	.comm	atom,4,4
	.globl	tls_errno
	.section	.tbss,"awT",@nobits
	.align	2
	.type	tls_errno, @object
	.size	tls_errno, 4
tls_errno:
	.zero	4
	.text
	.align	1
	.type	read_mcycle, @function
read_mcycle:
	addi	sp,sp,-32
	sw	s0,28(sp)
	addi	s0,sp,32
 #APP
# 23 "kernelish.c" 1
	csrr a5, mcycle
# 0 "" 2
 #NO_APP
	sw	a5,-20(s0)
	lw	a5,-20(s0)
	mv	a0,a5
	lw	s0,28(sp)
	addi	sp,sp,32
	jr	ra
	.size	read_mcycle, .-read_mcycle
	.align	1
	.type	enable_irq, @function
enable_irq:
	addi	sp,sp,-16
	sw	s0,12(sp)
	addi	s0,sp,16
 #APP
# 28 "kernelish.c" 1
	csrsi mstatus, 8
# 0 "" 2
 #NO_APP
	nop
	lw	s0,12(sp)
	addi	sp,sp,16
	jr	ra
	.size	enable_irq, .-enable_irq
	.align	1
	.globl	read_cycles64
	.type	read_cycles64, @function
read_cycles64:
	addi	sp,sp,-32
	sw	s0,28(sp)
	addi	s0,sp,32
.L5:
 #APP
# 34 "kernelish.c" 1
	rdcycleh t1
# 0 "" 2
 #NO_APP
	sw	t1,-20(s0)
 #APP
# 35 "kernelish.c" 1
	rdcycle t1
# 0 "" 2
 #NO_APP
	sw	t1,-24(s0)
 #APP
# 36 "kernelish.c" 1
	rdcycleh t1
# 0 "" 2
 #NO_APP
	sw	t1,-28(s0)
	lw	t3,-20(s0)
	lw	t1,-28(s0)
	bne	t3,t1,.L5
	lw	t1,-20(s0)
	mv	a6,t1
	li	a7,0
	slli	a5,a6,0
	li	a4,0
	lw	a6,-24(s0)
	mv	a2,a6
	li	a3,0
	or	a0,a4,a2
	or	a1,a5,a3
	mv	a4,a0
	mv	a5,a1
	mv	a0,a4
	mv	a1,a5
	lw	s0,28(sp)
	addi	sp,sp,32
	jr	ra
	.size	read_cycles64, .-read_cycles64
	.align	1
	.globl	insert
	.type	insert, @function
insert:
	addi	sp,sp,-48
	sw	s0,44(sp)
	addi	s0,sp,48
	sw	a0,-36(s0)
	lui	a5,%hi(ready)
	addi	a5,a5,%lo(ready)
	sw	a5,-20(s0)
	j	.L8
.L10:
	lw	a5,-20(s0)
	lw	a5,0(a5)
	sw	a5,-20(s0)
.L8:
	lw	a5,-20(s0)
	lw	a5,0(a5)
	beq	a5,zero,.L9
	lw	a5,-20(s0)
	lw	a5,0(a5)
	lw	a4,4(a5)
	lw	a5,-36(s0)
	lw	a5,4(a5)
	bgeu	a4,a5,.L10
.L9:
	lw	a5,-20(s0)
	lw	a4,0(a5)
	lw	a5,-36(s0)
	sw	a4,0(a5)
	lw	a5,-20(s0)
	lw	a4,-36(s0)
	sw	a4,0(a5)
	nop
	lw	s0,44(sp)
	addi	sp,sp,48
	jr	ra
	.size	insert, .-insert
	.align	1
	.globl	pick
	.type	pick, @function
pick:
	addi	sp,sp,-32
	sw	s0,28(sp)
	addi	s0,sp,32
	lui	a5,%hi(ready)
	lw	a5,%lo(ready)(a5)
	sw	a5,-20(s0)
	lw	a5,-20(s0)
	beq	a5,zero,.L12
	lw	a5,-20(s0)
	lw	a4,0(a5)
	lui	a5,%hi(ready)
	sw	a4,%lo(ready)(a5)
.L12:
	lw	a5,-20(s0)
	mv	a0,a5
	lw	s0,28(sp)
	addi	sp,sp,32
	jr	ra
	.size	pick, .-pick
	.align	1
	.globl	bump
	.type	bump, @function
bump:
	addi	sp,sp,-16
	sw	ra,12(sp)
	sw	s0,8(sp)
	addi	s0,sp,16
	call	enable_irq
	call	read_mcycle
	mv	a4,a0
	lui	a5,%hi(counter)
	lw	a5,%lo(counter)(a5)
	add	a4,a4,a5
	lui	a5,%hi(counter)
	sw	a4,%lo(counter)(a5)
	lui	a5,%hi(atom)
	li	a4,1
	addi	a5,a5,%lo(atom)
	fence iorw,ow; amoadd.w.aq a3,a4,0(a5)
	mv	a5,a3
	mv	a0,a5
	lw	ra,12(sp)
	lw	s0,8(sp)
	addi	sp,sp,16
	jr	ra
	.size	bump, .-bump
	.align	1
	.globl	cas
	.type	cas, @function
cas:
	addi	sp,sp,-32
	sw	s0,28(sp)
	addi	s0,sp,32
	sw	a0,-20(s0)
	sw	a1,-24(s0)
	sw	a2,-28(s0)
	lw	a2,-20(s0)
	addi	a5,s0,-24
	lw	a3,0(a5)
	lw	a1,-28(s0)
	 1: lr.w a4,0(a2); bne a4,a3,1f; sc.w.aq a0,a1,0(a2); bnez a0,1b; 1:
	sub	a3,a4,a3
	seqz	a3,a3
	bne	a3,zero,.L17
	sw	a4,0(a5)
.L17:
	mv	a5,a3
	mv	a0,a5
	lw	s0,28(sp)
	addi	sp,sp,32
	jr	ra
	.size	cas, .-cas
	.align	1
	.globl	swap_rel
	.type	swap_rel, @function
swap_rel:
	addi	sp,sp,-32
	sw	s0,28(sp)
	addi	s0,sp,32
	sw	a0,-20(s0)
	sw	a1,-24(s0)
	lw	a5,-20(s0)
	lw	a4,-24(s0)
	fence iorw,ow; amoswap.w a4,a4,0(a5)
	mv	a5,a4
	mv	a0,a5
	lw	s0,28(sp)
	addi	sp,sp,32
	jr	ra
	.size	swap_rel, .-swap_rel
	.align	1
	.globl	and_or
	.type	and_or, @function
and_or:
	addi	sp,sp,-32
	sw	s0,28(sp)
	addi	s0,sp,32
	sw	a0,-20(s0)
	sw	a1,-24(s0)
	lw	a5,-20(s0)
	lw	a4,-24(s0)
	fence iorw,ow; amoand.w.aq zero,a4,0(a5)
	lw	a5,-20(s0)
	lw	a4,-24(s0)
	amoxor.w zero,a4,0(a5)
	fence	iorw,iorw
	lw	a5,-20(s0)
	lw	a4,-24(s0)
	fence iorw,ow; amoor.w.aq a3,a4,0(a5)
	mv	a5,a3
	mv	a0,a5
	lw	s0,28(sp)
	addi	sp,sp,32
	jr	ra
	.size	and_or, .-and_or
	.align	1
	.globl	classify
	.type	classify, @function
classify:
	addi	sp,sp,-32
	sw	s0,28(sp)
	addi	s0,sp,32
	sw	a0,-20(s0)
	lw	a4,-20(s0)
	li	a5,7
	bgtu	a4,a5,.L24
	lw	a5,-20(s0)
	slli	a4,a5,2
	lui	a5,%hi(.L26)
	addi	a5,a5,%lo(.L26)
	add	a5,a4,a5
	lw	a5,0(a5)
	jr	a5
	.section	.rodata
	.align	2
	.align	2
.L26:
	.word	.L33
	.word	.L32
	.word	.L31
	.word	.L30
	.word	.L29
	.word	.L28
	.word	.L27
	.word	.L25
	.text
.L33:
	li	a5,11
	j	.L34
.L32:
	li	a5,22
	j	.L34
.L31:
	li	a5,35
	j	.L34
.L30:
	li	a5,47
	j	.L34
.L29:
	li	a5,51
	j	.L34
.L28:
	li	a5,69
	j	.L34
.L27:
	li	a5,71
	j	.L34
.L25:
	li	a5,83
	j	.L34
.L24:
	li	a5,-1
.L34:
	mv	a0,a5
	lw	s0,28(sp)
	addi	sp,sp,32
	jr	ra
	.size	classify, .-classify
	.align	1
	.globl	run
	.type	run, @function
run:
	addi	sp,sp,-32
	sw	ra,28(sp)
	sw	s0,24(sp)
	addi	s0,sp,32
	sw	a0,-20(s0)
	lw	a5,-20(s0)
	lw	a5,12(a5)
	lw	a4,-20(s0)
	lw	a4,16(a4)
	mv	a0,a4
	jalr	a5
	lui	a5,%tprel_hi(tls_errno)
	add	a5,a5,tp,%tprel_add(tls_errno)
	sw	zero,%tprel_lo(tls_errno)(a5)
	nop
	lw	ra,28(sp)
	lw	s0,24(sp)
	addi	sp,sp,32
	jr	ra
	.size	run, .-run
	.align	1
	.globl	constants
	.type	constants, @function
constants:
	addi	sp,sp,-32
	sw	s0,28(sp)
	addi	s0,sp,32
	sw	a0,-20(s0)
	lw	a4,-20(s0)
	li	a5,305418240
	addi	a5,a5,1656
	mul	a4,a4,a5
	lw	a5,-20(s0)
	srli	a5,a5,7
	xor	a5,a4,a5
	lw	a4,-20(s0)
	srai	a4,a4,3
	xor	a4,a5,a4
	lw	a5,-20(s0)
	slli	a5,a5,13
	xor	a4,a4,a5
	li	a5,-559042560
	addi	a5,a5,1775
	xor	a5,a4,a5
	mv	a0,a5
	lw	s0,28(sp)
	addi	sp,sp,32
	jr	ra
	.size	constants, .-constants
	.align	1
	.globl	compare
	.type	compare, @function
compare:
	addi	sp,sp,-48
	sw	s0,44(sp)
	addi	s0,sp,48
	sw	a0,-36(s0)
	sw	a1,-40(s0)
	sw	a2,-44(s0)
	sw	a3,-48(s0)
	sw	zero,-20(s0)
	lw	a4,-36(s0)
	lw	a5,-40(s0)
	ble	a4,a5,.L39
	lw	a5,-20(s0)
	ori	a5,a5,1
	sw	a5,-20(s0)
.L39:
	lw	a4,-36(s0)
	lw	a5,-40(s0)
	bgt	a4,a5,.L40
	lw	a5,-20(s0)
	ori	a5,a5,2
	sw	a5,-20(s0)
.L40:
	lw	a4,-44(s0)
	lw	a5,-48(s0)
	bleu	a4,a5,.L41
	lw	a5,-20(s0)
	ori	a5,a5,4
	sw	a5,-20(s0)
.L41:
	lw	a4,-44(s0)
	lw	a5,-48(s0)
	bgtu	a4,a5,.L42
	lw	a5,-20(s0)
	ori	a5,a5,8
	sw	a5,-20(s0)
.L42:
	lw	a5,-36(s0)
	bne	a5,zero,.L43
	lw	a5,-20(s0)
	ori	a5,a5,16
	sw	a5,-20(s0)
.L43:
	lw	a5,-40(s0)
	beq	a5,zero,.L44
	lw	a5,-20(s0)
	ori	a5,a5,32
	sw	a5,-20(s0)
.L44:
	lw	a5,-36(s0)
	bge	a5,zero,.L45
	lw	a5,-20(s0)
	ori	a5,a5,64
	sw	a5,-20(s0)
.L45:
	lw	a5,-40(s0)
	ble	a5,zero,.L46
	lw	a5,-20(s0)
	ori	a5,a5,128
	sw	a5,-20(s0)
.L46:
	lw	a4,-36(s0)
	lw	a5,-40(s0)
	slt	a5,a4,a5
	andi	a5,a5,0xff
	mv	a3,a5
	lw	a4,-44(s0)
	lw	a5,-48(s0)
	sltu	a5,a4,a5
	andi	a5,a5,0xff
	add	a5,a3,a5
	lw	a3,-36(s0)
	lw	a4,-40(s0)
	sub	a4,a3,a4
	seqz	a4,a4
	andi	a4,a4,0xff
	add	a5,a5,a4
	lw	a4,-36(s0)
	snez	a4,a4
	andi	a4,a4,0xff
	add	a5,a5,a4
	lw	a4,-36(s0)
	sgt	a4,a4,zero
	andi	a4,a4,0xff
	add	a5,a5,a4
	lw	a4,-40(s0)
	srli	a4,a4,31
	andi	a4,a4,0xff
	add	a5,a5,a4
	lw	a4,-20(s0)
	add	a5,a4,a5
	sw	a5,-20(s0)
	lw	a5,-20(s0)
	mv	a0,a5
	lw	s0,44(sp)
	addi	sp,sp,48
	jr	ra
	.size	compare, .-compare
	.align	1
	.globl	wait_for_irq
	.type	wait_for_irq, @function
wait_for_irq:
	addi	sp,sp,-16
	sw	s0,12(sp)
	addi	s0,sp,16
 #APP
# 116 "kernelish.c" 1
	wfi
# 0 "" 2
# 117 "kernelish.c" 1
	fence.i
# 0 "" 2
# 118 "kernelish.c" 1
	fence
# 0 "" 2
# 119 "kernelish.c" 1
	fence rw,rw
# 0 "" 2
# 120 "kernelish.c" 1
	ecall
# 0 "" 2
# 121 "kernelish.c" 1
	ebreak
# 0 "" 2
 #NO_APP
	nop
	lw	s0,12(sp)
	addi	sp,sp,16
	jr	ra
	.size	wait_for_irq, .-wait_for_irq
	.align	1
	.globl	trap_return
	.type	trap_return, @function
trap_return:
	addi	sp,sp,-16
	sw	s0,12(sp)
	addi	s0,sp,16
	lui	a5,%hi(ticks)
	lw	a5,%lo(ticks)(a5)
	lui	a4,%hi(counter)
	lw	a4,%lo(counter)(a4)
 #APP
# 125 "kernelish.c" 1
	csrw mepc, a5
	csrw mscratch, a4
	csrc mie, a4
	csrs mip, a5
	csrwi mstatus, 3
	csrci mstatus, 8
	mret
# 0 "" 2
 #NO_APP
	nop
	lw	s0,12(sp)
	addi	sp,sp,16
	jr	ra
	.size	trap_return, .-trap_return
	.globl	__divdi3
	.globl	__moddi3
	.align	1
	.globl	wide
	.type	wide, @function
wide:
	addi	sp,sp,-32
	sw	ra,28(sp)
	sw	s0,24(sp)
	sw	s2,20(sp)
	sw	s3,16(sp)
	addi	s0,sp,32
	sw	a0,-24(s0)
	sw	a1,-20(s0)
	sw	a2,-32(s0)
	sw	a3,-28(s0)
	lw	a4,-20(s0)
	lw	a5,-32(s0)
	mul	a4,a4,a5
	lw	a3,-28(s0)
	lw	a5,-24(s0)
	mul	a5,a3,a5
	add	a3,a4,a5
	lw	a4,-24(s0)
	lw	a5,-32(s0)
	mul	a2,a4,a5
	mulhu	s3,a4,a5
	mv	s2,a2
	add	a5,a3,s3
	mv	s3,a5
	lw	a2,-32(s0)
	lw	a3,-28(s0)
	lw	a0,-24(s0)
	lw	a1,-20(s0)
	call	__divdi3
	mv	a4,a0
	mv	a5,a1
	mv	a2,a4
	mv	a3,a5
	add	a4,s2,a2
	mv	a1,a4
	sltu	a1,a1,s2
	add	a5,s3,a3
	add	a3,a1,a5
	mv	a5,a3
	mv	s2,a4
	mv	s3,a5
	lw	a4,-24(s0)
	lw	a5,-20(s0)
	li	a2,7
	li	a3,0
	mv	a0,a4
	mv	a1,a5
	call	__moddi3
	mv	a4,a0
	mv	a5,a1
	mv	a2,a4
	mv	a3,a5
	sub	a4,s2,a2
	mv	a1,a4
	sgtu	a1,a1,s2
	sub	a5,s3,a3
	sub	a3,a5,a1
	mv	a5,a3
	mv	a0,a4
	mv	a1,a5
	lw	ra,28(sp)
	lw	s0,24(sp)
	lw	s2,20(sp)
	lw	s3,16(sp)
	addi	sp,sp,32
	jr	ra
	.size	wide, .-wide
	.align	1
	.globl	divs
	.type	divs, @function
divs:
	addi	sp,sp,-32
	sw	s0,28(sp)
	addi	s0,sp,32
	sw	a0,-20(s0)
	sw	a1,-24(s0)
	sw	a2,-28(s0)
	sw	a3,-32(s0)
	lw	a4,-20(s0)
	lw	a5,-24(s0)
	divu	a4,a4,a5
	lw	a3,-20(s0)
	lw	a5,-24(s0)
	remu	a5,a3,a5
	add	a5,a4,a5
	lw	a3,-28(s0)
	lw	a4,-32(s0)
	div	a4,a3,a4
	add	a5,a5,a4
	lw	a3,-28(s0)
	lw	a4,-32(s0)
	rem	a4,a3,a4
	add	a5,a5,a4
	mv	a0,a5
	lw	s0,28(sp)
	addi	sp,sp,32
	jr	ra
	.size	divs, .-divs
	.align	1
	.globl	mulh
	.type	mulh, @function
mulh:
	addi	sp,sp,-32
	sw	s0,28(sp)
	addi	s0,sp,32
	sw	a0,-20(s0)
	sw	a1,-24(s0)
	lw	a1,-20(s0)
	mv	a6,a1
	srai	a1,a1,31
	mv	a7,a1
	lw	a1,-24(s0)
	mv	a2,a1
	srai	a1,a1,31
	mv	a3,a1
	mul	a0,a7,a2
	mul	a1,a3,a6
	add	a1,a0,a1
	mul	a0,a6,a2
	mulhu	a5,a6,a2
	mv	a4,a0
	add	a3,a1,a5
	mv	a5,a3
	srai	t1,a5,0
	srai	t2,a5,31
	mv	a5,t1
	mv	a0,a5
	lw	s0,28(sp)
	addi	sp,sp,32
	jr	ra
	.size	mulh, .-mulh
	.align	1
	.globl	mulhu
	.type	mulhu, @function
mulhu:
	addi	sp,sp,-32
	sw	s0,28(sp)
	addi	s0,sp,32
	sw	a0,-20(s0)
	sw	a1,-24(s0)
	lw	a1,-20(s0)
	mv	a2,a1
	li	a3,0
	lw	a1,-24(s0)
	mv	a4,a1
	li	a5,0
	mul	a0,a3,a4
	mul	a1,a5,a2
	add	a1,a0,a1
	mul	a0,a2,a4
	mulhu	a7,a2,a4
	mv	a6,a0
	add	a5,a1,a7
	mv	a7,a5
	srli	t1,a7,0
	li	t2,0
	mv	a5,t1
	mv	a0,a5
	lw	s0,28(sp)
	addi	sp,sp,32
	jr	ra
	.size	mulhu, .-mulhu
	.ident	"GCC: (12.2.0-14+deb12u1+11+b2) 12.2.0"
