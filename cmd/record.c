/* vmprof record: profile a command, processes or the whole system into a
 * perf.data file that both vmprof and perf read; with --repeat, the command
 * N times into a directory of N recordings (the runs of one side). */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "commands.h"
#include "options.h"
#include "lib/record/record.h"


static const char *const usage[] = { "[options] -- COMMAND [ARGS...]", "[options] -p PID[,PID...]",
				     "[options] -a [-d SECONDS]",
				     "[options] -r N [-o DIR] -- COMMAND [ARGS...]", NULL };

#define REPEAT_DIR "vmprof.runs"

struct record_args {
	struct vp_record_opts o;
	unsigned long repeat;	/* 0: one recording */
	int output_set;
};

static const struct vp_opt opts[] = {
	{ "output", 'o', "FILE", "write here (default perf.data; an existing file is kept as "
	  "FILE.old); with --repeat a directory (default " REPEAT_DIR ")", 'o' },
	{ "repeat", 'r', "N", "run the command N times, recording each run as DIR/run-K.data "
	  "(K = 1..N), as perf stat -r repeats", 'r' },
	VP_OPT_STRING("event", 'e', "EVENTS", "events in perf's syntax, comma separated (default "
		      "cycles, else cpu-clock)", struct record_args, o.events),
	{ "freq", 'F', "HZ", "samples per second per CPU (default 4000)", 'F' },
	{ "count", 'c', "PERIOD", "a sample every PERIOD events instead of a frequency", 'c' },
	VP_OPT_FLAG("call-graph", 'g', "record frame-pointer callchains", struct vp_record_opts,
		    callchain),
	VP_OPT_FLAG("all-cpus", 'a', "the whole system", struct record_args, o.system_wide),
	VP_OPT_STRING("cpu", 'C', "CPUS", "only these CPUs, e.g. 0-3,6", struct record_args, o.cpus),
	VP_OPT_STRING("pid", 'p', "PIDS", "processes already running (all their threads)",
		      struct record_args, o.pids),
	{ "duration", 'd', "SECONDS", "stop after this long", 'd' },
	VP_OPT_FLAG("host", 0, "host execution only (exclude_guest)", struct record_args, o.host_only),
	VP_OPT_FLAG("guest", 0, "guest execution only, on a KVM host (exclude_host)",
		    struct record_args, o.guest_only),
	VP_OPT_STRING("label", 0, "NAME", "side label stored in the file (e.g. host, guest)",
		      struct record_args, o.label),
	VP_OPT_STRING("guest-kallsyms", 0, "FILE", "the guest's kallsyms: guest kernel symbols used "
		      "are stored in the file", struct record_args, o.guest_kallsyms),
	VP_OPT_STRING("guest-modules", 0, "FILE", "the guest's /proc/modules, noted in the file",
		      struct record_args, o.guest_modules),
	{ "mmap-pages", 'm', "N", "ring buffer pages per CPU, a power of two (default 128)", 'm' },
	VP_OPT_END,
};

static const struct vp_cmd_info info = {
	"record", usage,
	"Record samples with perf_event_open into a perf.data file that perf report and\n"
	"perf script read as well as vmprof. With a command, it is run and followed with\n"
	"its threads and children, and vmprof exits with its status. Metadata for the\n"
	"comparison is stored in the file: host name, kernel release, the hypervisor\n"
	"this machine runs under, steal time over the recording and the command's CPU time.\n"
	"With --repeat N, the command runs N times, one recording per run in a directory:\n"
	"the runs of one side of vmprof compare, which judges differences across them.",
	opts, 1,
};

static volatile sig_atomic_t stopped;

static void on_signal(int sig)
{
	(void)sig;
	stopped = 1;
	vp_record_stop();
}

static int on_opt(int id, const char *arg, void *ctx)
{
	struct record_args *a = ctx;
	struct vp_record_opts *o = &a->o;
	unsigned long long n;
	double d;

	switch (id) {
	case 'o':
		o->output = arg;
		a->output_set = 1;
		break;
	case 'r':
		if (vp_parse_u64(arg, &n) < 0 || n == 0 || n > 10000)
			return vp_usage_error(&info, "-r wants 1 to 10000 runs, not '%s'", arg);
		a->repeat = (unsigned long)n;
		break;
	case 'F':
		if (vp_parse_u64(arg, &n) < 0 || n == 0 || n > 1000000)
			return vp_usage_error(&info, "-F wants 1 to 1000000, not '%s'", arg);
		o->freq = (unsigned)n;
		break;
	case 'c':
		if (vp_parse_u64(arg, &n) < 0 || n == 0)
			return vp_usage_error(&info, "-c wants a positive count, not '%s'", arg);
		o->period = n;
		break;
	case 'd':
		if (vp_parse_double(arg, &d) < 0 || d <= 0)
			return vp_usage_error(&info, "-d wants seconds, not '%s'", arg);
		o->duration = d;
		break;
	case 'm':
		if (vp_parse_u64(arg, &n) < 0 || n == 0 || (n & (n - 1)) || n > 65536)
			return vp_usage_error(&info, "-m wants a power of two up to 65536, not '%s'", arg);
		o->mmap_pages = n;
		break;
	}
	return 0;
}

