/* Chart files: for each event and chart kind, draw once per format in memory
 * (formats.c; SVG as its enriched tree, svgchart.c), then write each file
 * atomically; the HTML report (html.c) last, all of them or none. */
#include "render_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/time/split.h"
#include "lib/util/outfile.h"

void vp_chart_opts_init(struct vp_chart_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->outdir = "charts";
	o->formats = VP_FMT_SVG | VP_FMT_PNG;
	o->kinds = VP_CHART_BAR | VP_CHART_CIRCLE | VP_CHART_WATERFALL;
	o->width = 1000;
	o->dpi = 96;
}

struct named_bit {
	const char *name;
	unsigned bit;
};

static const struct named_bit fmts[] = {
	{ "svg", VP_FMT_SVG }, { "png", VP_FMT_PNG }, { "pdf", VP_FMT_PDF }, { "eps", VP_FMT_EPS },
	{ "html", VP_FMT_HTML },
};
/* the formats drawn once per chart (html is one page for them all) */
#define CHART_FMTS (VP_FMT_SVG | VP_FMT_PNG | VP_FMT_PDF | VP_FMT_EPS)

/* "a,b,c" of the names in v into a mask of their bits; -1 on an unknown name. */
static int parse_list(const char *s, const struct named_bit *v, size_t n, unsigned *mask)
{
	*mask = 0;
	while (*s) {
		size_t len = strcspn(s, ","), i;
		for (i = 0; i < n; i++)
			if (strlen(v[i].name) == len && !strncmp(s, v[i].name, len))
				break;
		if (i == n)
			return -1;
		*mask |= v[i].bit;
		s += len + (s[len] == ',');
	}
	return *mask ? 0 : -1;
}

int vp_chart_formats_parse(const char *s, unsigned *mask)
{
	return parse_list(s, fmts, sizeof(fmts) / sizeof(*fmts), mask);
}

/* EVENT-KIND.EXT, the event name made safe for a file name. */
static void file_name(char *out, size_t size, const char *dir, const char *event, const char *kind,
		      const char *ext)
{
	char e[200];
	size_t k;

	for (k = 0; event[k] && k + 1 < sizeof(e); k++) {
		char ch = event[k];
		int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
			 ch == '-' || ch == '_' || (ch == '.' && k > 0);
		e[k] = ok ? ch : '_';
	}
	e[k] = '\0';
	snprintf(out, size, "%s/%s-%s.%s", dir, e, kind, ext);
}

static int write_file(const char *path, const void *data, size_t len, struct vp_error *err)
{
	struct vp_outfile f;
	int r;

	if ((r = vp_outfile_open(&f, path, err)) < 0)
		return r;
	errno = 0;
	if (fwrite(data, 1, len, f.fp) != len) {
		int e = errno ? errno : vp_outfile_errno(f.fp);
		vp_outfile_abort(&f);
		return vp_errorf(err, -e, "'%s': cannot write: %s", path, strerror(e));
	}
	return vp_outfile_commit(&f, err);
}

/* mkdir -p: the output directory and any missing parents. *first gets the
 * length of the first directory this call created (0: none), so a failed run
 * can take them away again. */
