/* vmprof chart: bar, circle and flame charts of a comparison, and the flame
 * graph of one profile. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "common.h"
#include "formats_module.h"
#include "options.h"
#include "progress.h"
#include "converters/formats.h"
#include "lib/compare/compare.h"
#include "render/chart.h"

enum { OPT_FORMAT = VP_OPT_CMD, OPT_SIZE, OPT_DPI, OPT_SCALE, OPT_KIND, OPT_FLAME_NORM };

struct chart_args {
	struct vp_chart_opts co;
	struct vp_cmp_args cmp;	/* with HOST GUEST, the comparison as compare builds it */
	size_t top;
	int kinds_set;
};

static const char *const usage[] = { "[options]", "[options] COMPARISON.xml|.csv",
				     "[options] HOST GUEST", "[options] SIDE SIDE [SIDE...]",
				     "[options] --kind flame FILE.data", NULL };

static const struct vp_opt opts[] = {
	{ "top", 'n', "N", "functions per chart (default 10)", 'n' },
	VP_COMPARE_OPTIONS,
	VP_OPT_STRING("title", 0, "TEXT", "chart title (default: event and sides)", struct chart_args,
		      co.title),
	VP_OPT_STRING("output", 'o', "DIR", "write the charts here (default charts/)",
		      struct chart_args, co.outdir),
	{ "format", 0, "LIST", "any of svg,png,pdf,eps,html (default svg,png); html: DIR/index.html, "
	  "one self-contained page", OPT_FORMAT },
	{ "kind", 0, "LIST", "any of bar,circle,waterfall,flame (default bar,circle, the waterfall when "
	  "both recordings say where the time went, flame when the inputs have call stacks; "
	  "FILE.data alone: flame)", OPT_KIND },
	VP_OPT_STRING("flame-width", 0, "SIDE", "flame graph: whose inclusive values are the widths: "
		      "host, guest or a side label (default: the non-baseline side)", struct chart_args,
		      co.flame_width),
	{ "flame-norm", 0, "HOW", "flame graph: 'total' (default: each side as shares of its own "
	  "total) or 'none' (raw values)", OPT_FLAME_NORM },
	{ "size", 0, "WxH", "chart size in pixels (default 1000 wide, height from the rows)", OPT_SIZE },
	{ "dpi", 0, "N", "PNG resolution (default 96: one pixel per unit)", OPT_DPI },
	{ "scale", 0, "HOW", "bar axis: auto (default: log when values span > 100x), linear, log",
	  OPT_SCALE },
	VP_COMPARE_INPUT_OPTIONS(struct chart_args, cmp),
	VP_OPT_END,
};

static const struct vp_cmd_info info = {
	"chart", usage,
	"Draw a comparison as charts: per event, a bar chart of the top functions with a\n"
	"bar per side each (its mean per run, a whisker for its interval, pale when not\n"
	"significant at q < --alpha), a circle chart of a donut per side and, when the\n"
	"inputs have call stacks, a differential flame graph (EVENT-flame.svg,\n"
	"interactive). One perf.data FILE alone draws its plain flame graph. With no\n"
	"file, the comparison the last 'vmprof compare' saved here (vmprof.cmp.xml); with\n"
	"one file, a saved comparison; with two or more, compare them first as vmprof\n"
	"compare does (any sides and options compare takes: --key, --value and the symbol\n"
	"sources shape that comparison; -e, --sort and --labels apply to saved ones too).\n"
	"--format html writes DIR/index.html: one page that needs nothing else (no network),\n"
	"with the sides' facts, where the time went, every function of each event (of every\n"
	"side) in a table to sort and filter, and the charts and flame graphs inline.",
	opts, 0,
};

