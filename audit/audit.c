// SPDX-License-Identifier: GPL-2.0
/*
 * audit: check that the networking fast path of a built kernel (x86_64
 * vmlinux or UML linux/vmlinux) has no unexpected retpoline thunk calls,
 * indirect calls/jumps, jump tables or out-of-line must-be-inlined callees.
 *
 * Symbols come from the ELF .symtab (libelf); code is disassembled with
 * objdump over each symbol's exact address range.  See audit/README.
 *
 * Exit status: 0 clean, 1 unexpected findings, 2 error (bad input).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define EXIT_FINDINGS 1
#define EXIT_ERROR 2

static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("audit: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_ERROR);
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

static char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		die("out of memory");
	return p;
}

#define PUSH(arr, n, cap, val)                                          \
	do {                                                            \
		if ((n) == (cap)) {                                     \
			(cap) = (cap) ? 2 * (cap) : 16;                 \
			(arr) = xrealloc((arr), (cap) * sizeof(*(arr))); \
		}                                                       \
		(arr)[(n)++] = (val);                                   \
	} while (0)

/* ------------------------------------------------------------------ */
/* Finding kinds */

enum kind { K_THUNK, K_INDIRECT, K_JUMPTABLE, K_NKINDS };
static const char *const kind_name[K_NKINDS] = { "thunk", "indirect", "jumptable" };

static int parse_kind(const char *s)
{
	for (int k = 0; k < K_NKINDS; k++)
		if (!strcmp(s, kind_name[k]))
			return k;
	return -1;
}

/* ------------------------------------------------------------------ */
/* List file */

struct allow {
	int kind;
	long max;		/* -1: any number */
	char *reason;
	int line;
};

struct callee_rule {
	char *callee;
	char *reason;
	int line;
	bool if_builtin;	/* require: skipped when CALLEE is not in the binary */
};

struct func {
	char *name;
	bool optional;
	char *why_optional;
	int line;
	struct allow *allows;
	size_t nallows, callows;
	struct callee_rule *inl;	/* must be inlined: no call to these */
	size_t ninl, cinl;
	struct callee_rule *req;	/* a direct call to these must exist */
	size_t nreq, creq;
};

struct list {
	const char *path;
	struct func *funcs;
	size_t nfuncs, cfuncs;
	char **sections;	/* named sections seen (not "all") */
	size_t nsections, csections;
};

static struct func *find_func(struct list *l, const char *name)
{
	for (size_t i = 0; i < l->nfuncs; i++)
		if (!strcmp(l->funcs[i].name, name))
			return &l->funcs[i];
	return NULL;
}

static bool valid_ident(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.' && *s != '$')
			return false;
	return true;
}

/* Split a line into tokens; double-quoted strings are single tokens.
 * Returns token count or -1 with *err set.  Quoted tokens are marked
 * by quoted[i]. */
#define MAXTOK 16
static int tokenize(char *line, char **tok, bool *quoted, const char **err)
{
	int n = 0;
	char *p = line;

	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#' || *p == '\n' || *p == '\r')
			break;
		if (n == MAXTOK) {
			*err = "too many words";
			return -1;
		}
		if (*p == '"') {
			char *out = ++p;

			tok[n] = out;
			quoted[n] = true;
			while (*p && *p != '"') {
				if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
					p++;
				*out++ = *p++;
			}
			if (*p != '"') {
				*err = "unterminated quoted string";
				return -1;
			}
			p++;
			if (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r' && *p != '#') {
				*err = "garbage after quoted string";
				return -1;
			}
			*out = '\0';
			n++;
			continue;
		}
		tok[n] = p;
		quoted[n] = false;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
			if (*p == '"') {
				*err = "stray quote inside a word";
				return -1;
			}
			p++;
		}
		if (*p) {
			bool eol = (*p == '\n' || *p == '\r');

			*p++ = '\0';
			if (eol) {
				n++;
				break;
			}
		}
		n++;
	}
	return n;
}

static void __attribute__((noreturn, format(printf, 3, 4)))
lerr(const struct list *l, int line, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	die("%s:%d: %s", l->path, line, buf);
}

struct pending {
	int type;		/* 0 allow, 1 inline, 2 require */
	char *fname;
	int kind;
	long max;
	char *arg;
	char *reason;
	int line;
	bool if_builtin;
};

/*
 * Grammar (one directive per line, '#' comments, "quoted" reasons):
 *   [SECTION]                        following lines apply only with --kernel SECTION
 *   [all]                            following lines apply to every kernel
 *   func F [optional ["why"]]
 *   allow F thunk|indirect|jumptable [N] "reason"
 *   inline F CALLEE ["reason"]
 *   require F [call] CALLEE [if-built-in] ["reason"]
 * F matches symbols F and F.<suffix> (.cold, .isra.N, .constprop.N, .part.N).
 * With kernel == NULL and the file has sections: error (unless any_section,
 * used by --compare, which only needs function names from every section).
 */
