/* Text tables for a terminal, what report and compare print by default:
 * perf report's layout for a profile (overhead, samples, period, the key
 * columns), and per event the joined rows of a comparison with both sides,
 * the ratio and the difference of shares. Names from files are escaped
 * (text.h) and column widths are those of what is written. */
#include "formats.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "text.h"

struct column {
	const char *title;
	unsigned key;	/* VP_KEY_* shown in this column */
	int width;
};

static size_t sym_len(const struct vp_row *r, int full)
{
	return full ? strlen(r->symbol) : vp_symbol_display_len(r->symbol);
}

static int sym_width(const struct vp_row *r, int full)
{
	return 4 + (int)vp_text_write(NULL, r->symbol, sym_len(r, full));
}

static void write_table(FILE *f, const struct vp_event_table *t, const char *keys,
			const struct vp_out_opts *o)
{
	struct column cols[5];
	size_t ncols = 0;
	char spec[64];
	size_t rows = o->top && o->top < t->nrows ? o->top : t->nrows;
	int sw = 7, pw = 6;
	char buf[32];

	snprintf(spec, sizeof(spec), "%s", keys);
	for (char *save = NULL, *tok = strtok_r(spec, ",", &save); tok && ncols < 5;
	     tok = strtok_r(NULL, ",", &save)) {
		if (t->group && ncols == 0)
			cols[ncols++] = (struct column){ t->group, VP_KEY_SYM, (int)strlen(t->group) };
		if (t->group)
			continue;
		if (!strcmp(tok, "sym") || !strcmp(tok, "symbol"))
			cols[ncols++] = (struct column){ "Symbol", VP_KEY_SYM, 6 };
		else if (!strcmp(tok, "dso"))
			cols[ncols++] = (struct column){ "Shared Object", VP_KEY_DSO, 13 };
		else if (!strcmp(tok, "comm"))
			cols[ncols++] = (struct column){ "Command", VP_KEY_COMM, 7 };
		else if (!strcmp(tok, "pid"))
			cols[ncols++] = (struct column){ "Pid:Command", VP_KEY_PID, 11 };
	}
	for (size_t i = 0; i < rows; i++) {
		const struct vp_row *r = &t->rows[i];
		sw = snprintf(buf, sizeof(buf), "%" PRIu64, r->samples) > sw ? (int)strlen(buf) : sw;
		pw = snprintf(buf, sizeof(buf), "%" PRIu64, r->period) > pw ? (int)strlen(buf) : pw;
		for (size_t c = 0; c < ncols; c++) {
			int w = 0;
			if (cols[c].key == VP_KEY_SYM && t->group)
				w = (int)vp_text_puts(NULL, r->symbol);
			else if (cols[c].key == VP_KEY_SYM)
				w = sym_width(r, o->full_names);
			else if (cols[c].key == VP_KEY_DSO)
				w = (int)vp_text_puts(NULL, vp_dso_short_name(r->dso));
			else if (cols[c].key == VP_KEY_COMM)
				w = (int)vp_text_puts(NULL, r->comm);
			else if (cols[c].key == VP_KEY_PID)
				w = snprintf(buf, sizeof(buf), "%d:", r->pid) + (int)vp_text_puts(NULL, r->comm);
			if (w > cols[c].width)
				cols[c].width = w;
		}
	}

	fprintf(f, "# Event '");
	vp_text_puts(f, t->name);
	fprintf(f, "'\n");
	fprintf(f, "# Samples: %" PRIu64 "  %s: %" PRIu64 "  Lost: %" PRIu64 "\n", t->total_samples,
	       t->weight ? "Weight" : "Period", t->total_period, t->lost_samples);
	if (t->weight) {
		fprintf(f, "# Weight: sum of the tracepoint field '");
		vp_text_puts(f, t->weight);
		fprintf(f, "' (negative values count 0)\n");
	}
	if (rows < t->nrows)
		fprintf(f, "# Rows: top %zu of %zu\n", rows, t->nrows);
	/* --children: perf's two columns, the inclusive share first */
	fprintf(f, "#\n# %s%8s  %*s  %*s", t->children ? "Children  " : "",
		t->children ? "Self" : "Overhead", sw, "Samples", pw, "Period");
	for (size_t c = 0; c < ncols; c++) {
		fprintf(f, "  ");
		vp_text_pad(f, cols[c].title, c + 1 < ncols ? cols[c].width : 0);
	}
	fprintf(f, "\n# %s%8s  %*s  %*s", t->children ? "........  " : "", "........", sw, "", pw, "");
	for (size_t c = 0; c < ncols; c++) {
		fprintf(f, "  ");
		for (int k = 0; k < cols[c].width; k++)
			fputc('.', f);
	}
	fprintf(f, "\n#\n");
	for (size_t i = 0; i < rows; i++) {
		const struct vp_row *r = &t->rows[i];
		if (t->children)
			fprintf(f, "  %7.2f%%", 100.0 * vp_row_share(t, r, vp_value_children(o->value)));
		fprintf(f, "  %7.2f%%  %*" PRIu64 "  %*" PRIu64,
			100.0 * vp_row_share(t, r, vp_value_self(o->value)), sw, r->samples, pw, r->period);
		for (size_t c = 0; c < ncols; c++) {
			int w = c + 1 < ncols ? cols[c].width : 0;
			fprintf(f, "  ");
			if (cols[c].key == VP_KEY_SYM && t->group) {
				vp_text_pad(f, r->symbol, w);
			} else if (cols[c].key == VP_KEY_SYM) {
				int n = fprintf(f, "[%c] ", r->domain ? r->domain : '.');
				n += (int)vp_text_write(f, r->symbol, sym_len(r, o->full_names));
				fprintf(f, "%*s", w > n ? w - n : 0, "");
			} else if (cols[c].key == VP_KEY_DSO) {
				vp_text_pad(f, vp_dso_short_name(r->dso), w);
			} else if (cols[c].key == VP_KEY_COMM) {
				vp_text_pad(f, r->comm, w);
			} else {
				int n = fprintf(f, "%d:", r->pid) + (int)vp_text_puts(f, r->comm);
				fprintf(f, "%*s", w > n ? w - n : 0, "");
			}
		}
		fprintf(f, "\n");
	}
	fprintf(f, "\n");
}

