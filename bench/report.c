// SPDX-License-Identifier: GPL-2.0
/*
 * report: turn a thunkless bench raw.csv into a results table.
 *
 *   report [--cv-bound PCT] [--out DIR] [--no-plot] [--strict]
 *          [--base NAME] [--patched NAME] [--limit NAME] RAW.csv
 *
 * Input (written by bench/bench.sh, described in bench/README-format):
 *
 *   # comment lines; four are meaningful:
 *   #   "# complete"              the run finished
 *   #   "# incomplete reason=..." the run stopped early
 *   #   "# failed ..."            one boot failed (listed in the report)
 *   #   "# retried ..."           one boot failed and was booted again, its
 *   #                             records dropped (listed under the table)
 *   ts,round,kernel,gate,scenario,variant,n,pkts,usec,pps,errors
 *   1764452400,1,base,none,tc-matchall,-,100,577000,1502604,384000,0
 *   ...
 *
 * The header line is mandatory and must be exactly as above.  Fields:
 * ts, round (> 0), n (> 0), pkts (> 0), usec (> 0), pps (> 0) and errors
 * are decimal integers; kernel, gate, scenario and variant are names of
 * [A-Za-z0-9_.+-], at most 63 characters; pps must agree with
 * pkts * 1e6 / usec within 1%.  Blank lines are ignored; anything else that
 * does not parse is an error: "report: FILE:LINE: bad FIELD field", exit 1.
 * No records at all is an error too.  A file without "# complete" (or with
 * "# incomplete") is reported as INCOMPLETE.
 *
 * Per (scenario, variant, n, kernel, gate) group: median, harmonic mean,
 * mean, sample standard deviation and coefficient of variation (CV =
 * stdev / mean) of pps.  Rows are (scenario, variant, n) in order of first
 * appearance; columns use the median:
 *
 *   base     kernel --base (default "base")
 *   patched  kernel --patched (default "patched"), gate on, else auto, else
 *            none, else any gate but off
 *   diff%    (patched - base) / base
 *   limit    kernel --limit (default "limit")
 *   tax%     tax recovered: (patched - base) / (limit - base); '-' unless
 *            limit - base > 2 * sqrt(sd_base^2 + sd_limit^2), sd = sample
 *            standard deviation of the group (0 for one sample): the gap
 *            must exceed twice the standard deviation of the difference of
 *            a base and a limit sample, else it is noise and the ratio means
 *            nothing
 *   off      patched kernel with gate=off, and its diff% against base
 *   CV%      of the base/patched/limit/off groups
 * Missing groups print '-'.  A row with any CV above --cv-bound (default
 * 3%) is flagged '!' rather than hidden.  The last row is the harmonic mean
 * of each column over the rows that have base, patched and limit (the
 * kernels present in the data); its tax% follows the same rule, with each
 * column's sd propagated from the rows' sds (first order: the harmonic
 * mean H of medians m_i over n rows moves by H^2 / (n m_i^2) per unit of
 * m_i).
 *
 * Other kernels: when the data has kernels besides base, patched and limit
 * (make bench-upstream: "upstream" and "upstream-limit"), a second table
 * follows, one line per row: each other kernel's median pps (best gate, as
 * for patched) and CV%, in order of first appearance; then, for each pair
 * NAME and NAME-limit among them, NAME's median as a percentage of
 * NAME-limit's ("% of own limit"), and patched's median as a percentage of
 * limit's for comparison.  A kernel named base-X or patched-X (make
 * bench-srso: base and patched built another way) without a NAME-limit
 * has limit as its own limit, and each pair base-X, patched-X gets a column
 * "X tax%": (patched-X - base-X) / (limit - base-X), '-' within noise by
 * tax%'s rule.  Its rows are flagged '!' like the main table's (--strict
 * looks at the main table only).
 *
 * Round by round: a last table reads each row again from ratios taken
 * within one round, where every kernel ran in the same stretch of the
 * host's time, and gives their median over the rounds: patched / limit
 * ("%lim"), (patched - base) / (limit - base) ("tax%") and off / base - 1
 * ("off%"), for the main kernels and for each pair base-X, patched-X
 * against its own limit.  A host whose speed drifts or dips during a run
 * moves every kernel of a round alike, so it cancels out of these, not out
 * of the medians of each kernel above.  A kernel with two records in a
 * round (concatenated runs) counts with their mean; a round without one of
 * the three kernels is left out, and "rounds" gives the fewest rounds any
 * column of the row used.  tax% is '-' unless the median of the rounds'
 * limit / base - 1 exceeds twice its sample standard deviation over the
 * rounds: tax%'s rule for one round's gap.
 *
 * Outputs, in --out (default: the directory of RAW.csv): report.txt (the
 * tables, also on stdout), summary.csv (one line per row of the main table,
 * empty field for missing, the main kernels' round-by-round reading last),
 * summary.json (rows, other_kernels, each row's and each pair's reading
 * under "by_round", groups with all statistics, run status), chart.dat and chart.gp (gnuplot: median pps
 * per row for the three kernels, log scale) and, when gnuplot is installed
 * and --no-plot is not given, chart.png (gnuplot's messages go to chart.log).
 *
 * Exit status: 0 ok; 1 bad input or output error; 2 usage; 3 with --strict
 * when the run is incomplete or a row is flagged.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define HEADER "ts,round,kernel,gate,scenario,variant,n,pkts,usec,pps,errors"
#define NFIELDS 11
#define NAMELEN 64
#define MAXLINE 4096

enum { F_TS, F_ROUND, F_KERNEL, F_GATE, F_SCEN, F_VARIANT, F_N, F_PKTS,
       F_USEC, F_PPS, F_ERRORS };
static const char *const field_names[NFIELDS] = {
	"ts", "round", "kernel", "gate", "scenario", "variant", "n", "pkts",
	"usec", "pps", "errors",
};

/* one record's round and pps, in the order read */
struct sample {
	unsigned long long round;
	double pps;
};

struct group {
	char scen[NAMELEN], variant[NAMELEN], kernel[NAMELEN], gate[NAMELEN];
	unsigned long long n;
	struct sample *s;	/* the records' rounds and pps, as read */
	double *v;		/* their pps, sorted: made by group_stats() */
	size_t nv, cap;
	unsigned long long errors;
	/* statistics */
	double median, hmean, mean, stdev, cv, min, max;
};

struct row {
	char scen[NAMELEN], variant[NAMELEN];
	unsigned long long n;
	struct group *g[4];	/* base, patched, limit, off */
};

enum { C_BASE, C_PATCHED, C_LIMIT, C_OFF, NCOLS };

static const char *prog = "report";
static struct group *groups;
static size_t ngroups, capgroups;
static struct row *rows;
static size_t nrows, caprows;
static char **failures;
static size_t nfailures;
static char **retries;
static size_t nretries;
static char **stales;
static size_t nstales;
static size_t nrecords;
static int complete, incomplete;
static char incomplete_reason[256];
static double cv_bound = 3.0;
static const char *role[3] = { "base", "patched", "limit" };
/*
 * kernels other than the three roles; the index of each one's NAME-limit,
 * for base-X and patched-X without one the index of limit-X where the run
 * has it (or of limit-Y, for the longest Y with X = Y-Z), else LIMIT_ROLE;
 * else -1; for base-X, the index of patched-X,
 * else -1, and whether patched-X has gate-off records in any row
 */
