	.file	"workload.c"
	.option nopic
	.attribute arch, "rv32i2p1_m2p0_a2p1_c2p0_zicsr2p0_zifencei2p0"
	.attribute unaligned_access, 0
	.attribute stack_align, 16
	.text
	.align	1
	.globl	fib
	.type	fib, @function
fib:
	addi	sp,sp,-16
	sw	s0,8(sp)
	sw	s1,4(sp)
	sw	s2,0(sp)
	sw	ra,12(sp)
	mv	s0,a0
	li	s1,0
	li	s2,1
.L3:
	ble	s0,s2,.L2
	addi	a0,s0,-1
	call	fib
	addi	s0,s0,-2
	add	s1,s1,a0
	j	.L3
.L2:
	add	a0,s0,s1
	lw	ra,12(sp)
	lw	s0,8(sp)
	lw	s1,4(sp)
	lw	s2,0(sp)
	addi	sp,sp,16
	jr	ra
	.size	fib, .-fib
	.align	1
	.type	helper, @function
helper:
	li	a5,3
	mul	a0,a0,a5
	addi	a0,a0,1
	ret
	.size	helper, .-helper
	.align	1
	.globl	tail
	.type	tail, @function
tail:
	li	a5,3
	mul	a0,a0,a5
	slli	a0,a0,1
	addi	a0,a0,5
	ret
	.size	tail, .-tail
	.align	1
	.globl	tailcall
	.type	tailcall, @function
tailcall:
	addi	a0,a0,1
	tail	ext_fn
	.size	tailcall, .-tailcall
	.align	1
	.globl	sum
	.type	sum, @function
sum:
	addi	sp,sp,-48
	sw	a3,28(sp)
	addi	a3,sp,20
	mv	t1,a0
	sw	a5,36(sp)
	sw	a1,20(sp)
	sw	a2,24(sp)
	sw	a4,32(sp)
	sw	a6,40(sp)
	sw	a7,44(sp)
	sw	a3,12(sp)
	li	a5,0
	li	a0,0
.L9:
	blt	a5,t1,.L10
	addi	sp,sp,48
	jr	ra
.L10:
	slli	a4,a5,2
	add	a4,a3,a4
	lw	a4,0(a4)
	addi	a5,a5,1
	add	a0,a0,a4
	j	.L9
	.size	sum, .-sum
	.align	1
	.globl	move
	.type	move, @function
move:
	lw	a7,4(a1)
	lhu	a6,8(a1)
	lbu	a3,10(a1)
	lbu	a4,11(a1)
	lw	a1,0(a1)
	sub	a7,a7,a2
	addi	a6,a6,1
	xori	a3,a3,1
	neg	a4,a4
	add	a2,a1,a2
	sw	a2,0(a0)
	sw	a7,4(a0)
	sh	a6,8(a0)
	sb	a3,10(a0)
	sb	a4,11(a0)
	ret
	.size	move, .-move
	.align	1
	.globl	popcount
	.type	popcount, @function
popcount:
	mv	a5,a0
	li	a0,0
.L14:
	bne	a5,zero,.L15
	ret
.L15:
	addi	a4,a5,-1
	and	a5,a5,a4
	addi	a0,a0,1
	j	.L14
	.size	popcount, .-popcount
	.align	1
	.globl	fill
	.type	fill, @function
fill:
	lui	a4,%hi(.LANCHOR0)
	addi	a5,a4,%lo(.LANCHOR0)
	addi	a2,a5,256
	li	a3,0
	addi	a4,a4,%lo(.LANCHOR0)
.L17:
	sw	a3,0(a5)
	addi	a5,a5,4
	add	a3,a3,a0
	bne	a5,a2,.L17
	lui	a5,%hi(big)
	addi	a1,a5,%lo(big)
	li	a3,0
	addi	a5,a5,%lo(big)
	li	a0,1024
