/* The recorder (see record.h): one ring buffer per CPU, the other events of
 * that CPU redirected into it (PERF_EVENT_IOC_SET_OUTPUT), drained by a poll
 * loop that sleeps until the kernel wakes it; records go straight into the
 * perf.data writer, a FINISHED_ROUND after each pass as perf writes them.
 * A command's threads (and -p's) are followed through the scheduler too
 * (sched.h): its rings are drained in the same passes, their offcpu-time
 * samples written in the round they end in. vp_record runs named steps
 * (prepare, choose_targets, open_all, open_sched, open_output, start,
 * record_loop, stop, then finish.c) and has one cleanup for them all. */
#include "record.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "access.h"
#include "events.h"
#include "machine.h"
#include "lib/perfdata/write.h"
#include "lib/util/progress.h"
#include "finish.h"
#include "ring.h"
#include "sched.h"
#include "synth.h"
#include "targets.h"

#define MAX_CPUS 4096
#define DRAIN_MS 250

static volatile sig_atomic_t stop_flag;
static int wake_fd = -1;

void vp_record_stop(void)
{
	stop_flag = 1;
	if (wake_fd >= 0) {
		char c = 0;
		ssize_t r = write(wake_fd, &c, 1);
		(void)r;
	}
}

struct rec {
	const struct vp_record_opts *o;
	struct vp_event_spec *ev;
	size_t nev;
	int *cpus;
	size_t ncpus;
	pid_t *targets;		/* pids/tids to open for; { -1 } system-wide */
	pid_t *procs;		/* -p: the processes as listed (their threads are in targets) */
	size_t nprocs;
	size_t ntargets;
	int *fds;		/* nev x ncpus x ntargets */
	size_t nfds;
	uint64_t **ids;		/* per event */
	size_t *nids;
	struct vp_ring *rings;	/* per CPU */
	size_t nrings;
	size_t page;
	struct vp_pdw *w;
	char *copy;		/* a record split at the buffer's end, made whole */
	uint64_t samples, lost;
	size_t user_only;	/* events that fell back to user space only */
	struct vp_error *err;
	/* the run: the command and its pipes, the file being written */
	struct vp_record_result *res;
	pid_t child;			/* the command, -1 when none or reaped */
	int go[2], fail[2];		/* go lets the command exec; fail brings back its errno */
	int wake[2];			/* vp_record_stop's wakeup of the poll */
	int pidfd;
	char partial[4096];		/* OUTPUT.partial, renamed when complete */
	struct vp_pdw_event *pev;
	size_t npev;
	uint64_t offcpu_id;	/* the id of the file's offcpu-time event (--off-cpu) */
	time_t start;
	double t0, t_exit, steal0, steal1, user_time, sys_time;
	double *cpu_steal[2];	/* per CPU at the start and at the command's end */
	/* where the threads were when not running (sched.h), NULL if not followed */
	struct vp_sched *sched;
	char no_sched[1024];
	uint64_t pass_start;	/* VP_SCHED_CLOCK at the start of the previous drain pass */
};

static long perf_event_open(struct perf_event_attr *a, pid_t pid, int cpu, int group, unsigned long fl)
{
	return syscall(SYS_perf_event_open, a, pid, cpu, group, fl);
}

/* One fd; an event's first open may fall back to user space and try again
 * (later opens of it follow the same rules). */
