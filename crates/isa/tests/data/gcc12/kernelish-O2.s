	.file	"kernelish.c"
	.option nopic
	.attribute arch, "rv32i2p1_m2p0_a2p1_c2p0_zicsr2p0_zifencei2p0"
	.attribute unaligned_access, 0
	.attribute stack_align, 16
	.text
	.align	1
	.globl	read_cycles64
	.type	read_cycles64, @function
read_cycles64:
.L2:
 #APP
# 34 "kernelish.c" 1
	rdcycleh a1
# 0 "" 2
# 35 "kernelish.c" 1
	rdcycle a0
# 0 "" 2
# 36 "kernelish.c" 1
	rdcycleh a5
# 0 "" 2
 #NO_APP
	bne	a1,a5,.L2
	ret
	.size	read_cycles64, .-read_cycles64
	.align	1
	.globl	insert
	.type	insert, @function
insert:
	lui	a3,%hi(ready)
	lw	a5,%lo(ready)(a3)
	beq	a5,zero,.L9
	lw	a2,4(a0)
	addi	a3,a3,%lo(ready)
	j	.L7
.L8:
	mv	a3,a5
	lw	a5,0(a5)
	beq	a5,zero,.L6
.L7:
	lw	a4,4(a5)
	bgeu	a4,a2,.L8
.L6:
	sw	a5,0(a0)
	sw	a0,0(a3)
	ret
.L9:
	addi	a3,a3,%lo(ready)
	j	.L6
	.size	insert, .-insert
	.align	1
	.globl	pick
	.type	pick, @function
pick:
	lui	a5,%hi(ready)
	lw	a0,%lo(ready)(a5)
	beq	a0,zero,.L13
	lw	a4,0(a0)
	sw	a4,%lo(ready)(a5)
.L13:
	ret
	.size	pick, .-pick
	.align	1
	.globl	bump
	.type	bump, @function
bump:
 #APP
# 28 "kernelish.c" 1
	csrsi mstatus, 8
# 0 "" 2
# 23 "kernelish.c" 1
	csrr a2, mcycle
# 0 "" 2
 #NO_APP
	lui	a3,%hi(counter)
	lw	a4,%lo(counter)(a3)
	lui	a5,%hi(atom)
	addi	a5,a5,%lo(atom)
	add	a4,a4,a2
	sw	a4,%lo(counter)(a3)
	li	a4,1
	fence iorw,ow; amoadd.w.aq a0,a4,0(a5)
	ret
	.size	bump, .-bump
	.align	1
	.globl	cas
	.type	cas, @function
cas:
	 1: lr.w a5,0(a0); bne a5,a1,1f; sc.w.aq a4,a2,0(a0); bnez a4,1b; 1:
	sub	a0,a5,a1
	seqz	a0,a0
	ret
	.size	cas, .-cas
	.align	1
	.globl	swap_rel
	.type	swap_rel, @function
swap_rel:
	fence iorw,ow; amoswap.w a1,a1,0(a0)
	mv	a0,a1
	ret
	.size	swap_rel, .-swap_rel
	.align	1
	.globl	and_or
	.type	and_or, @function
and_or:
	mv	a5,a0
	fence iorw,ow; amoand.w.aq zero,a1,0(a0)
	amoxor.w zero,a1,0(a0)
	fence	iorw,iorw
	fence iorw,ow; amoor.w.aq a0,a1,0(a5)
	ret
	.size	and_or, .-and_or
	.align	1
	.globl	classify
	.type	classify, @function
classify:
	li	a5,7
	bgtu	a0,a5,.L24
	lui	a5,%hi(.LANCHOR0)
	slli	a0,a0,2
	addi	a5,a5,%lo(.LANCHOR0)
	add	a5,a5,a0
	lw	a0,0(a5)
	ret
.L24:
	li	a0,-1
	ret
	.size	classify, .-classify
	.align	1
	.globl	run
	.type	run, @function
run:
	lw	a5,12(a0)
	lw	a0,16(a0)
	addi	sp,sp,-16
	sw	ra,12(sp)
	jalr	a5
	lw	ra,12(sp)
	lui	a5,%tprel_hi(tls_errno)
	add	a5,a5,tp,%tprel_add(tls_errno)
	sw	zero,%tprel_lo(tls_errno)(a5)
	addi	sp,sp,16
	jr	ra
	.size	run, .-run
	.align	1
	.globl	constants
	.type	constants, @function
constants:
	li	a5,305418240
	addi	a5,a5,1656
	mul	a5,a0,a5
	srli	a3,a0,7
	srai	a4,a0,3
	slli	a0,a0,13
	xor	a5,a5,a3
	xor	a5,a5,a4
	xor	a5,a5,a0
	li	a0,-559042560
	addi	a0,a0,1775
	xor	a0,a5,a0
	ret
	.size	constants, .-constants
	.align	1
	.globl	compare
	.type	compare, @function
