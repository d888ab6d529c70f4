	.file	"workload.c"
	.option nopic
	.attribute arch, "rv32i2p1_m2p0_a2p1_c2p0_zicsr2p0_zifencei2p0"
	.attribute unaligned_access, 0
	.attribute stack_align, 16
	.text
	.section	.rodata
	.align	2
.LC0:
	.string	"alpha"
	.align	2
.LC1:
	.string	"beta"
	.align	2
.LC2:
	.string	"gamma"
	.align	2
.LC3:
	.string	"delta"
	.align	2
	.type	names, @object
	.size	names, 16
names:
	.word	.LC0
	.word	.LC1
	.word	.LC2
	.word	.LC3
	.local	table
	.comm	table,256,4
	.globl	big
	.bss
	.align	2
	.type	big, @object
	.size	big, 4096
big:
	.zero	4096
	.globl	buffer
	.align	2
	.type	buffer, @object
	.size	buffer, 300
buffer:
	.zero	300
	.text
	.align	1
	.globl	fib
	.type	fib, @function
fib:
	addi	sp,sp,-32
	sw	ra,28(sp)
	sw	s0,24(sp)
	sw	s1,20(sp)
	addi	s0,sp,32
	sw	a0,-20(s0)
	lw	a4,-20(s0)
	li	a5,1
	ble	a4,a5,.L2
	lw	a5,-20(s0)
	addi	a5,a5,-1
	mv	a0,a5
	call	fib
	mv	s1,a0
	lw	a5,-20(s0)
	addi	a5,a5,-2
	mv	a0,a5
	call	fib
	mv	a5,a0
	add	a5,s1,a5
	j	.L4
.L2:
	lw	a5,-20(s0)
.L4:
	mv	a0,a5
	lw	ra,28(sp)
	lw	s0,24(sp)
	lw	s1,20(sp)
	addi	sp,sp,32
	jr	ra
	.size	fib, .-fib
	.align	1
	.type	helper, @function
helper:
	addi	sp,sp,-32
	sw	s0,28(sp)
	addi	s0,sp,32
	sw	a0,-20(s0)
	lw	a4,-20(s0)
	mv	a5,a4
	slli	a5,a5,1
	add	a5,a5,a4
	addi	a5,a5,1
	mv	a0,a5
	lw	s0,28(sp)
	addi	sp,sp,32
	jr	ra
	.size	helper, .-helper
	.align	1
	.globl	tail
	.type	tail, @function
tail:
	addi	sp,sp,-32
	sw	ra,28(sp)
	sw	s0,24(sp)
	sw	s1,20(sp)
	addi	s0,sp,32
	sw	a0,-20(s0)
	lw	a0,-20(s0)
	call	helper
	mv	s1,a0
	lw	a5,-20(s0)
	addi	a5,a5,1
	mv	a0,a5
	call	helper
	mv	a5,a0
	add	a5,s1,a5
	mv	a0,a5
	lw	ra,28(sp)
	lw	s0,24(sp)
	lw	s1,20(sp)
	addi	sp,sp,32
	jr	ra
	.size	tail, .-tail
	.align	1
	.globl	tailcall
	.type	tailcall, @function
tailcall:
	addi	sp,sp,-32
	sw	ra,28(sp)
	sw	s0,24(sp)
	addi	s0,sp,32
	sw	a0,-20(s0)
	lw	a5,-20(s0)
	addi	a5,a5,1
	mv	a0,a5
	call	ext_fn
	mv	a5,a0
	mv	a0,a5
	lw	ra,28(sp)
	lw	s0,24(sp)
	addi	sp,sp,32
	jr	ra
	.size	tailcall, .-tailcall
	.align	1
	.globl	sum
	.type	sum, @function
sum:
	addi	sp,sp,-80
	sw	s0,44(sp)
	addi	s0,sp,48
	sw	a0,-36(s0)
	sw	a1,4(s0)
	sw	a2,8(s0)
	sw	a3,12(s0)
	sw	a4,16(s0)
	sw	a5,20(s0)
	sw	a6,24(s0)
	sw	a7,28(s0)
	addi	a5,s0,32
	sw	a5,-40(s0)
	lw	a5,-40(s0)
	addi	a5,a5,-28
	sw	a5,-28(s0)
	sw	zero,-20(s0)
	sw	zero,-24(s0)
	j	.L12
