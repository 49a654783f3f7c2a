/* Text tables for a terminal, what report prints by default: perf report's
 * layout for a profile (overhead, samples, period, the key columns); a
 * comparison's is in cmp_table.c. Names from files are escaped (text.h) and
 * column widths are those of what is written. */
#include "formats.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "text.h"
#include "lib/util/fmtmemo.h"
#include "lib/util/timefmt.h"

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

static const char SHARE[] = "%7.2f%%";

/* A row's share of its table, as perf prints it ("  12.34%"); buf holds
 * any double's (DBL_MAX: 316 bytes). */
#define SHARE_MAX 320

static const char *share_text(struct vp_fmt_memo *memo, const struct vp_event_table *t,
			      const struct vp_row *r, enum vp_value v, char *buf)
{
	const char *s = vp_fmt_double(memo, SHARE, 100.0 * vp_row_share(t, r, v), buf, SHARE_MAX);

	return s ? s : "";
}

static void write_table(FILE *f, const struct vp_event_table *t, const char *keys,
			const struct vp_out_opts *o)
{
	struct column cols[5];
	size_t ncols = 0;
	char spec[64];
	size_t rows = o->top && o->top < t->nrows ? o->top : t->nrows;
	int sw = 7, pw = 6, time = vp_table_is_time(t);
	char buf[32], pbuf[32], sbuf[SHARE_MAX];
	/* periods and shares repeat down a table (the flat bench file's 2,179
	 * rows: 5 ms to write, a third of it formatting them) */
	struct vp_fmt_memo *memo = vp_fmt_memo_new();
	const char *text;

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
		if ((text = vp_fmt_period(memo, r->period, time, pbuf, sizeof(pbuf))) &&
		    (int)strlen(text) > pw)
			pw = (int)strlen(text);
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
	vp_format_period(buf, sizeof(buf), t->total_period, time);
	fprintf(f, "# Samples: %" PRIu64 "  %s: %s  Lost: %" PRIu64 "\n", t->total_samples,
	       t->weight ? "Weight" : "Period", buf, t->lost_samples);
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
			fprintf(f, "  %s", share_text(memo, t, r, vp_value_children(o->value), sbuf));
		text = vp_fmt_period(memo, r->period, time, pbuf, sizeof(pbuf));
		fprintf(f, "  %s  %*" PRIu64 "  %*s", share_text(memo, t, r, vp_value_self(o->value), sbuf),
			sw, r->samples, pw, text ? text : "");
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
	vp_fmt_memo_free(memo);
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