static void load_list(struct list *l, const char *path, const char *kernel, bool any_section)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0;
	bool active = true;
	struct pending *pend = NULL;
	size_t npend = 0, cpend = 0;
	bool kernel_seen = false;

	memset(l, 0, sizeof(*l));
	l->path = path;
	if (!f)
		die("cannot open list file %s: %s", path, strerror(errno));

	while (getline(&line, &cap, f) != -1) {
		char *tok[MAXTOK];
		bool q[MAXTOK];
		const char *err = NULL;
		int n;

		lineno++;
		n = tokenize(line, tok, q, &err);
		if (n < 0)
			lerr(l, lineno, "%s", err);
		if (n == 0)
			continue;

		if (!q[0] && tok[0][0] == '[') {
			size_t len = strlen(tok[0]);
			char *name;

			if (n != 1 || len < 3 || tok[0][len - 1] != ']')
				lerr(l, lineno, "malformed section header (want [name])");
			tok[0][len - 1] = '\0';
			name = tok[0] + 1;
			if (!valid_ident(name))
				lerr(l, lineno, "malformed section name '%s'", name);
			if (!strcmp(name, "all")) {
				active = true;
				continue;
			}
			bool dup = false;
			for (size_t i = 0; i < l->nsections; i++)
				if (!strcmp(l->sections[i], name))
					dup = true;
			if (!dup)
				PUSH(l->sections, l->nsections, l->csections, xstrdup(name));
			if (kernel && !strcmp(kernel, name))
				kernel_seen = true;
			active = any_section || (kernel && !strcmp(kernel, name));
			continue;
		}
		for (int i = 0; i < n; i++)
			if (q[i] && i != n - 1)
				lerr(l, lineno, "a quoted reason must be the last word");
		for (int i = 0; i < n; i++)
			if (!q[i] && !valid_ident(tok[i]) && strcmp(tok[i], "if-built-in"))
				lerr(l, lineno, "invalid word '%s'", tok[i]);

		const char *d = tok[0];
		char *reason = (n > 1 && q[n - 1]) ? tok[n - 1] : NULL;
		int nw = reason ? n - 1 : n;	/* words excluding reason */

		if (q[0])
			lerr(l, lineno, "expected a directive, got a quoted string");
		if (!strcmp(d, "func")) {
			if (nw < 2 || nw > 3 || (nw == 3 && strcmp(tok[2], "optional")))
				lerr(l, lineno, "usage: func NAME [optional [\"why\"]]");
			if (reason && nw != 3)
				lerr(l, lineno, "a reason on a func line needs 'optional'");
			if (!active)
				continue;
			struct func *old = find_func(l, tok[1]);

			if (old && any_section)
				continue;	/* --compare: the same function in two sections */
			if (old)
				lerr(l, lineno, "duplicate func %s (first at line %d)", tok[1], old->line);
			struct func fn = { 0 };

			fn.name = xstrdup(tok[1]);
			fn.optional = nw == 3;
			fn.why_optional = reason ? xstrdup(reason) : NULL;
			fn.line = lineno;
			PUSH(l->funcs, l->nfuncs, l->cfuncs, fn);
		} else if (!strcmp(d, "allow")) {
			struct pending p = { .type = 0, .line = lineno, .max = -1 };

			if (nw < 3 || nw > 4 || !reason)
				lerr(l, lineno, "usage: allow FUNC thunk|indirect|jumptable [MAX] \"reason\"");
			p.kind = parse_kind(tok[2]);
			if (p.kind < 0)
				lerr(l, lineno, "unknown kind '%s' (want thunk, indirect or jumptable)", tok[2]);
			if (nw == 4) {
				char *end;

				errno = 0;
				p.max = strtol(tok[3], &end, 10);
				if (errno || *end || end == tok[3] || p.max < 0)
					lerr(l, lineno, "bad count '%s' (want a number >= 0)", tok[3]);
			}
			if (!*reason)
				lerr(l, lineno, "empty reason");
			if (!active)
				continue;
			p.fname = xstrdup(tok[1]);
			p.reason = xstrdup(reason);
			PUSH(pend, npend, cpend, p);
		} else if (!strcmp(d, "inline") || !strcmp(d, "require")) {
			bool req = !strcmp(d, "require");
			int ci = 2;

			bool if_builtin = false;

			if (req && nw >= 4 && !strcmp(tok[nw - 1], "if-built-in")) {
				if_builtin = true;
				nw--;
			}
			if (req && nw == 4 && !strcmp(tok[2], "call"))
				ci = 3;
			if (nw != ci + 1 || (req && !strcmp(tok[ci], "call")))
				lerr(l, lineno, req ? "usage: require FUNC [call] CALLEE [if-built-in] [\"reason\"]"
						    : "usage: inline FUNC CALLEE [\"reason\"]");
			if (!active)
				continue;
			struct pending p = { .type = req ? 2 : 1, .line = lineno, .if_builtin = if_builtin };

			p.fname = xstrdup(tok[1]);
			p.arg = xstrdup(tok[ci]);
			p.reason = reason ? xstrdup(reason) : NULL;
			PUSH(pend, npend, cpend, p);
		} else {
			lerr(l, lineno, "unknown directive '%s' (want func, allow, inline, require or [section])", d);
		}
	}
	if (ferror(f))
		die("reading %s: %s", path, strerror(errno));
	fclose(f);
	free(line);

	if (kernel && !kernel_seen && strcmp(kernel, "all"))
		die("%s: no section [%s]", path, kernel);
	if (!kernel && !any_section && l->nsections)
		die("%s has per-kernel sections ([%s]...): choose one with --kernel NAME",
		    path, l->sections[0]);

	for (size_t i = 0; i < npend && any_section; i++) {	/* --compare: callee rules only */
		struct pending *p = &pend[i];
		struct func *fn = find_func(l, p->fname);
		bool dup = false;

		if (!fn || !p->type)
			continue;
		for (size_t j = 0; p->type == 2 && j < fn->nreq; j++)
			dup |= !strcmp(fn->req[j].callee, p->arg);
		for (size_t j = 0; p->type == 1 && j < fn->ninl; j++)
			dup |= !strcmp(fn->inl[j].callee, p->arg);
		if (!dup) {
			struct callee_rule r = { p->arg, p->reason, p->line, p->if_builtin };

			if (p->type == 1)
				PUSH(fn->inl, fn->ninl, fn->cinl, r);
			else
				PUSH(fn->req, fn->nreq, fn->creq, r);
		}
	}
	for (size_t i = 0; i < npend && !any_section; i++) {
		struct pending *p = &pend[i];
		struct func *fn = find_func(l, p->fname);

		if (!fn)
			lerr(l, p->line, "%s: no 'func %s' line applies here", p->fname, p->fname);
		if (p->type == 0) {
			for (size_t j = 0; j < fn->nallows; j++)
				if (fn->allows[j].kind == p->kind)
					lerr(l, p->line, "duplicate allow %s %s (first at line %d)",
					     p->fname, kind_name[p->kind], fn->allows[j].line);
			struct allow a = { p->kind, p->max, p->reason, p->line };

			PUSH(fn->allows, fn->nallows, fn->callows, a);
		} else {
			struct callee_rule r = { p->arg, p->reason, p->line, p->if_builtin };

			if (p->type == 1)
				PUSH(fn->inl, fn->ninl, fn->cinl, r);
			else
				PUSH(fn->req, fn->nreq, fn->creq, r);
		}
		free(p->fname);
	}
	free(pend);
	if (!l->nfuncs)
		die("%s: no functions to audit%s%s", path, kernel ? " for kernel " : "", kernel ? kernel : "");
}

