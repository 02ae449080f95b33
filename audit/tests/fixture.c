// SPDX-License-Identifier: GPL-2.0
/* Tiny fast-path stand-ins for the audit tests (see run.sh). */
#define noinline __attribute__((noinline))
#define used __attribute__((used))

struct ops {
	int (*fn)(int);
};

noinline int target(int x) { return x + 1; }
noinline int helper_noinline(int x) { return x * 3 + 1; }
static inline __attribute__((always_inline)) int helper_inline(int x) { return x * 5 + 2; }

noinline int a0(int x) { return x + 10; }
noinline int a1(int x) { return x + 11; }
noinline int a2(int x) { return x + 12; }
noinline int a3(int x) { return x + 13; }
noinline int a4(int x) { return x + 14; }
noinline int a5(int x) { return x + 15; }
noinline int a6(int x) { return x + 16; }
noinline int a7(int x) { return x + 17; }

/* an indirect call that is not a tail call: thunk call / call *%rax */
noinline int f_indirect_call(struct ops *o, int x) { return o->fn(x) + 1; }
/* an indirect tail call: thunk jmp / jmp * */
noinline int f_tail(struct ops *o, int x) { return o->fn(x); }
/* a switch that becomes a jump table with -fjump-tables */
noinline int f_switch(int s, int x)
{
	switch (s) {
	case 0: return a0(x) * 3;
	case 1: return a1(x) * 5;
	case 2: return a2(x) * 7;
	case 3: return a3(x) * 11;
	case 4: return a4(x) * 13;
	case 5: return a5(x) * 17;
	case 6: return a6(x) * 19;
	case 7: return a7(x) * 23;
	}
	return x;
}
/* a function-pointer table: an indirect call, never a jump table */
int (*const table[8])(int) = { a0, a1, a2, a3, a4, a5, a6, a7 };
noinline int f_fptable(unsigned int i, int x) { return table[i & 7](x); }
noinline int f_calls_noinline(int x) { return helper_noinline(x) + 1; }
noinline int f_calls_inline(int x) { return helper_inline(x) + 1; }
noinline int f_direct(int x) { return target(x) * 2; }
/* a clean function and its compiler-style clone (name with a suffix) */
noinline int f_clone(int x) { return target(x) + 3; }
noinline int f_clone_isra(struct ops *o, int x) __asm__("f_clone.isra.0");
noinline int f_clone_isra(struct ops *o, int x) { return o->fn(x) * 2; }
/* must not match 'func f_clone' */
noinline int f_clone2(struct ops *o, int x) { return o->fn(x) * 4; }

static struct ops ops = { a0 };
static volatile int sink;

used void _start(void)
{
	struct ops *volatile o = &ops;
	volatile int v = 1;

	sink = f_indirect_call(o, v) + f_tail(o, v) + f_switch(v, v) + f_fptable(v, v) +
	       f_calls_noinline(v) + f_calls_inline(v) + f_direct(v) + f_clone(v) +
	       f_clone_isra(o, v) + f_clone2(o, v);
	for (;;)
		;
}