.L13:
	lw	a5,-28(s0)
	addi	a4,a5,4
	sw	a4,-28(s0)
	lw	a5,0(a5)
	lw	a4,-20(s0)
	add	a5,a4,a5
	sw	a5,-20(s0)
	lw	a5,-24(s0)
	addi	a5,a5,1
	sw	a5,-24(s0)
.L12:
	lw	a4,-24(s0)
	lw	a5,-36(s0)
	blt	a4,a5,.L13
	lw	a5,-20(s0)
	mv	a0,a5
	lw	s0,44(sp)
	addi	sp,sp,80
	jr	ra
	.size	sum, .-sum
	.align	1
	.globl	move
	.type	move, @function
move:
	addi	sp,sp,-32
	sw	s0,28(sp)
	sw	s1,24(sp)
	addi	s0,sp,32
	sw	a0,-20(s0)
	mv	s1,a1
	sw	a2,-24(s0)
	lw	a4,0(s1)
	lw	a5,-24(s0)
	add	a5,a4,a5
	sw	a5,0(s1)
	lw	a4,4(s1)
	lw	a5,-24(s0)
	sub	a5,a4,a5
	sw	a5,4(s1)
	lh	a5,8(s1)
	slli	a5,a5,16
	srli	a5,a5,16
	addi	a5,a5,1
	slli	a5,a5,16
	srli	a5,a5,16
	slli	a5,a5,16
	srai	a5,a5,16
	sh	a5,8(s1)
	lbu	a5,10(s1)
	xori	a5,a5,1
	andi	a5,a5,0xff
	sb	a5,10(s1)
	lb	a5,11(s1)
	andi	a5,a5,0xff
	neg	a5,a5
	andi	a5,a5,0xff
	slli	a5,a5,24
	srai	a5,a5,24
	sb	a5,11(s1)
	lw	a5,-20(s0)
	lw	a4,0(s1)
	sw	a4,0(a5)
	lw	a4,4(s1)
	sw	a4,4(a5)
	lw	a4,8(s1)
	sw	a4,8(a5)
	lw	a0,-20(s0)
	lw	s0,28(sp)
	lw	s1,24(sp)
	addi	sp,sp,32
	jr	ra
	.size	move, .-move
	.align	1
	.globl	popcount
	.type	popcount, @function
popcount:
	addi	sp,sp,-48
	sw	s0,44(sp)
	addi	s0,sp,48
	sw	a0,-36(s0)
	sw	zero,-20(s0)
	j	.L18
.L19:
	lw	a5,-36(s0)
	addi	a5,a5,-1
	lw	a4,-36(s0)
	and	a5,a4,a5
	sw	a5,-36(s0)
	lw	a5,-20(s0)
	addi	a5,a5,1
	sw	a5,-20(s0)
.L18:
	lw	a5,-36(s0)
	bne	a5,zero,.L19
	lw	a5,-20(s0)
	mv	a0,a5
	lw	s0,44(sp)
	addi	sp,sp,48
	jr	ra
	.size	popcount, .-popcount
	.align	1
	.globl	fill
	.type	fill, @function
fill:
	addi	sp,sp,-48
	sw	s0,44(sp)
	addi	s0,sp,48
	sw	a0,-36(s0)
	sw	zero,-20(s0)
	j	.L22
.L23:
	lw	a4,-20(s0)
	lw	a5,-36(s0)
	mul	a4,a4,a5
	lui	a5,%hi(table)
	addi	a3,a5,%lo(table)
	lw	a5,-20(s0)
	slli	a5,a5,2
	add	a5,a3,a5
	sw	a4,0(a5)
	lw	a5,-20(s0)
	addi	a5,a5,1
	sw	a5,-20(s0)
.L22:
	lw	a4,-20(s0)
	li	a5,63
	ble	a4,a5,.L23
	sw	zero,-24(s0)
	j	.L24
