/* Flame graphs: a stack tree laid out as frames (root at the bottom, a
 * frame as wide as its inclusive value on the width side, children left to
 * right in name order), coloured by the change between two sides (a
 * diverging blue-orange scale, grey within sampling noise, one-side frames
 * hatched and outlined) or, for one side, by domain. This file lays out and
 * draws with cairo; flamesvg.c writes the same frames into an interactive
 * SVG. */
#include "render_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/compare/stats.h"

#define ALPHA 0.05		/* intervals at 95%: a change beyond noise leaves 0 out of its */

/* A drawn side's columns (one per run) of the source's tree. */
static void columns(const struct vp_flame_layout *L, int side, size_t *from, size_t *to)
{
	size_t s = L->side[side];
	const size_t *fr = L->src->first_run;

	*from = fr ? fr[s] : s;
	*to = fr ? fr[s + 1] : s + 1;
}

static uint64_t val(const struct vp_flame_layout *L, size_t node, int side)
{
	int samples = vp_value_self(L->src->value) == VP_VALUE_SAMPLES;
	size_t from, to;
	uint64_t sum = 0;

	columns(L, side, &from, &to);
	for (size_t c = from; c < to; c++) {
		const struct vp_stack_value *v = vp_stack_tree_value(L->src->tree, node, c);
		sum += samples ? v->samples : v->period;
	}
	return sum;
}

uint64_t vp_flame_value(const struct vp_flame_layout *L, size_t node, int side)
{
	return val(L, node, side);
}

uint64_t vp_flame_samples(const struct vp_flame_layout *L, size_t node, int side)
{
	size_t from, to;
	uint64_t sum = 0;

	columns(L, side, &from, &to);
	for (size_t c = from; c < to; c++)
		sum += vp_stack_tree_value(L->src->tree, node, c)->samples;
	return sum;
}

const char *vp_flame_name(const struct vp_flame_layout *L, size_t node)
{
	const char *n = vp_stack_tree_node(L->src->tree, node)->name;
	return node == 0 ? "all" : n ? n : "[unknown]";
}

/* The denominator of a side's shares: its own total, or with --flame-norm
 * none the larger of the two (values compared as they are). */
double vp_flame_total(const struct vp_flame_layout *L, int side)
{
	double t0 = (double)val(L, 0, 0), t1 = L->nsides > 1 ? (double)val(L, 0, 1) : t0;
	if (L->absolute)
		return t0 > t1 ? t0 : t1;
	return side ? t1 : t0;
}

double vp_flame_share(const struct vp_flame_layout *L, size_t node, int side)
{
	double t = vp_flame_total(L, side);
	return t > 0 ? (double)val(L, node, side) / t : 0;
}

