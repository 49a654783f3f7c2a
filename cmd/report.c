/* vmprof report: per-event tables from a perf.data file. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <errno.h>
#include <sys/stat.h>

#include "commands.h"
#include "common.h"
#include "options.h"
#include "converters/text.h"
#include "converters/formats.h"
#include "lib/perfdata/perfdata.h"
#include "lib/symbols/portsyms.h"
#include "lib/profile/report.h"

enum { OPT_VALUE = VP_OPT_CMD, OPT_FORMAT };

static const char *const usage[] = { "[options] [FILE]", "--header [FILE]",
				     "--split DIR [options] [FILE]", NULL };

struct report_args {
	const char *input;
	const char *sort;
	unsigned long long top;
	enum vp_value value;
	int header, full_names;
	const char *format, *split;
	int csv_safe;
	const char **events;
	size_t nevents;
	struct vp_load_opts load;
};

static const struct vp_opt opts[] = {
	VP_OPT_STRING("input", 'i', "FILE", "perf.data file to read (default: perf.data; - for a pipe)",
		      struct report_args, input),
	{ "sort", 's', "KEYS", "row keys, comma separated: sym, dso, comm, pid (default dso,sym)",
	  's' },
	{ "top", 'n', "N", "print the N largest rows of each event (default 0: all)", 'n' },
	{ "event", 'e', "NAME", "only this event (repeat or comma separate for several)", 'e' },
	{ "value", 0, "WHAT", "rank and share by 'period' (default) or 'samples'", OPT_VALUE },
	VP_OPT_FLAG("header", 0, "print the file's metadata instead of tables", struct report_args,
		    header),
	VP_OPT_FLAG("full-names", 0, "show C++ parameter lists in symbol names", struct report_args,
		    full_names),
	{ "format", 0, "FMT", "table (default), csv or xml, on standard output", OPT_FORMAT },
	VP_OPT_STRING("split", 0, "DIR", "write one CSV per event into DIR (EVENT.csv) instead",
		      struct report_args, split),
	VP_CSV_SAFE_OPTIONS,
	VP_LOAD_OPTIONS(struct report_args, load),
	VP_OPT_STRING("weight", 0, "FIELD", "tracepoints: sum this field (e.g. ret: bytes) as the "
		      "period", struct report_args, load.weight),
	VP_OPT_STRING("group-by", 0, "FIELD", "tracepoints: rows by this field's value (e.g. "
		      "prev_state)", struct report_args, load.group_by),
	VP_OPT_FLAG("caller", 0, "charge each sample to the first caller outside the sampled object "
		    "(needs -g data)", struct report_args, load.caller),
	VP_OPT_END,
};

static const struct vp_cmd_info info = {
	"report", usage,
	"Read a perf.data file written by vmprof record, perf record or perf kvm record\n"
	"and print one table per event: each function's samples, summed period and share\n"
	"of the event's total, largest first. FILE may also be a vmprof CSV or XML\n"
	"table, perf report's text output (its stdio mode) or a pprof profile\n"
	"(profile.proto, gzipped or not: Go's CPU profiles, vmprof convert pprof).",
	opts, 0,
};

static int on_opt(int id, const char *arg, void *ctx)
{
	struct report_args *a = ctx;
	unsigned key;

	switch (id) {
	case 's':
		if (vp_key_parse(arg, &key) < 0)
			return vp_usage_error(&info, "unknown sort key in '%s' (use sym, dso, comm, pid)", arg);
		a->sort = arg;
		a->load.key = key;
		break;
	case 'n':
		if (vp_parse_u64(arg, &a->top) < 0)
			return vp_usage_error(&info, "--top wants a number, not '%s'", arg);
		break;
	case 'e':
		if (vp_add_names(&a->events, &a->nevents, arg) < 0)
			return vp_usage_error(&info, "out of memory");
		break;
	case OPT_VALUE:
		if (vp_parse_value(arg, &a->value) < 0)
			return vp_usage_error(&info, "--value is 'period' or 'samples', not '%s'", arg);
		break;
	case OPT_FORMAT:
		if (strcmp(arg, "table") && strcmp(arg, "csv") && strcmp(arg, "xml"))
			return vp_usage_error(&info, "--format is table, csv or xml, not '%s'", arg);
		a->format = arg;
		break;
	default: vp_csv_safe_opt(id, &a->csv_safe); break;
	}
	return 0;
}

/* ---- table output ---- */

struct column {
	const char *title;
	unsigned key;	/* VP_KEY_* shown in this column */
	int width;
};

/* Names are written escaped (text.h), and widths are those of what is written. */
static size_t sym_len(const struct vp_row *r, int full)
{
	return full ? strlen(r->symbol) : vp_symbol_display_len(r->symbol);
}