static void say_result(const struct vp_record_opts *o, const struct vp_record_result *res,
		       unsigned long run, unsigned long runs)
{
	char which[64] = "";

	if (runs)
		snprintf(which, sizeof(which), "run %lu of %lu: ", run, runs);
	fprintf(stderr, "vmprof record: %swrote %s: %llu samples, %.1f MB in %.2f s\n", which, o->output,
		(unsigned long long)res->samples, (double)res->bytes / 1048576.0, res->seconds);
	if (res->lost)
		fprintf(stderr, "vmprof record: lost %llu samples (the ring buffers overflowed: try a "
			"larger -m or a lower -F)\n", (unsigned long long)res->lost);
}

/* The command's exit status as vmprof's own, 0 when it succeeded. */
static int command_status(const struct vp_record_result *res)
{
	if (res->ran_command && WIFEXITED(res->status))
		return WEXITSTATUS(res->status);
	if (res->ran_command && WIFSIGNALED(res->status))
		return 128 + WTERMSIG(res->status);
	return 0;
}

static int is_run_file(const struct dirent *d)
{
	unsigned k;
	int end = 0;

	return sscanf(d->d_name, "run-%u.data%n", &k, &end) == 1 && end > 0 && !d->d_name[end];
}

/* The directory of the runs, made when missing; recordings of an earlier
 * series in it are kept as run-K.data.old, so the directory holds this
 * series' runs only. */
static int runs_dir(const char *dir)
{
	struct dirent **names;
	int n;

	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return vp_cmd_failf("record", "'%s': cannot create directory: %s", dir, strerror(errno));
	if ((n = scandir(dir, &names, is_run_file, versionsort)) < 0)
		return vp_cmd_failf("record", "'%s': cannot read the directory: %s", dir, strerror(errno));
	int rc = 0;
	for (int k = 0; k < n; k++) {
		char from[4096], to[4200];
		snprintf(from, sizeof(from), "%s/%s", dir, names[k]->d_name);
		snprintf(to, sizeof(to), "%s.old", from);
		if (rc == 0 && rename(from, to) != 0)
			rc = vp_cmd_failf("record", "'%s': cannot keep it as .old: %s", from, strerror(errno));
		free(names[k]);
	}
	free(names);
	return rc;
}

/* --repeat: the command N times, one recording each; stops at the first run
 * that fails, whose command fails or that a signal ends. */
static int record_runs(struct record_args *a)
{
	const char *dir = a->output_set ? a->o.output : REPEAT_DIR;
	struct vp_record_result res;
	struct vp_error err = { 0 };
	char path[4096];
	int said_fallback = 0, st;

	if ((st = runs_dir(dir)) != 0)
		return st;
	for (unsigned long k = 1; k <= a->repeat; k++) {
		struct vp_record_opts o = a->o;
		snprintf(path, sizeof(path), "%s/run-%lu.data", dir, k);
		o.output = path;
		if (vp_record(&o, &res, &err) < 0)
			return vp_cmd_fail("record", &err);
		if (res.fell_back && !said_fallback++)
			fprintf(stderr, "vmprof record: cycles is not available (no hardware PMU is visible "
				"to this machine); recorded cpu-clock instead\n");
		say_result(&o, &res, k, a->repeat);
		if ((st = command_status(&res)) != 0 || stopped) {
			if (k < a->repeat)
				fprintf(stderr, "vmprof record: stopped after run %lu of %lu: %s\n", k, a->repeat,
					stopped ? "interrupted" : "the command failed");
			return st ? st : 1;
		}
	}
	fprintf(stderr, "vmprof record: %lu runs in %s/ (compare them as one side: vmprof compare "
		"%s OTHER)\n", a->repeat, dir, dir);
	return 0;
}

int cmd_record(int argc, char **argv)
{
	struct record_args a = { .o = { .output = "perf.data", .freq = 4000 } };
	struct vp_record_opts *o = &a.o;
	struct vp_record_result res;
	struct vp_error err = { 0 };
	struct sigaction sa = { 0 };
	int i;

	i = vp_opts_parse(&info, argc, argv, on_opt, &a);
	if (i == VP_OPTS_HELP)
		return 0;
	if (i < 0)
		return 2;
	if (o->host_only && o->guest_only)
		return vp_usage_error(&info, "--host and --guest exclude each other"), 2;
	int targets = (i < argc) + !!o->pids + o->system_wide;
	if (targets == 0)
		return vp_usage_error(&info, "what to record? give a command after --, -p PID or -a"), 2;
	if (targets > 1 && !(o->system_wide && i < argc))
		return vp_usage_error(&info, "give one of: a command, -p, -a"), 2;
	if (a.repeat && i == argc)
		return vp_usage_error(&info, "--repeat runs a command: give it after --"), 2;
	if (i < argc)	/* with -a: the whole system while the command runs */
		o->argv = argv + i;
	/* the file's command line, as the user typed it */
	char **all = calloc((size_t)argc + 2, sizeof(*all));
	if (!all)
		return vp_cmd_failf("record", "out of memory");
	all[0] = "vmprof";
	memcpy(all + 1, argv, (size_t)argc * sizeof(*all));
	o->argc_all = argc + 1;
	o->argv_all = all;
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (a.repeat) {
		int st = record_runs(&a);
		free(all);
		return st;
	}
	int rc = vp_record(o, &res, &err);
	free(all);
	if (rc < 0)
		return vp_cmd_fail("record", &err);
	if (res.fell_back)
		fprintf(stderr, "vmprof record: cycles is not available (no hardware PMU is visible to this "
			"machine); recorded cpu-clock instead\n");
	say_result(o, &res, 0, 0);
	return command_status(&res);
}
