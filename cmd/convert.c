/* vmprof convert: other tools' outputs into vmprof's CSV, CSV tables split
 * per event (the seed pipeline's splitcsv), and callchains as folded stacks. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "options.h"
#include "progress.h"
#include "converters/formats.h"

enum { OPT_VALUE = VP_OPT_CMD };

struct convert_args {
	const char *output;
	struct vp_out_opts oo;
	struct vp_folded_opts fo;
	struct vp_load_opts lo;
};

static const char *const usage[] = {
	"perf-report REPORT.txt [-o OUT.csv]", "split TABLE DIR",
	"folded FILE.data [-e EVENT] [-o OUT.folded]", NULL,
};

static const struct vp_opt opts[] = {
	VP_OPT_STRING("output", 'o', "FILE", "write here instead of standard output (perf-report, "
		      "folded)", struct convert_args, output),
	VP_OPT_FLAG("full-names", 0, "keep C++ parameter lists in symbol names", struct convert_args,
		    oo.full_names),
	VP_CSV_SAFE_OPTIONS,
	VP_OPT_STRING("event", 'e', "NAME", "folded: the event whose stacks to fold (default: the "
		      "first)", struct convert_args, fo.event),
	{ "value", 0, "WHAT", "folded: count 'samples' (default) or sum 'period'", OPT_VALUE },
	VP_LOAD_OPTIONS(struct convert_args, lo),
	VP_OPT_END,
};

static const struct vp_cmd_info info = {
	"convert", usage,
	"perf-report: read perf report's text output (perf 6.1, stdio mode: any sort\n"
	"keys including sym, with or without the children and total-period columns,\n"
	"several events, callchains, which are skipped) and write vmprof's CSV table.\n"
	"Without perf's sample column (-n) sample counts are estimated from percentages.\n"
	"split: write one CSV per event of a table (any input 'vmprof report' reads)\n"
	"into DIR, as DIR/EVENT.csv.\n"
	"folded: fold the callchains of a perf.data file (recorded with -g) into one\n"
	"line per distinct stack, 'comm;outermost;...;leaf COUNT', for FlameGraph's\n"
	"flamegraph.pl and speedscope.",
	opts, 0,
};

static int on_opt(int id, const char *arg, void *ctx)
{
	struct convert_args *a = ctx;

	switch (id) {
	case OPT_VALUE:
		if (vp_parse_value(arg, &a->fo.value) < 0)
			return vp_usage_error(&info, "--value is 'period' or 'samples', not '%s'", arg);
		break;
	default:
		if (vp_load_opt(&info, id, arg, &a->lo) < 0)
			return -1;
		vp_csv_safe_opt(id, &a->oo.csv_safe);
		break;
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

	vp_cmd_progress_start("convert");
	r = vp_load_profile(in, &a->lo, &p, &err);
	vp_cmd_progress_stop();
	if (r < 0)
		return vp_cmd_fail("convert", &err);
	for (size_t i = 0; i < p->ntables; i++)
		vp_table_sort(p->tables[i], VP_VALUE_PERIOD);
	r = vp_split_csv("convert", p, &a->oo, dir, NULL);
	vp_profile_free(p);
	return r;
}

static int write_folded(FILE *f, void *ctx)
{
	return vp_folded_write(f, ctx);
}

static int folded(struct convert_args *a, const char *in)
{
	struct vp_folded *f = NULL;
	struct vp_error err = { 0 };
	int r;

	a->fo.full_names = a->oo.full_names;
	vp_cmd_progress_start("convert");
	r = vp_folded_from_perfdata(in, &a->lo, &a->fo, &f, &err);
	vp_cmd_progress_stop();
	if (r < 0)
		return vp_cmd_fail("convert", &err);
	if (a->output)
		r = vp_write_atomic(a->output, write_folded, f, &err) < 0 ? vp_cmd_fail("convert", &err) : 0;
	else
		r = vp_folded_write(stdout, f) < 0 ? 1 : 0;
	vp_folded_free(f);
	return r;
}

int cmd_convert(int argc, char **argv)
{
	struct convert_args a = { 0 };
	int i;

	vp_out_opts_init(&a.oo);
	vp_folded_opts_init(&a.fo);
	vp_load_opts_init(&a.lo);
	i = vp_opts_parse(&info, argc, argv, on_opt, &a);
	if (i == VP_OPTS_HELP)
		return 0;
	if (i < 0)
		return 2;
	if (i < argc && !strcmp(argv[i], "perf-report") && argc - i == 2)
		return perf_report(&a, argv[i + 1]);
	if (i < argc && !strcmp(argv[i], "split") && argc - i == 3)
		return split(&a, argv[i + 1], argv[i + 2]);
	if (i < argc && !strcmp(argv[i], "folded") && argc - i == 2)
		return folded(&a, argv[i + 1]);
	vp_usage_error(&info, i < argc ? "unknown conversion or wrong arguments: '%s'" : "which conversion? (perf-report, split or folded)",
		       i < argc ? argv[i] : "");
	return 2;
}
