/* vmprof record: profile a command, processes or the whole system into a
 * perf.data file that both vmprof and perf read. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "commands.h"
#include "options.h"
#include "progress.h"
#include "lib/record/record.h"


static const char *const usage[] = { "[options] -- COMMAND [ARGS...]", "[options] -p PID[,PID...]",
				     "[options] -a [-d SECONDS]", NULL };

static const struct vp_opt opts[] = {
	VP_OPT_STRING("output", 'o', "FILE", "write here (default perf.data; an existing file is kept "
		      "as FILE.old)", struct vp_record_opts, output),
	VP_OPT_STRING("event", 'e', "EVENTS", "events in perf's syntax, comma separated (default "
		      "cycles, else cpu-clock)", struct vp_record_opts, events),
	{ "freq", 'F', "HZ", "samples per second per CPU (default 4000)", 'F' },
	{ "count", 'c', "PERIOD", "a sample every PERIOD events instead of a frequency", 'c' },
	VP_OPT_FLAG("call-graph", 'g', "record frame-pointer callchains", struct vp_record_opts,
		    callchain),
	VP_OPT_FLAG("all-cpus", 'a', "the whole system", struct vp_record_opts, system_wide),
	VP_OPT_STRING("cpu", 'C', "CPUS", "only these CPUs, e.g. 0-3,6", struct vp_record_opts, cpus),
	VP_OPT_STRING("pid", 'p', "PIDS", "processes already running (all their threads)",
		      struct vp_record_opts, pids),
	{ "duration", 'd', "SECONDS", "stop after this long", 'd' },
	VP_OPT_FLAG("host", 0, "host execution only (exclude_guest)", struct vp_record_opts, host_only),
	VP_OPT_FLAG("guest", 0, "guest execution only, on a KVM host (exclude_host)",
		    struct vp_record_opts, guest_only),
	VP_OPT_STRING("label", 0, "NAME", "side label stored in the file (e.g. host, guest)",
		      struct vp_record_opts, label),
	VP_OPT_STRING("guest-kallsyms", 0, "FILE", "the guest's kallsyms: guest kernel symbols used "
		      "are stored in the file", struct vp_record_opts, guest_kallsyms),
	VP_OPT_STRING("guest-modules", 0, "FILE", "the guest's /proc/modules, noted in the file",
		      struct vp_record_opts, guest_modules),
	{ "mmap-pages", 'm', "N", "ring buffer pages per CPU, a power of two (default 128)", 'm' },
	{ "quiet", 'q', NULL, "no progress line on stderr (on a terminal: time, samples and lost "
	  "so far)", 'q' },
	VP_OPT_END,
};

static const struct vp_cmd_info info = {
	"record", usage,
	"Record samples with perf_event_open into a perf.data file that perf report and\n"
	"perf script read as well as vmprof. With a command, it is run and followed with\n"
	"its threads and children, and vmprof exits with its status. Metadata for the\n"
	"comparison is stored in the file: host name, kernel release, the hypervisor\n"
	"this machine runs under, steal time over the recording and the command's CPU time.",
	opts, 1,
};

static void on_signal(int sig)
{
	(void)sig;
	vp_record_stop();
}

static int on_opt(int id, const char *arg, void *ctx)
{
	struct vp_record_opts *o = ctx;
	unsigned long long n;
	double d;

	switch (id) {
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
	case 'q':
		vp_cmd_progress_quiet();
		break;
	}
	return 0;
}

int cmd_record(int argc, char **argv)
{
	struct vp_record_opts o = { .output = "perf.data", .freq = 4000 };
	struct vp_record_result res;
	struct vp_error err = { 0 };
	struct sigaction sa = { 0 };
	int i;

	i = vp_opts_parse(&info, argc, argv, on_opt, &o);
	if (i == VP_OPTS_HELP)
		return 0;
	if (i < 0)
		return 2;
	if (o.host_only && o.guest_only)
		return vp_usage_error(&info, "--host and --guest exclude each other"), 2;
	int targets = (i < argc) + !!o.pids + o.system_wide;
	if (targets == 0)
		return vp_usage_error(&info, "what to record? give a command after --, -p PID or -a"), 2;
	if (targets > 1 && !(o.system_wide && i < argc))
		return vp_usage_error(&info, "give one of: a command, -p, -a"), 2;
	if (i < argc && !o.system_wide)
		o.argv = argv + i;
	else if (i < argc) {	/* -a -- cmd: the whole system while the command runs */
		o.argv = argv + i;
	}
	/* the file's command line, as the user typed it */
	char **all = calloc((size_t)argc + 2, sizeof(*all));
	if (!all)
		return vp_cmd_failf("record", "out of memory");
	all[0] = "vmprof";
	memcpy(all + 1, argv, (size_t)argc * sizeof(*all));
	o.argc_all = argc + 1;
	o.argv_all = all;
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	vp_cmd_progress_start("record");
	int rc = vp_record(&o, &res, &err);
	vp_cmd_progress_stop();
	free(all);
	if (rc < 0)
		return vp_cmd_fail("record", &err);
	if (res.fell_back)
		fprintf(stderr, "vmprof record: cycles is not available (no hardware PMU is visible to this "
			"machine); recorded cpu-clock instead\n");
	fprintf(stderr, "vmprof record: wrote %s: %llu samples, %.1f MB in %.2f s%s\n", o.output,
		(unsigned long long)res.samples, (double)res.bytes / 1048576.0, res.seconds, "");
	if (res.lost)
		fprintf(stderr, "vmprof record: lost %llu samples (the ring buffers overflowed: try a "
			"larger -m or a lower -F)\n", (unsigned long long)res.lost);
	if (res.ran_command) {
		if (WIFEXITED(res.status))
			return WEXITSTATUS(res.status);
		if (WIFSIGNALED(res.status))
			return 128 + WTERMSIG(res.status);
	}
	return 0;
}
