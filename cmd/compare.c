/* vmprof compare: join a host and a guest profile by symbol, per event, and
 * print the top rows; the full comparison is always saved for vmprof chart. */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "common.h"
#include "options.h"
#include "converters/text.h"
#include "converters/formats.h"
#include "lib/compare/compare.h"

enum { OPT_VALUE = VP_OPT_CMD, OPT_LABELS, OPT_FORMAT };

struct compare_args {
	struct vp_compare_opts co;
	struct vp_load_opts lo;
	const char *g_kallsyms, *g_symfs;	/* the guest input's own symbol sources */
	const char **events;
	size_t nevents;
	const char *format, *output;
	int full_names, csv_safe;
	char labels[2][256];
};

static const char *const usage[] = { "[options] HOST GUEST", NULL };

static const struct vp_opt opts[] = {
	{ "key", 'k', "KEYS", "join on sym (default), sym,dso (dso by base name) or sym,dso,domain",
	  'k' },
	{ "event", 'e', "NAME", "only this event (repeat or comma separate for several)", 'e' },
	{ "top", 'n', "N", "rows per event (default 10; 0: all)", 'n' },
	{ "sort", 's', "HOW", "rank by max (default), host, guest, ratio, delta or absdelta", 's' },
	{ "value", 0, "WHAT", "compare 'period' (default) or 'samples'", OPT_VALUE },
	{ "labels", 0, "A,B", "column labels for the two sides", OPT_LABELS },
	{ "format", 0, "FMT", "table (default), csv or xml, on standard output", OPT_FORMAT },
	VP_OPT_STRING("output", 'o', "FILE", "save the full comparison here (default vmprof.cmp.xml)",
		      struct compare_args, output),
	VP_OPT_FLAG("full-names", 0, "show C++ parameter lists in symbol names", struct compare_args,
		    full_names),
	VP_CSV_SAFE_OPTIONS,
	VP_LOAD_OPTIONS(struct compare_args, lo),
	VP_OPT_STRING("guest-file-kallsyms", 0, "FILE", "kernel symbols for the GUEST input only: a "
		      "copy of /proc/kallsyms from the machine it was recorded on",
		      struct compare_args, g_kallsyms),
	VP_OPT_STRING("guest-file-symfs", 0, "DIR", "binaries of the GUEST input's machine, for that "
		      "input only", struct compare_args, g_symfs),
	VP_OPT_END,
};

static const struct vp_cmd_info info = {
	"compare", usage,
	"Compare two profiles of the same program, typically one recorded on the host\n"
	"and one inside a VM. Each side may be a perf.data file (vmprof's or perf's), a\n"
	"CSV or XML table from vmprof report, perf report's text output (stdio\n"
	"mode) or a pprof profile (a Go CPU profile). Per event, rows are joined by\n"
	"symbol (a full outer join: a function\n"
	"seen on one side only is listed as such), ranked, and the top N printed with\n"
	"both sides' samples, period and share, the ratio guest/host and the difference\n"
	"of shares in percentage points. The full comparison is saved for vmprof chart.",
	opts, 0,
};

static int on_opt(int id, const char *arg, void *ctx)
{
	struct compare_args *a = ctx;
	unsigned long long n;

	switch (id) {
	case 'k':
		if (vp_key_parse(arg, &a->co.key) < 0 || !(a->co.key & VP_KEY_SYM) ||
		    (a->co.key & ~(VP_KEY_SYM | VP_KEY_DSO | VP_KEY_DOMAIN)))
			return vp_usage_error(&info, "--key is sym, sym,dso or sym,dso,domain, not '%s'", arg);
		break;
	case 'e':
		if (vp_add_names(&a->events, &a->nevents, arg) < 0)
			return vp_usage_error(&info, "out of memory");
		break;
	case 'n':
		if (vp_parse_u64(arg, &n) < 0)
			return vp_usage_error(&info, "--top wants a number, not '%s'", arg);
		a->co.top = (size_t)n;
		break;
	case 's':
		if (vp_rank_parse(arg, &a->co.rank) < 0)
			return vp_usage_error(&info, "--sort is max, host, guest, ratio, delta or absdelta, "
					      "not '%s'", arg);
		break;
	case OPT_VALUE:
		if (vp_parse_value(arg, &a->co.value) < 0)
			return vp_usage_error(&info, "--value is 'period' or 'samples', not '%s'", arg);
		break;
	case OPT_LABELS:
		if (vp_parse_labels(arg, a->labels) < 0)
			return vp_usage_error(&info, "--labels wants two names, A,B, not '%s'", arg);
		a->co.label[0] = a->labels[0];
		a->co.label[1] = a->labels[1];
		break;
	case OPT_FORMAT:
		if (strcmp(arg, "table") && strcmp(arg, "csv") && strcmp(arg, "xml"))
			return vp_usage_error(&info, "--format is table, csv or xml, not '%s'", arg);
		a->format = arg;
		break;
	default: vp_csv_safe_opt(id, &a->csv_safe); break;
	}
	return 0;
}