int vp_profile_write_table(FILE *f, const struct vp_profile *p, const char *input, const char *keys,
			   const struct vp_out_opts *o)
{
	fprintf(f, "# vmprof report of '");
	vp_text_puts(f, input);
	fprintf(f, "'\n#\n");
	for (size_t e = 0; e < p->ntables; e++)
		write_table(f, p->tables[e], keys, o);
	return ferror(f) ? -EIO : 0;
}

static void ratio_text(char *buf, size_t n, const struct vp_cmp_row *r, enum vp_value v)
{
	enum vp_ratio_kind k;
	double x = vp_cmp_ratio(r, v, &k);

	if (k == VP_RATIO_BOTH)
		snprintf(buf, n, "%.2fx", x);
	else
		snprintf(buf, n, "%s", k == VP_RATIO_ONLY_HOST ? "only host" : k == VP_RATIO_ONLY_GUEST ? "only guest" : "-");
}

static int digits(uint64_t v)
{
	char b[32];
	return snprintf(b, sizeof(b), "%" PRIu64, v);
}

static void write_event(FILE *f, const struct vp_comparison *c, const struct vp_cmp_event *e, int full)
{
	int sw[2] = { 7, 7 }, pw[2] = { 6, 6 }, rw = 5;
	char buf[64];

	for (size_t i = 0; i < e->nrows; i++)
		for (int s = 0; s < 2; s++) {
			if (digits(e->rows[i].samples[s]) > sw[s])
				sw[s] = digits(e->rows[i].samples[s]);
			if (digits(e->rows[i].period[s]) > pw[s])
				pw[s] = digits(e->rows[i].period[s]);
		}
	for (size_t i = 0; i < e->nrows; i++) {
		ratio_text(buf, sizeof(buf), &e->rows[i], c->value);
		if ((int)strlen(buf) > rw)
			rw = (int)strlen(buf);
	}
	/* names come from the files: escaped (text.h) */
	fprintf(f, "# Event '");
	vp_text_puts(f, e->name);
	fprintf(f, "'");
	if (!e->present[0] || !e->present[1]) {
		fprintf(f, ": only in ");
		vp_text_puts(f, e->present[0] ? c->label[0] : c->label[1]);
	}
	fprintf(f, "\n");
	for (int s = 0; s < 2; s++)
		if (e->present[s]) {
			fprintf(f, "# %-6s ", s ? "guest" : "host");
			vp_text_puts(f, c->label[s]);
			fprintf(f, ": %" PRIu64 " samples, period %" PRIu64 "\n", e->total_samples[s],
			       e->total_period[s]);
		}
	fprintf(f, "# Rows: %zu of %zu, ranked by %s %s\n#\n", e->nrows, e->total_rows,
	       vp_rank_name(c->rank), c->value == VP_VALUE_SAMPLES ? "samples" : "period");
	/* column heads carry the side labels */
	for (int s = 0; s < 2; s++) {
		int w = sw[s] + pw[s] + 7 + 4;	/* two gaps of 2, "100.00%" */
		fprintf(f, "%s", s ? "  " : "# ");
		vp_text_fit(f, c->label[s], w);
	}
	fprintf(f, "\n# ");
	for (int s = 0; s < 2; s++)
		fprintf(f, "%s%*s  %*s  %7s", s ? "  " : "", sw[s], "Samples", pw[s], "Period", "Share");
	fprintf(f, "  %*s  %8s  Symbol\n", rw, "Ratio", "Delta pp");
	for (size_t i = 0; i < e->nrows; i++) {
		const struct vp_cmp_row *r = &e->rows[i];
		fprintf(f, "  ");
		for (int s = 0; s < 2; s++)
			fprintf(f, "%s%*" PRIu64 "  %*" PRIu64 "  %6.2f%%", s ? "  " : "", sw[s], r->samples[s],
			       pw[s], r->period[s], 100.0 * vp_cmp_share(e, r, s, c->value));
		ratio_text(buf, sizeof(buf), r, c->value);
		int n = full ? (int)strlen(r->symbol) : (int)vp_symbol_display_len(r->symbol);
		fprintf(f, "  %*s  %+8.2f  [%c] ", rw, buf, vp_cmp_delta_pp(e, r, c->value),
		       r->domain ? r->domain : '.');
		vp_text_write(f, r->symbol, (size_t)n);
		if (c->key & VP_KEY_DSO) {
			fprintf(f, "  (");
			vp_text_puts(f, r->dso ? vp_dso_short_name(r->dso) : "");
			fprintf(f, ")");
		}
		fprintf(f, "\n");
	}
	fprintf(f, "\n");
}

int vp_cmp_write_table(FILE *f, const struct vp_comparison *c, const char *host, const char *guest,
		       const struct vp_out_opts *o)
{
	fprintf(f, "# vmprof compare: %s = '%s', %s = '%s'\n#\n", c->label[0], host, c->label[1], guest);
	for (size_t e = 0; e < c->nevents; e++)
		write_event(f, c, &c->events[e], o->full_names);
	return ferror(f) ? -EIO : 0;
}
