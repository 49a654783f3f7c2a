/* Chart files: for each event and chart kind, draw once per format in memory
 * (formats.c), enrich the SVG (svgmeta.c), then write each file atomically;
 * the HTML report (html.c) last, all of them or none. */
#include "render_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/tree.h>

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
	{ "html", VP_FMT_HTML },
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

/* One chart in one format, in memory: SVG through its enriched tree. */
static int draw(const struct vp_comparison *cmp, const struct vp_cmp_event *e,
		const struct vp_chart_opts *o, unsigned kind, unsigned fmt, struct vp_membuf *b)
{
	xmlDocPtr doc;
	xmlChar *mem = NULL;
	int size = 0, r;
	double w, h;

	if (fmt != VP_FMT_SVG)
		return vp_render_format(cmp, e, o, kind, fmt, b, NULL, &w, &h);
	if ((r = vp_chart_svg_doc(cmp, e, o, kind, &doc)) < 0)
		return r;
	xmlDocDumpFormatMemoryEnc(doc, &mem, &size, "UTF-8", 0);
	xmlFreeDoc(doc);
	if (!mem)
		return -ENOMEM;
	if ((b->p = malloc((size_t)size)))
		memcpy(b->p, mem, (size_t)size);
	b->n = (size_t)size;
	xmlFree(mem);
	return b->p ? 0 : -ENOMEM;
}

/* Written files, so that a failed run can take them away again. */
struct written {
	char **v;
	size_t n;
};

static int emit(struct written *wr, const char *path, const void *data, size_t len, struct vp_error *err)
{
	char **v;
	int r;

	if ((r = write_file(path, data, len, err)) < 0)
		return r;
	if (!(v = realloc(wr->v, (wr->n + 1) * sizeof(*v))) || !(v[wr->n] = strdup(path))) {
		if (v)
			wr->v = v;
		unlink(path);
		return vp_errorf(err, -ENOMEM, "'%s': out of memory", path);
	}
	wr->v = v;
	wr->n++;
	return 0;
}

int vp_chart_render(const struct vp_comparison *cmp, const struct vp_chart_opts *o, struct vp_error *err)
{
	static const struct { unsigned bit; const char *name; } kinds[] = {
		{ VP_CHART_BAR, "bar" }, { VP_CHART_CIRCLE, "circle" },
	};
	char path[4096];
	struct written wr = { NULL, 0 };
	size_t first;
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

				if (!(o->formats & fmts[f].bit) || fmts[f].bit == VP_FMT_HTML)
					continue;
				r = draw(cmp, e, o, kinds[k].bit, fmts[f].bit, &b);
				file_name(path, sizeof(path), o->outdir, e->name, kinds[k].name, fmts[f].name);
				if (r < 0)
					r = vp_errorf(err, r, "'%s': cannot draw the chart: %s", path, strerror(-r));
				else
					r = emit(&wr, path, b.p, b.n, err);
				free(b.p);
			}
		}
	}
	if (r >= 0 && (o->formats & VP_FMT_HTML)) {
		char *page = NULL;
		size_t len = 0;
		snprintf(path, sizeof(path), "%s/index.html", o->outdir);
		r = vp_html_page(cmp, o, &page, &len);
		if (r < 0)
			r = vp_errorf(err, r, "'%s': cannot write the report: %s", path, strerror(-r));
		else
			r = emit(&wr, path, page, len, err);
		free(page);
	}
	/* all or nothing: a failed run leaves none of its files, nor its directories */
	for (size_t i = 0; i < wr.n; i++) {
		if (r < 0)
			unlink(wr.v[i]);
		else if (o->wrote)
			o->wrote(wr.v[i], o->wrote_ctx);
		free(wr.v[i]);
	}
	free(wr.v);
	if (r < 0)
		remove_dirs(o->outdir, first);
	return r < 0 ? r : 0;
}
