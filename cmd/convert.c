/* vmprof convert: other tools' outputs into vmprof's CSV, CSV tables split
 * per event (the seed pipeline's splitcsv), callchains as folded stacks, and
 * perf.data as pprof profiles. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "common.h"
#include "options.h"
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
	"folded FILE.data [-e EVENT] [-o OUT.folded]",
	"pprof FILE.data [-e EVENT] [-o OUT.pb.gz | -o DIR/]", NULL,
};

static const struct vp_opt opts[] = {
	VP_OPT_STRING("output", 'o', "FILE", "write here instead of standard output (perf-report, "
		      "folded, pprof; pprof: a directory gets one profile per event)",
		      struct convert_args, output),
	VP_OPT_FLAG("full-names", 0, "keep C++ parameter lists in symbol names", struct convert_args,
		    oo.full_names),
	VP_CSV_SAFE_OPTIONS,
	VP_OPT_STRING("event", 'e', "NAME", "folded, pprof: the event to convert (default: the "
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
	"flamegraph.pl and speedscope.\n"
	"pprof: write pprof's profile.proto (gzipped), as `go tool pprof`, Pyroscope\n"
	"and Parca read it: samples/count and the event's period (cpu/nanoseconds for\n"
	"cpu-clock and task-clock), callchains as location stacks, functions named as\n"
	"perf report names them, mappings with build-ids, pid, tid, comm and domain\n"
	"labels, the recording's metadata as comments. One event per profile: with\n"
	"-o naming a directory (existing, or ending in /), every event, as DIR/EVENT.pb.gz.",
	opts, 0,
};

static int on_opt(int id, const char *arg, void *ctx)
{
	struct convert_args *a = ctx;
	int r;

	if ((r = vp_load_opt(&info, id, arg, &a->lo)) != 0)
		return r < 0 ? r : 0;
	switch (id) {
	case OPT_VALUE:
		if (vp_parse_value(arg, &a->fo.value) < 0)
			return vp_usage_error(&info, "--value is 'period' or 'samples', not '%s'", arg);
		break;
	default: vp_csv_safe_opt(id, &a->oo.csv_safe); break;
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
	if (vp_folded_from_perfdata(in, &a->lo, &a->fo, &f, &err) < 0)
		return vp_cmd_fail("convert", &err);
	if (a->output)
		r = vp_write_atomic(a->output, write_folded, f, &err) < 0 ? vp_cmd_fail("convert", &err) : 0;
	else
		r = vp_folded_write(stdout, f) < 0 ? 1 : 0;
	vp_folded_free(f);
	return r;
}

static const char *pprof_name(void *ctx, size_t i)
{
	return vp_pprof_event(ctx, i);
}

static int pprof_write_one(FILE *f, void *ctx, size_t i)
{
	return vp_pprof_write(f, ctx, i);
}

static int pprof_write_first(FILE *f, void *ctx)
{
	return vp_pprof_write(f, ctx, 0);
}

static int pprof(struct convert_args *a, const char *in)
{
	struct vp_pprof_opts po;
	struct vp_pprof *p = NULL;
	struct vp_error err = { 0 };
	struct stat st;
	const char *out = a->output;
	size_t n = out ? strlen(out) : 0;
	int r;

	vp_pprof_opts_init(&po);
	po.event = a->fo.event;
	po.full_names = a->oo.full_names;
	po.all = out && ((n && out[n - 1] == '/') || (stat(out, &st) == 0 && S_ISDIR(st.st_mode)));
	if (!out && isatty(STDOUT_FILENO)) {
		vp_usage_error(&info, "pprof: standard output is a terminal; name a file with -o");
		return 2;
	}
	if (vp_pprof_from_perfdata(in, &a->lo, &po, &p, &err) < 0)
		return vp_cmd_fail("convert", &err);
	if (po.all) {
		struct vp_split_out so = { "pb.gz", vp_pprof_count(p), pprof_name, pprof_write_one, p };
		r = vp_split_files("convert", out, NULL, &so);
	} else if (out) {
		r = vp_write_atomic(out, pprof_write_first, p, &err) < 0 ? vp_cmd_fail("convert", &err) : 0;
	} else {
		r = vp_pprof_write(stdout, p, 0) < 0 ? 1 : 0;
	}
	vp_pprof_free(p);
	return r;
}

int cmd_convert(int argc, char **argv)
{
	struct convert_args a = { 0 };
	int i, status = 2;

	vp_out_opts_init(&a.oo);
	vp_folded_opts_init(&a.fo);
	vp_load_opts_init(&a.lo);
	i = vp_opts_parse(&info, argc, argv, on_opt, &a);
	if (i < 0) {
		status = i == VP_OPTS_HELP ? 0 : 2;
	} else if (i < argc && strcmp(argv[i], "folded") && strcmp(argv[i], "pprof") &&
		   vp_filter_active(&a.lo.filter)) {
		vp_usage_error(&info, "--pid, --tid, --comm and --time filter the samples of "
			       "perf.data: they apply to 'convert folded' and 'convert pprof'");
	} else if (i < argc && !strcmp(argv[i], "perf-report") && argc - i == 2) {
		status = perf_report(&a, argv[i + 1]);
	} else if (i < argc && !strcmp(argv[i], "split") && argc - i == 3) {
		status = split(&a, argv[i + 1], argv[i + 2]);
	} else if (i < argc && !strcmp(argv[i], "folded") && argc - i == 2) {
		status = folded(&a, argv[i + 1]);
	} else if (i < argc && !strcmp(argv[i], "pprof") && argc - i == 2) {
		status = pprof(&a, argv[i + 1]);
	} else {
		vp_usage_error(&info, i < argc ? "unknown conversion or wrong arguments: '%s'"
					       : "which conversion? (perf-report, split, folded or pprof)",
			       i < argc ? argv[i] : "");
	}
	vp_filter_free(&a.lo.filter);
	return status;
}
