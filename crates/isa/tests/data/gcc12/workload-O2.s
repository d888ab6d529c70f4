	.file	"workload.c"
	.option nopic
	.attribute arch, "rv32i2p1_m2p0_a2p1_c2p0_zicsr2p0_zifencei2p0"
	.attribute unaligned_access, 0
	.attribute stack_align, 16
	.text
	.align	1
	.type	helper, @function
helper:
	slli	a5,a0,1
	add	a0,a5,a0
	addi	a0,a0,1
	ret
	.size	helper, .-helper
	.align	1
	.globl	tail
	.type	tail, @function
tail:
	slli	a5,a0,1
	add	a0,a5,a0
	slli	a0,a0,1
	addi	a0,a0,5
	ret
	.size	tail, .-tail
	.align	1
	.globl	fib
	.type	fib, @function
fib:
	addi	sp,sp,-144
	sw	s1,132(sp)
	sw	ra,140(sp)
	sw	s0,136(sp)
	sw	s2,128(sp)
	sw	s3,124(sp)
	sw	s4,120(sp)
	sw	s5,116(sp)
	sw	s6,112(sp)
	sw	s7,108(sp)
	sw	s8,104(sp)
	sw	s9,100(sp)
	sw	s10,96(sp)
	sw	s11,92(sp)
	li	a5,1
	mv	s1,a0
	ble	a0,a5,.L5
	addi	a5,a0,-1
	andi	a4,a5,-2
	sub	s9,a0,a4
	li	s6,0
	li	a2,1
	mv	s0,a5
	beq	s1,s9,.L6
.L48:
	addi	s1,s1,-2
	andi	a5,s1,-2
	mv	s3,s6
	sub	s10,s0,a5
	li	s5,0
	mv	s6,s1
.L29:
	addi	a5,s0,-1
	beq	s0,s10,.L7
.L47:
	addi	s7,s0,-2
	andi	a4,s7,-2
	sub	s2,a5,a4
	li	s1,0
	mv	s8,s3
.L27:
	addi	s0,a5,-1
	beq	a5,s2,.L8
	addi	s11,a5,-2
	andi	a5,s11,-2
	sub	a3,s0,a5
	mv	a4,s5
	mv	a0,s0
	li	s4,0
	mv	a1,s8
	mv	s3,s1
	mv	s5,a3
	mv	s0,s2
.L25:
	addi	s1,a0,-1
	beq	a0,s5,.L9
	addi	a0,a0,-2
	andi	s8,a0,-2
	mv	t3,a1
	mv	a6,s3
	sw	s11,24(sp)
	mv	a3,s6
	mv	s11,s9
	sub	s8,s1,s8
	li	s2,0
	mv	t1,a4
	mv	a1,s4
	mv	s3,s5
	mv	s9,s0
	mv	a7,a0
	mv	s6,s7
.L23:
	addi	a5,s1,-1
	beq	s8,s1,.L10
	addi	s1,s1,-2
	andi	s5,s1,-2
	sub	s5,a5,s5
	li	s4,0
	mv	s7,s5
.L21:
	addi	s0,a5,-1
	beq	s7,a5,.L11
	addi	t4,a5,-2
	andi	a0,t4,-2
	addi	t0,a5,-3
	addi	t2,a5,-5
	sub	a5,s0,a0
	sw	a5,20(sp)
	mv	s5,t3
	li	a5,0
.L19:
	lw	a4,20(sp)
	addi	t6,s0,-1
	beq	a4,s0,.L12
	andi	a0,t0,-2
	sub	a4,t6,a0
	sw	a4,8(sp)
	sw	t1,12(sp)
	mv	a0,t6
	mv	t1,s11
	mv	t5,s6
	mv	s11,s10
	mv	t6,t4
	mv	s10,s9
	mv	t4,a3
	mv	s9,s3
	mv	a4,t2
	li	t3,0
	sw	a5,16(sp)
	mv	s3,s2
	mv	s6,s0
	mv	a3,s1
.L17:
	lw	a5,8(sp)
	beq	a0,a5,.L13
	addi	a5,a0,-2
	andi	ra,a4,-2
	addi	a0,a0,-4
	mv	s2,a5
	sub	s0,a0,ra
	li	s1,0
