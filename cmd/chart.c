/* vmprof chart: bar and circle charts of a comparison. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "common.h"
#include "options.h"
#include "converters/formats.h"
#include "lib/compare/compare.h"
#include "render/chart.h"

enum {
	OPT_LABELS = VP_OPT_CMD, OPT_FORMAT, OPT_SIZE, OPT_DPI, OPT_SCALE,
	OPT_VALUE, OPT_KIND,
};

struct chart_args {
	struct vp_chart_opts co;
	struct vp_load_opts lo;
	size_t top;
	enum vp_rank rank;
	int rank_set;
	enum vp_value value;
	const char **events;
	size_t nevents;
	char labels[2][256];
	int have_labels;
};

static const char *const usage[] = { "[options]", "[options] COMPARISON.xml|.csv",
				     "[options] HOST GUEST", NULL };

static const struct vp_opt opts[] = {
	{ "top", 'n', "N", "functions per chart (default 10)", 'n' },
	{ "event", 'e', "NAME", "only this event (repeat or comma separate for several)", 'e' },
	{ "sort", 's', "HOW", "rank by max (default), host, guest, ratio, delta or absdelta", 's' },
	{ "value", 0, "WHAT", "with HOST GUEST: compare 'period' (default) or 'samples'", OPT_VALUE },
	{ "labels", 0, "A,B", "names of the two sides", OPT_LABELS },
	VP_OPT_STRING("title", 0, "TEXT", "chart title (default: event and sides)", struct chart_args,
		      co.title),
	VP_OPT_STRING("output", 'o', "DIR", "write the charts here (default charts/)",
		      struct chart_args, co.outdir),
	{ "format", 0, "LIST", "any of svg,png,pdf,eps (default svg,png)", OPT_FORMAT },
	{ "kind", 0, "LIST", "bar, circle or bar,circle (default)", OPT_KIND },
	{ "size", 0, "WxH", "chart size in pixels (default 1000 wide, height from the rows)", OPT_SIZE },
	{ "dpi", 0, "N", "PNG resolution (default 96: one pixel per unit)", OPT_DPI },
	{ "scale", 0, "HOW", "bar axis: auto (default: log when values span > 100x), linear, log",
	  OPT_SCALE },
	VP_LOAD_OPTIONS(struct chart_args, lo),
	VP_OPT_END,
};

static const struct vp_cmd_info info = {
	"chart", usage,
	"Draw a comparison as charts: per event, a bar chart of the top functions with a\n"
	"host and a guest bar each, and a circle chart of two donuts. With no file, the\n"
	"comparison the last 'vmprof compare' saved here (vmprof.cmp.xml); with one file,\n"
	"a saved comparison; with two, compare them first (any inputs compare takes).",
	opts, 0,
};

static int on_opt(int id, const char *arg, void *ctx)
{
	struct chart_args *a = ctx;
	unsigned long long n;
	double d;
	int w, h;
	char extra;

	switch (id) {
	case 'n':
		if (vp_parse_u64(arg, &n) < 0 || n > 1000)
			return vp_usage_error(&info, "--top wants a number up to 1000, not '%s'", arg);
		a->top = (size_t)n;
		break;
	case 'e':
		if (vp_add_names(&a->events, &a->nevents, arg) < 0)
			return vp_usage_error(&info, "out of memory");
		break;
	case 's':
		if (vp_rank_parse(arg, &a->rank) < 0)
			return vp_usage_error(&info, "--sort is max, host, guest, ratio, delta or absdelta, "
					      "not '%s'", arg);
		a->rank_set = 1;
		break;
	case OPT_VALUE:
		if (vp_parse_value(arg, &a->value) < 0)
			return vp_usage_error(&info, "--value is 'period' or 'samples', not '%s'", arg);
		break;
	case OPT_LABELS:
		if (vp_parse_labels(arg, a->labels) < 0)
			return vp_usage_error(&info, "--labels wants two names, A,B, not '%s'", arg);
		a->have_labels = 1;
		break;
	case OPT_FORMAT:
		if (vp_chart_formats_parse(arg, &a->co.formats) < 0)
			return vp_usage_error(&info, "--format is a list of svg, png, pdf, eps, not '%s'", arg);
		break;
	case OPT_KIND:
		if (!strcmp(arg, "bar"))
			a->co.kinds = VP_CHART_BAR;
		else if (!strcmp(arg, "circle"))
			a->co.kinds = VP_CHART_CIRCLE;
		else if (!strcmp(arg, "bar,circle") || !strcmp(arg, "circle,bar"))
			a->co.kinds = VP_CHART_BAR | VP_CHART_CIRCLE;
		else
			return vp_usage_error(&info, "--kind is bar, circle or bar,circle, not '%s'", arg);
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

/* Keep only the events asked for; the rest of a saved comparison is dropped. */
static int keep_events(struct vp_comparison *c, const char **events)
{
	size_t kept = 0;

	if (!events)
		return 0;
	for (size_t i = 0; i < c->nevents; i++) {
		int want = 0;
		for (size_t k = 0; events[k]; k++)
			want |= !strcmp(events[k], c->events[i].name);
		if (want)
			c->events[kept++] = c->events[i];
		else
			free(c->events[i].rows);
	}
	c->nevents = kept;
	for (size_t k = 0; events[k]; k++) {
		int found = 0;
		for (size_t i = 0; i < c->nevents; i++)
			found |= !strcmp(events[k], c->events[i].name);
		if (!found)
			return vp_cmd_failf("chart", "no event '%s' in the comparison", events[k]);
	}
	return 0;
}

int cmd_chart(int argc, char **argv)
{
	struct chart_args a = { .top = 10 };
	struct vp_comparison *c = NULL;
	struct vp_profile *side[2] = { NULL, NULL };
	struct vp_error err = { 0 };
	int i, status = 1;

	vp_chart_opts_init(&a.co);
	vp_load_opts_init(&a.lo);
	i = vp_opts_parse(&info, argc, argv, on_opt, &a);
	if (i == VP_OPTS_HELP)
		return 0;
	if (i < 0)
		return 2;
	if (argc - i > 2) {
		vp_usage_error(&info, "unexpected argument '%s'", argv[i + 2]);
		vp_free_names(a.events, a.nevents);
		return 2;
	}
	if (argc - i == 2) {
		struct vp_compare_opts co;
		vp_compare_opts_init(&co);
		co.value = a.value;
		co.top = 0;
		for (int s = 0; s < 2; s++)
			if (vp_load_profile(argv[i + s], &a.lo, &side[s], &err) < 0) {
				vp_cmd_fail("chart", &err);
				goto out;
			}
		if (vp_compare(side[0], side[1], &co, &c, &err) < 0) {
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
		if (vp_load_comparison(path, &c, &err) < 0) {
			vp_cmd_fail("chart", &err);
			goto out;
		}
	}
	if (a.have_labels) {
		c->label[0] = vp_strpool_intern(c->pool, a.labels[0]);
		c->label[1] = vp_strpool_intern(c->pool, a.labels[1]);
	}
	if (keep_events(c, a.events) != 0)
		goto out;
	if (!c->nevents) {
		vp_cmd_failf("chart", "the comparison has no events");
		goto out;
	}
	vp_comparison_rank(c, a.rank_set ? a.rank : c->rank, a.top);
	a.co.wrote = wrote;
	if (vp_chart_render(c, &a.co, &err) < 0) {
		vp_cmd_fail("chart", &err);
		goto out;
	}
	status = 0;
out:
	vp_comparison_free(c);
	vp_profile_free(side[0]);
	vp_profile_free(side[1]);
	vp_free_names(a.events, a.nevents);
	return status;
}