/* ------------------------------------------------------------------ */
/* ELF */

struct sym {
	char *name;
	uint64_t addr, size;
	size_t shndx;
};

enum special { S_NONE, S_THUNK, S_RETTHUNK };

struct spec {
	uint64_t addr;
	int type;
	char *name;		/* preferred name, e.g. __x86_indirect_thunk_rax */
};

struct image {
	const char *path;
	int fd;
	Elf *elf;
	struct sym *syms;	/* STT_FUNC, sorted by address */
	size_t nsyms, csyms;
	struct spec *specs;
	size_t nspecs, cspecs;
};

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

static const char *const thunk_regs[16] = {
	"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
};

static void add_spec(struct image *im, uint64_t addr, int type, const char *name)
{
	for (size_t i = 0; i < im->nspecs; i++) {
		if (im->specs[i].addr != addr)
			continue;
		/* prefer a register-named thunk over __x86_indirect_thunk_array */
		if (strstr(im->specs[i].name, "_array") && !strstr(name, "_array")) {
			free(im->specs[i].name);
			im->specs[i].name = xstrdup(name);
			im->specs[i].type = type;
		}
		return;
	}
	struct spec s = { addr, type, xstrdup(name) };

	PUSH(im->specs, im->nspecs, im->cspecs, s);
}

static bool is_thunk_name(const char *n)
{
	return !strncmp(n, "__x86_indirect_thunk_", 21) ||
	       !strncmp(n, "__x86_indirect_call_thunk_", 26) ||
	       !strncmp(n, "__x86_indirect_jump_thunk_", 26) ||
	       !strncmp(n, "__x86_indirect_its_thunk_", 25) ||
	       !strncmp(n, "__x86_indirect_alt_call_", 24) ||
	       !strncmp(n, "__x86_indirect_alt_jmp_", 23);
}

static bool is_retthunk_name(const char *n)
{
	return !strcmp(n, "__x86_return_thunk") || !strcmp(n, "retbleed_return_thunk") ||
	       !strcmp(n, "srso_return_thunk") || !strcmp(n, "srso_alias_return_thunk") ||
	       !strcmp(n, "its_return_thunk") || !strcmp(n, "srso_untrain_ret");
}

static void open_image(struct image *im, const char *path)
{
	struct stat st;
	GElf_Ehdr eh;
	Elf_Scn *scn = NULL;
	bool have_symtab = false;
	uint64_t array_addr = 0;

	memset(im, 0, sizeof(*im));
	im->path = path;
	if (elf_version(EV_CURRENT) == EV_NONE)
		die("libelf initialisation failed");
	if (stat(path, &st) < 0)
		die("%s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		die("%s: not a regular file", path);
	im->fd = open(path, O_RDONLY);
	if (im->fd < 0)
		die("%s: %s", path, strerror(errno));
	im->elf = elf_begin(im->fd, ELF_C_READ_MMAP, NULL);
	if (!im->elf || elf_kind(im->elf) != ELF_K_ELF)
		die("%s: not an ELF file", path);
	if (!gelf_getehdr(im->elf, &eh))
		die("%s: bad ELF header: %s", path, elf_errmsg(-1));
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_X86_64)
		die("%s: not an x86_64 ELF file (audit handles x86_64 and x86_64 UML kernels)", path);

	while ((scn = elf_nextscn(im->elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		have_symtab = true;
		data = elf_getdata(scn, NULL);
		if (!data)
			die("%s: cannot read symbol table: %s", path, elf_errmsg(-1));
		size_t n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;

		for (size_t i = 0; i < n; i++) {
			GElf_Sym s;
			const char *name;

			if (!gelf_getsym(data, (int)i, &s))
				continue;
			name = elf_strptr(im->elf, sh.sh_link, s.st_name);
			if (!name || !*name || s.st_shndx == SHN_UNDEF)
				continue;
			int t = GELF_ST_TYPE(s.st_info);

			if (t != STT_FUNC && t != STT_NOTYPE)
				continue;
			if (is_thunk_name(name)) {
				add_spec(im, s.st_value, S_THUNK, name);
				if (!strcmp(name, "__x86_indirect_thunk_array"))
					array_addr = s.st_value;
			} else if (is_retthunk_name(name)) {
				add_spec(im, s.st_value, S_RETTHUNK, name);
			}
			if (t != STT_FUNC)
				continue;
			struct sym sy = { xstrdup(name), s.st_value, s.st_size, s.st_shndx };

			PUSH(im->syms, im->nsyms, im->csyms, sy);
		}
	}
	if (!have_symtab)
		die("%s: no symbol table (stripped?); audit needs an unstripped vmlinux", path);
	if (!im->nsyms)
		die("%s: symbol table has no functions", path);
	/* 6.1 x86: the 16 thunks live in __x86_indirect_thunk_array, 32 bytes apart */
	if (array_addr)
		for (int r = 0; r < 16; r++) {
			char nm[64];

			snprintf(nm, sizeof(nm), "__x86_indirect_thunk_%s", thunk_regs[r]);
			add_spec(im, array_addr + 32 * (uint64_t)r, S_THUNK, nm);
		}
	qsort(im->syms, im->nsyms, sizeof(*im->syms), cmp_sym);
	/* size 0 (asm without .size): extend to the next symbol in the section */
	for (size_t i = 0; i < im->nsyms; i++) {
		if (im->syms[i].size)
			continue;
		for (size_t j = i + 1; j < im->nsyms; j++)
			if (im->syms[j].shndx == im->syms[i].shndx && im->syms[j].addr > im->syms[i].addr) {
				im->syms[i].size = im->syms[j].addr - im->syms[i].addr;
				break;
			}
	}
}

static const struct spec *find_spec(const struct image *im, uint64_t addr)
{
	for (size_t i = 0; i < im->nspecs; i++)
		if (im->specs[i].addr == addr)
			return &im->specs[i];
	return NULL;
}

/* Read 8 bytes at virtual address addr from a PROGBITS section. */
static bool read_u64(const struct image *im, uint64_t addr, uint64_t *val)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(im->elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_ALLOC))
			continue;
		if (addr < sh.sh_addr || addr + 8 > sh.sh_addr + sh.sh_size)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || addr - sh.sh_addr + 8 > d->d_size)
			return false;
		memcpy(val, (const char *)d->d_buf + (addr - sh.sh_addr), 8);
		return true;	/* x86_64 host and target: little endian */
	}
	return false;
}