static int push(struct vp_flame_layout *L, const struct vp_flame_frame *f)
{
	if (L->n == L->cap) {
		size_t cap = L->cap ? L->cap * 2 : 256;
		struct vp_flame_frame *v = realloc(L->f, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		L->f = v;
		L->cap = cap;
	}
	L->f[L->n++] = *f;
	return 0;
}

/* Frames of the subtree at node, x its left edge; those narrower than the
 * minimum are left out with everything above them, and counted. Siblings keep
 * their exact positions however many of them are left out. */
static int place(struct vp_flame_layout *L, size_t node, double x, int depth)
{
	const struct vp_stack_tree *t = L->src->tree;
	double scale = L->plot_w / vp_flame_total(L, L->wside);
	double w = (double)val(L, node, L->wside) * scale;
	int other = L->nsides > 1 ? !L->wside : -1;

	if (val(L, node, L->wside) == 0) {
		/* nothing on the width side: drawn nowhere; say so when it is a
		 * frame of the other side only (counted once, at its top) */
		if (other >= 0 && val(L, node, other) > 0) {
			L->hidden++;
			L->hidden_share += vp_flame_share(L, node, other);
		}
		return 0;
	}
	if (w < VP_FLAME_MIN_WIDTH) {
		L->omitted++;
		L->omitted_share += vp_flame_share(L, node, L->wside);
		return 0;
	}
	struct vp_flame_frame f = { (uint32_t)node, x, w, depth, VP_CHANGE_NONE, 0, 0 };
	if (push(L, &f) < 0)
		return -ENOMEM;
	if (depth > L->max_depth)
		L->max_depth = depth;
	for (uint32_t c = vp_stack_tree_node(t, node)->child; c; c = vp_stack_tree_node(t, c)->next) {
		if (place(L, c, x, depth + 1) < 0)
			return -ENOMEM;
		x += (double)val(L, c, L->wside) * scale;
	}
	return 0;
}

/* One drawn side's runs for frame node: each run's value and sample count
 * and its totals (a run without samples of the event is no run of it). */
struct runs {
	size_t n;
	double *value, *samples, *total, *total_samples;
};

static void fill_runs(const struct vp_flame_layout *L, int side, size_t node, struct runs *r)
{
	int samples = vp_value_self(L->src->value) == VP_VALUE_SAMPLES;
	size_t from, to;

	columns(L, side, &from, &to);
	r->n = 0;
	for (size_t c = from; c < to; c++) {
		const struct vp_stack_value *root = vp_stack_tree_value(L->src->tree, 0, c);
		const struct vp_stack_value *v = vp_stack_tree_value(L->src->tree, node, c);
		if (!root->samples)
			continue;
		r->value[r->n] = (double)(samples ? v->samples : v->period);
		r->samples[r->n] = (double)v->samples;
		r->total[r->n] = L->absolute ? L->run_max : (double)(samples ? root->samples : root->period);
		r->total_samples[r->n] = L->absolute ? L->run_max_samples : (double)root->samples;
		r->n++;
	}
}

/* Two sides: each frame's change judged by vp_stat_row on the sides' runs
 * (one run a side: sampling noise, the binomial variance of the shares;
 * more: the spread between runs, Welch): a change of share is real when its
 * interval at confidence 1 - alpha leaves out 0. With --flame-norm none
 * values are compared as they are: the interval of their ratio must leave
 * out 1. */
static int judge(struct vp_flame_layout *L, double alpha)
{
	size_t ncol = vp_stack_tree_sides(L->src->tree);
	double *buf = malloc(8 * (ncol ? ncol : 1) * sizeof(*buf));
	struct runs a = { 0, buf, buf + ncol, buf + 2 * ncol, buf + 3 * ncol };
	struct runs b = { 0, buf + 4 * ncol, buf + 5 * ncol, buf + 6 * ncol, buf + 7 * ncol };

	if (!buf)
		return -ENOMEM;
	for (size_t c = 0; c < ncol; c++) {
		const struct vp_stack_value *root = vp_stack_tree_value(L->src->tree, 0, c);
		double v = (double)(vp_value_self(L->src->value) == VP_VALUE_SAMPLES ? root->samples
										  : root->period);
		if (v > L->run_max)
			L->run_max = v;
		if ((double)root->samples > L->run_max_samples)
			L->run_max_samples = (double)root->samples;
	}
	for (size_t i = 0; i < L->n; i++) {
		struct vp_flame_frame *f = &L->f[i];
		uint64_t v0 = val(L, f->node, 0), v1 = val(L, f->node, 1);
		struct vp_stat_result r;
		int real;

		if (v0 == 0 || v1 == 0) {
			f->change = v0 == 0 ? VP_CHANGE_ONLY1 : VP_CHANGE_ONLY0;
			continue;
		}
		fill_runs(L, 0, f->node, &a);
		fill_runs(L, 1, f->node, &b);
		struct vp_stat_side sa = { a.n, a.value, a.samples, a.total, a.total_samples };
		struct vp_stat_side sb = { b.n, b.value, b.samples, b.total, b.total_samples };
		if (vp_stat_row(&sa, &sb, alpha, &r) < 0) {
			f->change = VP_CHANGE_NOISE;	/* nothing to judge by */
			continue;
		}
		L->basis = r.basis;
		f->lo = L->absolute ? r.ratio_lo : r.delta_lo;
		f->hi = L->absolute ? r.ratio_hi : r.delta_hi;
		real = L->absolute ? (r.ratio_lo > 1 || r.ratio_hi < 1) : (r.delta_lo > 0 || r.delta_hi < 0);
		double d = L->absolute ? (double)v1 - (double)v0
				       : vp_flame_share(L, f->node, 1) - vp_flame_share(L, f->node, 0);
		f->change = !real || d == 0 ? VP_CHANGE_NOISE : d > 0 ? VP_CHANGE_UP : VP_CHANGE_DOWN;
	}
	free(buf);
	return 0;
}

static int is_side(const struct vp_flame_src *src, size_t s, const char *name)
{
	if (s == 0 && (!strcmp(name, "host") || !strcmp(name, "baseline")))
		return 1;
	if (s == 1 && !strcmp(name, "guest"))
		return 1;
	return src->label[s] && !strcmp(name, src->label[s]);
}

size_t vp_flame_cmp_src(const struct vp_comparison *cmp, const struct vp_cmp_event *e,
			const struct vp_chart_opts *o, struct vp_flame_src *src)
{
	/* the baseline against the second side, or against the side --flame-width names */
	size_t other = 1;

	for (size_t s = 2; o->flame_width && s < cmp->nsides; s++)
		if (!strcmp(o->flame_width, cmp->label[s]))
			other = s;
	*src = (struct vp_flame_src){ e->stacks, cmp->nsides, cmp->first_run, cmp->label, e->name,
				      vp_value_self(cmp->value) };
	return other;
}

int vp_flame_layout(const struct vp_flame_src *src, size_t other, const struct vp_chart_opts *o,
		    struct vp_flame_layout *L, struct vp_error *err)
{
	int r;

	memset(L, 0, sizeof(*L));
	L->src = src;
	L->nsides = src->nsides > 1 ? 2 : 1;
	L->side[0] = 0;
	L->side[1] = src->nsides > 1 ? other : 0;
	for (int s = 0; s < L->nsides; s++)
		L->label[s] = src->label[L->side[s]] ? src->label[L->side[s]] : "profile";
	L->absolute = o->flame_absolute && L->nsides > 1;
	L->wside = L->nsides - 1;
	if (o->flame_width && L->nsides > 1) {
		if (is_side(src, 0, o->flame_width))
			L->wside = 0;
		else if (!is_side(src, other, o->flame_width))
			return vp_errorf(err, -EINVAL, "--flame-width: no side '%s' (host, guest or a "
					 "side's label: %s, %s...)", o->flame_width, L->label[0], L->label[1]);
	}
	L->width = o->width > 0 ? o->width : 1000;
	L->plot_x = 10;
	L->plot_w = L->width - 20;
	if (val(L, 0, L->wside) == 0)
		return vp_errorf(err, -ENODATA, "%s: no samples with call stacks on the %s side",
				 src->event, L->label[L->wside]);
	if ((r = place(L, 0, L->plot_x, 0)) < 0 || (L->nsides > 1 && (r = judge(L, ALPHA)) < 0)) {
		vp_flame_layout_free(L);
		return vp_errorf(err, -ENOMEM, "out of memory");
	}
	L->top = VP_FLAME_HEAD;
	L->height = VP_FLAME_HEAD + (double)(L->max_depth + 1) * VP_FLAME_ROW + 16;
	if (o->height > L->height)
		L->height = o->height;
	return 0;
}

void vp_flame_layout_free(struct vp_flame_layout *L)
{
	free(L->f);
	L->f = NULL;
	L->n = L->cap = 0;
}

double vp_flame_y(const struct vp_flame_layout *L, int depth)
{
	return L->top + (double)(L->max_depth - depth) * VP_FLAME_ROW;
}

/* ---- colours ---- */

static struct rgb mix(const struct rgb *a, const struct rgb *b, double t)
{
	return (struct rgb){ a->r + (b->r - a->r) * t, a->g + (b->g - a->g) * t,
			     a->b + (b->b - a->b) * t };
}

static const struct rgb white = { 1, 1, 1 };
const struct rgb vp_flame_neutral_rgb = { 0.86, 0.86, 0.86 };	/* within noise */

/* Domains of a plain flame graph, Okabe-Ito hues apart from the two sides'
 * blue and orange: vermillion user, sky blue kernel, bluish green and yellow
 * the guest's, reddish purple the hypervisor; grey the commands. */
static const struct rgb *domain_rgb(char d)
{
	static const struct rgb user = { 0.835, 0.369, 0.0 }, kernel = { 0.337, 0.706, 0.914 },
				guser = { 0.0, 0.620, 0.451 }, gkernel = { 0.941, 0.894, 0.259 },
				hv = { 0.800, 0.475, 0.655 }, other = { 0.6, 0.6, 0.6 };
	switch (d) {
	case VP_DOM_USER: return &user;
	case VP_DOM_KERNEL: return &kernel;
	case VP_DOM_GUEST_USER: return &guser;
	case VP_DOM_GUEST_KERNEL: return &gkernel;
	case VP_DOM_HYPERVISOR: return &hv;
	default: return &other;
	}
}

struct rgb vp_flame_rgb(const struct vp_flame_layout *L, const struct vp_flame_frame *f)
{
	const struct vp_stack_node *n = vp_stack_tree_node(L->src->tree, f->node);

	if (L->nsides == 1) {
		/* a shade per name, so neighbours of one domain stay apart */
		uint64_t h = vp_hash_bytes(vp_flame_name(L, f->node), strlen(vp_flame_name(L, f->node)), 7);
		double t = 0.35 + 0.4 * (double)(h % 1000) / 1000.0;
		return mix(&white, domain_rgb(n->depth > 1 ? n->domain : 0), t);
	}
	switch (f->change) {
	case VP_CHANGE_ONLY0: return vp_host_rgb;
	case VP_CHANGE_ONLY1: return vp_guest_rgb;
	case VP_CHANGE_UP:
	case VP_CHANGE_DOWN: {
		const struct rgb *full = f->change == VP_CHANGE_UP ? &vp_guest_rgb : &vp_host_rgb;
		struct rgb pale = mix(&white, full, 0.3);
		double s0 = vp_flame_share(L, f->node, 0), s1 = vp_flame_share(L, f->node, 1);
		double m = fabs(log2(s1 / s0)) / 2;	/* 4x is the full colour */
		return mix(&pale, full, 0.15 + 0.85 * (m > 1 ? 1 : m));
	}
	default: return vp_flame_neutral_rgb;
	}
}

/* ---- text ---- */

char *vp_flame_tooltip(const struct vp_flame_layout *L, const struct vp_flame_frame *f)
{
	const struct vp_stack_node *n = vp_stack_tree_node(L->src->tree, f->node);
	const char *what = vp_value_self(L->src->value) == VP_VALUE_SAMPLES ? "samples" : "period";
	char *out = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&out, &len);

	if (!m)
		return NULL;
	fprintf(m, "%s", vp_flame_name(L, f->node));
	if (n->depth > 1)
		fprintf(m, "\n[%c] %s", n->domain ? n->domain : '.', n->dso ? n->dso : "?");
	for (int s = 0; s < L->nsides; s++)
		fprintf(m, "\n%s: %" PRIu64 " samples, %s %" PRIu64 " (%.3f%% of %s)",
			L->label[s], vp_flame_samples(L, f->node, s),
			what, val(L, f->node, s), 100 * vp_flame_share(L, f->node, s),
			L->absolute ? "the larger total" : "its total");
	if (L->nsides > 1) {
		double v0 = (double)val(L, f->node, 0), v1 = (double)val(L, f->node, 1);
		const char *l0 = L->label[0], *l1 = L->label[1];
		if (f->change == VP_CHANGE_ONLY0 || f->change == VP_CHANGE_ONLY1)
			fprintf(m, "\nonly in %s", f->change == VP_CHANGE_ONLY0 ? l0 : l1);
		else if (L->absolute)
			fprintf(m, "\n%s/%s: %.3f\u00d7 (95%% interval %.3f to %.3f): %s", l1, l0, v1 / v0,
				f->lo, f->hi, f->change == VP_CHANGE_NOISE ? "within noise" : "beyond noise");
		else
			fprintf(m, "\n%s/%s: %.3f\u00d7; share %+.3f pp (95%% interval %+.3f to %+.3f): %s",
				l1, l0, v1 / v0, 100 * (vp_flame_share(L, f->node, 1) -
				vp_flame_share(L, f->node, 0)), f->lo, f->hi, f->change == VP_CHANGE_NOISE ?
				"within noise" : "beyond noise");
	}
	if (fclose(m) != 0) {
		free(out);
		return NULL;
	}
	return out;
}