compare:
	sgt	a5,a0,a1
	xori	a5,a5,1
	addi	a5,a5,1
	ori	a4,a5,4
	bgtu	a2,a3,.L31
	ori	a4,a5,8
.L31:
	bne	a0,zero,.L32
	bne	a1,zero,.L33
	ori	a4,a4,16
.L34:
	slt	a5,a0,a1
	sltu	a2,a2,a3
	sub	a3,a0,a1
	add	a5,a5,a2
	seqz	a3,a3
	add	a5,a5,a3
	snez	a3,a0
	add	a5,a5,a3
	sgt	a0,a0,zero
	add	a5,a5,a0
	srli	a1,a1,31
	add	a5,a5,a1
	add	a0,a5,a4
	ret
.L33:
	ori	a4,a4,48
.L35:
	ble	a1,zero,.L34
	ori	a4,a4,128
	j	.L34
.L32:
	bne	a1,zero,.L36
	bge	a0,zero,.L34
	ori	a4,a4,64
	j	.L34
.L36:
	bge	a0,zero,.L39
	ori	a4,a4,96
	j	.L35
.L39:
	ori	a4,a4,32
	j	.L35
	.size	compare, .-compare
	.align	1
	.globl	wait_for_irq
	.type	wait_for_irq, @function
wait_for_irq:
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
	ret
	.size	wait_for_irq, .-wait_for_irq
	.align	1
	.globl	trap_return
	.type	trap_return, @function
trap_return:
	lui	a5,%hi(ticks)
	lui	a4,%hi(counter)
	lw	a5,%lo(ticks)(a5)
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
	ret
	.size	trap_return, .-trap_return
	.globl	__divdi3
	.align	1
	.globl	wide
	.type	wide, @function
wide:
	addi	sp,sp,-32
	sw	s2,16(sp)
	mul	a5,a3,a0
	sw	s0,24(sp)
	sw	s1,20(sp)
	sw	s3,12(sp)
	sw	ra,28(sp)
	mv	s0,a0
	mv	s1,a1
	mul	s2,a1,a2
	mulhu	a6,a0,a2
	add	s2,s2,a5
	mul	s3,a0,a2
	add	s2,s2,a6
	call	__divdi3
	slli	a5,s1,2
	srli	a3,s0,30
	li	a4,1073741824
	addi	a4,a4,-1
	or	a3,a5,a3
	and	a3,a3,a4
	and	a5,s0,a4
	add	a5,a5,a3
	srai	a4,s1,31
	srli	s1,s1,28
	andi	a3,a4,11
	add	a5,a5,s1
	add	a5,a5,a3
	li	a3,7
	remu	a5,a5,a3
	andi	a2,a4,-6
	add	a3,s3,a0
	add	s2,s2,a1
	lw	ra,28(sp)
	lw	s0,24(sp)
	sltu	a4,a3,s3
	add	a4,a4,s2
	lw	s1,20(sp)
	lw	s2,16(sp)
	lw	s3,12(sp)
	addi	sp,sp,32
	add	a5,a5,a2
	sub	a0,a3,a5
	srai	a5,a5,31
	sgtu	a1,a0,a3
	sub	a5,a4,a5
	sub	a1,a5,a1
	jr	ra
	.size	wide, .-wide
	.align	1
	.globl	divs
	.type	divs, @function
divs:
	div	a5,a2,a3
	rem	a2,a2,a3
	divu	a4,a0,a1
	add	a5,a5,a2
	remu	a0,a0,a1
	add	a5,a5,a4
	add	a0,a5,a0
	ret
	.size	divs, .-divs
	.align	1
	.globl	mulh
	.type	mulh, @function
mulh:
	mulh	a0,a0,a1
	ret
	.size	mulh, .-mulh
	.align	1
	.globl	mulhu
	.type	mulhu, @function
mulhu:
	mulhu	a0,a0,a1
	ret
	.size	mulhu, .-mulhu
	.globl	tls_errno
	.globl	ticks
	.section	.rodata
	.align	2
	.set	.LANCHOR0,. + 0
	.type	CSWTCH.14, @object
	.size	CSWTCH.14, 32
CSWTCH.14:
	.word	11
	.word	22
	.word	35
	.word	47
	.word	51
	.word	69
	.word	71
	.word	83
	.section	.sbss,"aw",@nobits
	.align	2
	.type	atom, @object
	.size	atom, 4
atom:
	.zero	4
	.type	counter, @object
	.size	counter, 4
counter:
	.zero	4
	.type	ticks, @object
	.size	ticks, 4
ticks:
	.zero	4
	.type	ready, @object
	.size	ready, 4
ready:
	.zero	4
	.section	.tbss,"awT",@nobits
	.align	2
	.type	tls_errno, @object
	.size	tls_errno, 4
tls_errno:
	.zero	4
	.ident	"GCC: (12.2.0-14+deb12u1+11+b2) 12.2.0"
