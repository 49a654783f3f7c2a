/* vmprof report: per-event tables from a perf.data file. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "options.h"
#include "lib/perfdata.h"

static const char *const usage[] = { "[options] [FILE]", NULL };

static const struct vp_opt opts[] = {
	{ "input", 'i', "FILE", "perf.data file to read (default: perf.data)", 'i' },
	VP_OPT_END,
};

static const struct vp_cmd_info info = {
	"report", usage,
	"Read a perf.data file written by vmprof record, perf record or perf kvm record\n"
	"and print one table per event.",
	opts, 0,
};

struct report_args {
	const char *input;
};

static int on_opt(int id, const char *arg, void *ctx)
{
	struct report_args *a = ctx;

	if (id == 'i')
		a->input = arg;
	return 0;
}

struct counts {
	uint64_t *samples;
};

static int count_sample(void *ctx, const struct vp_sample *s)
{
	struct counts *c = ctx;

	c->samples[s->evsel->index]++;
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = { "perf.data" };
	struct vp_error err = { 0 };
	struct vp_perfdata *pd;
	int i = vp_opts_parse(&info, argc, argv, on_opt, &a);

	if (i == VP_OPTS_HELP)
		return 0;
	if (i < 0)
		return 2;
	if (i < argc)
		a.input = argv[i++];
	if (i < argc)
		return vp_usage_error(&info, "unexpected argument '%s'", argv[i]), 2;
	if (vp_perfdata_open(a.input, &pd, &err) < 0)
		return vp_cmd_fail("report", &err);

	struct counts c = { calloc(vp_perfdata_nevsel(pd), sizeof(uint64_t)) };
	struct vp_perf_tool tool = { .sample = count_sample };
	int r = c.samples ? vp_perfdata_walk(pd, &tool, &c, &err) : -1;
	if (r == 0)
		for (size_t e = 0; e < vp_perfdata_nevsel(pd); e++)
			printf("# Samples: %" PRIu64 " of event '%s'\n", c.samples[e],
			       vp_perfdata_evsel(pd, e)->name);
	free(c.samples);
	vp_perfdata_close(pd);
	return r < 0 ? vp_cmd_fail("report", &err) : 0;
}
