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
	lui	a4,%hi(ready)
	lw	a5,%lo(ready)(a4)
	addi	a4,a4,%lo(ready)
.L5:
	beq	a5,zero,.L6
	lw	a2,4(a5)
	lw	a3,4(a0)
	bgeu	a2,a3,.L7
.L6:
	sw	a5,0(a0)
	sw	a0,0(a4)
	ret
.L7:
	mv	a4,a5
	lw	a5,0(a5)
	j	.L5
	.size	insert, .-insert
	.align	1
	.globl	pick
	.type	pick, @function
pick:
	lui	a5,%hi(ready)
	lw	a0,%lo(ready)(a5)
	beq	a0,zero,.L11
	lw	a4,0(a0)
	sw	a4,%lo(ready)(a5)
.L11:
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
	csrr a3, mcycle
# 0 "" 2
 #NO_APP
	lui	a4,%hi(counter)
	lw	a5,%lo(counter)(a4)
	add	a5,a5,a3
	sw	a5,%lo(counter)(a4)
	lui	a5,%hi(atom)
	li	a4,1
	addi	a5,a5,%lo(atom)
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
	mv	a5,a0
	mv	a0,a1
	fence iorw,ow; amoswap.w a0,a0,0(a5)
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
	bgtu	a0,a5,.L22
	lui	a5,%hi(CSWTCH.14)
	addi	a5,a5,%lo(CSWTCH.14)
	add	a0,a5,a0
	lb	a0,0(a0)
	ret
.L22:
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
	srli	a4,a0,7
	xor	a5,a5,a4
	srai	a4,a0,3
	xor	a5,a5,a4
	slli	a0,a0,13
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
	li	a4,2
	ble	a0,a1,.L27
	li	a4,1
.L27:
	ori	a5,a4,4
	bgtu	a2,a3,.L29
	ori	a5,a4,8
.L29:
	bne	a0,zero,.L30
	bne	a1,zero,.L31
	ori	a5,a5,16
.L32:
	slt	a4,a0,a1
	sltu	a2,a2,a3
	sub	a3,a0,a1
	add	a4,a4,a2
	seqz	a3,a3
	add	a4,a4,a3
	snez	a3,a0
	add	a4,a4,a3
	sgt	a0,a0,zero
	add	a0,a4,a0
	srli	a1,a1,31
	add	a0,a0,a1
	add	a0,a0,a5
	ret
.L31:
	ori	a5,a5,48
.L33:
	ble	a1,zero,.L32
	ori	a5,a5,128
	j	.L32
.L30:
	bne	a1,zero,.L34
	bge	a0,zero,.L32
	ori	a5,a5,64
	j	.L32
.L34:
	blt	a0,zero,.L35
	ori	a5,a5,32
	j	.L33
.L35:
	ori	a5,a5,96
	j	.L33
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
	.globl	__moddi3
	.align	1
	.globl	wide
	.type	wide, @function
wide:
	addi	sp,sp,-32
	sw	s2,16(sp)
	mul	a4,a3,a0
	sw	s0,24(sp)
	sw	ra,28(sp)
	sw	s1,20(sp)
	sw	s3,12(sp)
	sw	s4,8(sp)
	mv	s3,a0
	mv	s4,a1
	mul	s2,a1,a2
	mulhu	a5,a0,a2
	add	s2,s2,a4
	mul	s0,a0,a2
	add	s2,s2,a5
	call	__divdi3
	add	s2,s2,a1
	li	a2,7
	mv	a1,s4
	li	a3,0
	add	s1,s0,a0
	sltu	s0,s1,s0
	mv	a0,s3
	call	__moddi3
	add	s0,s0,s2
	lw	ra,28(sp)
	sub	a1,s0,a1
	lw	s0,24(sp)
	sub	a0,s1,a0
	sgtu	s1,a0,s1
	lw	s2,16(sp)
	lw	s3,12(sp)
	lw	s4,8(sp)
	sub	a1,a1,s1
	lw	s1,20(sp)
	addi	sp,sp,32
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
	.section	.srodata,"a"
	.align	2
	.type	CSWTCH.14, @object
	.size	CSWTCH.14, 8
CSWTCH.14:
	.byte	11
	.byte	22
	.byte	35
	.byte	47
	.byte	51
	.byte	69
	.byte	71
	.byte	83
	.section	.tbss,"awT",@nobits
	.align	2
	.type	tls_errno, @object
	.size	tls_errno, 4
tls_errno:
	.zero	4
	.ident	"GCC: (12.2.0-14+deb12u1+11+b2) 12.2.0"
