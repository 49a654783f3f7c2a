/* vmprof report: per-event tables from a perf.data file. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "formats_module.h"
#include "options.h"
#include "progress.h"
#include "converters/formats.h"
#include "converters/iotable.h"
#include "lib/profile/report.h"

enum { OPT_VALUE = VP_OPT_CMD, OPT_FORMAT };

static const char *const usage[] = { "[options] [FILE]", "--header [FILE]",
				     "--split DIR [options] [FILE]", NULL };

struct report_args {
	const char *input;
	const char *sort;
	unsigned long long top;
	enum vp_value value;
	int header, full_names, io;
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
	VP_OPT_FLAG("io", 0, "I/O per function and read/write instead (a recording made with "
		    "vmprof record --io): calls, bytes, errors, short, EOF, mean block, time",
		    struct report_args, io),
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
	VP_OPT_FLAG("children", 0, "also inclusive counts (a function and its callees, as perf report "
		    "--children), ranked by them", struct report_args, load.children),
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
	int r;

	if ((r = vp_load_opt(&info, id, arg, &a->load)) != 0)
		return r < 0 ? r : 0;
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
	default:
		if (vp_load_opt(&info, id, arg, &a->load) < 0)
			return -1;
		vp_csv_safe_opt(id, &a->csv_safe);
		break;
	}
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = { .input = "perf.data", .sort = "dso,sym", .format = "table",
				 .csv_safe = 1 };
	struct vp_error err = { 0 };
	struct vp_profile *prof = NULL;
	int i, r, status = 0;

	vp_load_opts_init(&a.load);
	i = vp_opts_parse(&info, argc, argv, on_opt, &a);
	if (i == VP_OPTS_HELP || i < 0) {
		status = i == VP_OPTS_HELP ? 0 : 2;
		goto out;
	}
	if (i < argc)
		a.input = argv[i++];
	if (i < argc) {
		vp_usage_error(&info, "unexpected argument '%s'", argv[i]);
		status = 2;
		goto out;
	}

	if (a.load.children && (a.load.caller || a.load.group_by))
		return vp_usage_error(&info, "--children counts call stacks by symbol: not with %s",
				      a.load.caller ? "--caller" : "--group-by"), 2;
	if (a.header) {
		status = vp_perfdata_write_header(stdout, a.input, &err) < 0 ? vp_cmd_fail("report", &err) : 0;
		goto out;
	}
	if (a.io) {
		struct vp_io_table *io;
		if (strcmp(a.format, "table") && strcmp(a.format, "csv")) {
			vp_usage_error(&info, "--io writes a table or CSV, not '%s'", a.format);
			status = 2;
			goto out;
		}
		if (vp_io_from_perfdata(a.input, &a.load, &io, &err) < 0) {
			status = vp_cmd_fail("report", &err);
			goto out;
		}
		if (!strcmp(a.format, "csv"))
			vp_io_write_csv(stdout, io, a.full_names, a.csv_safe);
		else
			vp_io_write_table(stdout, io, a.input, a.full_names);
		vp_io_free(io);
		goto out;
	}
	a.load.events = a.events;
	/* the XML writer is in vmprof-formats.so: missing, stop before reading */
	if (!a.split && !strcmp(a.format, "xml") && vp_formats_load(&err) < 0) {
		status = vp_cmd_fail("report", &err);
		goto out;
	}
	vp_cmd_progress_start("report");
	r = vp_load_profile(a.input, &a.load, &prof, &err);
	vp_cmd_progress_stop();
	if (r < 0) {
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
	for (size_t e = 0; e < prof->ntables && a.load.children; e++)
		if (!prof->tables[e]->children) {
			status = vp_cmd_failf("report", "'%s': no inclusive counts for '%s' in this input "
					      "(a perf.data file has them, or a table written with "
					      "--children)", a.input, prof->tables[e]->name);
			goto out;
		}
	/* perf report --children ranks by the inclusive column */
	for (size_t e = 0; e < prof->ntables; e++)
		vp_table_sort(prof->tables[e], a.load.children ? vp_value_children(a.value) : a.value);
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
		vp_profile_write_table(stdout, prof, a.input, a.sort, &oo);
	}
out:
	vp_profile_free(prof);
	vp_free_names(a.events, a.nevents);
	vp_filter_free(&a.load.filter);
	return status;
}