.L14:
	mv	a0,s2
	sw	a5,76(sp)
	sw	t6,72(sp)
	sw	t4,68(sp)
	sw	a3,64(sp)
	sw	a7,60(sp)
	sw	t5,56(sp)
	sw	t1,52(sp)
	sw	a4,48(sp)
	sw	t0,44(sp)
	sw	t2,40(sp)
	sw	t3,36(sp)
	sw	a1,32(sp)
	sw	a6,28(sp)
	addi	s2,s2,-2
	call	fib
	lw	a6,28(sp)
	lw	a1,32(sp)
	lw	t3,36(sp)
	lw	t2,40(sp)
	lw	t0,44(sp)
	lw	a4,48(sp)
	lw	t1,52(sp)
	lw	t5,56(sp)
	lw	a7,60(sp)
	lw	a3,64(sp)
	lw	t4,68(sp)
	lw	t6,72(sp)
	lw	a5,76(sp)
	add	s1,s1,a0
	li	a2,1
	bne	s0,s2,.L14
	andi	s0,a4,1
	add	s0,s0,s1
	mv	a0,a5
	add	t3,t3,s0
	addi	a4,a4,-2
	bgt	a5,a2,.L17
	mv	s2,s3
	lw	a5,16(sp)
	mv	s3,s9
	mv	s9,s10
	mv	s10,s11
	mv	s11,t1
	lw	t1,12(sp)
	mv	s0,s6
	mv	s1,a3
	mv	s6,t5
	mv	a3,t4
	mv	t4,t6
	mv	t6,a0
.L16:
	add	a0,t6,t3
	addi	s0,s0,-2
	add	a5,a5,a0
	addi	t0,t0,-2
	addi	t2,t2,-2
	bgt	s0,a2,.L19
	mv	t3,s5
.L18:
	add	a0,s0,a5
	add	s4,s4,a0
	mv	a5,t4
	bgt	t4,a2,.L21
	add	a5,a5,s4
	add	s2,s2,a5
	bgt	s1,a2,.L23
.L45:
	mv	s0,s9
	mv	s9,s11
	lw	s11,24(sp)
	mv	s4,a1
	mv	s5,s3
	mv	s7,s6
	mv	a4,t1
	mv	a1,t3
	mv	s3,a6
	mv	a0,a7
	mv	s6,a3
.L22:
	add	s1,s1,s2
	add	s4,s4,s1
	bgt	a0,a2,.L25
	mv	s2,s0
	mv	s8,a1
	mv	s5,a4
	mv	s1,s3
	mv	s0,a0
.L24:
	add	s4,s4,s0
	mv	a5,s11
	add	s1,s1,s4
	bgt	s11,a2,.L27
	add	s1,s1,a5
	mv	s3,s8
	mv	s0,s7
	add	s5,s5,s1
	bgt	s7,a2,.L29
.L46:
	mv	s1,s6
	add	s0,s0,s5
	mv	s6,s3
	add	s6,s6,s0
	bgt	s1,a2,.L44
.L41:
	add	s1,s1,s6
	j	.L5
.L11:
	addi	a5,a5,-2
	add	s4,s4,s0
	add	a5,a5,s4
	add	s2,s2,a5
	bgt	s1,a2,.L23
	j	.L45
.L12:
	mv	t3,s5
	addi	s0,s0,-2
	add	a5,a5,t6
	j	.L18
.L13:
	mv	s0,s6
	mv	s6,t5
	addi	t5,a0,-1
	mv	s2,s3
	mv	s1,a3
	mv	s3,s9
	mv	a3,t4
	mv	s9,s10
	mv	t4,t6
	mv	s10,s11
	lw	a5,16(sp)
	mv	s11,t1
	addi	t6,a0,-2
	lw	t1,12(sp)
	add	t3,t3,t5
	j	.L16
.L10:
	mv	s4,a1
	mv	s5,s3
	mv	s0,s9
	mv	s7,s6
	mv	s9,s11
	mv	a4,t1
	lw	s11,24(sp)
	mv	a1,t3
	mv	s3,a6
	mv	a0,a7
	mv	s6,a3
	addi	s1,s1,-2
	add	s2,s2,a5
	j	.L22
.L9:
	mv	a5,s1
	mv	s2,s0
	mv	s8,a1
	mv	s5,a4
	mv	s1,s3
	addi	s0,a0,-2
	add	s4,s4,a5
	j	.L24
.L8:
	add	s1,s1,s0
	addi	a5,a5,-2
	add	s1,s1,a5
	mv	s3,s8
	mv	s0,s7
	add	s5,s5,s1
	ble	s7,a2,.L46
	addi	a5,s0,-1
	bne	s0,s10,.L47
.L7:
	addi	s0,s0,-2
	add	s5,s5,a5
	mv	s1,s6
	add	s0,s0,s5
	mv	s6,s3
	add	s6,s6,s0
	ble	s1,a2,.L41
.L44:
	addi	a5,s1,-1
	mv	s0,a5
	bne	s1,s9,.L48
.L6:
	addi	s1,s1,-2
	add	a5,a5,s6
	add	s1,s1,a5