static const char **others;
static int *other_limit, *other_pair, *other_off;
static size_t nothers;
#define LIMIT_ROLE (-2)

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
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

static int valid_name(const char *s)
{
	size_t i, len = strlen(s);

	if (len == 0 || len >= NAMELEN)
		return 0;
	for (i = 0; i < len; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '.' ||
		      c == '+' || c == '-'))
			return 0;
	}
	return 1;
}

/* Strict decimal: digits only, no sign, no spaces, fits in u64. */
static int parse_u64(const char *s, unsigned long long *out)
{
	unsigned long long v = 0;

	if (!*s)
		return 0;
	for (; *s; s++) {
		unsigned d;

		if (*s < '0' || *s > '9')
			return 0;
		d = (unsigned)(*s - '0');
		if (v > (ULLONG_MAX - d) / 10)
			return 0;
		v = v * 10 + d;
	}
	*out = v;
	return 1;
}

static struct group *find_group(const char *scen, const char *variant,
				unsigned long long n, const char *kernel,
				const char *gate, int create)
{
	size_t i;
	struct group *g;

	for (i = 0; i < ngroups; i++) {
		g = &groups[i];
		if (g->n == n && !strcmp(g->scen, scen) &&
		    !strcmp(g->variant, variant) && !strcmp(g->kernel, kernel) &&
		    !strcmp(g->gate, gate))
			return g;
	}
	if (!create)
		return NULL;
	if (ngroups == capgroups) {
		capgroups = capgroups ? 2 * capgroups : 64;
		groups = xrealloc(groups, capgroups * sizeof(*groups));
	}
	g = &groups[ngroups++];
	memset(g, 0, sizeof(*g));
	strcpy(g->scen, scen);
	strcpy(g->variant, variant);
	strcpy(g->kernel, kernel);
	strcpy(g->gate, gate);
	g->n = n;
	return g;
}

static void add_row(const char *scen, const char *variant, unsigned long long n)
{
	size_t i;

	for (i = 0; i < nrows; i++)
		if (rows[i].n == n && !strcmp(rows[i].scen, scen) &&
		    !strcmp(rows[i].variant, variant))
			return;
	if (nrows == caprows) {
		caprows = caprows ? 2 * caprows : 32;
		rows = xrealloc(rows, caprows * sizeof(*rows));
	}
	memset(&rows[nrows], 0, sizeof(rows[nrows]));
	strcpy(rows[nrows].scen, scen);
	strcpy(rows[nrows].variant, variant);
	rows[nrows].n = n;
	nrows++;
}

static void comment(const char *line)
{
	const char *p = line + 1;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!strcmp(p, "complete") || !strncmp(p, "complete ", 9)) {
		complete = 1;
	} else if (!strncmp(p, "incomplete", 10)) {
		incomplete = 1;
		p += 10;
		while (*p == ' ')
			p++;
		if (!strncmp(p, "reason=", 7))
			p += 7;
		snprintf(incomplete_reason, sizeof(incomplete_reason), "%s",
			 *p ? p : "unknown");
	} else if (!strncmp(p, "failed", 6)) {
		failures = xrealloc(failures, (nfailures + 1) * sizeof(*failures));
		failures[nfailures++] = xstrdup(p);
	} else if (!strncmp(p, "retried ", 8)) {
		retries = xrealloc(retries, (nretries + 1) * sizeof(*retries));
		retries[nretries++] = xstrdup(p + 8);
	} else if (!strncmp(p, "stale ", 6)) {
		stales = xrealloc(stales, (nstales + 1) * sizeof(*stales));
		stales[nstales++] = xstrdup(p + 6);
	}
}

