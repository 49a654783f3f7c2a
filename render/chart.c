/* Chart files: for each event and chart kind, draw once per format in memory
 * (formats.c), enrich the SVG (svgmeta.c), then write each file atomically. */
#include "render_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util/outfile.h"

void vp_chart_opts_init(struct vp_chart_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->outdir = "charts";
	o->formats = VP_FMT_SVG | VP_FMT_PNG;
	o->kinds = VP_CHART_BAR | VP_CHART_CIRCLE;
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

static int enrich(const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		  const struct vp_chart_opts *o, const char *kind, struct vp_membuf *b,
		  const struct marks *m, double w, double h)
{
	char title[1024], *desc, *svg;
	size_t len, n;
	int r;

	if (m->oom || !(desc = vp_chart_describe(cmp, e)))
		return -ENOMEM;
	vp_chart_title(cmp, e, o, title, sizeof(title));
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

int vp_chart_render(const struct vp_comparison *cmp, const struct vp_chart_opts *o, struct vp_error *err)
{
	static const struct { unsigned bit; const char *name; } kinds[] = {
		{ VP_CHART_BAR, "bar" }, { VP_CHART_CIRCLE, "circle" },
	};
	char path[4096];
	char **written = NULL;	/* this run's files, removed again if a later one fails */
	size_t nwritten = 0, first;
	int r;

	if ((r = make_dirs(o->outdir, &first, err)) < 0)
		return r;
	for (size_t i = 0; i < cmp->nevents && r >= 0; i++) {
		const struct vp_cmp_event *e = &cmp->events[i];
		for (size_t k = 0; k < 2 && r >= 0; k++) {
			if (!(o->kinds & kinds[k].bit))
				continue;
			for (size_t f = 0; f < sizeof(fmts) / sizeof(*fmts) && r >= 0; f++) {
				struct vp_membuf b = { 0 };
				struct marks m = { 0 };
				double w, h;

				if (!(o->formats & fmts[f].bit))
					continue;
				r = vp_render_format(cmp, e, o, kinds[k].bit, fmts[f].bit, &b,
						     fmts[f].bit == VP_FMT_SVG ? &m : NULL, &w, &h);
				if (r >= 0 && fmts[f].bit == VP_FMT_SVG)
					r = enrich(cmp, e, o, kinds[k].name, &b, &m, w, h);
				vp_marks_free(&m);
				file_name(path, sizeof(path), o->outdir, e->name, kinds[k].name, fmts[f].name);
				if (r < 0) {
					free(b.p);
					r = vp_errorf(err, r, "'%s': cannot draw the chart: %s", path,
						      strerror(-r));
					break;
				}
				r = write_file(path, b.p, b.n, err);
				free(b.p);
				char **v = r < 0 ? NULL : realloc(written, (nwritten + 1) * sizeof(*v));
				if (r >= 0 && (!v || !(v[nwritten] = strdup(path)))) {
					if (v)
						written = v;
					r = vp_errorf(err, -ENOMEM, "'%s': out of memory", path);
					unlink(path);
				} else if (r >= 0) {
					written = v;
					nwritten++;
				}
			}
		}
	}
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