.L18:
	andi	a2,a3,63
	slli	a2,a2,2
	add	a2,a4,a2
	lw	a2,0(a2)
	add	a2,a2,a3
	sw	a2,0(a1)
	addi	a3,a3,1
	addi	a1,a1,4
	bne	a3,a0,.L18
	li	a3,4096
	add	a5,a5,a3
	lw	a0,-4(a5)
	lw	a5,20(a4)
	add	a0,a0,a5
	ret
	.size	fill, .-fill
	.align	1
	.globl	name_len
	.type	name_len, @function
name_len:
	andi	a0,a0,3
	lui	a5,%hi(.LANCHOR1)
	slli	a0,a0,2
	addi	a5,a5,%lo(.LANCHOR1)
	add	a5,a5,a0
	lw	a0,0(a5)
	tail	strlen
	.size	name_len, .-name_len
	.align	1
	.globl	copy
	.type	copy, @function
copy:
	addi	sp,sp,-16
	sw	ra,12(sp)
	call	memcpy
	lw	ra,12(sp)
	lui	a0,%hi(.LANCHOR0+256)
	li	a2,300
	li	a1,0
	addi	a0,a0,%lo(.LANCHOR0+256)
	addi	sp,sp,16
	tail	memset
	.size	copy, .-copy
	.align	1
	.globl	bits
	.type	bits, @function
bits:
	not	a5,a0
	seqz	a4,a0
	sub	a5,a5,a0
	add	a5,a5,a4
	snez	a4,a1
	add	a5,a5,a4
	andi	a4,a0,255
	add	a5,a5,a4
	slli	a4,a1,24
	srai	a4,a4,24
	slli	a0,a0,16
	add	a5,a5,a4
	srli	a0,a0,16
	slli	a1,a1,16
	add	a0,a5,a0
	srai	a1,a1,16
	add	a0,a0,a1
	ret
	.size	bits, .-bits
	.globl	__ashldi3
	.globl	__ashrdi3
	.globl	__lshrdi3
	.align	1
	.globl	shifts
	.type	shifts, @function
shifts:
	addi	sp,sp,-32
	sw	ra,28(sp)
	sw	s0,24(sp)
	sw	s1,20(sp)
	sw	s2,16(sp)
	sw	s3,12(sp)
	sw	s4,8(sp)
	sw	s5,4(sp)
	mv	s4,a0
	mv	s3,a1
	mv	s5,a2
	call	__ashldi3
	mv	s0,a0
	mv	a2,s5
	mv	s2,a1
	mv	a0,s4
	mv	a1,s3
	call	__ashrdi3
	add	s1,s0,a0
	add	s2,s2,a1
	sltu	s0,s1,s0
	mv	a2,s5
	mv	a0,s4
	mv	a1,s3
	call	__lshrdi3
	add	s0,s0,s2
	lw	ra,28(sp)
	add	a1,s0,a1
	lw	s0,24(sp)
	add	a0,s1,a0
	sltu	s1,a0,s1
	lw	s2,16(sp)
	lw	s3,12(sp)
	lw	s4,8(sp)
	lw	s5,4(sp)
	add	a1,s1,a1
	lw	s1,20(sp)
	addi	sp,sp,32
	jr	ra
	.size	shifts, .-shifts
	.align	1
	.globl	dispatch
	.type	dispatch, @function
dispatch:
	li	a4,3
	rem	a5,a0,a4
	mv	a0,a1
	slli	a4,a5,2
	lui	a5,%hi(.LANCHOR1)
	addi	a5,a5,%lo(.LANCHOR1)
	add	a5,a5,a4
	lw	a5,16(a5)
	jr	a5
	.size	dispatch, .-dispatch
	.align	1
	.globl	local_array
	.type	local_array, @function
local_array:
	addi	sp,sp,-400
	li	a5,0
	li	a3,100