/* A swatch of the legend: a filled box, hatched and outlined for one-side
 * frames; returns the x after its text. */
static double swatch(struct canvas *c, double x, double y, const struct rgb *fill, int hatched,
		     const char *text)
{
	cairo_t *cr = c->cr;

	vp_set_rgb(cr, fill);
	cairo_rectangle(cr, x, y - 10, 14, 12);
	cairo_fill(cr);
	if (hatched)
		vp_flame_hatch(cr, x, y - 10, 14, 12);
	vp_set_rgb(cr, &vp_ink_rgb);
	return x + 18 + vp_text(c, text, x + 18, y, 0) + 16;
}

void vp_flame_hatch(cairo_t *cr, double x, double y, double w, double h)
{
	cairo_save(cr);
	cairo_rectangle(cr, x, y, w, h);
	cairo_clip(cr);
	cairo_set_source_rgba(cr, 1, 1, 1, 0.75);
	cairo_set_line_width(cr, 1.5);
	for (double k = x - h; k < x + w; k += 5) {
		cairo_move_to(cr, k, y + h);
		cairo_line_to(cr, k + h, y);
	}
	cairo_stroke(cr);
	cairo_restore(cr);
	cairo_set_source_rgb(cr, 0.13, 0.13, 0.13);
	cairo_set_line_width(cr, 1);
	cairo_rectangle(cr, x + 0.5, y + 0.5, w - 1, h - 1);
	cairo_stroke(cr);
}