static void ratio_text(char *buf, size_t n, const struct vp_cmp_row *r, enum vp_value v)
{
	enum vp_ratio_kind k;
	double x = vp_cmp_ratio(r, v, &k);

	if (k == VP_RATIO_BOTH)
		snprintf(buf, n, "%.2fx", x);
	else
		snprintf(buf, n, "%s", k == VP_RATIO_ONLY_HOST ? "only host" : k == VP_RATIO_ONLY_GUEST ? "only guest" : "-");
}

static int digits(uint64_t v)
{
	char b[32];
	return snprintf(b, sizeof(b), "%" PRIu64, v);
}

static void print_event(const struct vp_comparison *c, const struct vp_cmp_event *e, int full)
{
	int sw[2] = { 7, 7 }, pw[2] = { 6, 6 }, rw = 5;
	char buf[64];

	for (size_t i = 0; i < e->nrows; i++)
		for (int s = 0; s < 2; s++) {
			if (digits(e->rows[i].samples[s]) > sw[s])
				sw[s] = digits(e->rows[i].samples[s]);
			if (digits(e->rows[i].period[s]) > pw[s])
				pw[s] = digits(e->rows[i].period[s]);
		}
	for (size_t i = 0; i < e->nrows; i++) {
		ratio_text(buf, sizeof(buf), &e->rows[i], c->value);
		if ((int)strlen(buf) > rw)
			rw = (int)strlen(buf);
	}
	/* names come from the files: escaped (text.h) */
	printf("# Event '");
	vp_text_puts(stdout, e->name);
	printf("'");
	if (!e->present[0] || !e->present[1]) {
		printf(": only in ");
		vp_text_puts(stdout, e->present[0] ? c->label[0] : c->label[1]);
	}
	printf("\n");
	for (int s = 0; s < 2; s++)
		if (e->present[s]) {
			printf("# %-6s ", s ? "guest" : "host");
			vp_text_puts(stdout, c->label[s]);
			printf(": %" PRIu64 " samples, period %" PRIu64 "\n", e->total_samples[s],
			       e->total_period[s]);
		}
	printf("# Rows: %zu of %zu, ranked by %s %s\n#\n", e->nrows, e->total_rows,
	       vp_rank_name(c->rank), c->value == VP_VALUE_SAMPLES ? "samples" : "period");
	/* column heads carry the side labels */
	for (int s = 0; s < 2; s++) {
		int w = sw[s] + pw[s] + 7 + 4;	/* two gaps of 2, "100.00%" */
		printf("%s", s ? "  " : "# ");
		vp_text_fit(stdout, c->label[s], w);
	}
	printf("\n# ");
	for (int s = 0; s < 2; s++)
		printf("%s%*s  %*s  %7s", s ? "  " : "", sw[s], "Samples", pw[s], "Period", "Share");
	printf("  %*s  %8s  Symbol\n", rw, "Ratio", "Delta pp");
	for (size_t i = 0; i < e->nrows; i++) {
		const struct vp_cmp_row *r = &e->rows[i];
		printf("  ");
		for (int s = 0; s < 2; s++)
			printf("%s%*" PRIu64 "  %*" PRIu64 "  %6.2f%%", s ? "  " : "", sw[s], r->samples[s],
			       pw[s], r->period[s], 100.0 * vp_cmp_share(e, r, s, c->value));
		ratio_text(buf, sizeof(buf), r, c->value);
		int n = full ? (int)strlen(r->symbol) : (int)vp_symbol_display_len(r->symbol);
		printf("  %*s  %+8.2f  [%c] ", rw, buf, vp_cmp_delta_pp(e, r, c->value),
		       r->domain ? r->domain : '.');
		vp_text_write(stdout, r->symbol, (size_t)n);
		if (c->key & VP_KEY_DSO) {
			printf("  (");
			vp_text_puts(stdout, r->dso ? vp_dso_short_name(r->dso) : "");
			printf(")");
		}
		printf("\n");
	}
	printf("\n");
}

/* The two sides load at once: each is mostly one pass over its own file. */
struct side_load {
	const char *path;
	const struct vp_load_opts *lo;
	struct vp_profile *p;
	struct vp_error err;
	int rc;
};

static void *load_side(void *arg)
{
	struct side_load *s = arg;
	s->rc = vp_load_profile(s->path, s->lo, &s->p, &s->err);
	return NULL;
}