.L29:
	slli	a4,a5,2
	addi	a4,a4,400
	xor	a2,a0,a5
	add	a4,a4,sp
	sw	a2,-400(a4)
	addi	a5,a5,1
	bne	a5,a3,.L29
	rem	a0,a0,a5
	slli	a0,a0,2
	addi	a5,a0,400
	add	a0,a5,sp
	lw	a0,-400(a0)
	addi	sp,sp,400
	jr	ra
	.size	local_array, .-local_array
	.align	1
	.globl	addr_of_big
	.type	addr_of_big, @function
addr_of_big:
	lui	a0,%hi(big+800)
	addi	a0,a0,%lo(big+800)
	ret
	.size	addr_of_big, .-addr_of_big
	.align	1
	.globl	load_big
	.type	load_big, @function
load_big:
	lui	a5,%hi(big)
	addi	a5,a5,%lo(big)
	li	a4,4096
	add	a4,a5,a4
	lw	a0,12(a5)
	lw	a5,-96(a4)
	add	a0,a0,a5
	ret
	.size	load_big, .-load_big
	.globl	__mulsf3
	.globl	__addsf3
	.align	1
	.globl	fadd
	.type	fadd, @function
fadd:
	addi	sp,sp,-16
	sw	ra,12(sp)
	call	__mulsf3
	lui	a5,%hi(.LC0)
	lw	a1,%lo(.LC0)(a5)
	call	__addsf3
	lw	ra,12(sp)
	addi	sp,sp,16
	jr	ra
	.size	fadd, .-fadd
	.globl	__divdf3
	.globl	__subdf3
	.align	1
	.globl	dmul
	.type	dmul, @function
dmul:
	addi	sp,sp,-16
	sw	ra,12(sp)
	call	__divdf3
	lui	a5,%hi(.LC1)
	lw	a2,%lo(.LC1)(a5)
	lw	a3,%lo(.LC1+4)(a5)
	call	__subdf3
	lw	ra,12(sp)
	addi	sp,sp,16
	jr	ra
	.size	dmul, .-dmul
	.section	.text.startup,"ax",@progbits
	.align	1
	.globl	main
	.type	main, @function
main:
	addi	sp,sp,-16
	li	a0,3
	sw	ra,12(sp)
	sw	s0,8(sp)
	sw	s1,4(sp)
	call	fill
	mv	s0,a0
	li	a0,10
	call	fib
	mv	s1,a0
	li	a3,3
	li	a2,2
	li	a1,1
	add	s0,s0,s1
	li	a0,3
	call	sum
	addi	s0,s0,17
	add	s0,s0,a0
	li	a0,1
	call	name_len
	lw	ra,12(sp)
	add	a0,a0,s0
	lw	s0,8(sp)
	lw	s1,4(sp)
	addi	sp,sp,16
	jr	ra
	.size	main, .-main
	.globl	buffer
	.globl	big
	.section	.rodata.str1.4,"aMS",@progbits,1
	.align	2
.LC2:
	.string	"alpha"
	.align	2
.LC3:
	.string	"beta"
	.align	2
.LC4:
	.string	"gamma"
	.align	2
.LC5:
	.string	"delta"
	.section	.srodata.cst4,"aM",@progbits,4
	.align	2
.LC0:
	.word	1069547520
	.section	.srodata.cst8,"aM",@progbits,8
	.align	3
.LC1:
	.word	0
	.word	1073741824
	.section	.rodata
	.align	2
	.set	.LANCHOR1,. + 0
	.type	names, @object
	.size	names, 16
names:
	.word	.LC2
	.word	.LC3
	.word	.LC4
	.word	.LC5
	.type	ops, @object
	.size	ops, 12
ops:
	.word	fib
	.word	helper
	.word	tail
	.bss
	.align	2
	.set	.LANCHOR0,. + 0
	.type	table, @object
	.size	table, 256
table:
	.zero	256
	.type	buffer, @object
	.size	buffer, 300
buffer:
	.zero	300
	.type	big, @object
	.size	big, 4096
big:
	.zero	4096
	.ident	"GCC: (12.2.0-14+deb12u1+11+b2) 12.2.0"