static long open_event(struct rec *r, struct vp_event_spec *e, pid_t pid, int cpu, int first)
{
	long fd = perf_event_open(&e->attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0 && first && (errno == EACCES || errno == EPERM) &&
	    vp_fall_back_to_user(e, r->o->system_wide || r->o->cpus)) {
		r->user_only++;
		fd = perf_event_open(&e->attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	}
	return fd;
}

/* Threads are followed through the scheduler (sched.h) for a command and
 * for -p: every event then runs on its clock. */
static int follows_threads(const struct vp_record_opts *o)
{
	return o->argv || o->pids;
}

static void setup_attrs(struct rec *r)
{
	const struct vp_record_opts *o = r->o;
	int cmd = o->argv != NULL;

	for (size_t i = 0; i < r->nev; i++) {
		struct perf_event_attr *a = &r->ev[i].attr;
		a->size = sizeof(*a);
		a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
				 PERF_SAMPLE_PERIOD;
		if (r->nev > 1 || o->off_cpu)	/* offcpu-time is one more event in the file */
			a->sample_type |= PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER;
		if (o->callchain || r->ev[i].callchain)
			a->sample_type |= PERF_SAMPLE_CALLCHAIN;
		if (r->ev[i].tracepoint)
			a->sample_type |= PERF_SAMPLE_RAW;
		if (o->period) {
			a->sample_period = o->period;
		} else if (r->ev[i].tracepoint) {
			a->sample_period = 1;	/* every event, as perf does */
		} else {
			a->freq = 1;
			a->sample_freq = o->freq ? o->freq : 4000;
		}
		a->disabled = 1;
		/* Only a command's own task events can wait for its exec; CPU-wide
		 * events (-a) start when enabled, as perf's do. */
		a->enable_on_exec = cmd && !o->system_wide;
		a->inherit = !o->system_wide;
		a->sample_id_all = 1;
		if (follows_threads(o)) {
			a->use_clockid = 1;
			a->clockid = VP_SCHED_CLOCK;
		}
		if (i == 0) {	/* one event carries the task and mapping records */
			a->mmap = a->mmap2 = a->comm = a->comm_exec = a->task = 1;
		}
		a->watermark = 1;
		a->wakeup_watermark = (uint32_t)(r->page * (o->mmap_pages ? o->mmap_pages : 128) / 4);
	}
}

static int add_id(struct rec *r, size_t e, int fd)
{
	uint64_t id;
	uint64_t *v;

	if (ioctl(fd, PERF_EVENT_IOC_ID, &id) != 0)
		return -errno;
	v = realloc(r->ids[e], (r->nids[e] + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	r->ids[e] = v;
	v[r->nids[e]++] = id;
	return 0;
}

static int open_all(struct rec *r)
{
	size_t pages = r->o->mmap_pages ? r->o->mmap_pages : 128;

	r->fds = malloc(r->nev * r->ncpus * r->ntargets * sizeof(*r->fds));
	r->rings = calloc(r->ncpus, sizeof(*r->rings));
	r->ids = calloc(r->nev, sizeof(*r->ids));
	r->nids = calloc(r->nev, sizeof(*r->nids));
	if (!r->fds || !r->rings || !r->ids || !r->nids)
		return vp_errorf(r->err, -ENOMEM, "out of memory");
	for (size_t c = 0; c < r->ncpus; c++) {
		int leader = -1;
		for (size_t e = 0; e < r->nev; e++)
			for (size_t t = 0; t < r->ntargets; t++) {
				long fd = open_event(r, &r->ev[e], r->targets[t], r->cpus[c], c == 0 && t == 0);
				if (fd < 0) {
					if (errno == ESRCH)	/* a thread of -p ended meanwhile */
						continue;
					return vp_open_error(r->err, &r->ev[e], errno,
							     r->o->system_wide || r->o->cpus);
				}
				r->fds[r->nfds++] = (int)fd;
				if (add_id(r, e, (int)fd) < 0)
					return vp_errorf(r->err, -errno, "event '%s': no id: %s", r->ev[e].name,
							 strerror(errno));
				if (leader < 0) {
					int e = vp_ring_map(&r->rings[r->nrings], (int)fd, pages, r->page);
					if (e < 0)
						return vp_errorf(r->err, e, "cannot map the ring buffer of CPU %d: %s "
								 "(perf_event_mlock_kb too small?)", r->cpus[c],
								 strerror(-e));
					r->nrings++;
					leader = (int)fd;
				} else if (ioctl((int)fd, PERF_EVENT_IOC_SET_OUTPUT, leader) != 0) {
					return vp_errorf(r->err, -errno, "event '%s': cannot share CPU %d's buffer: %s",
							 r->ev[e].name, r->cpus[c], strerror(errno));
				}
			}
	}
	return 0;
}

/* A record of the file's events, counted and written. */
static int keep(void *ctx, const struct perf_event_header *h)
{
	struct rec *r = ctx;

	if (h->type == PERF_RECORD_SAMPLE)
		r->samples++;
	else if (h->type == PERF_RECORD_LOST && h->size >= 24)
		r->lost += ((const uint64_t *)h)[2];
	return vp_pdw_write(r->w, h, h->size);
}

static int emit(void *ctx, const void *rec, size_t len)
{
	struct rec *r = ctx;

	r->samples++;
	return vp_pdw_write(r->w, rec, len);
}

/* One pass: whatever the kernel has written since the last, then the
 * scheduler's events up to this pass's start (the rings have all gone past
 * it), their samples no older than the previous pass's start: perf's rounds
 * then keep them in order. */
static int drain(struct rec *r, int *any)
{
	uint64_t start = r->sched ? vp_sched_now() : 0;
	size_t emitted = 0;

	for (size_t i = 0; i < r->nrings; i++)
		if (vp_ring_drain(&r->rings[i], r->copy, keep, r, any) < 0)
			return -1;
	if (r->sched) {
		if (vp_sched_pass(r->sched, start, r->pass_start, emit, r, &emitted) < 0)
			return -1;
		r->pass_start = start;
		*any |= emitted > 0;
	}
	return 0;
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ---- the whole recording, step by step ---- */

/* Options checked, events parsed (the default one chosen), CPUs listed. */
static int prepare(struct rec *r)
{
	const struct vp_record_opts *o = r->o;
	struct vp_error *err = r->err;
	int defaulted = !o->events;
	int rc;

	r->page = (size_t)sysconf(_SC_PAGESIZE);
	if (o->mmap_pages & (o->mmap_pages - 1))
		return vp_errorf(err, -EINVAL, "the buffer size must be a power of two pages");
	if (snprintf(r->partial, sizeof(r->partial), "%s.partial", o->output) >= (int)sizeof(r->partial))
		return vp_errorf(err, -ENAMETOOLONG, "'%s': name too long", o->output);
	enum vp_kvm_mode kvm = o->host_only ? VP_KVM_HOST : o->guest_only ? VP_KVM_GUEST : VP_KVM_BOTH;
	if ((rc = vp_events_parse_kvm(o->events ? o->events : "cycles", kvm, &r->ev, &r->nev, err)) < 0)
		return rc;
	r->cpus = malloc(MAX_CPUS * sizeof(*r->cpus));
	r->copy = malloc(65536);
	if (!r->cpus || !r->copy)
		return vp_errorf(err, -ENOMEM, "out of memory");
	if (o->cpus) {
		if (vp_cpu_list_parse(o->cpus, r->cpus, MAX_CPUS, &r->ncpus) < 0)
			return vp_errorf(err, -EINVAL, "-C: '%s' is not a CPU list like 0-3,6", o->cpus);
	} else {
		r->ncpus = vp_online_cpus(r->cpus, MAX_CPUS);
	}

	/* The default event: cycles when a PMU exists, else cpu-clock (said once). */
	if (defaulted) {
		struct perf_event_attr probe = r->ev[0].attr;
		probe.size = sizeof(probe);
		probe.disabled = 1;
		probe.exclude_kernel = 1;
		long fd = perf_event_open(&probe, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd >= 0) {
			close((int)fd);
		} else {
			free(r->ev);
			r->ev = NULL;
			if ((rc = vp_events_parse_kvm("cpu-clock", kvm, &r->ev, &r->nev, err)) < 0)
				return rc;
			r->res->fell_back = 1;
		}
	}
	/* --io: the syscall tracepoints of read and write, with their callchains
	 * so that each call is charged to the program's function that made it */
	if (o->io && (rc = vp_events_add(&r->ev, &r->nev, VP_IO_EVENTS, 1, err)) < 0) {
		vp_error_prefix(err, "--io");
		return rc;
	}
	setup_attrs(r);
	return 0;
}

/* The command, forked and held until its events are open (it execs when
 * told to, through go; an exec failure comes back through fail). */
static int fork_command(struct rec *r)
{
	const struct vp_record_opts *o = r->o;

	if (pipe2(r->go, O_CLOEXEC) || pipe2(r->fail, O_CLOEXEC))
		return vp_errorf(r->err, -errno, "cannot create a pipe: %s", strerror(errno));
	r->child = fork();
	if (r->child < 0)
		return vp_errorf(r->err, -errno, "cannot fork: %s", strerror(errno));
	if (r->child == 0) {
		char c;
		close(r->go[1]);
		close(r->fail[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		if (read(r->go[0], &c, 1) != 1)
			_exit(127);	/* the recorder gave up */
		execvp(o->argv[0], o->argv);
		int e = errno;
		ssize_t w = write(r->fail[1], &e, sizeof(e));
		(void)w;
		_exit(127);
	}
	close(r->go[0]);
	close(r->fail[1]);
	r->go[0] = r->fail[1] = -1;
	r->res->ran_command = 1;
	return 0;
}

/* What the events are opened for: the command, -p's threads, or every thread. */
static int choose_targets(struct rec *r)
{
	const struct vp_record_opts *o = r->o;
	int rc;

	if (o->argv) {
		if ((rc = fork_command(r)) < 0)
			return rc;
		/* -a -- CMD: the whole system while the command runs */
		vp_targets_add(&r->targets, &r->ntargets, o->system_wide ? -1 : r->child);
	} else if (o->pids) {
		if ((rc = vp_targets_of_pids(o->pids, &r->targets, &r->ntargets, &r->procs, &r->nprocs,
					     r->err)) < 0)
			return rc;
	} else {
		vp_targets_add(&r->targets, &r->ntargets, -1);
	}
	if (!r->targets)
		return vp_errorf(r->err, -ENOMEM, "out of memory");
	return 0;
}

/* The scheduler side channel for the threads recorded (a command's, -p's):
 * said in the file when it cannot be had, an error only for --off-cpu. */
static int open_sched(struct rec *r)
{
	const struct vp_record_opts *o = r->o;
	pid_t child = r->child;
	struct vp_sched_opts so = { o->off_cpu, r->cpus, r->ncpus, o->argv ? &child : r->targets,
				    o->argv ? 1 : r->ntargets, o->argv && !o->system_wide,
				    o->mmap_pages ? o->mmap_pages : 128, r->page };
	struct vp_error serr = { 0 };
	int rc;

	if (!follows_threads(o))
		return 0;
	if ((rc = vp_sched_open(&so, &r->sched, &serr)) < 0) {
		if (o->off_cpu || rc != -EOPNOTSUPP) {
			*r->err = serr;
			return rc;
		}
		snprintf(r->no_sched, sizeof(r->no_sched), "%s", serr.msg);
	}
	return 0;
}

/* OUTPUT.partial with the events and their ids, then what existed before. */
static int open_output(struct rec *r)
{
	int rc;

	r->pev = calloc(r->nev + 1, sizeof(*r->pev));
	if (!r->pev)
		return vp_errorf(r->err, -ENOMEM, "out of memory");
	for (size_t e = 0; e < r->nev; e++)
		r->pev[e] = (struct vp_pdw_event){ r->ev[e].attr, r->ev[e].name, r->ids[e], r->nids[e] };
	r->npev = r->nev;
	if (r->o->off_cpu && r->sched) {	/* samples written from the side channel */
		struct vp_pdw_event *p = &r->pev[r->npev++];
		vp_sched_offcpu_event(r->sched, &p->attr, &r->offcpu_id);
		p->name = "offcpu-time";
		p->ids = &r->offcpu_id;
		p->nids = 1;
	}
	if ((rc = vp_pdw_open(r->partial, r->pev, r->npev, &r->w, r->err)) < 0)
		return rc;
	vp_synth_existing(r->w, r->o->argv != NULL, r->o->system_wide, r->procs, r->nprocs);
	vp_pdw_finished_round(r->w);
	return 0;
}

/* Counting starts: the events enabled, the command let go. */
static int start(struct rec *r)
{
	const struct vp_record_opts *o = r->o;

	if (pipe2(r->wake, O_CLOEXEC | O_NONBLOCK) == 0)
		wake_fd = r->wake[1];
	if (r->sched)
		vp_sched_start(r->sched);
	r->steal0 = vp_steal_seconds();
	if ((r->cpu_steal[0] = calloc(MAX_CPUS, sizeof(double))))
		vp_steal_per_cpu(r->cpu_steal[0], MAX_CPUS);
	r->t0 = now();
	/* -a and -p count from now; a command's own events from its exec. With
	 * -a -- CMD, enabled before the command is let go, so it is seen whole. */
	if (!o->argv || o->system_wide)
		for (size_t i = 0; i < r->nfds; i++)
			ioctl(r->fds[i], PERF_EVENT_IOC_ENABLE, 0);
	if (o->argv) {
		r->pidfd = (int)syscall(SYS_pidfd_open, r->child, 0);
		if (write(r->go[1], "g", 1) != 1)
			return vp_errorf(r->err, -errno, "cannot start the command");
		close(r->go[1]);
		r->go[1] = -1;
		int e;
		if (read(r->fail[0], &e, sizeof(e)) == sizeof(e)) {	/* EOF once exec succeeded */
			waitpid(r->child, NULL, 0);
			r->child = -1;
			return vp_errorf(r->err, -e, "cannot run '%s': %s", o->argv[0], strerror(e));
		}
	}
	return 0;
}

/* The command reaped (options: WNOHANG or 0): 1 with its wait status, its
 * wall time, and the user and system CPU time of its whole process tree
 * (wait4's rusage: the command and every descendant it waited for) kept. */
static int reap(struct rec *r, int options)
{
	struct rusage ru;
	int status;

	if (wait4(r->child, &status, options, &ru) != r->child)
		return 0;
	r->t_exit = now();
	r->steal1 = vp_steal_seconds();
	if ((r->cpu_steal[1] = calloc(MAX_CPUS, sizeof(double))))
		vp_steal_per_cpu(r->cpu_steal[1], MAX_CPUS);
	r->res->status = status;
	r->user_time = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
	r->sys_time = (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	r->child = -1;
	return 1;
}

/* Sleep until a buffer fills past its watermark, the command ends, a
 * signal arrives, or (with -d) time is up; drain after each wakeup. */
static void record_loop(struct rec *r)
{
	const struct vp_record_opts *o = r->o;
	size_t max = 2 * r->nrings + 2;
	struct pollfd *pf = calloc(max, sizeof(*pf));
	int done = 0;

	vp_progress_record(0, 0);
	while (!done && pf) {
		size_t np = 0;
		int any = 0;
		for (size_t i = 0; i < r->nrings; i++)
			pf[np++] = (struct pollfd){ r->rings[i].fd, POLLIN, 0 };
		if (r->sched)
			np += vp_sched_pollfds(r->sched, pf + np, max - 2 - np);
		if (r->wake[0] >= 0)
			pf[np++] = (struct pollfd){ r->wake[0], POLLIN, 0 };
		if (r->pidfd >= 0)
			pf[np++] = (struct pollfd){ r->pidfd, POLLIN, 0 };
		/* Besides the watermark wakeups, a pass every DRAIN_MS: a quarter
		 * buffer can take seconds to fill at low rates, and what is still in
		 * the ring or in stdio is lost when the recorder is killed. */
		int timeout = DRAIN_MS;
		if (o->duration > 0) {
			double left = o->duration - (now() - r->t0);
			int ms = left <= 0 ? 0 : (int)(left * 1000) + 1;
			timeout = ms < timeout ? ms : timeout;
		} else if (r->pidfd < 0 && r->child > 0) {
			timeout = 100;	/* no pidfd (old kernel): look for the child now and then */
		}
		poll(pf, np, timeout);
		if (drain(r, &any) < 0)
			break;
		vp_progress_record(r->samples, r->lost);
		if (any) {
			vp_pdw_finished_round(r->w);
			vp_pdw_flush(r->w);	/* a killed recording keeps every whole round */
		}
		if (stop_flag || (o->duration > 0 && now() - r->t0 >= o->duration))
			done = 1;
		if (r->nprocs && !o->argv && !o->system_wide && !vp_targets_alive(r->procs, r->nprocs))
			done = 1;	/* as perf record -p: the processes are gone */
		if (r->child > 0 && reap(r, WNOHANG))
			done = 1;
	}
	free(pf);
}

/* Counting stops: the events disabled, the rings drained a last time, a
 * command still running ended, the result's numbers set. */
static void stop(struct rec *r)
{
	struct vp_record_result *res = r->res;
	int any = 0;

	for (size_t i = 0; i < r->nfds; i++)
		ioctl(r->fds[i], PERF_EVENT_IOC_DISABLE, 0);
	if (r->sched)
		vp_sched_stop(r->sched);
	drain(r, &any);
	if (r->sched) {	/* threads still off the CPU: charged up to now */
		size_t before = r->samples;
		vp_sched_end(r->sched, vp_sched_now(), emit, r);
		any |= r->samples > before;
	}
	if (any)
		vp_pdw_finished_round(r->w);
	if (r->child > 0) {	/* stopped early: the command ends with us */
		kill(r->child, SIGTERM);
		reap(r, 0);
		r->child = -1;
	}
	if (r->t_exit <= 0) {	/* no command, or it outlived us */
		r->t_exit = now();
		r->steal1 = vp_steal_seconds();
	}
	res->seconds = now() - r->t0;
	res->samples = r->samples;
	res->lost = r->lost;
	res->bytes = vp_pdw_data_size(r->w);
}

/* Every step's resources, whichever step failed: the command killed, a
 * half-written file removed, descriptors, rings and buffers given back. */
static void cleanup(struct rec *r)
{
	if (r->child > 0) {
		kill(r->child, SIGKILL);
		waitpid(r->child, NULL, 0);
	}
	if (r->w) {
		vp_pdw_close(r->w);
		unlink(r->partial);
	}
	wake_fd = -1;
	for (int i = 0; i < 2; i++) {
		if (r->go[i] >= 0)
			close(r->go[i]);
		if (r->fail[i] >= 0)
			close(r->fail[i]);
		if (r->wake[i] >= 0)
			close(r->wake[i]);
	}
	if (r->pidfd >= 0)
		close(r->pidfd);
	for (size_t i = 0; i < r->nrings; i++)
		vp_ring_unmap(&r->rings[i]);
	vp_sched_free(r->sched);
	for (size_t i = 0; i < r->nfds; i++)
		close(r->fds[i]);
	for (size_t e = 0; r->ids && e < r->nev; e++)
		free(r->ids[e]);
	free(r->ids);
	free(r->nids);
	free(r->fds);
	free(r->rings);
	free(r->targets);
	free(r->procs);
	free(r->cpus);
	free(r->ev);
	free(r->copy);
	free(r->pev);
	free(r->cpu_steal[0]);
	free(r->cpu_steal[1]);
}

int vp_record(const struct vp_record_opts *o, struct vp_record_result *res, struct vp_error *err)
{
	struct rec r = { .o = o, .err = err, .res = res, .child = -1, .go = { -1, -1 },
			 .fail = { -1, -1 }, .wake = { -1, -1 }, .pidfd = -1, .user_time = -1,
			 .sys_time = -1, .start = time(NULL) };
	int rc;

	memset(res, 0, sizeof(*res));
	stop_flag = 0;
	if ((rc = prepare(&r)) < 0 || (rc = choose_targets(&r)) < 0)
		goto fail;
	if ((rc = open_all(&r)) < 0 || (rc = open_sched(&r)) < 0)
		goto fail;
	if (r.user_only)
		vp_warn_user_only(r.ev, r.nev);

	/* The file: previous output kept as .old once this one is complete. */
	if ((rc = open_output(&r)) < 0 || (rc = start(&r)) < 0)
		goto fail;
	record_loop(&r);
	stop(&r);
	struct vp_record_facts facts = { r.start, res->seconds, -1, -1, r.user_time, r.sys_time, -1,
					 r.no_sched[0] ? r.no_sched : NULL, NULL, NULL };
	if (r.steal0 >= 0 && r.steal1 >= 0)
		facts.steal = r.steal1 - r.steal0;
	if (res->ran_command)
		facts.wall = r.t_exit - r.t0;
	struct vp_sched_totals st;
	if (r.sched) {
		vp_sched_totals(r.sched, &st);
		facts.sched = &st;
		facts.no_wakeups = vp_sched_no_wakeups(r.sched);
		if (r.cpu_steal[0] && r.cpu_steal[1])
			facts.steal_running = vp_sched_steal(r.sched, r.cpu_steal[0], r.cpu_steal[1],
							     MAX_CPUS, r.t_exit - r.t0);
	}
	rc = vp_record_finish(r.w, r.partial, o, r.ev, r.nev, r.page, &facts, err);
	r.w = NULL;	/* finished or, on failure, removed */
	if (rc < 0 || (rc = vp_record_put_in_place(r.partial, o->output, err)) < 0)
		goto fail;
	rc = 0;
fail:
	cleanup(&r);
	return rc;
}
