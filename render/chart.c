/* Chart files: for each event and chart kind, draw once per format in memory
 * (formats.c), enrich the SVG (svgmeta.c), then write each file atomically. */
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

static const struct { const char *name; unsigned bit; } fmts[] = {
	{ "svg", VP_FMT_SVG }, { "png", VP_FMT_PNG }, { "pdf", VP_FMT_PDF }, { "eps", VP_FMT_EPS },
};

int vp_chart_formats_parse(const char *s, unsigned *mask)
{
	*mask = 0;
	while (*s) {
		size_t n = strcspn(s, ","), i;
		for (i = 0; i < sizeof(fmts) / sizeof(*fmts); i++)
			if (strlen(fmts[i].name) == n && !strncmp(s, fmts[i].name, n))
				break;
		if (i == sizeof(fmts) / sizeof(*fmts))
			return -1;
		*mask |= fmts[i].bit;
		s += n + (s[n] == ',');
	}
	return *mask ? 0 : -1;
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

/* The <desc>: the chart's numbers as a sentence a screen reader can say. */
static char *describe(const struct vp_comparison *cmp, const struct vp_cmp_event *e)
{
	char *out = NULL, ratio[64];
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return NULL;
	/* with several runs a side's numbers are its means per run */
	fprintf(f, "%s %s per function, %s vs %s: top %zu of %zu functions. Totals: %s %.0f, %s %.0f.",
		e->name, vp_value_name(cmp), cmp->label[0], cmp->label[1], e->nrows, e->total_rows,
		cmp->label[0], vp_cmp_mean_total(e, 0, cmp->value), cmp->label[1],
		vp_cmp_mean_total(e, 1, cmp->value));
	for (size_t i = 0; i < e->nrows; i++) {
		const struct vp_cmp_row *r = &e->rows[i];
		vp_format_ratio(e, r, VP_GUEST, cmp->value, ratio, sizeof(ratio));
		fprintf(f, "\n%s [%c]: %s %.0f (%.2f%%), %s %.0f (%.2f%%), guest/host %s.",
			r->symbol ? r->symbol : "[unknown]", r->domain ? r->domain : '.', cmp->label[0],
			vp_cmp_mean(e, r, 0, cmp->value), 100 * vp_cmp_share(e, r, 0, cmp->value), cmp->label[1],
			vp_cmp_mean(e, r, 1, cmp->value), 100 * vp_cmp_share(e, r, 1, cmp->value), ratio);
	}
	if (fclose(f) != 0) {
		free(out);
		return NULL;
	}
	return out;
}

/* The waterfall's <desc>: side's split as sentences. */
static char *describe_split(const struct vp_comparison *cmp, size_t side)
{
	struct vp_time_split sp;
	struct vp_error err = { 0 };
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	if (vp_cmp_time_split(cmp, side, &sp, &err) < 0 || !(f = open_memstream(&out, &len)))
		return NULL;
	fprintf(f, "Wall time %s %.6f s, %s %.6f s, ratio %.4f, gap %+.6f s.", cmp->label[0], sp.wall.base,
		cmp->label[side], sp.wall.side, sp.ratio, sp.wall.delta);
	for (int p = 0; p < VP_TIME_NPARTS; p++)
		if (sp.part[p].known)
			fprintf(f, "\n%s: %s %.6f s, %s %.6f s, difference %+.6f s (%.1f%% of the gap).",
				vp_time_part_name(&sp, p), cmp->label[0], sp.part[p].base, cmp->label[side],
				sp.part[p].side, sp.part[p].delta, vp_time_part_percent(&sp, p));
	if (fclose(f) != 0) {
		free(out);
		return NULL;
	}
	return out;
}

static int enrich(const struct vp_comparison *cmp, const struct vp_cmp_event *e, size_t side,
		  const struct vp_chart_opts *o, const char *kind, struct vp_membuf *b,
		  const struct marks *m, double w, double h)
{
	char title[1024], *desc, *svg;
	size_t len, n;
	int r;

	if (m->oom || !(desc = e ? describe(cmp, e) : describe_split(cmp, side)))
		return -ENOMEM;
	if (e)
		vp_chart_title(cmp, e, o, title, sizeof(title));
	else
		snprintf(title, sizeof(title), "Where the time went: %s vs %s", cmp->label[0],
			 cmp->label[side]);
	n = strlen(title);
	snprintf(title + n, sizeof(title) - n, " (%s chart)", kind);
	r = vp_svg_enrich((char *)b->p, b->n, m, title, desc, w, h, &svg, &len);
	free(desc);
	if (r < 0)
		return r;
	free(b->p);
	b->p = (unsigned char *)svg;
	b->n = len;
	return 0;
}

/* One chart (an event's, or side's waterfall when e is NULL) in every format
 * asked for, each file written and remembered in *written. */
static int draw(const struct vp_comparison *cmp, const struct vp_cmp_event *e, size_t side,
		unsigned kind, const char *kname, const struct vp_chart_opts *o, char ***written,
		size_t *nwritten, struct vp_error *err)
{
	char time_name[256];
	char path[4096];
	int r = 0;

	for (size_t f = 0; f < sizeof(fmts) / sizeof(*fmts) && r >= 0; f++) {
		struct vp_membuf b = { 0 };
		struct marks m = { 0 };
		double w, h;

		if (!(o->formats & fmts[f].bit))
			continue;
		r = vp_render_format(cmp, e, side, o, kind, fmts[f].bit, &b,
				     fmts[f].bit == VP_FMT_SVG ? &m : NULL, &w, &h);
		if (r >= 0 && fmts[f].bit == VP_FMT_SVG)
			r = enrich(cmp, e, side, o, kname, &b, &m, w, h);
		vp_marks_free(&m);
		/* time-waterfall, or with more sides time-LABEL-waterfall */
		snprintf(time_name, sizeof(time_name), cmp->nsides > 2 ? "time-%s" : "time",
			 cmp->label[side]);
		file_name(path, sizeof(path), o->outdir, e ? e->name : time_name, kname, fmts[f].name);
		if (r < 0) {
			free(b.p);
			return vp_errorf(err, r, "'%s': cannot draw the chart: %s", path, strerror(-r));
		}
		r = write_file(path, b.p, b.n, err);
		free(b.p);
		char **v = r < 0 ? NULL : realloc(*written, (*nwritten + 1) * sizeof(*v));
		if (r >= 0 && (!v || !(v[*nwritten] = strdup(path)))) {
			if (v)
				*written = v;
			r = vp_errorf(err, -ENOMEM, "'%s': out of memory", path);
			unlink(path);
		} else if (r >= 0) {
			*written = v;
			(*nwritten)++;
		}
	}
	return r;
}

int vp_chart_render(const struct vp_comparison *cmp, const struct vp_chart_opts *o, struct vp_error *err)
{
	static const struct { unsigned bit; const char *name; } kinds[] = {
		{ VP_CHART_BAR, "bar" }, { VP_CHART_CIRCLE, "circle" },
	};
	char **written = NULL;	/* this run's files, removed again if a later one fails */
	size_t nwritten = 0, first;
	struct vp_time_split split;
	struct vp_error serr = { 0 };
	int r;

	if ((r = make_dirs(o->outdir, &first, err)) < 0)
		return r;
	for (size_t i = 0; i < cmp->nevents && r >= 0; i++)
		for (size_t k = 0; k < 2 && r >= 0; k++)
			if (o->kinds & kinds[k].bit)
				r = draw(cmp, &cmp->events[i], 0, kinds[k].bit, kinds[k].name, o, &written,
					 &nwritten, err);
	/* where the time went, for each side whose recordings say (and the baseline's) */
	for (size_t side = 1; side < cmp->nsides && r >= 0 && (o->kinds & VP_CHART_WATERFALL); side++)
		if (vp_cmp_time_split(cmp, side, &split, &serr) == 0)
			r = draw(cmp, NULL, side, VP_CHART_WATERFALL, "waterfall", o, &written, &nwritten,
				 err);
	/* all or nothing: a failed run leaves none of its files, nor its directories */
	for (size_t i = 0; i < nwritten; i++) {
		if (r < 0)
			unlink(written[i]);
		else if (o->wrote)
			o->wrote(written[i], o->wrote_ctx);
		free(written[i]);
	}
	free(written);
	if (r < 0)
		remove_dirs(o->outdir, first);
	return r < 0 ? r : 0;
}