.L5:
	lw	ra,140(sp)
	lw	s0,136(sp)
	lw	s2,128(sp)
	lw	s3,124(sp)
	lw	s4,120(sp)
	lw	s5,116(sp)
	lw	s6,112(sp)
	lw	s7,108(sp)
	lw	s8,104(sp)
	lw	s9,100(sp)
	lw	s10,96(sp)
	lw	s11,92(sp)
	mv	a0,s1
	lw	s1,132(sp)
	addi	sp,sp,144
	jr	ra
	.size	fib, .-fib
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
	addi	t1,sp,20
	sw	a1,20(sp)
	sw	a2,24(sp)
	sw	a3,28(sp)
	sw	a4,32(sp)
	sw	a5,36(sp)
	sw	a6,40(sp)
	sw	a7,44(sp)
	sw	t1,12(sp)
	ble	a0,zero,.L53
	mv	t3,a0
	mv	a5,t1
	li	a4,0
	li	a0,0
.L52:
	lw	a3,0(a5)
	addi	a4,a4,1
	addi	a5,a5,4
	add	a0,a0,a3
	bne	t3,a4,.L52
	addi	sp,sp,48
	jr	ra
.L53:
	li	a0,0
	addi	sp,sp,48
	jr	ra
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
	add	a1,a1,a2
	sw	a1,0(a0)
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
	beq	a5,zero,.L60
.L59:
	addi	a4,a5,-1
	and	a5,a5,a4
	addi	a0,a0,1
	bne	a5,zero,.L59
	ret
.L60:
	ret
	.size	popcount, .-popcount
	.align	1
	.globl	fill
	.type	fill, @function
fill:
	lui	a5,%hi(.LANCHOR0)
	addi	a2,a5,%lo(.LANCHOR0)
	addi	a3,a2,256
	addi	a5,a5,%lo(.LANCHOR0)
	li	a4,0
.L63:
	sw	a4,0(a5)
	addi	a5,a5,4
	add	a4,a4,a0
	bne	a5,a3,.L63
	lui	a3,%hi(big)
	addi	a0,a3,%lo(big)
	li	a4,0
	addi	a3,a3,%lo(big)
	li	a1,1024
.L64:
	andi	a5,a4,63
	slli	a5,a5,2
	add	a5,a2,a5
	lw	a5,0(a5)
	addi	a3,a3,4
	add	a5,a5,a4
	sw	a5,-4(a3)
	addi	a4,a4,1
	bne	a4,a1,.L64
	li	a5,4096
	add	a5,a0,a5
	lw	a0,-4(a5)
	lw	a5,20(a2)
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
	.align	1
	.globl	shifts
	.type	shifts, @function
shifts:
	addi	a5,a2,-32
	blt	a5,zero,.L72
	sll	a4,a0,a5
	li	a6,0
	blt	a5,zero,.L74
.L78:
	sra	a3,a1,a5
	srai	a7,a1,31
	add	a3,a6,a3
	sltu	a6,a3,a6
	add	a4,a4,a7
	add	a4,a6,a4
	blt	a5,zero,.L76
.L79:
	srl	a0,a1,a5
	add	a0,a3,a0
	li	a1,0
	sltu	a3,a0,a3
	add	a1,a4,a1
	add	a1,a3,a1
	ret
.L72:
	li	a4,31
	sub	a4,a4,a2
	srli	a3,a0,1
	srl	a3,a3,a4
	sll	a4,a1,a2
	or	a4,a3,a4
	sll	a6,a0,a2
	bge	a5,zero,.L78
.L74:
	li	a3,31
	sub	a3,a3,a2
	slli	a7,a1,1
	sll	a7,a7,a3
	srl	a3,a0,a2
	or	a3,a7,a3
	add	a3,a6,a3
	sra	a7,a1,a2
	sltu	a6,a3,a6
	add	a4,a4,a7
	add	a4,a6,a4
	bge	a5,zero,.L79
.L76:
	li	a6,31
	slli	a5,a1,1
	sub	a6,a6,a2
	sll	a5,a5,a6
	srl	a0,a0,a2
	or	a0,a5,a0
	srl	a1,a1,a2
	add	a0,a3,a0
	sltu	a3,a0,a3
	add	a1,a4,a1
	add	a1,a3,a1
	ret
	.size	shifts, .-shifts
	.align	1
	.globl	dispatch
	.type	dispatch, @function
dispatch:
	li	a5,3
	rem	a5,a0,a5
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
	li	a2,100
.L82:
	slli	a4,a5,2
	addi	a4,a4,400
	xor	a3,a0,a5
	add	a4,a4,sp
	sw	a3,-400(a4)
	addi	a5,a5,1
	bne	a5,a2,.L82
	rem	a5,a0,a5
	slli	a5,a5,2
	addi	a5,a5,400
	add	a5,a5,sp
	lw	a0,-400(a5)
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
	li	a0,3
	call	sum
	add	s0,s0,s1
	lw	ra,12(sp)
	add	a0,s0,a0
	lw	s0,8(sp)
	lw	s1,4(sp)
	addi	a0,a0,21
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
