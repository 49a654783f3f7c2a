/* vmprof convert: other tools' outputs into vmprof's CSV, and CSV tables
 * split per event (the seed pipeline's splitcsv). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "options.h"
#include "converters/formats.h"

enum { OPT_NO_CSV_SAFE = 256, OPT_FULL };

static const char *const usage[] = { "perf-report REPORT.txt [-o OUT.csv]", "split TABLE DIR", NULL };

static const struct vp_opt opts[] = {
	{ "output", 'o', "FILE", "write here instead of standard output (perf-report)", 'o' },
	{ "full-names", 0, NULL, "keep C++ parameter lists in symbol names", OPT_FULL },
	{ "no-csv-safe", 0, NULL, "do not prefix ' to CSV cells starting with = + - @", OPT_NO_CSV_SAFE },
	VP_OPT_END,
};

static const struct vp_cmd_info info = {
	"convert", usage,
	"perf-report: read perf report's text output (perf 6.1, stdio mode: any sort\n"
	"keys including sym, with or without the children and total-period columns,\n"
	"several events, callchains, which are skipped) and write vmprof's CSV table.\n"
	"Without perf's sample column (-n) sample counts are estimated from percentages.\n"
	"split: write one CSV per event of a table (any input 'vmprof report' reads)\n"
	"into DIR, as DIR/EVENT.csv.",
	opts, 0,
};

struct convert_args {
	const char *output;
	struct vp_out_opts oo;
};

static int on_opt(int id, const char *arg, void *ctx)
{
	struct convert_args *a = ctx;

	switch (id) {
	case 'o': a->output = arg; break;
	case OPT_FULL: a->oo.full_names = 1; break;
	case OPT_NO_CSV_SAFE: a->oo.csv_safe = 0; break;
	}
	return 0;
}

struct write_ctx {
	const struct vp_profile *p;
	const struct vp_out_opts *o;
};

static int write_csv(FILE *f, void *ctx)
{
	struct write_ctx *w = ctx;
	return vp_profile_write_csv(f, w->p, w->o);
}

static int perf_report(struct convert_args *a, const char *in)
{
	struct vp_profile *p = NULL;
	struct vp_error err = { 0 };
	char head[4096];
	size_t n;
	FILE *f = fopen(in, "r");
	int r;

	if (!f)
		return vp_cmd_failf("convert", "'%s': cannot open: %s", in, strerror(errno));
	n = fread(head, 1, sizeof(head), f);
	fclose(f);
	if (vp_input_detect(head, n) != VP_IN_PERF_TEXT)
		return vp_cmd_failf("convert", "'%s': not the text of `perf report --stdio`", in);
	if (vp_load_profile(in, NULL, &p, &err) < 0)
		return vp_cmd_fail("convert", &err);
	for (size_t i = 0; i < p->ntables; i++)
		vp_table_sort(p->tables[i], VP_VALUE_PERIOD);
	struct write_ctx w = { p, &a->oo };
	if (a->output)
		r = vp_write_atomic(a->output, write_csv, &w, &err) < 0 ? vp_cmd_fail("convert", &err) : 0;
	else
		r = write_csv(stdout, &w) < 0 ? 1 : 0;
	vp_profile_free(p);
	return r;
}

static int split(struct convert_args *a, const char *in, const char *dir)
{
	struct vp_profile *p = NULL;
	struct vp_error err = { 0 };
	int r;

	if (vp_load_profile(in, NULL, &p, &err) < 0)
		return vp_cmd_fail("convert", &err);
	for (size_t i = 0; i < p->ntables; i++)
		vp_table_sort(p->tables[i], VP_VALUE_PERIOD);
	r = vp_split_csv("convert", p, &a->oo, dir, NULL);
	vp_profile_free(p);
	return r;
}

int cmd_convert(int argc, char **argv)
{
	struct convert_args a = { 0 };
	int i;

	vp_out_opts_init(&a.oo);
	i = vp_opts_parse(&info, argc, argv, on_opt, &a);
	if (i == VP_OPTS_HELP)
		return 0;
	if (i < 0)
		return 2;
	if (i < argc && !strcmp(argv[i], "perf-report") && argc - i == 2)
		return perf_report(&a, argv[i + 1]);
	if (i < argc && !strcmp(argv[i], "split") && argc - i == 3)
		return split(&a, argv[i + 1], argv[i + 2]);
	vp_usage_error(&info, i < argc ? "unknown conversion or wrong arguments: '%s'" : "which conversion? (perf-report or split)",
		       i < argc ? argv[i] : "");
	return 2;
}