static int sym_width(const struct vp_row *r, int full)
{
	return 4 + (int)vp_text_write(NULL, r->symbol, sym_len(r, full));
}

static void print_table(const struct vp_event_table *t, const struct report_args *a,
			const char *keys)
{
	struct column cols[5];
	size_t ncols = 0;
	char spec[64];
	size_t rows = a->top && a->top < t->nrows ? a->top : t->nrows;
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
				w = sym_width(r, a->full_names);
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

	printf("# Event '");
	vp_text_puts(stdout, t->name);
	printf("'\n");
	printf("# Samples: %" PRIu64 "  %s: %" PRIu64 "  Lost: %" PRIu64 "\n", t->total_samples,
	       t->weight ? "Weight" : "Period", t->total_period, t->lost_samples);
	if (t->weight) {
		printf("# Weight: sum of the tracepoint field '");
		vp_text_puts(stdout, t->weight);
		printf("' (negative values count 0)\n");
	}
	if (rows < t->nrows)
		printf("# Rows: top %zu of %zu\n", rows, t->nrows);
	printf("#\n# %8s  %*s  %*s", "Overhead", sw, "Samples", pw, "Period");
	for (size_t c = 0; c < ncols; c++) {
		printf("  ");
		vp_text_pad(stdout, cols[c].title, c + 1 < ncols ? cols[c].width : 0);
	}
	printf("\n# %8s  %*s  %*s", "........", sw, "", pw, "");
	for (size_t c = 0; c < ncols; c++) {
		printf("  ");
		for (int k = 0; k < cols[c].width; k++)
			putchar('.');
	}
	printf("\n#\n");
	for (size_t i = 0; i < rows; i++) {
		const struct vp_row *r = &t->rows[i];
		printf("  %7.2f%%  %*" PRIu64 "  %*" PRIu64, 100.0 * vp_row_share(t, r, a->value), sw,
		       r->samples, pw, r->period);
		for (size_t c = 0; c < ncols; c++) {
			int w = c + 1 < ncols ? cols[c].width : 0;
			printf("  ");
			if (cols[c].key == VP_KEY_SYM && t->group) {
				vp_text_pad(stdout, r->symbol, w);
			} else if (cols[c].key == VP_KEY_SYM) {
				int n = printf("[%c] ", r->domain ? r->domain : '.');
				n += (int)vp_text_write(stdout, r->symbol, sym_len(r, a->full_names));
				printf("%*s", w > n ? w - n : 0, "");
			} else if (cols[c].key == VP_KEY_DSO) {
				vp_text_pad(stdout, vp_dso_short_name(r->dso), w);
			} else if (cols[c].key == VP_KEY_COMM) {
				vp_text_pad(stdout, r->comm, w);
			} else {
				int n = printf("%d:", r->pid) + (int)vp_text_puts(stdout, r->comm);
				printf("%*s", w > n ? w - n : 0, "");
			}
		}
		printf("\n");
	}
	printf("\n");
}

/* ---- --header ---- */

static void print_attr(const struct vp_evsel *ev)
{
	const struct perf_event_attr *a = &ev->attr;

	printf("# event : name = ");
	vp_text_puts(stdout, ev->name);
	printf(", type = %u, config = %#llx, size = %u, %s = %llu, "
	       "sample_type = %#llx, read_format = %#llx", a->type,
	       (unsigned long long)a->config, ev->file_attr_size, a->freq ? "sample_freq" : "sample_period",
	       (unsigned long long)a->sample_period, (unsigned long long)a->sample_type,
	       (unsigned long long)a->read_format);
#define FLAG(f) if (a->f) printf(", " #f " = 1")
	FLAG(exclude_user);
	FLAG(exclude_kernel);
	FLAG(exclude_hv);
	FLAG(exclude_host);
	FLAG(exclude_guest);
	FLAG(exclude_idle);
	FLAG(inherit);
	FLAG(sample_id_all);
	FLAG(precise_ip);
#undef FLAG
	printf(", ids = %zu\n", ev->nids);
}