/* Does symbol name n belong to function f (f or f.<suffix>)? */
static bool name_matches(const char *n, const char *f)
{
	size_t len = strlen(f);

	return !strncmp(n, f, len) && (n[len] == '\0' || n[len] == '.');
}

/* Is any function symbol at addr named like f? */
static bool addr_is_func(const struct image *im, uint64_t addr, const char *f)
{
	size_t lo = 0, hi = im->nsyms;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (im->syms[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < im->nsyms && im->syms[lo].addr == addr; lo++)
		if (name_matches(im->syms[lo].name, f))
			return true;
	return false;
}

static bool symbol_exists(const struct image *im, const char *f)
{
	for (size_t i = 0; i < im->nsyms; i++)
		if (name_matches(im->syms[i].name, f))
			return true;
	return false;
}

/* ------------------------------------------------------------------ */
/* Disassembly */

struct finding {
	int kind;
	uint64_t addr;
	char *where;		/* sym+0xoff */
	char *text;		/* the instruction */
	char *note;
	bool allowed;
};

struct dcall {
	uint64_t target;
	char *where;
	char *text;
};

struct result {
	bool present;
	char **symnames;
	size_t nsymnames, csymnames;
	struct finding *f;
	size_t nf, cf;
	struct dcall *calls;	/* direct calls and jumps out of the symbol */
	size_t ncalls, ccalls;
	long count[K_NKINDS];
	long rethunk;
	long insns;
};

static char *const objdump_default = "objdump";

/* Run objdump on [start, stop); returns a FILE for its stdout. */
static FILE *run_objdump(const char *path, uint64_t start, uint64_t stop, pid_t *pid, FILE *errf)
{
	const char *od = getenv("OBJDUMP");
	char a1[64], a2[64];
	int p[2];

	if (!od || !*od)
		od = objdump_default;
	snprintf(a1, sizeof(a1), "--start-address=0x%" PRIx64, start);
	snprintf(a2, sizeof(a2), "--stop-address=0x%" PRIx64, stop);
	if (pipe(p) < 0)
		die("pipe: %s", strerror(errno));
	fflush(stdout);
	*pid = fork();
	if (*pid < 0)
		die("fork: %s", strerror(errno));
	if (*pid == 0) {
		char *argv[] = { (char *)od, "-d", "--no-show-raw-insn", "-w", a1, a2,
				 "--", (char *)path, NULL };

		dup2(p[1], 1);
		dup2(fileno(errf), 2);	/* objdump's complaints go into the error line */
		close(p[0]);
		close(p[1]);
		execvp(od, argv);
		_exit(127);
	}
	close(p[1]);
	FILE *f = fdopen(p[0], "r");

	if (!f)
		die("fdopen: %s", strerror(errno));
	return f;
}

static const char *const prefixes[] = {
	"cs", "ds", "ss", "es", "fs", "gs", "notrack", "bnd", "lock", "data16",
	"addr32", "rep", "repz", "repnz", "repe", "repne", "xacquire", "xrelease", NULL,
};

/* Normalise a register (without %) to its 64-bit name; "" if not a GPR. */
static void reg64(const char *r, char *out, size_t n)
{
	static const char *const map[][5] = {
		{ "rax", "eax", "ax", "al", NULL }, { "rbx", "ebx", "bx", "bl", NULL },
		{ "rcx", "ecx", "cx", "cl", NULL }, { "rdx", "edx", "dx", "dl", NULL },
		{ "rsi", "esi", "si", "sil", NULL }, { "rdi", "edi", "di", "dil", NULL },
		{ "rbp", "ebp", "bp", "bpl", NULL }, { "rsp", "esp", "sp", "spl", NULL },
	};
	char buf[16];
	size_t l;

	out[0] = '\0';
	snprintf(buf, sizeof(buf), "%s", r);
	l = strcspn(buf, ",) \t");
	buf[l] = '\0';
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		for (int j = 0; map[i][j]; j++)
			if (!strcmp(buf, map[i][j])) {
				snprintf(out, n, "%s", map[i][0]);
				return;
			}
	if (buf[0] == 'r' && isdigit((unsigned char)buf[1])) {
		l = strspn(buf + 1, "0123456789");
		if (l > 2)
			return;
		buf[1 + l] = '\0';	/* r8d, r8w, r8b -> r8 */
		memcpy(out, buf, l + 2 <= n ? l + 2 : 0);
	}
}

/* Memory operand with a scaled index: "(,%rax,8)" or "(%rdx,%rax,4)". */
static bool scaled_index(const char *ops, long *disp, bool *absolute)
{
	const char *lp = strchr(ops, '(');
	const char *rp = lp ? strchr(lp, ')') : NULL;

	if (!lp || !rp)
		return false;
	if (rp - lp < 4 || !(rp[-1] == '8' || rp[-1] == '4') || rp[-2] != ',')
		return false;
	if (strchr(lp, ',') == rp - 2)	/* "(%rax,8)" is not a thing */
		return false;
	*absolute = lp[1] == ',' && rp[-1] == '8';
	*disp = 0;
	if (lp > ops) {
		const char *s = ops;

		bool neg;

		if (*s == '*')
			s++;
		neg = *s == '-';
		if (neg)
			s++;
		/* objdump prints 0xffffffff82000000 or -0x7e000000: same address */
		*disp = (long)strtoull(s, NULL, 0);
		if (neg)
			*disp = -*disp;
	}
	return true;
}

struct recent {
	char dst[8];		/* register loaded from a scaled-index operand */
	long disp;
	bool absolute;
	long age;
};

/* Is addr inside a symbol of function f (f or any f.<suffix> clone)? */
static bool addr_in_func(const struct image *im, uint64_t addr, const char *f)
{
	for (size_t i = 0; i < im->nsyms; i++)
		if (addr >= im->syms[i].addr && addr < im->syms[i].addr + im->syms[i].size &&
		    name_matches(im->syms[i].name, f))
			return true;
	return false;
}

/*
 * Is a jump through a table at disp (absolute, 8-byte entries) a jump
 * table, i.e. does its first entry point into function f (any clone)?
 * A function-pointer table points elsewhere.  -1: cannot tell.
 */
static int table_into(const struct image *im, long disp, const char *f)
{
	uint64_t v;

	if (!read_u64(im, (uint64_t)disp, &v))
		return -1;
	return addr_in_func(im, v, f);
}

static void add_finding(struct result *r, int kind, uint64_t addr, const char *where,
			const char *text, const char *note)
{
	struct finding f = { kind, addr, xstrdup(where), xstrdup(text),
			     note ? xstrdup(note) : NULL, false };

	PUSH(r->f, r->nf, r->cf, f);
	r->count[kind]++;
}

static void disassemble_sym(const struct image *im, const struct sym *s, const char *fname,
			    struct result *r)
{
	pid_t pid;
	FILE *errf = tmpfile();
	FILE *f;

	if (!errf)
		die("tmpfile: %s", strerror(errno));
	f = run_objdump(im->path, s->addr, s->addr + s->size, &pid, errf);
	char *line = NULL;
	size_t cap = 0;
	long insns = 0, age = 0;
	struct recent rec[4] = { 0 };
	char hist[8][160], hdst[8][8];	/* recent non-branch insns, their dest reg */
	unsigned int hpos = 0;
	bool clobber = false;
	int status;

	while (getline(&line, &cap, f) != -1) {
		char *p = line, *colon, *ins, *mn, *ops;
		uint64_t addr;
		char where[256], text[512];
		bool notrack = false;

		line[strcspn(line, "\n")] = '\0';
		while (*p == ' ')
			p++;
		addr = strtoull(p, &colon, 16);
		if (colon == p || *colon != ':' || colon[1] != '\t')
			continue;
		ins = colon + 2;
		if (addr < s->addr || addr >= s->addr + s->size)
			continue;
		insns++;
		age++;
		snprintf(where, sizeof(where), "%s+0x%" PRIx64, s->name, addr - s->addr);
		snprintf(text, sizeof(text), "%s", ins);
		/* drop objdump's trailing comment for display */
		{
			char *hash = strstr(text, " #");

			if (hash)
				*hash = '\0';
			for (size_t l = strlen(text); l && isspace((unsigned char)text[l - 1]);)
				text[--l] = '\0';
		}

		/* mnemonic, after prefixes */
		mn = ins;
		for (;;) {
			size_t l;
			bool pre = false;

			while (*mn == ' ')
				mn++;
			l = strcspn(mn, " \t");
			for (int i = 0; prefixes[i]; i++)
				if (l == strlen(prefixes[i]) && !strncmp(mn, prefixes[i], l))
					pre = true;
			if (!strncmp(mn, "rex", 3) && (l == 3 || mn[3] == '.'))
				pre = true;
			if (!pre || !mn[l])
				break;
			if (!strncmp(mn, "notrack", 7))
				notrack = true;
			mn += l;
		}
		ops = mn + strcspn(mn, " \t");
		char mnem[32];
		size_t ml = (size_t)(ops - mn) < sizeof(mnem) - 1 ? (size_t)(ops - mn) : sizeof(mnem) - 1;

		memcpy(mnem, mn, ml);
		mnem[ml] = '\0';
		while (*ops == ' ' || *ops == '\t')
			ops++;

		bool is_call = !strcmp(mnem, "call") || !strcmp(mnem, "callq") || !strcmp(mnem, "lcall");
		bool is_jmp = !strcmp(mnem, "jmp") || !strcmp(mnem, "jmpq") || !strcmp(mnem, "ljmp");
		bool is_jcc = !is_jmp && mnem[0] == 'j' && strcmp(mnem, "jmp");

		if (clobber)	/* the previous call clobbered the registers */
			for (int i = 0; i < 8; i++)
				hdst[i][0] = '\0';
		clobber = is_call;

		if (!is_call && !is_jmp && !is_jcc) {
			/* remember loads from scaled-index tables, for the jump-table check */
			long disp;
			bool abs_;
			char *comma = strrchr(ops, ',');

			snprintf(hist[hpos % 8], sizeof(hist[0]), "%s", text);
			hdst[hpos % 8][0] = '\0';
			if (!strncmp(mnem, "cmp", 3) || !strncmp(mnem, "test", 4) || !strncmp(mnem, "push", 4) ||
			    !strcmp(mnem, "bt") || !strncmp(mnem, "nop", 3))
				;	/* no register result */
			else if (comma && comma[1] == '%')
				reg64(comma + 2, hdst[hpos % 8], sizeof(hdst[0]));
			else if (!comma && ops[0] == '%')
				reg64(ops + 1, hdst[hpos % 8], sizeof(hdst[0]));
			hpos++;

			if (comma && comma[1] == '%' && scaled_index(ops, &disp, &abs_) &&
			    strchr(ops, '(') < comma) {
				struct recent *slot = &rec[0];

				for (int i = 1; i < 4; i++)
					if (rec[i].age < slot->age)
						slot = &rec[i];
				reg64(comma + 2, slot->dst, sizeof(slot->dst));
				slot->disp = disp;
				slot->absolute = abs_;
				slot->age = age;
			}
			continue;
		}

		if (*ops == '*') {
			/* plain indirect call/jump */
			long disp;
			bool abs_;
			char reg[8] = "";

			if (is_call) {
				add_finding(r, K_INDIRECT, addr, where, text, NULL);
				continue;
			}
			if (notrack) {
				add_finding(r, K_JUMPTABLE, addr, where, text, "notrack jmp");
				continue;
			}
			if (scaled_index(ops, &disp, &abs_)) {
				int t = abs_ ? table_into(im, disp, fname) : -1;

				if (t == 0)
					add_finding(r, K_INDIRECT, addr, where, text, "through a function-pointer table");
				else
					add_finding(r, K_JUMPTABLE, addr, where, text, NULL);
				continue;
			}
			if (ops[1] == '%')
				reg64(ops + 2, reg, sizeof(reg));
			bool jt = false;
			const char *note = NULL;

			for (int i = 0; reg[0] && i < 4; i++) {
				if (!rec[i].dst[0] || strcmp(rec[i].dst, reg) || age - rec[i].age > 4)
					continue;
				int t = rec[i].absolute ? table_into(im, rec[i].disp, fname) : -1;

				if (t != 0) {
					jt = true;
					note = "target loaded from a table";
				}
			}
			add_finding(r, jt ? K_JUMPTABLE : K_INDIRECT, addr, where, text, note);
			continue;
		}

		/* direct: "ffffffff81800100 <sym>" */
		char *end;
		uint64_t target = strtoull(ops, &end, 16);

		if (end == ops)
			continue;
		const struct spec *sp = find_spec(im, target);
		struct spec guess;
		char *lt = strchr(end, '<');

		/* not a known thunk address, but objdump names a thunk (+offset) */
		if (!sp && lt) {
			char nm[128];
			size_t nl = strcspn(lt + 1, "+>");

			snprintf(nm, sizeof(nm), "%.*s", (int)(nl < 127 ? nl : 127), lt + 1);
			if (!strncmp(nm, "__x86_indirect_", 15) || !strcmp(nm, "__indirect_thunk_start")) {
				guess = (struct spec){ target, S_THUNK, NULL };
				sp = &guess;
			} else if (strstr(nm, "return_thunk")) {
				guess = (struct spec){ target, S_RETTHUNK, NULL };
				sp = &guess;
			}
		}

		if (sp && sp->type == S_RETTHUNK) {
			if (!is_call)
				r->rethunk++;
			continue;
		}
		if (sp && sp->type == S_THUNK) {
			char note[256];
			const char *reg = sp->name ? strrchr(sp->name, '_') + 1 : "?";
			bool jt = false;

			note[0] = '\0';
			for (unsigned int i = 1; i <= 8 && i <= hpos; i++)
				if (!strcmp(hdst[(hpos - i) % 8], reg)) {
					snprintf(note, sizeof(note), "%%%s from: %s", reg, hist[(hpos - i) % 8]);
					break;
				}
			for (int i = 0; !is_call && i < 4; i++) {
				if (!rec[i].dst[0] || strcmp(rec[i].dst, reg) || age - rec[i].age > 4)
					continue;
				int t = rec[i].absolute ? table_into(im, rec[i].disp, fname) : -1;

				if (t != 0) {
					jt = true;
					snprintf(note, sizeof(note), "target loaded from a table");
				}
			}
			/* show the register-named thunk even if objdump chose an alias */
			char *tl = strchr(text, '<');

			if (tl && sp->name)
				snprintf(tl, sizeof(text) - (size_t)(tl - text), "<%s>", sp->name);
			add_finding(r, jt ? K_JUMPTABLE : K_THUNK, addr, where, text, note[0] ? note : NULL);
			continue;
		}
		if (target >= s->addr && target < s->addr + s->size)
			continue;	/* local branch */
		struct dcall c = { target, xstrdup(where), xstrdup(text) };

		PUSH(r->calls, r->ncalls, r->ccalls, c);
	}
	free(line);
	fclose(f);
	if (waitpid(pid, &status, 0) < 0)
		die("waitpid: %s", strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		const char *od = getenv("OBJDUMP");

		die("cannot run %s (install binutils or set OBJDUMP)", od && *od ? od : objdump_default);
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		char msg[256] = "";

		rewind(errf);
		if (!fgets(msg, sizeof(msg), errf))
			msg[0] = '\0';
		msg[strcspn(msg, "\n")] = '\0';
		die("objdump failed on %s (%s at 0x%" PRIx64 ")%s%s", im->path, s->name, s->addr,
		    msg[0] ? ": " : "", msg);
	}
	fclose(errf);
	if (!insns)
		die("%s: objdump printed no instructions for %s at 0x%" PRIx64 " (size %" PRIu64 ")",
		    im->path, s->name, s->addr, s->size);
	r->insns += insns;
}

static void audit_func(const struct image *im, const char *name, struct result *r)
{
	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < im->nsyms; i++) {
		const struct sym *s = &im->syms[i];
		bool dup = false;

		if (!name_matches(s->name, name))
			continue;
		/* the same code under two names (aliases) is audited once */
		for (size_t j = 0; j < i; j++)
			if (im->syms[j].addr == s->addr && name_matches(im->syms[j].name, name))
				dup = true;
		if (dup)
			continue;
		r->present = true;
		PUSH(r->symnames, r->nsymnames, r->csymnames, s->name);
		if (!s->size)
			die("%s: symbol %s has no size", im->path, s->name);
		disassemble_sym(im, s, name, r);
	}
}