void vp_flame_title(const struct vp_flame_layout *L, const struct vp_chart_opts *o, char *buf,
		    size_t size)
{
	const struct vp_flame_src *s = L->src;

	if (o->title)
		snprintf(buf, size, "%s", o->title);
	else if (L->nsides > 1)
		snprintf(buf, size, "%s: %s vs %s, differential flame graph", s->event, L->label[1],
			 L->label[0]);
	else
		snprintf(buf, size, "%s%s%s: flame graph", s->event, s->label[0] ? " of " : "",
			 s->label[0] ? s->label[0] : "");
}

/* The heading: title, what width and colour mean, the legend, and what is
 * not drawn. */
static void heading(struct canvas *c, const struct vp_flame_layout *L,
		    const struct vp_chart_opts *o)
{
	cairo_t *cr = c->cr;
	const struct vp_flame_src *s = L->src;
	const char *what = vp_value_self(s->value) == VP_VALUE_SAMPLES ? "samples" : "period";
	const char *ws = L->label[L->wside];
	char buf[1024], fit[1024], tot[32], tot2[32];
	double x = 16, avail = c->w - 32;

	vp_flame_title(L, o, buf, sizeof(buf));
	vp_font(cr, 17, 1);
	vp_set_rgb(cr, &vp_ink_rgb);
	vp_fit(cr, buf, avail, fit, sizeof(fit));
	vp_text(c, fit, 16, 28, 0);

	vp_font(cr, 11, 0);
	vp_format_count((double)val(L, 0, L->wside), tot, sizeof(tot));
	if (L->nsides == 1)
		snprintf(buf, sizeof(buf), "width: inclusive %s (a frame and all it called; total %s); "
			 "colour: domain", what, tot);
	else if (L->absolute)
		snprintf(buf, sizeof(buf), "width: %s's inclusive %s (full width: the larger total, %s); "
			 "colour: %s's %s against %s's", ws, what,
			 (vp_format_count(vp_flame_total(L, 0), tot2, sizeof(tot2)), tot2), L->label[1], what,
			 L->label[0]);
	else
		snprintf(buf, sizeof(buf), "width: %s's inclusive %s as a share of %s's total (%s); "
			 "colour: %s's share against %s's", ws, what, ws, tot, L->label[1], L->label[0]);
	vp_fit(cr, buf, avail, fit, sizeof(fit));
	vp_text(c, fit, 16, 48, 0);

	if (L->nsides == 1) {
		static const char doms[] = { VP_DOM_USER, VP_DOM_KERNEL, VP_DOM_GUEST_USER,
					     VP_DOM_GUEST_KERNEL, VP_DOM_HYPERVISOR };
		static const char *const names[] = { "[.] user", "[k] kernel", "[u] guest user",
						     "[g] guest kernel", "[H] hypervisor" };
		for (size_t d = 0; d < sizeof(doms); d++) {
			int seen = 0;
			for (size_t i = 0; i < L->n && !seen; i++)
				seen = vp_stack_tree_node(s->tree, L->f[i].node)->domain == doms[d];
			if (seen) {
				struct rgb shade = mix(&white, domain_rgb(doms[d]), 0.55);
				x = swatch(c, x, 70, &shade, 0, names[d]);
			}
		}
	} else {
		struct rgb hp = mix(&white, &vp_host_rgb, 0.3), gp = mix(&white, &vp_guest_rgb, 0.3);
		struct rgb h = mix(&hp, &vp_host_rgb, 0.6), g = mix(&gp, &vp_guest_rgb, 0.6);
		snprintf(buf, sizeof(buf), "%s larger", L->label[0]);
		x = swatch(c, x, 70, &h, 0, buf);
		x = swatch(c, x, 70, &vp_flame_neutral_rgb, 0, "within noise");
		snprintf(buf, sizeof(buf), "%s larger (darker: up to 4\u00d7)", L->label[1]);
		x = swatch(c, x, 70, &g, 0, buf);
		snprintf(buf, sizeof(buf), "only in %s", L->label[L->wside]);
		swatch(c, x, 70, L->wside ? &vp_guest_rgb : &vp_host_rgb, 1, buf);
	}

	/* what is not drawn, and what grey means: two short lines */
	size_t n = 0;
	buf[0] = 0;
	if (L->hidden)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%zu frames only in %s (%.1f%% of it) are "
				      "not drawn: --flame-width %s draws them.  ", L->hidden,
				      L->label[!L->wside], 100 * L->hidden_share, L->label[!L->wside]);
	if (L->omitted && n < sizeof(buf))
		snprintf(buf + n, sizeof(buf) - n, "%zu frames narrower than %.1f px (%.2f%% in all) are "
			 "left out.", L->omitted, VP_FLAME_MIN_WIDTH, 100 * L->omitted_share);
	vp_set_rgb(cr, &vp_muted_rgb);
	vp_font(cr, 10, 0);
	vp_fit(cr, buf, avail, fit, sizeof(fit));
	vp_text(c, fit, 16, 90, 0);
	if (L->nsides > 1) {
		snprintf(buf, sizeof(buf), "Grey: the %.0f%% interval of the %s takes in %s (%s).",
			 100 * (1 - ALPHA), L->absolute ? "ratio" : "share difference",
			 L->absolute ? "1" : "0", L->basis == VP_STAT_RUNS ?
			 "the spread between each side's runs, Welch" : "sampling noise: the binomial "
			 "variance of the frame's samples");
		vp_fit(cr, buf, avail, fit, sizeof(fit));
		vp_text(c, fit, 16, 104, 0);
	}
}

