/* SPDX-License-Identifier: GPL-2.0-only */
/* Classic BPF: the validator and the interpreter, over a net_frame. */
#include <stdbool.h>
#include <stdint.h>

#include "net/net_bpf.h"

/* Is @code a classic BPF instruction this interpreter knows? */
static bool opcode_known(unsigned int code)
{
	switch (code) {
	case BPF_LD | BPF_W | BPF_ABS:
	case BPF_LD | BPF_H | BPF_ABS:
	case BPF_LD | BPF_B | BPF_ABS:
	case BPF_LD | BPF_W | BPF_IND:
	case BPF_LD | BPF_H | BPF_IND:
	case BPF_LD | BPF_B | BPF_IND:
	case BPF_LD | BPF_W | BPF_LEN:
	case BPF_LD | BPF_IMM:
	case BPF_LD | BPF_MEM:
	case BPF_LDX | BPF_W | BPF_IMM:
	case BPF_LDX | BPF_W | BPF_MEM:
	case BPF_LDX | BPF_W | BPF_LEN:
	case BPF_LDX | BPF_B | BPF_MSH:
	case BPF_ST:
	case BPF_STX:
	case BPF_ALU | BPF_NEG:
	case BPF_JMP | BPF_JA:
	case BPF_RET | BPF_K:
	case BPF_RET | BPF_A:
	case BPF_MISC | BPF_TAX:
	case BPF_MISC | BPF_TXA:
		return true;
	}
	if (BPF_CLASS(code) == BPF_ALU) {
		switch (code & ~(unsigned int)BPF_X) {
		case BPF_ALU | BPF_ADD:
		case BPF_ALU | BPF_SUB:
		case BPF_ALU | BPF_MUL:
		case BPF_ALU | BPF_DIV:
		case BPF_ALU | NET_BPF_MOD:
		case BPF_ALU | BPF_AND:
		case BPF_ALU | BPF_OR:
		case BPF_ALU | NET_BPF_XOR:
		case BPF_ALU | BPF_LSH:
		case BPF_ALU | BPF_RSH:
			return true;
		}
		return false;
	}
	if (BPF_CLASS(code) == BPF_JMP) {
		switch (code & ~(unsigned int)BPF_X) {
		case BPF_JMP | BPF_JEQ:
		case BPF_JMP | BPF_JGT:
		case BPF_JMP | BPF_JGE:
		case BPF_JMP | BPF_JSET:
			return true;
		}
	}
	return false;
}

static bool uses_memory(unsigned int code)
{
	return code == (BPF_LD | BPF_MEM) || code == (BPF_LDX | BPF_W | BPF_MEM) ||
	       code == BPF_ST || code == BPF_STX;
}

bool net_bpf_validate(const struct bpf_insn *prog, unsigned int n)
{
	unsigned int i;

	if (n == 0)
		return false;
	for (i = 0; i < n; i++) {
		const struct bpf_insn *p = &prog[i];
		unsigned int code = p->code;
		uint32_t k = (uint32_t)p->k;

		if (!opcode_known(code))
			return false;
		if (code == (BPF_JMP | BPF_JA)) {
			if (k >= n - i - 1)
				return false;
		} else if (BPF_CLASS(code) == BPF_JMP) {
			if (p->jt >= n - i - 1 || p->jf >= n - i - 1)
				return false;
		}
		if (uses_memory(code) && k >= BPF_MEMWORDS)
			return false;
		if ((code == (BPF_ALU | BPF_DIV | BPF_K) ||
		     code == (BPF_ALU | NET_BPF_MOD | BPF_K)) && k == 0)
			return false;
	}
	return BPF_CLASS(prog[n - 1].code) == BPF_RET;
}

/* Byte @k of the frame seen as header then data; @k is in range. */
static uint8_t frame_byte(const struct net_frame *f, uint64_t k)
{
	if (k < f->hlen)
		return f->header[k];
	return net_frame_data(f)[k - f->hlen];
}

/*
 * Load @size bytes at @k, big-endian, into *@v.  False if they do not all
 * lie inside the frame.
 */
static bool load(const struct net_frame *f, uint64_t k, unsigned int size,
		 uint32_t *v)
{
	uint64_t end = (uint64_t)f->hlen + net_frame_data_len(f);
	uint32_t x = 0;
	unsigned int i;

	if (k + size > end)
		return false;
	for (i = 0; i < size; i++)
		x = (x << 8) | frame_byte(f, k + i);
	*v = x;
	return true;
}