static int print_header(const char *path, struct vp_error *err)
{
	struct vp_perfdata *pd;
	struct vp_strpool *pool = vp_strpool_new();
	struct vp_profile_meta m;
	uint64_t first, last;

	if (!pool)
		return vp_errorf(err, -12, "out of memory");
	if (vp_perfdata_open(path, &pd, err) < 0) {
		vp_strpool_free(pool);
		return -1;
	}
	vp_profile_meta_init(&m);
	vp_perfdata_meta(pd, &m, pool);
	vp_perfdata_sample_time(pd, &first, &last);
	printf("# file            : ");
	vp_text_puts(stdout, path);
	printf("%s\n", vp_perfdata_is_pipe(pd) ? " (pipe format)" : "");
	/* every string here comes from the file */
#define S(label, v) (printf("# %-16s: ", label), vp_text_puts(stdout, (v) ? (v) : "unknown"), \
		     putchar('\n'))
	S("hostname", m.hostname);
	S("os release", m.osrelease);
	S("perf version", m.perf_version);
	S("arch", m.arch);
	if (m.nr_cpus >= 0)
		printf("# %-16s: %d\n", "cpus online", m.nr_cpus);
	S("cpu description", m.cpudesc);
	S("command line", m.cmdline);
	if (m.vmprof_version)
		S("vmprof version", m.vmprof_version);
	if (m.label)
		S("label", m.label);
	S("hypervisor", m.hypervisor);
	if (m.start_time >= 0) {
		char tb[64];
		time_t t = (time_t)m.start_time;
		strftime(tb, sizeof(tb), "%Y-%m-%d %H:%M:%S %z", localtime(&t));
		printf("# %-16s: %s\n", "recorded at", tb);
	}
	if (first || last)
		printf("# %-16s: %.6f .. %.6f s (%.3f ms)\n", "sample time", first / 1e9, last / 1e9,
		       (last - first) / 1e6);
	if (m.duration >= 0)
		printf("# %-16s: %.3f s\n", "duration", m.duration);
	if (m.cpu_time >= 0)
		printf("# %-16s: %.3f s\n", "command cpu time", m.cpu_time);
	if (m.steal_time >= 0)
		printf("# %-16s: %.3f s\n", "steal time", m.steal_time);
#undef S
	const void *sd;
	uint64_t ss;
	struct vp_portsyms *ps;
	if (vp_perfdata_feature(pd, VP_FEAT_VMPROF_SYMS, &sd, &ss) == 0 &&
	    vp_portsyms_parse(vp_perfdata_path(pd), sd, (size_t)ss, &ps, err) == 0) {
		size_t nsyms = 0;
		for (size_t i = 0; i < vp_portsyms_count(ps); i++)
			nsyms += vp_symtab_count(vp_portsyms_at(ps, i)->tab);
		printf("# %-16s: %zu symbols of %zu objects\n", "portable symbols", nsyms,
		       vp_portsyms_count(ps));
		vp_portsyms_free(ps);
	}
	for (size_t i = 0; i < vp_perfdata_nevsel(pd); i++)
		print_attr(vp_perfdata_evsel(pd, i));
	vp_perfdata_close(pd);
	vp_strpool_free(pool);
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = { .input = "perf.data", .sort = "dso,sym", .format = "table",
				 .csv_safe = 1 };
	struct vp_error err = { 0 };
	struct vp_profile *prof = NULL;
	int i, status = 0;

	vp_load_opts_init(&a.load);
	i = vp_opts_parse(&info, argc, argv, on_opt, &a);
	if (i == VP_OPTS_HELP)
		return 0;
	if (i < 0)
		return 2;
	if (i < argc)
		a.input = argv[i++];
	if (i < argc)
		return vp_usage_error(&info, "unexpected argument '%s'", argv[i]), 2;

	if (a.header) {
		status = print_header(a.input, &err) < 0 ? vp_cmd_fail("report", &err) : 0;
		goto out;
	}
	a.load.events = a.events;
	if (vp_load_profile(a.input, &a.load, &prof, &err) < 0) {
		status = vp_cmd_fail("report", &err);
		goto out;
	}
	for (size_t e = 0; a.events && a.events[e]; e++)
		if (!vp_profile_find(prof, a.events[e])) {
			status = vp_cmd_failf("report", "'%s': no event '%s' in the file", a.input,
					      a.events[e]);
			goto out;
		}
	/* inputs other than perf.data are not filtered while loading */
	vp_profile_keep_events(prof, a.events);
	for (size_t e = 0; e < prof->ntables; e++)
		vp_table_sort(prof->tables[e], a.value);
	struct vp_out_opts oo;
	vp_out_opts_init(&oo);
	oo.value = a.value;
	oo.top = a.top;
	oo.full_names = a.full_names;
	oo.csv_safe = a.csv_safe;
	if (a.split) {
		status = vp_split_csv("report", prof, &oo, a.split, a.events);
	} else if (!strcmp(a.format, "csv")) {
		vp_profile_write_csv(stdout, prof, &oo);
	} else if (!strcmp(a.format, "xml")) {
		vp_profile_write_xml(stdout, prof, &oo);
	} else {
		printf("# vmprof report of '");
		vp_text_puts(stdout, a.input);
		printf("'\n#\n");
		for (size_t e = 0; e < prof->ntables; e++)
			print_table(prof->tables[e], &a, a.sort);
	}
out:
	vp_profile_free(prof);
	vp_free_names(a.events, a.nevents);
	return status;
}