.L25:
	lw	a5,-24(s0)
	andi	a5,a5,63
	lui	a4,%hi(table)
	addi	a4,a4,%lo(table)
	slli	a5,a5,2
	add	a5,a4,a5
	lw	a4,0(a5)
	lw	a5,-24(s0)
	add	a4,a4,a5
	lui	a5,%hi(big)
	addi	a3,a5,%lo(big)
	lw	a5,-24(s0)
	slli	a5,a5,2
	add	a5,a3,a5
	sw	a4,0(a5)
	lw	a5,-24(s0)
	addi	a5,a5,1
	sw	a5,-24(s0)
.L24:
	lw	a4,-24(s0)
	li	a5,1023
	ble	a4,a5,.L25
	lui	a5,%hi(big)
	addi	a4,a5,%lo(big)
	li	a5,4096
	add	a5,a4,a5
	lw	a4,-4(a5)
	lui	a5,%hi(table)
	addi	a5,a5,%lo(table)
	lw	a5,20(a5)
	add	a5,a4,a5
	mv	a0,a5
	lw	s0,44(sp)
	addi	sp,sp,48
	jr	ra
	.size	fill, .-fill
	.align	1
	.globl	name_len
	.type	name_len, @function
name_len:
	addi	sp,sp,-32
	sw	ra,28(sp)
	sw	s0,24(sp)
	addi	s0,sp,32
	sw	a0,-20(s0)
	lw	a5,-20(s0)
	andi	a5,a5,3
	lui	a4,%hi(names)
	addi	a4,a4,%lo(names)
	slli	a5,a5,2
	add	a5,a4,a5
	lw	a5,0(a5)
	mv	a0,a5
	call	strlen
	mv	a5,a0
	mv	a0,a5
	lw	ra,28(sp)
	lw	s0,24(sp)
	addi	sp,sp,32
	jr	ra
	.size	name_len, .-name_len
	.align	1
	.globl	copy
	.type	copy, @function
copy:
	addi	sp,sp,-32
	sw	ra,28(sp)
	sw	s0,24(sp)
	addi	s0,sp,32
	sw	a0,-20(s0)
	sw	a1,-24(s0)
	sw	a2,-28(s0)
	lw	a5,-28(s0)
	mv	a2,a5
	lw	a1,-24(s0)
	lw	a0,-20(s0)
	call	memcpy
	li	a2,300
	li	a1,0
	lui	a5,%hi(buffer)
	addi	a0,a5,%lo(buffer)
	call	memset
	nop
	lw	ra,28(sp)
	lw	s0,24(sp)
	addi	sp,sp,32
	jr	ra
	.size	copy, .-copy
	.align	1
	.globl	bits
	.type	bits, @function
bits:
	addi	sp,sp,-32
	sw	s0,28(sp)
	addi	s0,sp,32
	sw	a0,-20(s0)
	sw	a1,-24(s0)
	lw	a5,-20(s0)
	not	a4,a5
	lw	a5,-20(s0)
	sub	a5,a4,a5
	lw	a4,-20(s0)
	seqz	a4,a4
	andi	a4,a4,0xff
	add	a5,a5,a4
	lw	a4,-24(s0)
	snez	a4,a4
	andi	a4,a4,0xff
	add	a5,a5,a4
	lw	a4,-20(s0)
	andi	a4,a4,0xff
	add	a5,a5,a4
	lw	a4,-24(s0)
	slli	a4,a4,24
	srai	a4,a4,24
	add	a5,a5,a4
	lw	a4,-20(s0)
	slli	a4,a4,16
	srli	a4,a4,16
	add	a5,a5,a4
	lw	a4,-24(s0)
	slli	a4,a4,16
	srai	a4,a4,16
	add	a5,a5,a4
	mv	a0,a5
	lw	s0,28(sp)
	addi	sp,sp,32
	jr	ra
	.size	bits, .-bits
	.align	1
	.globl	shifts
	.type	shifts, @function
shifts:
	addi	sp,sp,-32
	sw	s0,28(sp)
	addi	s0,sp,32
	sw	a0,-24(s0)
	sw	a1,-20(s0)
	sw	a2,-28(s0)
	lw	a3,-28(s0)
	addi	a3,a3,-32
	blt	a3,zero,.L33
	lw	a2,-24(s0)
	sll	a5,a2,a3
	li	a4,0
	j	.L34