/* ------------------------------------------------------------------ */
/* Modes */

static void print_syms(const struct result *r)
{
	for (size_t i = 0; i < r->nsymnames; i++)
		printf("%s%s", i ? ", " : "", r->symnames[i]);
}

static int do_audit(const char *vmlinux, const char *listpath, const char *kernel)
{
	struct list l;
	struct image im;
	long unexpected = 0, bad_funcs = 0, absent = 0;

	load_list(&l, listpath, kernel, false);
	open_image(&im, vmlinux);
	/* Non-optional functions that do not exist: fail before printing anything. */
	for (size_t i = 0; i < l.nfuncs; i++)
		if (!l.funcs[i].optional && !symbol_exists(&im, l.funcs[i].name))
			die("%s: function %s (%s:%d) not found (inlined? mark it 'optional' if that is expected)",
			    vmlinux, l.funcs[i].name, listpath, l.funcs[i].line);

	printf("audit: %s, list %s%s%s%s\n", vmlinux, listpath, kernel ? " [" : "",
	       kernel ? kernel : "", kernel ? "]" : "");
	for (size_t i = 0; i < l.nfuncs; i++) {
		struct func *fn = &l.funcs[i];
		struct result r;
		long fn_bad = 0;

		audit_func(&im, fn->name, &r);
		if (!r.present) {
			absent++;
			printf("%-24s absent (optional%s%s)\n", fn->name, fn->why_optional ? ": " : "",
			       fn->why_optional ? fn->why_optional : "");
			for (size_t j = 0; j < fn->ninl; j++)
				printf("  %-10s %-9s %s: not checked, %s is absent (%s:%d)\n", "skipped", "inline",
				       fn->inl[j].callee, fn->name, listpath, fn->inl[j].line);
			for (size_t j = 0; j < fn->nreq; j++)
				printf("  %-10s %-9s %s: not checked, %s is absent (%s:%d)\n", "skipped", "require",
				       fn->req[j].callee, fn->name, listpath, fn->req[j].line);
			continue;
		}
		printf("%-24s thunk %ld, indirect %ld, jumptable %ld, rethunk %ld  [", fn->name,
		       r.count[K_THUNK], r.count[K_INDIRECT], r.count[K_JUMPTABLE], r.rethunk);
		print_syms(&r);
		printf("]\n");

		for (int k = 0; k < K_NKINDS; k++) {
			const struct allow *a = NULL;

			for (size_t j = 0; j < fn->nallows; j++)
				if (fn->allows[j].kind == k)
					a = &fn->allows[j];
			bool ok = a && (a->max < 0 || r.count[k] <= a->max);

			for (size_t j = 0; j < r.nf; j++) {
				struct finding *fd = &r.f[j];

				if (fd->kind != k)
					continue;
				printf("  %-10s %-9s %s: %s%s%s%s\n", ok ? "allowed" : "UNEXPECTED", kind_name[k],
				       fd->where, fd->text, fd->note ? "  (" : "", fd->note ? fd->note : "",
				       fd->note ? ")" : "");
				if (!ok) {
					unexpected++;
					fn_bad++;
				}
			}
			if (a && r.count[k]) {
				if (ok)
					printf("  %-10s %-9s %ld%s%.0ld: \"%s\" (%s:%d)\n", "", "", r.count[k],
					       a->max < 0 ? " (any number allowed)" : " of at most ",
					       a->max < 0 ? 0 : a->max, a->reason, listpath, a->line);
				else
					printf("  %-10s %-9s %ld found, at most %ld allowed (%s:%d)\n", "", "",
					       r.count[k], a->max, listpath, a->line);
			}
		}
		for (size_t j = 0; j < fn->ninl; j++) {
			const struct callee_rule *c = &fn->inl[j];

			for (size_t m = 0; m < r.ncalls; m++)
				if (addr_is_func(&im, r.calls[m].target, c->callee)) {
					printf("  %-10s %-9s %s: %s  (%s must be inlined; %s:%d)\n", "UNEXPECTED",
					       "call", r.calls[m].where, r.calls[m].text, c->callee, listpath,
					       c->line);
					unexpected++;
					fn_bad++;
				}
		}
		for (size_t j = 0; j < fn->nreq; j++) {
			const struct callee_rule *c = &fn->req[j];
			long hits = 0;

			for (size_t m = 0; m < r.ncalls; m++)
				if (addr_is_func(&im, r.calls[m].target, c->callee))
					hits++;
			if (hits) {
				printf("  %-10s %-9s %s: %ld direct call%s\n", "required", "call", c->callee, hits,
				       hits == 1 ? "" : "s");
			} else if (c->if_builtin && !symbol_exists(&im, c->callee)) {
				printf("  %-10s %-9s %s: not in this binary (a module, or not configured) (%s:%d)\n",
				       "skipped", "call", c->callee, listpath, c->line);
			} else {
				printf("  %-10s %-9s %s: no direct call%s (%s:%d)\n", "MISSING", "call", c->callee,
				       symbol_exists(&im, c->callee) ? "" : ", no such symbol in the binary",
				       listpath, c->line);
				unexpected++;
				fn_bad++;
			}
		}
		if (fn_bad)
			bad_funcs++;
	}
	if (unexpected) {
		printf("audit: FAIL: %ld unexpected finding%s in %ld function%s\n", unexpected,
		       unexpected == 1 ? "" : "s", bad_funcs, bad_funcs == 1 ? "" : "s");
		return EXIT_FINDINGS;
	}
	printf("audit: ok: %zu function%s, %zu audited, %ld absent (optional), no unexpected findings\n",
	       l.nfuncs, l.nfuncs == 1 ? "" : "s", l.nfuncs - (size_t)absent, absent);
	return 0;
}

