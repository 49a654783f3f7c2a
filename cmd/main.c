/* vmprof: the command table, global options and the finish-stdout rule. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "options.h"
#include "progress.h"
#include "converters/text.h"
#include "lib/util/error.h"
#include "lib/util/heap.h"

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct cmd commands[] = {
	{ "record", cmd_record, "record samples into a perf.data file (perf reads it too)" },
	{ "report", cmd_report, "per-event tables from a perf.data file (ours or perf's)" },
	{ "compare", cmd_compare, "join a host and a guest profile by symbol, top N per event" },
	{ "chart", cmd_chart, "bar and circle charts of a comparison (SVG, PNG, PDF, EPS)" },
	{ "list", cmd_list, "the events this machine can open" },
	{ "convert", cmd_convert, "perf report text to CSV; split a CSV table per event" },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const char *current_cmd = "";

static void print_warning(const char *msg, void *ctx)
{
	(void)ctx;
	vp_cmd_progress_clear();
	/* messages quote names from files: escaped, one line each */
	fprintf(stderr, "vmprof %s: warning: ", current_cmd);
	vp_text_puts(stderr, msg);
	fputc('\n', stderr);
}

static void usage(FILE *out)
{
	fprintf(out, "usage: vmprof [--version] [--help] <command> [<args>]\n\n"
		     "Profile programs on a host and in a virtual machine, and compare the two\n"
		     "function by function.\n\ncommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "  %-10s %s\n", "help", "show a command's help: vmprof help <command>");
	fprintf(out, "\nSee 'vmprof <command> --help' or man vmprof-<command>.\n");
}

static const struct cmd *find_cmd(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

/* A full disk or a closed pipe on stdout must not end in exit 0. */
static int finish_stdout(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (errno != EPIPE)
			fprintf(stderr, "vmprof %s: cannot write to standard output: %s\n", current_cmd,
				strerror(errno ? errno : EIO));
		return status ? status : 1;
	}
	if (fclose(stdout) != 0) {
		fprintf(stderr, "vmprof %s: cannot write to standard output: %s\n", current_cmd,
			strerror(errno));
		return status ? status : 1;
	}
	return status;
}

int main(int argc, char **argv)
{
	const struct cmd *c;

	vp_heap_prefer_huge_pages();
	vp_set_warn_handler(print_warning, NULL);
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return finish_stdout(0);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("vmprof %s\n", VP_VERSION);
		return finish_stdout(0);
	}
	if (!strcmp(argv[1], "help")) {
		if (argc < 3) {
			usage(stdout);
			return finish_stdout(0);
		}
		c = find_cmd(argv[2]);
		if (!c) {
			fprintf(stderr, "vmprof: '%s' is not a vmprof command; see 'vmprof --help'\n",
				argv[2]);
			return 2;
		}
		char *hargv[] = { (char *)c->name, "--help", NULL };
		current_cmd = c->name;
		return finish_stdout(c->fn(2, hargv));
	}
	if (argv[1][0] == '-') {
		fprintf(stderr, "vmprof: unknown option '%s'\n", argv[1]);
		usage(stderr);
		return 2;
	}
	c = find_cmd(argv[1]);
	if (!c) {
		fprintf(stderr, "vmprof: '%s' is not a vmprof command; see 'vmprof --help'\n",
			argv[1]);
		return 2;
	}
	current_cmd = c->name;
	int status = c->fn(argc - 1, argv + 1);
	vp_cmd_progress_stop();
	return finish_stdout(status);
}