static int on_opt(int id, const char *arg, void *ctx)
{
	struct chart_args *a = ctx;
	unsigned long long n;
	double d;
	int w, h, r;
	char extra;

	if ((r = vp_cmp_args_opt(&info, id, arg, &a->cmp)) != 0)
		return r < 0 ? r : 0;
	switch (id) {
	case 'n':
		if (vp_parse_u64(arg, &n) < 0 || n > 1000)
			return vp_usage_error(&info, "--top wants a number up to 1000, not '%s'", arg);
		a->top = (size_t)n;
		break;
	case OPT_FORMAT:
		if (vp_chart_formats_parse(arg, &a->co.formats) < 0)
			return vp_usage_error(&info, "--format is a list of svg, png, pdf, eps, html, not '%s'",
					      arg);
		break;
	case OPT_KIND:
		if (vp_chart_kinds_parse(arg, &a->co.kinds) < 0)
			return vp_usage_error(&info, "--kind is a list of bar, circle, waterfall, flame, not '%s'",
					      arg);
		a->kinds_set = 1;
		break;
	case OPT_FLAME_NORM:
		if (strcmp(arg, "total") && strcmp(arg, "none"))
			return vp_usage_error(&info, "--flame-norm is 'total' or 'none', not '%s'", arg);
		a->co.flame_absolute = !strcmp(arg, "none");
		break;
	case OPT_SIZE:
		if (sscanf(arg, "%dx%d%c", &w, &h, &extra) != 2 || w < 200 || h < 0 || w > 20000 || h > 20000)
			return vp_usage_error(&info, "--size wants WxH (width 200 to 20000), not '%s'", arg);
		a->co.width = w;
		a->co.height = h;
		break;
	case OPT_DPI:
		if (vp_parse_double(arg, &d) < 0 || d < 24 || d > 1200)
			return vp_usage_error(&info, "--dpi wants 24 to 1200, not '%s'", arg);
		a->co.dpi = d;
		break;
	case OPT_SCALE:
		if (!strcmp(arg, "auto"))
			a->co.scale = VP_SCALE_AUTO;
		else if (!strcmp(arg, "linear"))
			a->co.scale = VP_SCALE_LINEAR;
		else if (!strcmp(arg, "log"))
			a->co.scale = VP_SCALE_LOG;
		else
			return vp_usage_error(&info, "--scale is auto, linear or log, not '%s'", arg);
		break;
	}
	return 0;
}

static void wrote(const char *path, void *ctx)
{
	(void)ctx;
	fprintf(stderr, "vmprof chart: wrote %s\n", path);
}

/* One input that is no saved comparison: its flame graphs. */
static int profile_flame(struct chart_args *a, const char *path)
{
	struct vp_profile *p = NULL;
	struct vp_error err = { 0 };
	int status = 1;

	if (a->kinds_set && a->co.kinds != VP_CHART_FLAME)
		return vp_usage_error(&info, "one profile makes a flame graph (--kind flame); bar and "
				      "circle charts compare two: give HOST GUEST"), 2;
	a->cmp.lo.events = a->cmp.events;
	a->cmp.lo.stacks = VP_STACKS_ALL;
	if (vp_load_profile(path, &a->cmp.lo, &p, &err) < 0)
		return vp_cmd_fail("chart", &err);
	if (a->co.formats & VP_FMT_HTML) {
		vp_profile_free(p);
		return vp_usage_error(&info, "--format html writes the report of a comparison: give "
				      "HOST GUEST"), 2;
	}
	vp_profile_keep_events(p, a->cmp.events);
	size_t with = 0;
	for (size_t e = 0; e < p->ntables; e++)
		with += p->tables[e]->stacks && p->tables[e]->total_samples;
	if (!with) {
		vp_cmd_failf("chart", "'%s': no call stacks to draw (a perf.data file with samples; "
			     "record with -g for more than the sampled function)", path);
		goto out;
	}
	a->co.value = vp_value_self(a->cmp.co.value);
	a->co.wrote = wrote;
	if (vp_chart_render_profile(p, &a->co, &err) < 0) {
		vp_cmd_fail("chart", &err);
		goto out;
	}
	status = 0;
out:
	vp_profile_free(p);
	return status;
}