static void fmt_count(char *buf, size_t n, const struct result *r, int k)
{
	if (r->present)
		snprintf(buf, n, "%ld", r->count[k]);
	else
		snprintf(buf, n, "-");
}

/*
 * Direct calls out of one function to the callees its 'require' lines
 * (inl false) or its 'inline' lines (inl true) name.
 */
static void fmt_direct(char *buf, int sz, struct image *im, const struct result *r,
		       const struct func *fn, bool inl, long *total)
{
	const struct callee_rule *cr = inl ? fn->inl : fn->req;
	size_t ncr = inl ? fn->ninl : fn->nreq;
	long n = 0;

	if (!r->present) {
		snprintf(buf, sz, "-");
		return;
	}
	for (size_t m = 0; m < r->ncalls; m++)
		for (size_t j = 0; j < ncr; j++)
			if (addr_is_func(im, r->calls[m].target, cr[j].callee)) {
				n++;
				break;
			}
	*total += n;
	snprintf(buf, sz, "%d", (int)(n > 99999 ? 99999 : n));
}

static int do_compare(const char *base, const char *patched, const char *listpath, bool markdown)
{
	struct list l;
	struct image bi, pi;
	long tot[2][K_NKINDS] = { { 0 } };
	long rt[2] = { 0 }, dt[2] = { 0 }, it[2] = { 0 };

	load_list(&l, listpath, NULL, true);
	open_image(&bi, base);
	open_image(&pi, patched);
	for (size_t i = 0; i < l.nfuncs; i++)
		if (!l.funcs[i].optional && !symbol_exists(&bi, l.funcs[i].name) &&
		    !symbol_exists(&pi, l.funcs[i].name))
			die("function %s (%s:%d) is in neither %s nor %s (mark it 'optional'?)",
			    l.funcs[i].name, listpath, l.funcs[i].line, base, patched);

	if (markdown) {
		printf("| function | thunk calls (base) | thunk calls (patched) | indirect (base) | indirect (patched) | jump tables (base) | jump tables (patched) | direct calls to ops (base) | (patched) | calls to must-inline (base) | (patched) |\n");
		printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	} else {
		printf("base:    %s\npatched: %s\n\n", base, patched);
		printf("%-24s %13s %13s %13s %13s %13s\n", "", "thunk", "indirect", "jumptable", "direct-ops",
		       "must-inline");
		printf("%-24s %6s %6s %6s %6s %6s %6s %6s %6s %6s %6s\n", "function", "base", "patch", "base",
		       "patch", "base", "patch", "base", "patch", "base", "patch");
	}
	for (size_t i = 0; i < l.nfuncs; i++) {
		struct result rb, rp;
		char c[10][16];

		audit_func(&bi, l.funcs[i].name, &rb);
		audit_func(&pi, l.funcs[i].name, &rp);
		for (int k = 0; k < K_NKINDS; k++) {
			fmt_count(c[2 * k], sizeof(c[0]), &rb, k);
			fmt_count(c[2 * k + 1], sizeof(c[0]), &rp, k);
			tot[0][k] += rb.count[k];
			tot[1][k] += rp.count[k];
		}
		fmt_direct(c[6], sizeof(c[0]), &bi, &rb, &l.funcs[i], false, &dt[0]);
		fmt_direct(c[7], sizeof(c[0]), &pi, &rp, &l.funcs[i], false, &dt[1]);
		fmt_direct(c[8], sizeof(c[0]), &bi, &rb, &l.funcs[i], true, &it[0]);
		fmt_direct(c[9], sizeof(c[0]), &pi, &rp, &l.funcs[i], true, &it[1]);
		rt[0] += rb.rethunk;
		rt[1] += rp.rethunk;
		if (markdown)
			printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", l.funcs[i].name, c[0],
			       c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9]);
		else
			printf("%-24s %6s %6s %6s %6s %6s %6s %6s %6s %6s %6s\n", l.funcs[i].name, c[0], c[1], c[2],
			       c[3], c[4], c[5], c[6], c[7], c[8], c[9]);
	}
	if (markdown)
		printf("| **total** | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %ld |\n", tot[0][0],
		       tot[1][0], tot[0][1], tot[1][1], tot[0][2], tot[1][2], dt[0], dt[1], it[0], it[1]);
	else {
		printf("%-24s %6ld %6ld %6ld %6ld %6ld %6ld %6ld %6ld %6ld %6ld\n", "total", tot[0][0], tot[1][0],
		       tot[0][1], tot[1][1], tot[0][2], tot[1][2], dt[0], dt[1], it[0], it[1]);
		printf("\n(direct-ops: direct calls to the callees the list's 'require' lines name for the\n"
		       " function; must-inline: calls to the callees its 'inline' lines name)\n");
		printf("\n(- = not in that kernel, e.g. inlined; rethunk jmps, not counted above: base %ld, patched %ld)\n",
		       rt[0], rt[1]);
	}
	return 0;
}

