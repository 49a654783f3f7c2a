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
#include "lib/util/threads.h"

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

/* The files one job wrote so far, its error, and whether it drew nothing. */
struct run {
	const struct vp_chart_opts *o;
	struct vp_error err;
	char **written;
	size_t nwritten;
	int r;
	int skipped;	/* a flame graph of an event one side did not record */
};

/* Write data to path (r: how making it went), remembered for runs_end. */
static int emit_path(struct run *R, const char *path, const void *data, size_t len, int r,
		     const char *what)
{
	if (r < 0)
		return vp_errorf(&R->err, r, "'%s': cannot %s: %s", path, what, strerror(-r));
	r = write_file(path, data, len, &R->err);
	char **v = r < 0 ? NULL : realloc(R->written, (R->nwritten + 1) * sizeof(*v));
	if (r >= 0 && (!v || !(v[R->nwritten] = strdup(path)))) {
		if (v)
			R->written = v;
		r = vp_errorf(&R->err, -ENOMEM, "'%s': out of memory", path);
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

/* A flame graph in every format asked for. */
static int flame(struct run *R, const struct vp_flame_src *src, size_t other, const char *kind)
{
	const struct vp_chart_opts *o = R->o;
	struct vp_flame_layout L;
	int r;

	if ((r = vp_flame_layout(src, other, o, &L, &R->err)) == -ENODATA && src->nsides > 1) {
		R->skipped = 1;	/* an event one side did not record: its other charts say so */
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

/* A run's work in jobs, drawn on every CPU the process may use (the bench's
 * 40 charts took 0.5-0.95 s on one of 2 CPUs), each job in a process of
 * its own: cairo does not promise that threads may share its fonts, and
 * ThreadSanitizer names races inside it when they do. Each job keeps its
 * own files and error; runs_end then takes them in the jobs' order, so the
 * files named, the warnings and the error are as if the jobs ran one after
 * the other. */
enum job_kind { JOB_CHART, JOB_FLAME, JOB_PAGE };

struct job {
	enum job_kind what;
	const struct vp_cmp_event *e;	/* JOB_CHART: NULL for a side's waterfall */
	size_t side, other;
	unsigned kind;
	const char *kname;
	struct vp_flame_src src;	/* JOB_FLAME */
	struct run R;
};

struct jobs {
	const struct vp_comparison *cmp;
	const struct vp_chart_opts *o;
	struct job *v;
	size_t n, cap;
	size_t first;		/* make_dirs' */
};

static struct job *job_add(struct jobs *J, enum job_kind what)
{
	if (J->n == J->cap) {
		size_t cap = J->cap ? J->cap * 2 : 16;
		struct job *v = realloc(J->v, cap * sizeof(*v));
		if (!v)
			return NULL;
		J->v = v;
		J->cap = cap;
	}
	J->v[J->n] = (struct job){ .what = what, .R.o = J->o };
	return &J->v[J->n++];
}

static void job_run(struct jobs *J, size_t i)
{
	struct job *j = &J->v[i];

	if (j->what == JOB_CHART) {
		j->R.r = draw(&j->R, J->cmp, j->e, j->side, j->kind, j->kname);
	} else if (j->what == JOB_FLAME) {
		j->R.r = flame(&j->R, &j->src, j->other, "flame");
	} else {
		char path[4096], *page = NULL;
		size_t len = 0;
		snprintf(path, sizeof(path), "%s/index.html", J->o->outdir);
		j->R.r = vp_html_page(J->cmp, J->o, &page, &len);
		j->R.r = emit_path(&j->R, path, page, len, j->R.r, "write the report");
		free(page);
	}
}

/* A job's outcome, as the process that drew it hands it back. */
#define JOB_FILES 4	/* the chart formats: a job writes at most one of each */
struct job_result {
	struct vp_error err;
	int r, skipped;
	size_t nwritten;
	char written[JOB_FILES][4096];
};

static void job_in_proc(void *ctx, size_t i, void *result)
{
	struct jobs *J = ctx;
	struct run *R = &J->v[i].R;
	struct job_result *out = result;

	job_run(J, i);
	out->err = R->err;
	out->r = R->r;
	out->skipped = R->skipped;
	for (size_t k = 0; k < R->nwritten; k++) {
		if (k < JOB_FILES)
			snprintf(out->written[out->nwritten++], sizeof(out->written[0]), "%s",
				 R->written[k]);
		free(R->written[k]);
	}
	free(R->written);
	R->written = NULL;
	R->nwritten = 0;
}

/* The jobs drawn on `procs` processes; each job's run then as if drawn here. */
static int run_procs(struct jobs *J, unsigned procs, struct vp_error *err)
{
	struct vp_proc_results res;

	if (vp_run_procs(procs, J->n, sizeof(struct job_result), job_in_proc, J, &res) < 0)
		return vp_errorf(err, -ENOMEM, "'%s': out of memory", J->o->outdir);
	for (size_t i = 0; i < J->n; i++) {
		struct run *R = &J->v[i].R;
		const struct job_result *x = (const struct job_result *)res.v + i;
		if (!res.done[i]) {
			R->r = vp_errorf(&R->err, -ECHILD, "'%s': a process drawing the charts ended "
					 "before its chart was drawn", J->o->outdir);
			continue;
		}
		R->err = x->err;
		R->r = x->r;
		R->skipped = x->skipped;
		R->written = x->nwritten ? calloc(x->nwritten, sizeof(*R->written)) : NULL;
		for (size_t k = 0; k < x->nwritten; k++)
			if (!R->written || !(R->written[R->nwritten] = strdup(x->written[k]))) {
				/* out of memory: a file runs_end could not name is taken away
				 * now; the job's own error, or the first such file, is said */
				unlink(x->written[k]);
				if (R->r >= 0)
					R->r = vp_errorf(&R->err, -ENOMEM, "'%s': out of memory",
							 x->written[k]);
			} else {
				R->nwritten++;
			}
	}
	vp_proc_results_free(&res);
	return 0;
}

/* Every job drawn (r: how listing them went), then all files or none. */
static int runs_end(struct jobs *J, int r, struct vp_error *err)
{
	unsigned procs = J->o->procs ? J->o->procs : vp_cpus_available();

	if (r >= 0 && procs > 1 && J->n > 1)
		r = run_procs(J, procs, err);
	else	/* one after the other: none after the first that fails */
		for (size_t i = 0; i < J->n && r >= 0 && (!i || J->v[i - 1].R.r >= 0); i++)
			job_run(J, i);
	for (size_t i = 0; i < J->n; i++) {
		struct run *R = &J->v[i].R;
		if (R->skipped)
			vp_warn("no flame graph of %s", R->err.msg);
		if (R->r < 0 && r >= 0) {
			*err = R->err;
			r = R->r;
		}
	}
	for (size_t i = 0; i < J->n; i++) {
		struct run *R = &J->v[i].R;
		for (size_t k = 0; k < R->nwritten; k++) {
			if (r < 0)
				unlink(R->written[k]);
			else if (J->o->wrote)
				J->o->wrote(R->written[k], J->o->wrote_ctx);
			free(R->written[k]);
		}
		free(R->written);
	}
	free(J->v);
	if (r < 0)
		remove_dirs(J->o->outdir, J->first);
	return r < 0 ? r : 0;
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
	struct jobs J = { cmp, o, NULL, 0, 0, 0 };
	struct job *j = &(struct job){ 0 };
	int r;

	if ((r = make_dirs(o->outdir, &J.first, err)) < 0)
		return r;
	for (size_t i = 0; i < cmp->nevents && j; i++) {
		const struct vp_cmp_event *e = &cmp->events[i];
		for (size_t k = 0; k < 2 && j; k++)
			if ((o->kinds & kinds[k].bit) && (j = job_add(&J, JOB_CHART))) {
				j->e = e;
				j->kind = kinds[k].bit;
				j->kname = kinds[k].name;
			}
		if ((o->kinds & VP_CHART_FLAME) && e->stacks && j && (j = job_add(&J, JOB_FLAME)))
			j->other = vp_flame_cmp_src(cmp, e, o, &j->src);
	}
	/* where the time went, for each side whose recordings say (and the baseline's) */
	for (size_t side = 1; side < cmp->nsides && j && (o->kinds & VP_CHART_WATERFALL); side++)
		if (vp_cmp_time_split(cmp, side, &split, &serr) == 0 && (j = job_add(&J, JOB_CHART))) {
			j->side = side;
			j->kind = VP_CHART_WATERFALL;
			j->kname = "waterfall";
		}
	if (j && (o->formats & VP_FMT_HTML))
		j = job_add(&J, JOB_PAGE);
	if (!j)
		r = vp_errorf(err, -ENOMEM, "'%s': out of memory", o->outdir);
	return runs_end(&J, r, err);
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
	struct jobs J = { NULL, o, NULL, 0, 0, 0 };
	const char *label[1] = { profile_label(p) };
	int r;

	if ((r = make_dirs(o->outdir, &J.first, err)) < 0)
		return r;
	for (size_t i = 0; i < p->ntables && r >= 0; i++) {
		const struct vp_event_table *t = p->tables[i];
		struct job *j;
		if (!t->stacks || !t->total_samples)
			continue;
		if (!(j = job_add(&J, JOB_FLAME)))
			r = vp_errorf(err, -ENOMEM, "'%s': out of memory", o->outdir);
		else
			j->src = (struct vp_flame_src){ t->stacks, 1, NULL, label, t->name, o->value };
	}
	return runs_end(&J, r, err);
}