int cmd_chart(int argc, char **argv)
{
	struct chart_args a = { .top = 10 };
	struct vp_comparison *c = NULL;
	struct vp_error err = { 0 };
	int i, status = 1;

	/* charts are drawn by vmprof-formats.so, their options parsed there too */
	if (vp_formats_load(&err) < 0)
		return vp_cmd_fail("chart", &err);
	vp_chart_opts_init(&a.co);
	vp_cmp_args_init(&a.cmp);
	i = vp_opts_parse(&info, argc, argv, on_opt, &a);
	if (i < 0) {
		vp_cmp_args_free(&a.cmp);
		return i == VP_OPTS_HELP ? 0 : 2;
	}
	if (vp_cmp_args_check(&info, &a.cmp, (size_t)(argc - i)) < 0) {
		vp_cmp_args_free(&a.cmp);
		return 2;
	}
	a.co.procs = a.cmp.lo.threads;	/* --threads: the CPUs to draw on too */
	enum vp_input_kind kind = VP_IN_UNKNOWN;
	if (argc - i == 1 && vp_input_sniff(argv[i], &kind, &err) < 0) {
		vp_cmd_fail("chart", &err);
		goto out;
	}
	if (argc - i == 1 && kind != VP_IN_CMP_XML && kind != VP_IN_CMP_CSV) {
		status = profile_flame(&a, argv[i]);
		goto out;
	}
	if (argc - i >= 2) {
		a.cmp.co.top = 0;
		vp_cmd_progress_start("chart");
		int r = vp_cmp_args_build(&a.cmp, argv + i, (size_t)(argc - i), &c, &err);
		vp_cmd_progress_stop();
		if (r < 0) {
			vp_cmd_fail("chart", &err);
			goto out;
		}
	} else {
		const char *path = argc - i == 1 ? argv[i] : "vmprof.cmp.xml";
		if (argc - i == 0 && access(path, F_OK) != 0) {
			vp_cmd_failf("chart", "no comparison here ('%s'): run 'vmprof compare HOST GUEST' "
				     "first, or give files", path);
			goto out;
		}
		if (vp_load_comparison(path, &c, &err) < 0 ||
		    vp_comparison_keep_events(c, a.cmp.events, &err) < 0) {
			vp_cmd_fail("chart", &err);
			goto out;
		}
		if (a.cmp.alpha_set && vp_comparison_judge(c, a.cmp.co.alpha, &err) < 0) {
			vp_cmd_fail("chart", &err);
			goto out;
		}
		if (a.cmp.labels && vp_comparison_relabel(c, a.cmp.labels, a.cmp.nlabels) < 0) {
			vp_cmd_failf("chart", "--labels gives %zu names for the comparison's %zu sides",
				     a.cmp.nlabels, c->nsides);
			goto out;
		}
		if (!c->nevents) {
			vp_cmd_failf("chart", "the comparison has no events");
			goto out;
		}
	}
	int stacks = 0;
	for (size_t e = 0; e < c->nevents; e++)
		stacks |= c->events[e].stacks != NULL;
	/* a flame graph by default where the sides have call stacks */
	if (!a.kinds_set && stacks)
		a.co.kinds |= VP_CHART_FLAME;
	if (a.kinds_set && (a.co.kinds & VP_CHART_FLAME) && !stacks) {
		vp_cmd_failf("chart", "no call stacks in the comparison for a flame graph: record with "
			     "-g (a saved CSV keeps none; its XML does)");
		goto out;
	}
	vp_comparison_rank(c, a.cmp.rank_set ? a.cmp.co.rank : c->rank, a.top);
	a.co.wrote = wrote;
	if (vp_chart_render(c, &a.co, &err) < 0) {
		vp_cmd_fail("chart", &err);
		goto out;
	}
	status = 0;
out:
	vp_comparison_free(c);
	vp_cmp_args_free(&a.cmp);
	return status;
}