static void usage(FILE *o)
{
	fputs("usage: audit -l LIST [-k KERNEL] VMLINUX\n"
	      "       audit -l LIST --compare BASE_VMLINUX [--markdown] VMLINUX\n"
	      "\n"
	      "  -l, --list FILE     fast-path list (see audit/README)\n"
	      "  -k, --kernel NAME   use the [NAME] section of the list (plus [all])\n"
	      "  --compare BASE      print thunk/indirect/jump-table counts per function,\n"
	      "                      BASE vs VMLINUX (no whitelist check)\n"
	      "  --markdown          --compare table as Markdown\n"
	      "  env OBJDUMP         objdump to use (default: objdump)\n"
	      "exit: 0 clean, 1 unexpected findings, 2 error\n",
	      o);
}

int main(int argc, char **argv)
{
	const char *list = NULL, *kernel = NULL, *base = NULL, *vmlinux = NULL;
	bool markdown = false;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

#define ARG(s, l)                                                                       \
	((!strcmp(a, s) || !strcmp(a, l)) && (i + 1 < argc ? 1 : (die("%s needs an argument", a), 0)))
		if (ARG("-l", "--list"))
			list = argv[++i];
		else if (ARG("-k", "--kernel"))
			kernel = argv[++i];
		else if (ARG("-c", "--compare"))
			base = argv[++i];
		else if (!strcmp(a, "--markdown"))
			markdown = true;
		else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (a[0] == '-' && a[1])
			die("unknown option %s (try --help)", a);
		else if (vmlinux)
			die("more than one VMLINUX given (%s, %s)", vmlinux, a);
		else
			vmlinux = a;
#undef ARG
	}
	if (!vmlinux)
		die("no VMLINUX given (try --help)");
	if (!list)
		die("no list file given (-l LIST)");
	if (base && kernel)
		die("--compare uses every section of the list; drop --kernel");
	if (markdown && !base)
		die("--markdown only applies to --compare");
	if (base)
		return do_compare(base, vmlinux, list, markdown);
	return do_audit(vmlinux, list, kernel);
}