/* The start of name and an ellipsis, as much as fits width (whole UTF-8
 * characters). */
static void fit_start(cairo_t *cr, const char *name, double width, char *out, size_t size)
{
	size_t n = strlen(name);

	if (n + 4 > size)
		n = size - 4;
	for (; n > 0; n--) {
		if (((unsigned char)name[n] & 0xc0) == 0x80)
			continue;	/* not a character's first byte */
		snprintf(out, size, "%.*s\u2026", (int)n, name);
		if (vp_text_width(cr, out) <= width)
			return;
	}
	out[0] = 0;
}

void vp_flame_label(cairo_t *cr, const char *name, double w, char *out, size_t size)
{
	out[0] = 0;
	if (w < VP_FLAME_FONT * 2.2)
		return;
	vp_fit(cr, name, w - 6, out, size);
	/* a middle cut of a few characters says less than the name's start */
	if (strcmp(out, name) && strlen(out) < 16)
		fit_start(cr, name, w - 6, out, size);
	if (strlen(out) <= 4 && strcmp(out, name))
		out[0] = 0;	/* an ellipsis and a letter say nothing */
}

int vp_draw_flame(struct canvas *c, const struct vp_flame_layout *L, const struct vp_chart_opts *o,
		  int frames)
{
	cairo_t *cr = c->cr;
	char label[512];

	heading(c, L, o);
	if (!frames)
		return 0;
	vp_font(cr, VP_FLAME_FONT, 0);
	for (size_t i = 0; i < L->n; i++) {
		const struct vp_flame_frame *f = &L->f[i];
		struct rgb fill = vp_flame_rgb(L, f);
		double y = vp_flame_y(L, f->depth), h = VP_FLAME_ROW - 1;

		vp_set_rgb(cr, &fill);
		cairo_rectangle(cr, f->x, y, f->w > 1 ? f->w - 0.5 : f->w, h);
		cairo_fill(cr);
		if (f->change == VP_CHANGE_ONLY0 || f->change == VP_CHANGE_ONLY1)
			vp_flame_hatch(cr, f->x, y, f->w, h);
		vp_flame_label(cr, vp_flame_name(L, f->node), f->w, label, sizeof(label));
		if (label[0]) {
			vp_set_rgb(cr, &vp_ink_rgb);
			vp_text(c, label, f->x + 3, y + h - 4.5, 0);
		}
	}
	return 0;
}