static void read_raw(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[MAXLINE + 2];
	unsigned long lineno = 0;
	int have_header = 0, any = 0;

	if (!f)
		die("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char *fld[NFIELDS], *p, *comma;
		unsigned long long u[NFIELDS];
		size_t len = strlen(line);
		int nf, i;
		double pps, expect;
		struct group *g;

		lineno++;
		any = 1;
		if (len == sizeof(line) - 1 && line[len - 1] != '\n')
			die("%s:%lu: line too long", path, lineno);
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (len == 0)
			continue;
		if (line[0] == '#') {
			comment(line);
			continue;
		}
		if (!have_header) {
			if (strcmp(line, HEADER))
				die("%s:%lu: bad header (expected \"%s\")", path,
				    lineno, HEADER);
			have_header = 1;
			continue;
		}
		if (!strcmp(line, HEADER))
			continue;	/* concatenated raw files */

		nf = 0;
		p = line;
		for (;;) {
			comma = strchr(p, ',');
			if (nf < NFIELDS)
				fld[nf] = p;
			nf++;
			if (!comma)
				break;
			*comma = '\0';
			p = comma + 1;
		}
		if (nf != NFIELDS)
			die("%s:%lu: wrong number of fields (%d, expected %d)",
			    path, lineno, nf, NFIELDS);
		for (i = 0; i < NFIELDS; i++) {
			int ok;

			switch (i) {
			case F_KERNEL: case F_GATE: case F_SCEN: case F_VARIANT:
				ok = valid_name(fld[i]);
				break;
			default:
				ok = parse_u64(fld[i], &u[i]);
				if (ok && i != F_TS && i != F_ERRORS)
					ok = u[i] > 0;
				if (ok && (i == F_N || i == F_ROUND))
					ok = u[i] <= 1000000000ULL;
				break;
			}
			if (!ok)
				die("%s:%lu: bad %s field", path, lineno,
				    field_names[i]);
		}
		pps = (double)u[F_PPS];
		expect = (double)u[F_PKTS] * 1e6 / (double)u[F_USEC];
		if (fabs(pps - expect) > 0.01 * expect + 1)
			die("%s:%lu: bad pps field (%llu pkts in %llu usec is %.0f pps)",
			    path, lineno, u[F_PKTS], u[F_USEC], expect);

		g = find_group(fld[F_SCEN], fld[F_VARIANT], u[F_N],
			       fld[F_KERNEL], fld[F_GATE], 1);
		if (g->nv == g->cap) {
			g->cap = g->cap ? 2 * g->cap : 8;
			g->s = xrealloc(g->s, g->cap * sizeof(*g->s));
		}
		g->s[g->nv].round = u[F_ROUND];
		g->s[g->nv++].pps = pps;
		g->errors += u[F_ERRORS];
		add_row(fld[F_SCEN], fld[F_VARIANT], u[F_N]);
		nrecords++;
	}
	if (ferror(f))
		die("%s: read error", path);
	fclose(f);
	if (!any)
		die("%s: empty input", path);
	if (!have_header)
		die("%s: no header line", path);
	if (nrecords == 0)
		die("%s: no records", path);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* sorts v; the median of its n values, NAN for none */
static double median_of(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* the sample standard deviation of v's n values about MEAN, 0 for one */
static double sd_of(const double *v, size_t n, double mean)
{
	double ss = 0;
	size_t i;

	for (i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	return n > 1 ? sqrt(ss / (n - 1)) : 0;
}

static void group_stats(struct group *g)
{
	size_t i, n = g->nv;
	double sum = 0, inv = 0;

	g->v = xrealloc(NULL, n * sizeof(*g->v));
	for (i = 0; i < n; i++)
		g->v[i] = g->s[i].pps;
	g->median = median_of(g->v, n);
	g->min = g->v[0];
	g->max = g->v[n - 1];
	for (i = 0; i < n; i++) {
		sum += g->v[i];
		inv += 1 / g->v[i];
	}
	g->mean = sum / n;
	g->hmean = n / inv;
	g->stdev = sd_of(g->v, n, g->mean);
	g->cv = n > 1 ? 100 * g->stdev / g->mean : NAN;
}

static int gate_rank(const char *gate)
{
	if (!strcmp(gate, "on"))
		return 0;
	if (!strcmp(gate, "auto"))
		return 1;
	if (!strcmp(gate, "none"))
		return 2;
	if (!strcmp(gate, "off"))
		return -1;
	return 3;
}

/* The group of KERNEL for the row: best non-off gate, or gate=off. */
static struct group *pick(const struct row *r, const char *kernel, int off)
{
	struct group *best = NULL;
	int best_rank = INT_MAX;
	size_t i;

	for (i = 0; i < ngroups; i++) {
		struct group *g = &groups[i];
		int rank;

		if (g->n != r->n || strcmp(g->scen, r->scen) ||
		    strcmp(g->variant, r->variant) || strcmp(g->kernel, kernel))
			continue;
		rank = gate_rank(g->gate);
		if (off) {
			if (rank == -1)
				return g;
			continue;
		}
		if (rank >= 0 && rank < best_rank) {
			best = g;
			best_rank = rank;
		}
	}
	return best;
}

static int flagged(const struct row *r)
{
	int c;

	for (c = 0; c < NCOLS; c++)
		if (r->g[c] && !isnan(r->g[c]->cv) && r->g[c]->cv > cv_bound)
			return 1;
	return 0;
}

/* Formatting helpers: '-' for missing values. */
static const char *fmt_num(char *buf, size_t sz, double v, int decimals,
			   int sign)
{
	if (isnan(v))
		snprintf(buf, sz, "-");
	else
		snprintf(buf, sz, sign ? "%+.*f" : "%.*f", decimals, v);
	return buf;
}

static const char *fmt_pps(char *buf, size_t sz, double v)
{
	return fmt_num(buf, sz, v, 0, 0);
}

static const char *fmt_pct(char *buf, size_t sz, double v)
{
	return fmt_num(buf, sz, v, 1, 1);
}

static const char *fmt_cv(char *buf, size_t sz, const struct group *g)
{
	if (!g || isnan(g->cv))
		snprintf(buf, sz, "-");
	else
		snprintf(buf, sz, "%.1f", g->cv);
	return buf;
}

static double med(const struct group *g)
{
	return g ? g->median : NAN;
}

static double diff_pct(double a, double base)
{
	if (isnan(a) || isnan(base) || base <= 0)
		return NAN;
	return 100 * (a - base) / base;
}

static double sd(const struct group *g)
{
	return g ? g->stdev : NAN;
}

/*
 * Tax recovered, or NAN unless the gap limit - base clearly exceeds the
 * noise: limit - base > 2 * sqrt(sd_base^2 + sd_limit^2).
 */
static double tax_pct(double base, double patched, double limit,
		      double sd_base, double sd_limit)
{
	if (isnan(base) || isnan(patched) || isnan(limit) || isnan(sd_base) ||
	    isnan(sd_limit) ||
	    !(limit - base > 2 * sqrt(sd_base * sd_base + sd_limit * sd_limit)))
		return NAN;
	return 100 * (patched - base) / (limit - base);
}

static double row_tax(const struct row *r)
{
	return tax_pct(med(r->g[C_BASE]), med(r->g[C_PATCHED]),
		       med(r->g[C_LIMIT]), sd(r->g[C_BASE]), sd(r->g[C_LIMIT]));
}

/* a as a percentage of b: patched of limit, NAME of NAME-limit */
static double pct_of(double a, double b)
{
	if (isnan(a) || isnan(b) || b <= 0)
		return NAN;
	return 100 * a / b;
}

static const char *fmt_pct_of(char *buf, size_t sz, double v)
{
	return fmt_num(buf, sz, v, 1, 0);
}

/* "X" if NAME is "ROLE-X", else NULL */
static const char *variant_of(const char *name, const char *r)
{
	size_t len = strlen(r);

	if (strncmp(name, r, len) || name[len] != '-' || !name[len + 1])
		return NULL;
	return name + len + 1;
}

/* The kernels that are not base, patched or limit, in order of appearance. */
static void find_others(void)
{
	size_t i, j;

	for (i = 0; i < ngroups; i++) {
		const char *k = groups[i].kernel;
		int known = 0;

		for (j = 0; j < 3; j++)
			known |= !strcmp(k, role[j]);
		for (j = 0; j < nothers; j++)
			known |= !strcmp(k, others[j]);
		if (known)
			continue;
		others = xrealloc(others, (nothers + 1) * sizeof(*others));
		others[nothers++] = k;
	}
	other_limit = xrealloc(other_limit, nothers * sizeof(*other_limit));
	for (i = 0; i < nothers; i++) {
		size_t len = strlen(others[i]);

		other_limit[i] = -1;
		for (j = 0; j < nothers; j++)
			if (strlen(others[j]) == len + 6 &&
			    !strncmp(others[j], others[i], len) &&
			    !strcmp(others[j] + len, "-limit"))
				other_limit[i] = (int)j;
	}
	/*
	 * base-X, patched-X: base and patched built another way (bench-srso,
	 * the modular kernels); their limit is limit-X if the run has one
	 */
	other_pair = xrealloc(other_pair, nothers * sizeof(*other_pair));
	for (i = 0; i < nothers; i++) {
		const char *x = variant_of(others[i], role[0]);
		const char *v = x ? x : variant_of(others[i], role[1]);
		size_t len;

		/*
		 * limit-X, else limit-Y for the longest Y with X = Y-Z
		 * (patched-mod-ool: limit-mod), else limit
		 */
		for (len = v ? strlen(v) : 0; other_limit[i] < 0 && len; ) {
			for (j = 0; j < nothers; j++) {
				const char *l = variant_of(others[j], role[2]);

				if (l && strlen(l) == len && !strncmp(l, v, len))
					other_limit[i] = (int)j;
			}
			while (len && v[--len] != '-')
				;
		}
		if (other_limit[i] < 0 && v)
			other_limit[i] = LIMIT_ROLE;
		other_pair[i] = -1;
		for (j = 0; x && j < nothers; j++) {
			const char *y = variant_of(others[j], role[1]);

			if (y && !strcmp(x, y))
				other_pair[i] = (int)j;
		}
	}
	other_off = xrealloc(other_off, nothers * sizeof(*other_off));
	for (i = 0; i < nothers; i++) {
		other_off[i] = 0;
		for (j = 0; other_pair[i] >= 0 && !other_off[i] && j < nrows; j++)
			other_off[i] = pick(&rows[j], others[other_pair[i]], 1) != NULL;
	}
}

/* the name of others[k]'s own limit kernel, or NULL */
static const char *own_limit(size_t k)
{
	if (other_limit[k] == LIMIT_ROLE)
		return role[2];
	return other_limit[k] >= 0 ? others[other_limit[k]] : NULL;
}

/*
 * The row's base, patched, limit and gate-off groups of the main kernels
 * (k < 0) or of the pair base-X (others[k]), patched-X, their limit.
 */
static void triple(const struct row *r, int k, const struct group **g)
{
	const char *lim;

	if (k < 0) {
		memcpy(g, r->g, NCOLS * sizeof(*g));
		return;
	}
	lim = own_limit(k);
	g[C_BASE] = pick(r, others[k], 0);
	g[C_PATCHED] = pick(r, others[other_pair[k]], 0);
	g[C_LIMIT] = lim ? pick(r, lim, 0) : NULL;
	g[C_OFF] = pick(r, others[other_pair[k]], 1);
}

/*
 * for base-X with patched-X: (patched-X - base-X) / (own limit - base-X),
 * the own limit being limit-X or limit
 */
static double pair_tax(const struct row *r, size_t k)
{
	const struct group *g[NCOLS];

	triple(r, (int)k, g);
	return tax_pct(med(g[C_BASE]), med(g[C_PATCHED]), med(g[C_LIMIT]),
		       sd(g[C_BASE]), sd(g[C_LIMIT]));
}

/*
 * for base-X with patched-X: patched-X with the gate off against base-X,
 * diff% (NAN where patched-X has no gate-off records for the row)
 */
static double pair_off(const struct row *r, size_t k)
{
	const struct group *g[NCOLS];

	triple(r, (int)k, g);
	return diff_pct(med(g[C_OFF]), med(g[C_BASE]));
}

static int other_flagged(const struct row *r)
{
	size_t k;

	for (k = 0; k < nothers; k++) {
		const struct group *g = pick(r, others[k], 0);

		if (g && !isnan(g->cv) && g->cv > cv_bound)
			return 1;
	}
	return 0;
}

/* G's pps in ROUND: the mean of its records of that round, NAN if none */
static double round_pps(const struct group *g, unsigned long long round)
{
	double sum = 0;
	size_t i, n = 0;

	for (i = 0; g && i < g->nv; i++)
		if (g->s[i].round == round) {
			sum += g->s[i].pps;
			n++;
		}
	return n ? sum / n : NAN;
}

/*
 * Round by round: ratios taken within one round, where every kernel ran in
 * the same stretch of the host's time, then their median over the rounds.
 * A host whose speed drifts or dips during the run moves every kernel of a
 * round alike, so it cancels out of these ratios, not out of ratios of
 * medians taken over the whole run.
 */
struct by_round {
	size_t rounds;	/* rounds that have base, patched and limit */
	double lim;	/* median of patched / limit, % */
	double tax;	/* median of (patched - base) / (limit - base), %, or NAN */
	double off;	/* median of off / base - 1, %, or NAN */
};

/*
 * tax is NAN unless the median of the rounds' gaps limit / base - 1
 * exceeds twice their sample standard deviation (0 for one round): the
 * rule of tax_pct() applied to one round's gap instead of one sample's.
 */
static void by_round(const struct group *b, const struct group *p,
		     const struct group *l, const struct group *o,
		     struct by_round *out)
{
	double *lim, *gap, *tax, *off, mean = 0, sdv;
	size_t i, j, n = 0, nt = 0, no = 0;

	out->rounds = 0;
	out->lim = out->tax = out->off = NAN;
	if (!b || !p || !l)
		return;
	lim = xrealloc(NULL, 4 * b->nv * sizeof(*lim));
	gap = lim + b->nv;
	tax = gap + b->nv;
	off = tax + b->nv;
	for (i = 0; i < b->nv; i++) {
		unsigned long long rd = b->s[i].round;
		double vb, vp, vl, vo;

		for (j = 0; j < i && b->s[j].round != rd; j++)
			;
		if (j < i)
			continue;	/* that round is counted already */
		vb = round_pps(b, rd);
		vp = round_pps(p, rd);
		vl = round_pps(l, rd);
		if (isnan(vp) || isnan(vl))
			continue;
		lim[n] = 100 * vp / vl;
		gap[n++] = vl / vb - 1;
		if (vl != vb)
			tax[nt++] = 100 * (vp - vb) / (vl - vb);
		vo = round_pps(o, rd);
		if (!isnan(vo))
			off[no++] = 100 * (vo / vb - 1);
	}
	out->rounds = n;
	if (n) {
		for (i = 0; i < n; i++)
			mean += gap[i] / n;
		sdv = sd_of(gap, n, mean);
		out->lim = median_of(lim, n);
		out->off = median_of(off, no);
		if (median_of(gap, n) > 2 * sdv)
			out->tax = median_of(tax, nt);
	}
	free(lim);
}

static void row_by_round(const struct row *r, int k, struct by_round *out)
{
	const struct group *g[NCOLS];

	triple(r, k, g);
	by_round(g[C_BASE], g[C_PATCHED], g[C_LIMIT], g[C_OFF], out);
}

static void row_label(char *buf, size_t sz, const struct row *r)
{
	if (!strcmp(r->variant, "-"))
		snprintf(buf, sz, "%s n=%llu", r->scen, r->n);
	else
		snprintf(buf, sz, "%s/%s n=%llu", r->scen, r->variant, r->n);
}

static FILE *open_out(const char *dir, const char *name, char *path, size_t sz)
{
	FILE *f;

	snprintf(path, sz, "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		die("%s: %s", path, strerror(errno));
	return f;
}

static void close_out(FILE *f, const char *path)
{
	if (ferror(f) | fclose(f))
		die("%s: write error", path);
}

/*
 * Harmonic mean of column medians over the "complete" rows; *sdp gets its
 * standard deviation propagated from the rows' (first order, independent
 * rows): dH/dm_i = H^2 / (n m_i^2).
 */
static double col_hmean(int c, int *used, double *sdp)
{
	double inv = 0, h, var = 0;
	size_t i;
	int k, n = 0, have[3] = { 0, 0, 0 };

	*sdp = NAN;
	for (i = 0; i < nrows; i++)
		for (k = 0; k < 3; k++)
			if (rows[i].g[k])
				have[k] = 1;
	for (i = 0; i < nrows; i++) {
		int ok = 1;

		for (k = 0; k < 3; k++)
			if (have[k] && !rows[i].g[k])
				ok = 0;
		if (!ok)
			continue;
		if (!rows[i].g[c])
			return NAN;
		inv += 1 / rows[i].g[c]->median;
		n++;
	}
	*used = n;
	if (!n)
		return NAN;
	h = n / inv;
	for (i = 0; i < nrows; i++) {
		const struct group *g = rows[i].g[c];
		int ok = 1;
		double d;

		for (k = 0; k < 3; k++)
			if (have[k] && !rows[i].g[k])
				ok = 0;
		if (!ok)
			continue;
		d = h * h / (n * g->median * g->median) * g->stdev;
		var += d * d;
	}
	*sdp = sqrt(var);
	return h;
}

/* The footnote under a table with flagged rows. */
static void flag_note(FILE *out, int nflag)
{
	if (nflag)
		fprintf(out, "\n! %d row(s) with CV above %.1f%%: noisy, rerun before quoting\n",
			nflag, cv_bound);
}

static int imax(int a, int b)
{
	return a > b ? a : b;
}

/* The second table: the other kernels, and each one's % of its own limit. */
static void write_other_table(FILE *out)
{
	char lab[3 * NAMELEN + 32], b[32], head[NAMELEN + 16];
	size_t i, k;
	int nflag = 0, w, variants = 0, has_own = 0;

	if (!nothers)
		return;
	fprintf(out, "\nother kernels: median pps and CV%%; NAME %%lim = %% of own limit: "
		"NAME / NAME-limit, %s / %s\n", role[1], role[2]);
	for (k = 0; k < nothers; k++) {
		variants |= other_limit[k] == LIMIT_ROLE;
		has_own |= other_pair[k] >= 0 && other_limit[k] >= 0;
	}
	if (variants || has_own) {
		/* the pairs' limit: limit, or limit-X where the run has it */
		char lim[96];

		if (has_own)
			snprintf(lim, sizeof(lim), "%s-X (or %s-Y, X being Y-Z) where the run has "
				 "it, else of %s", role[2], role[2], role[2]);
		else
			snprintf(lim, sizeof(lim), "%s", role[2]);
		fprintf(out, "%s-X %%lim, %s-X %%lim: %% of %s; X tax%% = (%s-X - %s-X) / "
			"(%s - %s-X), '-' within noise as for tax%%; X off%% = %s-X "
			"with the gate off vs %s-X\n", role[0], role[1], lim, role[1],
			role[0], has_own ? "that limit" : role[2], role[0], role[1],
			role[0]);
	}
	fputc('\n', out);
	fprintf(out, "%-28s", "scenario");
	for (k = 0; k < nothers; k++)
		fprintf(out, " %*s %5s", imax(10, (int)strlen(others[k])),
			others[k], "CV%");
	for (k = 0; k < nothers; k++) {
		if (!own_limit(k))
			continue;
		snprintf(head, sizeof(head), "%s %%lim", others[k]);
		fprintf(out, " %*s", imax(7, (int)strlen(head)), head);
	}
	for (k = 0; k < nothers; k++) {
		if (other_pair[k] < 0)
			continue;
		snprintf(head, sizeof(head), "%s tax%%", variant_of(others[k], role[0]));
		fprintf(out, " %*s", imax(7, (int)strlen(head)), head);
	}
	for (k = 0; k < nothers; k++) {
		if (other_pair[k] < 0 || !other_off[k])
			continue;
		snprintf(head, sizeof(head), "%s off%%", variant_of(others[k], role[0]));
		fprintf(out, " %*s", imax(7, (int)strlen(head)), head);
	}
	snprintf(head, sizeof(head), "%s %%lim", role[1]);
	fprintf(out, " %*s\n", imax(7, (int)strlen(head)), head);
	for (i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];
		int fl = other_flagged(r);

		nflag += fl;
		row_label(lab, sizeof(lab), r);
		fprintf(out, "%-28s", lab);
		for (k = 0; k < nothers; k++) {
			const struct group *g = pick(r, others[k], 0);

			fprintf(out, " %*s", imax(10, (int)strlen(others[k])),
				fmt_pps(b, sizeof(b), med(g)));
			fprintf(out, " %5s", fmt_cv(b, sizeof(b), g));
		}
		for (k = 0; k < nothers; k++) {
			if (!own_limit(k))
				continue;
			w = imax(7, (int)strlen(others[k]) + 5);
			fprintf(out, " %*s", w, fmt_pct_of(b, sizeof(b),
				pct_of(med(pick(r, others[k], 0)),
				       med(pick(r, own_limit(k), 0)))));
		}
		for (k = 0; k < nothers; k++) {
			if (other_pair[k] < 0)
				continue;
			w = imax(7, (int)strlen(variant_of(others[k], role[0])) + 5);
			fprintf(out, " %*s", w, fmt_pct(b, sizeof(b), pair_tax(r, k)));
		}
		for (k = 0; k < nothers; k++) {
			if (other_pair[k] < 0 || !other_off[k])
				continue;
			w = imax(7, (int)strlen(variant_of(others[k], role[0])) + 5);
			fprintf(out, " %*s", w, fmt_pct(b, sizeof(b), pair_off(r, k)));
		}
		w = imax(7, (int)strlen(role[1]) + 5);
		fprintf(out, " %*s%s\n", w, fmt_pct_of(b, sizeof(b),
			pct_of(med(r->g[C_PATCHED]), med(r->g[C_LIMIT]))),
			fl ? " !" : "");
	}
	flag_note(out, nflag);
}

/*
 * The triples that the round-by-round table has: the main kernels (-1)
 * where a row has all three, then each pair base-X, patched-X; returns
 * how many, at most 1 + nothers, in t[].
 */
static int rbr_triples(int *t)
{
	size_t i, k;
	int n = 0;

	for (i = 0; i < nrows; i++)
		if (rows[i].g[C_BASE] && rows[i].g[C_PATCHED] && rows[i].g[C_LIMIT]) {
			t[n++] = -1;
			break;
		}
	for (k = 0; k < nothers; k++)
		if (other_pair[k] >= 0)
			t[n++] = (int)k;
	return n;
}

/* whether the triple has gate-off records in any row */
static int rbr_has_off(int k)
{
	size_t i;

	if (k >= 0)
		return other_off[k];
	for (i = 0; i < nrows; i++)
		if (rows[i].g[C_OFF])
			return 1;
	return 0;
}

/* the round-by-round table's column heads for triple k: %lim, tax%, off% */
static void rbr_heads(int k, char h[3][NAMELEN + 16])
{
	const char *x = k < 0 ? NULL : variant_of(others[k], role[0]);

	if (!x) {
		snprintf(h[0], NAMELEN + 16, "%s %%lim", role[1]);
		snprintf(h[1], NAMELEN + 16, "tax%%");
		snprintf(h[2], NAMELEN + 16, "off%%");
	} else {
		snprintf(h[0], NAMELEN + 16, "%s %%lim", others[other_pair[k]]);
		snprintf(h[1], NAMELEN + 16, "%s tax%%", x);
		snprintf(h[2], NAMELEN + 16, "%s off%%", x);
	}
}

static void write_round_table(FILE *out)
{
	char lab[3 * NAMELEN + 32], b[32], h[3][NAMELEN + 16];
	int *t = xrealloc(NULL, (nothers + 1) * sizeof(*t));
	struct by_round *br = xrealloc(NULL, (nothers + 1) * sizeof(*br));
	/* per triple, the widths of its %lim, tax% and off% columns (0: none) */
	int (*w)[3] = xrealloc(NULL, (nothers + 1) * sizeof(*w));
	int n = rbr_triples(t), j, c;
	size_t i;

	if (n)
		fprintf(out, "\nround by round: the median over the rounds of ratios taken within "
			"one round (the host's drift during the run cancels out of them);\n"
			"%%lim = patched / its limit; tax%% = (patched - base) / (limit - base), "
			"'-' unless the median of limit/base - 1\nover the rounds exceeds twice its "
			"stdev; off%% = the gate off vs base; rounds: the fewest any column used\n\n"
			"%-28s %6s", "scenario", "rounds");
	for (j = 0; j < n; j++) {
		rbr_heads(t[j], h);
		for (c = 0; c < 3; c++) {
			w[j][c] = c < 2 || rbr_has_off(t[j]) ? imax(7, (int)strlen(h[c])) : 0;
			if (w[j][c])
				fprintf(out, " %*s", w[j][c], h[c]);
		}
	}
	if (n)
		fputc('\n', out);
	for (i = 0; n && i < nrows; i++) {
		size_t fewest = 0;

		for (j = 0; j < n; j++) {
			row_by_round(&rows[i], t[j], &br[j]);
			if (br[j].rounds && (!fewest || br[j].rounds < fewest))
				fewest = br[j].rounds;
		}
		if (!fewest)
			continue;
		row_label(lab, sizeof(lab), &rows[i]);
		fprintf(out, "%-28s %6zu", lab, fewest);
		for (j = 0; j < n; j++) {
			fprintf(out, " %*s", w[j][0], fmt_pct_of(b, sizeof(b), br[j].lim));
			fprintf(out, " %*s", w[j][1], fmt_pct(b, sizeof(b), br[j].tax));
			if (w[j][2])
				fprintf(out, " %*s", w[j][2], fmt_pct(b, sizeof(b), br[j].off));
		}
		fputc('\n', out);
	}
	free(w);
	free(br);
	free(t);
}

static void write_table(FILE *out, const char *raw)
{
	char lab[3 * NAMELEN + 32], b[8][32], cv[4][16];
	size_t i;
	int nflag = 0, used = 0;
	double hb, hp, hl, ho, sb, sp, sl, so;

	fprintf(out, "thunkless bench: %s (%zu records)\n", raw, nrecords);
	if (incomplete || !complete)
		fprintf(out, "*** INCOMPLETE RUN: %s ***\n",
			incomplete ? incomplete_reason : "no completion marker");
	for (i = 0; i < nfailures; i++)
		fprintf(out, "*** %s\n", failures[i]);
	fprintf(out, "median pps; diff%% vs base; tax%% = (patched-base)/(limit-base); "
		"CV%% base/patched/limit/off; ! = CV > %.1f%%\n", cv_bound);
	fprintf(out, "tax%% '-' unless limit-base > 2*sqrt(sd_base^2 + sd_limit^2) "
		"(sd: stdev over the rounds; harmonic mean: propagated), else it is noise\n\n");
	fprintf(out, "%-28s %10s %11s %7s %10s %7s %10s %7s  %s\n",
		"scenario", role[0], role[1], "diff%", role[2], "tax%",
		"gate-off", "diff%", "CV%");
	for (i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];
		double vb = med(r->g[C_BASE]), vp = med(r->g[C_PATCHED]);
		double vl = med(r->g[C_LIMIT]), vo = med(r->g[C_OFF]);
		char cvs[64];
		int fl = flagged(r);

		nflag += fl;
		row_label(lab, sizeof(lab), r);
		snprintf(cvs, sizeof(cvs), "%s/%s/%s/%s",
			 fmt_cv(cv[0], 16, r->g[C_BASE]),
			 fmt_cv(cv[1], 16, r->g[C_PATCHED]),
			 fmt_cv(cv[2], 16, r->g[C_LIMIT]),
			 fmt_cv(cv[3], 16, r->g[C_OFF]));
		fprintf(out, "%-28s %10s %11s %7s %10s %7s %10s %7s  %s%s\n",
			lab, fmt_pps(b[0], 32, vb), fmt_pps(b[1], 32, vp),
			fmt_pct(b[2], 32, diff_pct(vp, vb)),
			fmt_pps(b[3], 32, vl), fmt_pct(b[4], 32, row_tax(r)),
			fmt_pps(b[5], 32, vo), fmt_pct(b[6], 32, diff_pct(vo, vb)),
			cvs, fl ? " !" : "");
	}
	hb = col_hmean(C_BASE, &used, &sb);
	hp = col_hmean(C_PATCHED, &used, &sp);
	hl = col_hmean(C_LIMIT, &used, &sl);
	ho = col_hmean(C_OFF, &used, &so);
	snprintf(lab, sizeof(lab), "harmonic mean (%d rows)", used);
	fprintf(out, "%-28s %10s %11s %7s %10s %7s %10s %7s\n", lab,
		fmt_pps(b[0], 32, hb), fmt_pps(b[1], 32, hp),
		fmt_pct(b[2], 32, diff_pct(hp, hb)), fmt_pps(b[3], 32, hl),
		fmt_pct(b[4], 32, tax_pct(hb, hp, hl, sb, sl)), fmt_pps(b[5], 32, ho),
		fmt_pct(b[6], 32, diff_pct(ho, hb)));
	flag_note(out, nflag);
	if (nretries) {
		fprintf(out, "\n%zu boot(s) retried after a failure (the failed attempts' "
			"records are not counted):\n", nretries);
		for (i = 0; i < nretries; i++)
			fprintf(out, "  %s\n", retries[i]);
	}
	if (nstales) {
		fprintf(out, "\n%zu kernel(s) measured although their sources had moved "
			"since they were built (--allow-stale):\n", nstales);
		for (i = 0; i < nstales; i++)
			fprintf(out, "  %s\n", stales[i]);
	}
	write_other_table(out);
	write_round_table(out);
}

static void csv_num(FILE *f, double v, const char *fmt)
{
	fputc(',', f);
	if (!isnan(v))
		fprintf(f, fmt, v);
}

static void write_csv(const char *dir)
{
	char path[PATH_MAX];
	FILE *f = open_out(dir, "summary.csv", path, sizeof(path));
	size_t i;
	int c;

	fprintf(f, "scenario,variant,n,base_pps,patched_pps,diff_pct,limit_pps,"
		"tax_recovered_pct,off_pps,off_diff_pct,base_cv_pct,patched_cv_pct,"
		"limit_cv_pct,off_cv_pct,flagged,rounds,round_patched_pct_of_limit,"
		"round_tax_recovered_pct,round_off_diff_pct\n");
	for (i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];
		double vb = med(r->g[C_BASE]), vp = med(r->g[C_PATCHED]);
		double vl = med(r->g[C_LIMIT]), vo = med(r->g[C_OFF]);
		struct by_round br;

		fprintf(f, "%s,%s,%llu", r->scen, r->variant, r->n);
		csv_num(f, vb, "%.0f");
		csv_num(f, vp, "%.0f");
		csv_num(f, diff_pct(vp, vb), "%.2f");
		csv_num(f, vl, "%.0f");
		csv_num(f, row_tax(r), "%.2f");
		csv_num(f, vo, "%.0f");
		csv_num(f, diff_pct(vo, vb), "%.2f");
		for (c = 0; c < NCOLS; c++)
			csv_num(f, r->g[c] ? r->g[c]->cv : NAN, "%.2f");
		row_by_round(r, -1, &br);
		fprintf(f, ",%d,%zu", flagged(r), br.rounds);
		csv_num(f, br.lim, "%.2f");
		csv_num(f, br.tax, "%.2f");
		csv_num(f, br.off, "%.2f");
		fputc('\n', f);
	}
	close_out(f, path);
}

static void json_num(FILE *f, const char *key, double v, const char *fmt, int comma)
{
	fprintf(f, "\"%s\": ", key);
	if (isnan(v))
		fputs("null", f);
	else
		fprintf(f, fmt, v);
	if (comma)
		fputs(", ", f);
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

/* "by_round": {...} for the row's triple k (see row_by_round), then COMMA */
static void json_by_round(FILE *f, const struct row *r, int k, int comma)
{
	struct by_round br;

	row_by_round(r, k, &br);
	fprintf(f, "\"by_round\": {\"rounds\": %zu, ", br.rounds);
	json_num(f, "patched_pct_of_limit", br.lim, "%.2f", 1);
	json_num(f, "tax_recovered_pct", br.tax, "%.2f", 1);
	json_num(f, "off_diff_pct", br.off, "%.2f", 0);
	fputs(comma ? "}, " : "}", f);
}

/* "other_kernels": the second table (kernels, pairs, one entry per row) */
static void write_json_others(FILE *f)
{
	size_t i, k;
	int first;

	fputs("  \"other_kernels\": {\"kernels\": [", f);
	for (k = 0; k < nothers; k++) {
		if (k)
			fputs(", ", f);
		json_str(f, others[k]);
	}
	fputs("], \"pairs\": {", f);
	for (k = 0, first = 1; k < nothers; k++) {
		if (!own_limit(k))
			continue;
		if (!first)
			fputs(", ", f);
		first = 0;
		json_str(f, others[k]);
		fputs(": ", f);
		json_str(f, own_limit(k));
	}
	fputs("}, \"rows\": [", f);
	for (i = 0; nothers && i < nrows; i++) {
		const struct row *r = &rows[i];

		fputs(i ? ",\n" : "\n", f);
		fputs("    {\"scenario\": ", f);
		json_str(f, r->scen);
		fputs(", \"variant\": ", f);
		json_str(f, r->variant);
		fprintf(f, ", \"n\": %llu, ", r->n);
		json_num(f, "patched_pct_of_limit",
			 pct_of(med(r->g[C_PATCHED]), med(r->g[C_LIMIT])), "%.2f", 1);
		fputs("\"kernels\": {", f);
		for (k = 0; k < nothers; k++) {
			const struct group *g = pick(r, others[k], 0);

			if (k)
				fputs(", ", f);
			json_str(f, others[k]);
			if (!g) {
				fputs(": null", f);
				continue;
			}
			fputs(": {\"gate\": ", f);
			json_str(f, g->gate);
			fputs(", ", f);
			json_num(f, "pps", g->median, "%.0f", 1);
			json_num(f, "cv_pct", g->cv, "%.2f", own_limit(k) != NULL);
			if (own_limit(k))
				json_num(f, "pct_of_own_limit",
					 pct_of(g->median, med(pick(r, own_limit(k), 0))),
					 "%.2f", other_pair[k] >= 0);
			if (other_pair[k] >= 0)
				json_num(f, "tax_recovered_pct", pair_tax(r, k), "%.2f", 1);
			if (other_pair[k] >= 0 && other_off[k])
				json_num(f, "patched_off_diff_pct", pair_off(r, k), "%.2f", 1);
			if (other_pair[k] >= 0)
				json_by_round(f, r, (int)k, 0);
			fputc('}', f);
		}
		fprintf(f, "}, \"flagged\": %s}", other_flagged(r) ? "true" : "false");
	}
	fputs(nothers && nrows ? "\n  ]},\n" : "]},\n", f);
}

static void write_json(const char *dir, const char *raw)
{
	char path[PATH_MAX];
	FILE *f = open_out(dir, "summary.json", path, sizeof(path));
	size_t i, j;
	int c;
	static const char *const cname[NCOLS] = { "base", "patched", "limit", "off" };

	fputs("{\n  \"raw\": ", f);
	json_str(f, raw);
	fprintf(f, ",\n  \"records\": %zu,\n  \"complete\": %s,\n  \"incomplete_reason\": ",
		nrecords, (complete && !incomplete) ? "true" : "false");
	if (incomplete || !complete)
		json_str(f, incomplete ? incomplete_reason : "no completion marker");
	else
		fputs("null", f);
	fputs(",\n  \"failures\": [", f);
	for (i = 0; i < nfailures; i++) {
		if (i)
			fputs(", ", f);
		json_str(f, failures[i]);
	}
	fputs("],\n  \"retried\": [", f);
	for (i = 0; i < nretries; i++) {
		if (i)
			fputs(", ", f);
		json_str(f, retries[i]);
	}
	fputs("],\n  \"stale\": [", f);
	for (i = 0; i < nstales; i++) {
		if (i)
			fputs(", ", f);
		json_str(f, stales[i]);
	}
	fprintf(f, "],\n  \"cv_bound_pct\": %.2f,\n  \"kernels\": {\"base\": ", cv_bound);
	json_str(f, role[0]);
	fputs(", \"patched\": ", f);
	json_str(f, role[1]);
	fputs(", \"limit\": ", f);
	json_str(f, role[2]);
	fputs("},\n  \"rows\": [\n", f);
	for (i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];
		double vb = med(r->g[C_BASE]), vp = med(r->g[C_PATCHED]);
		double vl = med(r->g[C_LIMIT]), vo = med(r->g[C_OFF]);

		fputs("    {\"scenario\": ", f);
		json_str(f, r->scen);
		fputs(", \"variant\": ", f);
		json_str(f, r->variant);
		fprintf(f, ", \"n\": %llu, ", r->n);
		json_num(f, "base_pps", vb, "%.0f", 1);
		json_num(f, "patched_pps", vp, "%.0f", 1);
		json_num(f, "diff_pct", diff_pct(vp, vb), "%.2f", 1);
		json_num(f, "limit_pps", vl, "%.0f", 1);
		json_num(f, "tax_recovered_pct", row_tax(r), "%.2f", 1);
		json_num(f, "off_pps", vo, "%.0f", 1);
		json_num(f, "off_diff_pct", diff_pct(vo, vb), "%.2f", 1);
		fputs("\"gates\": {", f);
		for (c = 0; c < NCOLS; c++) {
			fprintf(f, "%s\"%s\": ", c ? ", " : "", cname[c]);
			if (r->g[c])
				json_str(f, r->g[c]->gate);
			else
				fputs("null", f);
		}
		fputs("}, ", f);
		for (c = 0; c < NCOLS; c++) {
			char key[32];

			snprintf(key, sizeof(key), "%s_cv_pct", cname[c]);
			json_num(f, key, r->g[c] ? r->g[c]->cv : NAN, "%.2f", 1);
		}
		json_by_round(f, r, -1, 1);
		fprintf(f, "\"flagged\": %s}%s\n", flagged(r) ? "true" : "false",
			i + 1 < nrows ? "," : "");
	}
	fputs("  ],\n", f);
	write_json_others(f);
	fputs("  \"groups\": [\n", f);
	for (i = 0; i < ngroups; i++) {
		const struct group *g = &groups[i];

		fputs("    {\"scenario\": ", f);
		json_str(f, g->scen);
		fputs(", \"variant\": ", f);
		json_str(f, g->variant);
		fprintf(f, ", \"n\": %llu, \"kernel\": ", g->n);
		json_str(f, g->kernel);
		fputs(", \"gate\": ", f);
		json_str(f, g->gate);
		fprintf(f, ", \"samples\": %zu, ", g->nv);
		json_num(f, "median", g->median, "%.1f", 1);
		json_num(f, "hmean", g->hmean, "%.1f", 1);
		json_num(f, "mean", g->mean, "%.1f", 1);
		json_num(f, "stdev", g->stdev, "%.1f", 1);
		json_num(f, "cv_pct", g->cv, "%.3f", 1);
		json_num(f, "min", g->min, "%.0f", 1);
		json_num(f, "max", g->max, "%.0f", 1);
		fprintf(f, "\"errors\": %llu, \"pps\": [", g->errors);
		for (j = 0; j < g->nv; j++)
			fprintf(f, "%s%.0f", j ? ", " : "", g->v[j]);
		fprintf(f, "]}%s\n", i + 1 < ngroups ? "," : "");
	}
	fputs("  ]\n}\n", f);
	close_out(f, path);
}

static void write_chart(const char *dir, int plot)
{
	char path[PATH_MAX], lab[3 * NAMELEN + 32], b[3][32];
	FILE *f = open_out(dir, "chart.dat", path, sizeof(path));
	size_t i;
	pid_t pid;
	int st;

	fprintf(f, "# row %s %s %s (median pps, '-' = missing)\n", role[0],
		role[1], role[2]);
	for (i = 0; i < nrows; i++) {
		row_label(lab, sizeof(lab), &rows[i]);
		/* gnuplot string: no spaces inside the label */
		for (char *p = lab; *p; p++)
			if (*p == ' ')
				*p = '_';
		fprintf(f, "\"%s\" %s %s %s\n", lab,
			fmt_pps(b[0], 32, med(rows[i].g[C_BASE])),
			fmt_pps(b[1], 32, med(rows[i].g[C_PATCHED])),
			fmt_pps(b[2], 32, med(rows[i].g[C_LIMIT])));
	}
	close_out(f, path);

	f = open_out(dir, "chart.gp", path, sizeof(path));
	fprintf(f,
		"# gnuplot script written by bench/report; run in this directory\n"
		"set terminal png size %d,600\n"
		"set output 'chart.png'\n"
		"set title 'thunkless: median pps per scenario%s'\n"
		"set datafile missing '-'\n"
		"set style data histograms\n"
		"set style histogram clustered gap 1\n"
		"set style fill solid 0.8 border -1\n"
		"set logscale y\n"
		"set ylabel 'packets per second (log scale)'\n"
		"set xtics rotate by -40 noenhanced\n"
		"set key outside top center horizontal noenhanced\n"
		"set grid ytics\n"
		"plot 'chart.dat' using 2:xtic(1) title '%s', \\\n"
		"     '' using 3 title '%s', \\\n"
		"     '' using 4 title '%s'\n",
		(int)(400 + 60 * nrows > 2400 ? 2400 : 400 + 60 * nrows),
		(incomplete || !complete) ? " (INCOMPLETE RUN)" : "",
		role[0], role[1], role[2]);
	close_out(f, path);
	if (!plot)
		return;
	/* A run of other kernels only (base-mod, patched-X...): nothing for
	 * the three columns, and gnuplot would fail on an empty range.
	 */
	for (i = 0; i < nrows; i++)
		if (rows[i].g[C_BASE] || rows[i].g[C_PATCHED] ||
		    rows[i].g[C_LIMIT])
			break;
	if (i == nrows) {
		fprintf(stderr,
			"%s: no %s, %s or %s figures: chart.png not drawn (the other kernels are in report.txt)\n",
			prog, role[0], role[1], role[2]);
		return;
	}

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "%s: fork: %s\n", prog, strerror(errno));
		return;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		int log;

		if (null >= 0)
			dup2(null, 1);
		if (chdir(dir) == 0) {
			log = open("chart.log", O_WRONLY | O_CREAT | O_TRUNC, 0644);
			if (log >= 0)
				dup2(log, 2);
			execlp("gnuplot", "gnuplot", "chart.gp", (char *)NULL);
		}
		_exit(errno == ENOENT ? 127 : 126);
	}
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st))
		fprintf(stderr, "%s: gnuplot failed\n", prog);
	else if (WEXITSTATUS(st) == 127)
		fprintf(stderr, "%s: gnuplot not installed; wrote %s/chart.gp only\n",
			prog, dir);
	else if (WEXITSTATUS(st))
		fprintf(stderr, "%s: gnuplot exited %d; see %s/chart.log\n", prog,
			WEXITSTATUS(st), dir);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: %s [--cv-bound PCT] [--out DIR] [--no-plot] [--strict]\n"
		"       [--base NAME] [--patched NAME] [--limit NAME] RAW.csv\n", prog);
	exit(2);
}

