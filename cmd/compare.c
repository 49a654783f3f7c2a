/* vmprof compare: join K sides (a host and a guest, or more; each one or more
 * runs) by symbol, per event, and print the top rows; the full comparison is
 * always saved for vmprof chart. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "formats_module.h"
#include "options.h"
#include "progress.h"
#include "converters/formats.h"
#include "converters/timesplit.h"
#include "lib/compare/compare.h"

enum { OPT_FORMAT = VP_OPT_CMD };

struct compare_args {
	struct vp_cmp_args cmp;
	const char *format, *output;
	int full_names, csv_safe, time_only;
};

static const char *const usage[] = { "[options] HOST GUEST", "[options] SIDE SIDE [SIDE...]", NULL };

static const struct vp_opt opts[] = {
	VP_COMPARE_OPTIONS,
	{ "top", 'n', "N", "rows per event (default 10; 0: all)", 'n' },
	{ "format", 0, "FMT", "table (default), csv or xml, on standard output", OPT_FORMAT },
	VP_OPT_STRING("output", 'o', "FILE", "save the full comparison here (default vmprof.cmp.xml)",
		      struct compare_args, output),
	VP_OPT_FLAG("full-names", 0, "show C++ parameter lists in symbol names", struct compare_args,
		    full_names),
	VP_OPT_FLAG("time-split", 0, "print only where the time went: the wall-time gap split into user "
		    "CPU, kernel CPU, steal, waiting, blocked", struct compare_args, time_only),
	VP_CSV_SAFE_OPTIONS,
	VP_COMPARE_INPUT_OPTIONS(struct compare_args, cmp),
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
	"of shares in percentage points. The full comparison is saved for vmprof chart.\n"
	"When both recordings say where the command's time went (vmprof record with a\n"
	"command), a headline first splits the wall-time gap into user CPU, kernel CPU,\n"
	"steal, waiting for a CPU, blocked and the remainder.\n"
	"\n"
	"More sides and runs: the first side is the baseline, each other side is\n"
	"compared with it. A side is a file, a directory of recordings (its files in\n"
	"name order: the runs 'vmprof record -r N' writes), or LABEL=PATH,PATH,... (an\n"
	"existing path is always one path). A side of several runs shows its mean per\n"
	"run and the mean of its runs' shares.\n"
	"\n"
	"Is a difference real? Each ratio and delta comes with its interval, from the\n"
	"variation between runs (two or more runs on both sides; never narrower than\n"
	"sampling noise allows) or from sampling noise alone (a one-run side:\n"
	"run-to-run variation unmeasured, the heading says so), and a * when\n"
	"significant: Benjamini-Hochberg q below --alpha over the event's rows. A\n"
	"baseline of 4 runs or more is split in halves for a noise floor.\n"
	"vmprof-compare(1), STATISTICS, gives the method and its assumptions.",
	opts, 0,
};

static int on_opt(int id, const char *arg, void *ctx)
{
	struct compare_args *a = ctx;
	unsigned long long n;
	int r;

	if ((r = vp_cmp_args_opt(&info, id, arg, &a->cmp)) != 0)
		return r < 0 ? r : 0;
	switch (id) {
	case 'n':
		if (vp_parse_u64(arg, &n) < 0)
			return vp_usage_error(&info, "--top wants a number, not '%s'", arg);
		a->cmp.co.top = (size_t)n;
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

static int save(FILE *f, void *ctx)
{
	return vp_cmp_save_xml(f, ctx);
}

int cmd_compare(int argc, char **argv)
{
	struct compare_args a = { .format = "table", .output = "vmprof.cmp.xml", .csv_safe = 1 };
	struct vp_comparison *c = NULL;
	struct vp_error err = { 0 };
	int i, status = 1;

	vp_cmp_args_init(&a.cmp);
	i = vp_opts_parse(&info, argc, argv, on_opt, &a);
	if (i < 0) {
		vp_cmp_args_free(&a.cmp);
		return i == VP_OPTS_HELP ? 0 : 2;
	}
	if (argc - i < 2 || vp_cmp_args_check(&info, &a.cmp, (size_t)(argc - i)) < 0) {
		if (argc - i < 2)
			vp_usage_error(&info, "give two sides or more: HOST GUEST, or SIDE SIDE...");
		vp_cmp_args_free(&a.cmp);
		return 2;
	}
	/* the comparison is saved as XML, by vmprof-formats.so */
	if (vp_formats_load(&err) < 0) {
		vp_cmd_fail("compare", &err);
		goto out;
	}
	vp_cmd_progress_start("compare");
	int r = vp_cmp_args_build(&a.cmp, argv + i, (size_t)(argc - i), &c, &err);
	vp_cmd_progress_stop();
	if (r < 0) {
		vp_cmd_fail("compare", &err);
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
	/* where the time went, each side against the baseline */
	for (size_t side = 1; a.time_only && side < c->nsides; side++) {
		struct vp_time_split split;
		struct vp_error serr = { 0 };
		if (vp_cmp_time_split(c, side, &split, &serr) < 0) {
			vp_cmd_fail("compare", &serr);
			goto out;
		}
	}
	if (a.time_only && !strcmp(a.format, "csv")) {
		vp_cmp_write_time_csv(stdout, c, a.csv_safe);
	} else if (a.time_only && !strcmp(a.format, "table")) {
		vp_cmp_write_time_table(stdout, c);
	} else if (!strcmp(a.format, "csv")) {
		vp_cmp_write_csv(stdout, c, &oo);
	} else if (!strcmp(a.format, "xml")) {	/* holds the splits when there are */
		vp_cmp_write_xml(stdout, c, &oo);
	} else {
		vp_cmp_write_time_table(stdout, c);
		vp_cmp_write_table(stdout, c, (const char *const *)argv + i, &oo);
	}
	fprintf(stderr, "vmprof compare: saved the full comparison to %s\n", a.output);
	status = 0;
out:
	vp_comparison_free(c);
	vp_cmp_args_free(&a.cmp);
	return status;
}