.L33:
	lw	a3,-24(s0)
	srli	a2,a3,1
	li	a1,31
	lw	a3,-28(s0)
	sub	a3,a1,a3
	srl	a3,a2,a3
	lw	a2,-28(s0)
	lw	a1,-20(s0)
	sll	a5,a1,a2
	or	a5,a3,a5
	lw	a3,-28(s0)
	lw	a2,-24(s0)
	sll	a4,a2,a3
.L34:
	lw	a3,-28(s0)
	addi	a3,a3,-32
	blt	a3,zero,.L35
	lw	a2,-20(s0)
	sra	a6,a2,a3
	lw	a3,-20(s0)
	srai	a7,a3,31
	j	.L36
.L35:
	lw	a3,-20(s0)
	slli	a2,a3,1
	li	a1,31
	lw	a3,-28(s0)
	sub	a3,a1,a3
	sll	a3,a2,a3
	lw	a2,-28(s0)
	lw	a1,-24(s0)
	srl	a6,a1,a2
	or	a6,a3,a6
	lw	a3,-28(s0)
	lw	a2,-20(s0)
	sra	a7,a2,a3
.L36:
	add	a2,a4,a6
	mv	a1,a2
	sltu	a1,a1,a4
	add	a3,a5,a7
	add	a5,a1,a3
	mv	a3,a5
	lw	a4,-24(s0)
	lw	a5,-20(s0)
	lw	a1,-28(s0)
	addi	a1,a1,-32
	blt	a1,zero,.L37
	srl	t1,a5,a1
	li	t2,0
	j	.L38
.L37:
	slli	a0,a5,1
	li	a6,31
	lw	a1,-28(s0)
	sub	a1,a6,a1
	sll	a1,a0,a1
	lw	a0,-28(s0)
	srl	t1,a4,a0
	or	t1,a1,t1
	lw	a1,-28(s0)
	srl	t2,a5,a1
.L38:
	mv	a0,t1
	mv	a1,t2
	add	a4,a2,a0
	mv	a6,a4
	sltu	a6,a6,a2
	add	a5,a3,a1
	add	a3,a6,a5
	mv	a5,a3
	mv	a0,a4
	mv	a1,a5
	lw	s0,28(sp)
	addi	sp,sp,32
	jr	ra
	.size	shifts, .-shifts
	.section	.rodata
	.align	2
	.type	ops, @object
	.size	ops, 12
ops:
	.word	fib
	.word	helper
	.word	tail
	.text
	.align	1
	.globl	dispatch
	.type	dispatch, @function
dispatch:
	addi	sp,sp,-32
	sw	ra,28(sp)
	sw	s0,24(sp)
	addi	s0,sp,32
	sw	a0,-20(s0)
	sw	a1,-24(s0)
	lw	a4,-20(s0)
	li	a5,3
	rem	a5,a4,a5
	lui	a4,%hi(ops)
	addi	a4,a4,%lo(ops)
	slli	a5,a5,2
	add	a5,a4,a5
	lw	a5,0(a5)
	lw	a0,-24(s0)
	jalr	a5
	mv	a5,a0
	mv	a0,a5
	lw	ra,28(sp)
	lw	s0,24(sp)
	addi	sp,sp,32
	jr	ra
	.size	dispatch, .-dispatch
	.align	1
	.globl	local_array
	.type	local_array, @function
local_array:
	addi	sp,sp,-448
	sw	s0,444(sp)
	addi	s0,sp,448
	sw	a0,-436(s0)
	sw	zero,-20(s0)
	j	.L43
.L44:
	lw	a4,-20(s0)
	lw	a5,-436(s0)
	xor	a4,a4,a5
	lw	a5,-20(s0)
	slli	a5,a5,2
	addi	a5,a5,-16
	add	a5,a5,s0
	sw	a4,-404(a5)
	lw	a5,-20(s0)
	addi	a5,a5,1
	sw	a5,-20(s0)
.L43:
	lw	a4,-20(s0)
	li	a5,99
	ble	a4,a5,.L44
	lw	a4,-436(s0)
	li	a5,100
	rem	a5,a4,a5
	slli	a5,a5,2
	addi	a5,a5,-16
	add	a5,a5,s0
	lw	a5,-404(a5)
	mv	a0,a5
	lw	s0,444(sp)
	addi	sp,sp,448
	jr	ra
	.size	local_array, .-local_array
	.align	1
	.globl	addr_of_big
	.type	addr_of_big, @function