static int make_dirs(const char *dir, size_t *first, struct vp_error *err)
{
	char *p = strdup(dir);
	int r = 0;

	*first = 0;
	if (!p)
		return vp_errorf(err, -ENOMEM, "'%s': out of memory", dir);
	for (char *s = p + 1; r == 0; s++) {
		if (*s && *s != '/')
			continue;
		char c = *s;
		*s = '\0';
		if (mkdir(p, 0777) == 0) {
			if (!*first)
				*first = (size_t)(s - p);
		} else if (errno != EEXIST) {
			r = vp_errorf(err, -errno, "'%s': cannot create directory: %s", dir, strerror(errno));
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	if (r == 0) {
		struct stat st;
		if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
			r = vp_errorf(err, -ENOTDIR, "'%s': not a directory", dir);
	}
	return r;
}

/* Undo make_dirs: the directories it created, deepest first (only if empty). */
static void remove_dirs(const char *dir, size_t first)
{
	char *p = first ? strdup(dir) : NULL;

	if (!p)
		return;
	for (size_t n = strlen(p); n >= first; n--) {
		if (n == strlen(p) || p[n] == '/') {
			p[n] = '\0';
			if (rmdir(p) != 0)
				break;
		}
		if (n == first)
			break;
	}
	free(p);
}

/* One run of vp_chart_render: the files written so far, removed again with
 * the directories it made when a later one fails (all or nothing). */
struct run {
	const struct vp_chart_opts *o;
	struct vp_error *err;
	char **written;
	size_t nwritten, first;
};

/* Write data to path (r: how making it went), remembered for run_end. */
static int emit_path(struct run *R, const char *path, const void *data, size_t len, int r,
		     const char *what)
{
	if (r < 0)
		return vp_errorf(R->err, r, "'%s': cannot %s: %s", path, what, strerror(-r));
	r = write_file(path, data, len, R->err);
	char **v = r < 0 ? NULL : realloc(R->written, (R->nwritten + 1) * sizeof(*v));
	if (r >= 0 && (!v || !(v[R->nwritten] = strdup(path)))) {
		if (v)
			R->written = v;
		r = vp_errorf(R->err, -ENOMEM, "'%s': out of memory", path);
		unlink(path);
	} else if (r >= 0) {
		R->written = v;
		R->nwritten++;
	}
	return r;
}

/* Write one chart's bytes (r: how drawing them went) as DIR/EVENT-KIND.FMT. */
static int emit(struct run *R, const char *event, const char *kind, size_t f, struct vp_membuf *b,
		int r)
{
	char path[4096];

	file_name(path, sizeof(path), R->o->outdir, event, kind, fmts[f].name);
	r = emit_path(R, path, b->p, b->n, r, "draw the chart");
	free(b->p);
	return r;
}

/* One chart (an event's, or a side's waterfall when e is NULL) in every
 * format asked for. */
static int draw(struct run *R, const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		size_t side, unsigned kind, const char *kname)
{
	char time_name[256];
	int r = 0;

	/* time-waterfall, or with more sides time-LABEL-waterfall */
	snprintf(time_name, sizeof(time_name), cmp->nsides > 2 ? "time-%s" : "time", cmp->label[side]);
	for (size_t f = 0; f < sizeof(fmts) / sizeof(*fmts) && r >= 0; f++) {
		struct vp_membuf b = { 0 };
		double w, h;
		xmlDocPtr doc;

		if (!(R->o->formats & CHART_FMTS & fmts[f].bit))
			continue;
		if (fmts[f].bit != VP_FMT_SVG)
			r = vp_render_format(cmp, e, side, R->o, kind, fmts[f].bit, &b, NULL, &w, &h);
		else if ((r = vp_chart_svg_doc(cmp, e, side, R->o, kind, &doc)) >= 0)
			r = vp_svg_dump(doc, (char **)&b.p, &b.n);
		r = emit(R, e ? e->name : time_name, kname, f, &b, r);
	}
	return r;
}

static int run_begin(struct run *R, const struct vp_chart_opts *o, struct vp_error *err)
{
	*R = (struct run){ o, err, NULL, 0, 0 };
	return make_dirs(o->outdir, &R->first, err);
}

static int run_end(struct run *R, int r)
{
	for (size_t i = 0; i < R->nwritten; i++) {
		if (r < 0)
			unlink(R->written[i]);
		else if (R->o->wrote)
			R->o->wrote(R->written[i], R->o->wrote_ctx);
		free(R->written[i]);
	}
	free(R->written);
	if (r < 0)
		remove_dirs(R->o->outdir, R->first);
	return r < 0 ? r : 0;
}

/* A flame graph in every format asked for. */
static int flame(struct run *R, const struct vp_flame_src *src, size_t other, const char *kind)
{
	const struct vp_chart_opts *o = R->o;
	struct vp_flame_layout L;
	int r;

	if ((r = vp_flame_layout(src, other, o, &L, R->err)) == -ENODATA && src->nsides > 1) {
		/* an event one side did not record: its other charts say so */
		vp_warn("no flame graph of %s", R->err->msg);
		return 0;
	}
	if (r < 0)
		return r;
	for (size_t f = 0; f < sizeof(fmts) / sizeof(*fmts) && r >= 0; f++) {
		struct vp_membuf b = { 0 };

		if (!(o->formats & CHART_FMTS & fmts[f].bit))
			continue;
		r = vp_flame_render(&L, o, fmts[f].bit, &b);
		r = emit(R, src->event, kind, f, &b, r);
	}
	vp_flame_layout_free(&L);
	return r;
}

int vp_chart_kinds_parse(const char *s, unsigned *mask)
{
	static const struct named_bit kinds[] = {
		{ "bar", VP_CHART_BAR }, { "circle", VP_CHART_CIRCLE },
		{ "waterfall", VP_CHART_WATERFALL }, { "flame", VP_CHART_FLAME },
	};
	return parse_list(s, kinds, sizeof(kinds) / sizeof(*kinds), mask);
}

int vp_chart_render(const struct vp_comparison *cmp, const struct vp_chart_opts *o, struct vp_error *err)
{
	static const struct { unsigned bit; const char *name; } kinds[] = {
		{ VP_CHART_BAR, "bar" }, { VP_CHART_CIRCLE, "circle" },
	};
	struct vp_time_split split;
	struct vp_error serr = { 0 };
	struct run R;
	int r;

	if ((r = run_begin(&R, o, err)) < 0)
		return r;
	for (size_t i = 0; i < cmp->nevents && r >= 0; i++) {
		const struct vp_cmp_event *e = &cmp->events[i];
		for (size_t k = 0; k < 2 && r >= 0; k++)
			if (o->kinds & kinds[k].bit)
				r = draw(&R, cmp, e, 0, kinds[k].bit, kinds[k].name);
		if ((o->kinds & VP_CHART_FLAME) && e->stacks && r >= 0) {
			struct vp_flame_src src;
			size_t other = vp_flame_cmp_src(cmp, e, o, &src);
			r = flame(&R, &src, other, "flame");
		}
	}
	/* where the time went, for each side whose recordings say (and the baseline's) */
	for (size_t side = 1; side < cmp->nsides && r >= 0 && (o->kinds & VP_CHART_WATERFALL); side++)
		if (vp_cmp_time_split(cmp, side, &split, &serr) == 0)
			r = draw(&R, cmp, NULL, side, VP_CHART_WATERFALL, "waterfall");
	if (r >= 0 && (o->formats & VP_FMT_HTML)) {
		char path[4096], *page = NULL;
		size_t len = 0;
		snprintf(path, sizeof(path), "%s/index.html", o->outdir);
		r = vp_html_page(cmp, o, &page, &len);
		r = emit_path(&R, path, page, len, r, "write the report");
		free(page);
	}
	return run_end(&R, r);
}

/* A profile's label on a chart: its stored label, else its file's name. */
static const char *profile_label(const struct vp_profile *p)
{
	const char *s = p->meta.label ? p->meta.label : p->meta.source, *slash;

	if (!s)
		return NULL;
	slash = strrchr(s, '/');
	return slash && !p->meta.label ? slash + 1 : s;
}

int vp_chart_render_profile(const struct vp_profile *p, const struct vp_chart_opts *o,
			    struct vp_error *err)
{
	struct run R;
	int r;

	if ((r = run_begin(&R, o, err)) < 0)
		return r;
	for (size_t i = 0; i < p->ntables && r >= 0; i++) {
		const struct vp_event_table *t = p->tables[i];
		const char *label[1] = { profile_label(p) };
		struct vp_flame_src src = { t->stacks, 1, NULL, label, t->name, o->value };
		if (!t->stacks || !t->total_samples)
			continue;
		r = flame(&R, &src, 0, "flame");
	}
	return run_end(&R, r);
}