static int load_both(const char *host, const char *guest, const struct vp_load_opts *lo,
		     const struct vp_load_opts *glo, struct vp_profile **out)
{
	/* Two loads at once already keep two CPUs busy: each reads on its own
	 * thread (a reader and a worker per side made four, and compare took
	 * more CPU for the same wall time). */
	struct vp_load_opts one[2] = { *lo, *glo };
	struct side_load s[2] = { { host, &one[0], NULL, { 0 }, 0 },
				  { guest, &one[1], NULL, { 0 }, 0 } };
	pthread_t t;
	int files = strcmp(host, "-") && strcmp(guest, "-");

	one[0].one_thread = one[1].one_thread = files && sysconf(_SC_NPROCESSORS_ONLN) <= 2;
	int threaded = files && pthread_create(&t, NULL, load_side, &s[1]) == 0;
	if (!threaded)	/* one after the other: each may use both CPUs */
		one[0].one_thread = one[1].one_thread = 0;

	load_side(&s[0]);
	if (threaded)
		pthread_join(t, NULL);
	else
		load_side(&s[1]);
	for (int i = 0; i < 2; i++)
		out[i] = s[i].p;
	for (int i = 0; i < 2; i++)
		if (s[i].rc < 0)
			return vp_cmd_fail("compare", &s[i].err);
	return 0;
}

static int save(FILE *f, void *ctx)
{
	return vp_cmp_save_xml(f, ctx);
}

int cmd_compare(int argc, char **argv)
{
	struct compare_args a = { .format = "table", .output = "vmprof.cmp.xml", .csv_safe = 1 };
	struct vp_profile *side[2] = { NULL, NULL };
	struct vp_comparison *c = NULL;
	struct vp_error err = { 0 };
	int i, status = 1;

	vp_compare_opts_init(&a.co);
	vp_load_opts_init(&a.lo);
	i = vp_opts_parse(&info, argc, argv, on_opt, &a);
	if (i == VP_OPTS_HELP)
		return 0;
	if (i < 0)
		return 2;
	if (argc - i != 2) {
		if (argc - i < 2)
			vp_usage_error(&info, "give two inputs, HOST and GUEST");
		else
			vp_usage_error(&info, "unexpected argument '%s'", argv[i + 2]);
		vp_free_names(a.events, a.nevents);
		return 2;
	}
	a.co.events = a.events;
	a.lo.events = a.events;
	struct vp_load_opts glo = a.lo;
	if (a.g_kallsyms)
		glo.kallsyms = a.g_kallsyms;
	if (a.g_symfs)
		glo.symfs = a.g_symfs;
	if (load_both(argv[i], argv[i + 1], &a.lo, &glo, side) != 0)
		goto out;
	for (int s = 0; s < 2; s++)
		if (!side[s]->ntables)
			vp_warn("'%s' holds no samples: every row is the other side's only", argv[i + s]);
	for (size_t e = 0; e < a.nevents; e++)
		if (!vp_profile_find(side[0], a.events[e]) && !vp_profile_find(side[1], a.events[e])) {
			vp_cmd_failf("compare", "no event '%s' in '%s' or '%s'", a.events[e], argv[i],
				     argv[i + 1]);
			goto out;
		}
	if (vp_compare(side[0], side[1], &a.co, &c, &err) < 0) {
		vp_cmd_fail("compare", &err);
		goto out;
	}
	if (!c->nevents) {
		vp_cmd_failf("compare", "no events to compare in '%s' and '%s'", argv[i], argv[i + 1]);
		goto out;
	}
	/* the saved comparison is whole and written before anything is printed */
	if (vp_write_atomic(a.output, save, c, &err) < 0) {
		vp_cmd_fail("compare", &err);
		goto out;
	}
	struct vp_out_opts oo;
	vp_out_opts_init(&oo);
	oo.full_names = a.full_names;
	oo.csv_safe = a.csv_safe;
	if (!strcmp(a.format, "csv")) {
		vp_cmp_write_csv(stdout, c, &oo);
	} else if (!strcmp(a.format, "xml")) {
		vp_cmp_write_xml(stdout, c, &oo);
	} else {
		printf("# vmprof compare: %s = '%s', %s = '%s'\n#\n", c->label[0], argv[i], c->label[1],
		       argv[i + 1]);
		for (size_t e = 0; e < c->nevents; e++)
			print_event(c, &c->events[e], a.full_names);
	}
	fprintf(stderr, "vmprof compare: saved the full comparison to %s\n", a.output);
	status = 0;
out:
	vp_comparison_free(c);
	vp_profile_free(side[0]);
	vp_profile_free(side[1]);
	vp_free_names(a.events, a.nevents);
	return status;
}