int main(int argc, char **argv)
{
	const char *raw = NULL, *outdir = NULL;
	char *dirbuf = NULL, path[PATH_MAX];
	int plot = 1, strict = 0, i, nflag = 0;
	size_t r;
	FILE *f;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--no-plot")) {
			plot = 0;
		} else if (!strcmp(a, "--strict")) {
			strict = 1;
		} else if (!strcmp(a, "--cv-bound") || !strcmp(a, "--out") ||
			   !strcmp(a, "--base") || !strcmp(a, "--patched") ||
			   !strcmp(a, "--limit")) {
			if (++i >= argc)
				usage();
			if (!strcmp(a, "--cv-bound")) {
				char *end;

				errno = 0;
				cv_bound = strtod(argv[i], &end);
				if (errno || *end || end == argv[i] || !(cv_bound >= 0))
					usage();
			} else if (!strcmp(a, "--out")) {
				outdir = argv[i];
			} else {
				if (!valid_name(argv[i]))
					usage();
				role[a[2] == 'b' ? 0 : a[2] == 'p' ? 1 : 2] = argv[i];
			}
		} else if (a[0] == '-' && a[1]) {
			usage();
		} else if (!raw) {
			raw = a;
		} else {
			usage();
		}
	}
	if (!raw)
		usage();

	read_raw(raw);
	for (r = 0; r < ngroups; r++)
		group_stats(&groups[r]);
	for (r = 0; r < nrows; r++) {
		rows[r].g[C_BASE] = pick(&rows[r], role[0], 0);
		rows[r].g[C_PATCHED] = pick(&rows[r], role[1], 0);
		rows[r].g[C_LIMIT] = pick(&rows[r], role[2], 0);
		rows[r].g[C_OFF] = pick(&rows[r], role[1], 1);
		nflag += flagged(&rows[r]);
	}
	find_others();

	if (!outdir) {
		const char *slash;

		dirbuf = xstrdup(raw);
		slash = strrchr(dirbuf, '/');
		if (!slash)
			strcpy(dirbuf, ".");
		else if (slash == dirbuf)
			strcpy(dirbuf, "/");
		else
			dirbuf[slash - dirbuf] = '\0';
		outdir = dirbuf;
	}

	write_table(stdout, raw);
	f = open_out(outdir, "report.txt", path, sizeof(path));
	write_table(f, raw);
	close_out(f, path);
	write_csv(outdir);
	write_json(outdir, raw);
	write_chart(outdir, plot);
	if (fflush(stdout))
		die("stdout: write error");
	free(dirbuf);
	if (strict && (nflag || incomplete || !complete))
		return 3;
	return 0;
}