static unsigned int load_size(unsigned int code)
{
	switch (BPF_SIZE(code)) {
	case BPF_W:
		return 4;
	case BPF_H:
		return 2;
	default:
		return 1;
	}
}

/* The value the LD or LDX instruction @p loads, X being @x; false when
 * a packet load falls outside the frame. */
static bool ld_value(const struct bpf_insn *p, uint32_t x,
		     const uint32_t *mem, const struct net_frame *f,
		     uint32_t *v)
{
	uint32_t k = (uint32_t)p->k;

	switch (BPF_MODE(p->code)) {
	case BPF_ABS:
		return load(f, k, load_size(p->code), v);
	case BPF_IND:
		return load(f, (uint64_t)x + k, load_size(p->code), v);
	case BPF_MSH:
		if (!load(f, k, 1, v))
			return false;
		*v = (*v & 0xf) << 2;
		return true;
	case BPF_LEN:
		*v = f->hlen + net_frame_data_len(f);
		return true;
	case BPF_IMM:
		*v = k;
		return true;
	default:		/* BPF_MEM */
		*v = mem[k];
		return true;
	}
}

/* Apply ALU operation @code with operand @v to @a; false on X == 0
 * division (constant 0 was refused by the validator). */
static bool alu(unsigned int code, uint32_t *a, uint32_t v)
{
	switch (BPF_OP(code)) {
	case BPF_ADD:
		*a += v;
		break;
	case BPF_SUB:
		*a -= v;
		break;
	case BPF_MUL:
		*a *= v;
		break;
	case BPF_DIV:
		if (v == 0)
			return false;
		*a /= v;
		break;
	case NET_BPF_MOD:
		if (v == 0)
			return false;
		*a %= v;
		break;
	case BPF_AND:
		*a &= v;
		break;
	case BPF_OR:
		*a |= v;
		break;
	case NET_BPF_XOR:
		*a ^= v;
		break;
	case BPF_LSH:
		*a = v < 32 ? *a << v : 0;
		break;
	case BPF_RSH:
		*a = v < 32 ? *a >> v : 0;
		break;
	case BPF_NEG:
		*a = 0u - *a;
		break;
	}
	return true;
}

static bool jump_taken(unsigned int code, uint32_t a, uint32_t v)
{
	switch (BPF_OP(code)) {
	case BPF_JEQ:
		return a == v;
	case BPF_JGT:
		return a > v;
	case BPF_JGE:
		return a >= v;
	default:		/* BPF_JSET */
		return (a & v) != 0;
	}
}

static unsigned int accept(uint32_t v, const struct net_frame *f)
{
	unsigned int data = net_frame_data_len(f);

	return v < data ? v : data;
}

unsigned int net_bpf_run(const struct bpf_insn *prog, unsigned int n,
			 const struct net_frame *f)
{
	uint32_t mem[BPF_MEMWORDS] = { 0 };
	uint32_t a = 0, x = 0;
	unsigned int pc = 0;

	while (pc < n) {
		const struct bpf_insn *p = &prog[pc++];
		unsigned int code = p->code;
		uint32_t k = (uint32_t)p->k;

		switch (BPF_CLASS(code)) {
		case BPF_LD:
			if (!ld_value(p, x, mem, f, &a))
				return 0;
			break;
		case BPF_LDX:
			if (!ld_value(p, x, mem, f, &x))
				return 0;
			break;
		case BPF_ST:
			mem[k] = a;
			break;
		case BPF_STX:
			mem[k] = x;
			break;
		case BPF_ALU:
			if (!alu(code, &a, BPF_SRC(code) == BPF_X ? x : k))
				return 0;
			break;
		case BPF_JMP:
			if (BPF_OP(code) == BPF_JA)
				pc += k;
			else if (jump_taken(code, a,
					    BPF_SRC(code) == BPF_X ? x : k))
				pc += p->jt;
			else
				pc += p->jf;
			break;
		case BPF_RET:
			return accept(BPF_RVAL(code) == BPF_A ? a : k, f);
		default:	/* BPF_MISC */
			if (BPF_MISCOP(code) == BPF_TAX)
				x = a;
			else
				a = x;
			break;
		}
	}
	return 0;	/* validated programs end with a RET */
}