addr_of_big:
	addi	sp,sp,-16
	sw	s0,12(sp)
	addi	s0,sp,16
	lui	a5,%hi(big+800)
	addi	a5,a5,%lo(big+800)
	mv	a0,a5
	lw	s0,12(sp)
	addi	sp,sp,16
	jr	ra
	.size	addr_of_big, .-addr_of_big
	.align	1
	.globl	load_big
	.type	load_big, @function
load_big:
	addi	sp,sp,-16
	sw	s0,12(sp)
	addi	s0,sp,16
	lui	a5,%hi(big)
	addi	a5,a5,%lo(big)
	lw	a4,12(a5)
	lui	a5,%hi(big)
	addi	a3,a5,%lo(big)
	li	a5,4096
	add	a5,a3,a5
	lw	a5,-96(a5)
	add	a5,a4,a5
	mv	a0,a5
	lw	s0,12(sp)
	addi	sp,sp,16
	jr	ra
	.size	load_big, .-load_big
	.globl	__mulsf3
	.globl	__addsf3
	.align	1
	.globl	fadd
	.type	fadd, @function
fadd:
	addi	sp,sp,-32
	sw	ra,28(sp)
	sw	s0,24(sp)
	addi	s0,sp,32
	sw	a0,-20(s0)
	sw	a1,-24(s0)
	lw	a1,-24(s0)
	lw	a0,-20(s0)
	call	__mulsf3
	mv	a5,a0
	mv	a4,a5
	lui	a5,%hi(.LC4)
	lw	a1,%lo(.LC4)(a5)
	mv	a0,a4
	call	__addsf3
	mv	a5,a0
	mv	a0,a5
	lw	ra,28(sp)
	lw	s0,24(sp)
	addi	sp,sp,32
	jr	ra
	.size	fadd, .-fadd
	.globl	__divdf3
	.globl	__subdf3
	.align	1
	.globl	dmul
	.type	dmul, @function
dmul:
	addi	sp,sp,-32
	sw	ra,28(sp)
	sw	s0,24(sp)
	addi	s0,sp,32
	sw	a0,-24(s0)
	sw	a1,-20(s0)
	sw	a2,-32(s0)
	sw	a3,-28(s0)
	lw	a2,-32(s0)
	lw	a3,-28(s0)
	lw	a0,-24(s0)
	lw	a1,-20(s0)
	call	__divdf3
	mv	a4,a0
	mv	a5,a1
	mv	a0,a4
	mv	a1,a5
	lui	a5,%hi(.LC5)
	lw	a2,%lo(.LC5)(a5)
	lw	a3,%lo(.LC5+4)(a5)
	call	__subdf3
	mv	a4,a0
	mv	a5,a1
	mv	a0,a4
	mv	a1,a5
	lw	ra,28(sp)
	lw	s0,24(sp)
	addi	sp,sp,32
	jr	ra
	.size	dmul, .-dmul
	.align	1
	.globl	main
	.type	main, @function
main:
	addi	sp,sp,-16
	sw	ra,12(sp)
	sw	s0,8(sp)
	sw	s1,4(sp)
	addi	s0,sp,16
	li	a0,3
	call	fill
	mv	s1,a0
	li	a0,10
	call	fib
	mv	a5,a0
	add	s1,s1,a5
	li	a0,2
	call	tail
	mv	a5,a0
	add	s1,s1,a5
	li	a3,3
	li	a2,2
	li	a1,1
	li	a0,3
	call	sum
	mv	a5,a0
	add	s1,s1,a5
	li	a0,1
	call	name_len
	mv	a5,a0
	add	a5,s1,a5
	mv	a0,a5
	lw	ra,12(sp)
	lw	s0,8(sp)
	lw	s1,4(sp)
	addi	sp,sp,16
	jr	ra
	.size	main, .-main
	.section	.rodata
	.align	2
.LC4:
	.word	1069547520
	.align	3
.LC5:
	.word	0
	.word	1073741824
	.ident	"GCC: (12.2.0-14+deb12u1+11+b2) 12.2.0"
