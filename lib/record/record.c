/* The recorder (see record.h): one ring buffer per CPU, the other events of
 * that CPU redirected into it (PERF_EVENT_IOC_SET_OUTPUT), drained by a poll
 * loop that sleeps until the kernel wakes it; records go straight into the
 * perf.data writer, a FINISHED_ROUND after each pass as perf writes them.
 * vp_record runs named steps (prepare, choose_targets, open_all, open_output,
 * start, record_loop, stop, then finish.c) and has one cleanup for them all. */
#include "record.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "events.h"
#include "machine.h"
#include "lib/perfdata/write.h"
#include "lib/util/progress.h"
#include "finish.h"
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

struct ring {
	int fd;			/* the event whose buffer this is */
	void *base;
	size_t size;		/* data area, a power of two */
};

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
	struct ring *rings;	/* per CPU */
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
	time_t start;
	double t0, steal0, cpu_time;
};

static long perf_event_open(struct perf_event_attr *a, pid_t pid, int cpu, int group, unsigned long fl)
{
	return syscall(SYS_perf_event_open, a, pid, cpu, group, fl);
}

static int paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = 2;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 2;
		fclose(f);
	}
	return v;
}

/* Why an event did not open, in words a user can act on. The paranoid level
 * it needs: -1 for tracepoint payloads, 0 for whole CPUs (-a, -C), 1 for
 * kernel samples. */
static int open_error(const struct rec *r, const struct vp_event_spec *e, int errnum)
{
	struct vp_error *err = r->err;
	int need = e->tracepoint ? -1 : r->o->system_wide || r->o->cpus ? 0 : 1;

	if (errnum == EACCES || errnum == EPERM)
		return vp_errorf(err, -errnum, "event '%s': not permitted: perf_event_paranoid is %d; "
				 "run as root or set it to %d (sysctl kernel.perf_event_paranoid=%d)",
				 e->name, paranoid(), need, need);
	if (e->needs_pmu && (errnum == ENOENT || errnum == EOPNOTSUPP || errnum == ENODEV))
		return vp_errorf(err, -errnum, "event '%s': no hardware PMU is visible to this machine "
				 "(%s); software events and tracepoints still work", e->name, strerror(errnum));
	if (errnum == EMFILE)
		return vp_errorf(err, -errnum, "event '%s': too many open files (raise ulimit -n)", e->name);
	return vp_errorf(err, -errnum, "event '%s': cannot open: %s", e->name, strerror(errnum));
}

/* perf's evsel__fallback: where the kernel refuses kernel-side sampling to
 * this user (perf_event_paranoid >= 2, no CAP_PERFMON), an event asked
 * without u/k/h counts user space only, renamed as perf renames it
 * ("cpu-clock:u"). Not with -a or -C and not for an explicit :k or :h: those
 * fail with the reason. 1 when the event changed. */
static int fall_back_to_user(struct rec *r, struct vp_event_spec *e)
{
	size_t len = strlen(e->name);

	if (r->o->system_wide || r->o->cpus || e->levels || e->attr.exclude_kernel ||
	    e->attr.exclude_user || len + 3 > sizeof(e->name))
		return 0;
	e->attr.exclude_kernel = 1;
	e->attr.exclude_hv = 1;
	strcpy(e->name + len, e->has_modifiers ? "u" : ":u");
	r->user_only++;
	return 1;
}

/* Said once, naming every event that fell back. */
static void warn_user_only(const struct rec *r)
{
	char names[512] = "";
	size_t at = 0;

	for (size_t e = 0; e < r->nev && at < sizeof(names); e++)
		if (r->ev[e].attr.exclude_kernel && r->ev[e].attr.exclude_hv && !r->ev[e].levels)
			at += (size_t)snprintf(names + at, sizeof(names) - at, "%s'%s'", at ? ", " : "",
					       r->ev[e].name);
	vp_warn("kernel.perf_event_paranoid=%d keeps kernel samples from this user: recording "
		"user space only (%s), as perf does; run as root or set it to 1 for kernel samples",
		paranoid(), names);
}

/* One fd; an event's first open may fall back to user space and try again
 * (later opens of it follow the same rules). */
static long open_event(struct rec *r, struct vp_event_spec *e, pid_t pid, int cpu, int first)
{
	long fd = perf_event_open(&e->attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0 && first && (errno == EACCES || errno == EPERM) && fall_back_to_user(r, e))
		fd = perf_event_open(&e->attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	return fd;
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
		if (r->nev > 1)
			a->sample_type |= PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER;
		if (o->callchain)
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
					return open_error(r, &r->ev[e], errno);
				}
				r->fds[r->nfds++] = (int)fd;
				if (add_id(r, e, (int)fd) < 0)
					return vp_errorf(r->err, -errno, "event '%s': no id: %s", r->ev[e].name,
							 strerror(errno));
				if (leader < 0) {
					size_t len = (pages + 1) * r->page;
					void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, (int)fd, 0);
					if (m == MAP_FAILED)
						return vp_errorf(r->err, -errno, "cannot map the ring buffer of CPU %d: %s "
								 "(perf_event_mlock_kb too small?)", r->cpus[c],
								 strerror(errno));
					r->rings[r->nrings++] = (struct ring){ (int)fd, m, pages * r->page };
					leader = (int)fd;
				} else if (ioctl((int)fd, PERF_EVENT_IOC_SET_OUTPUT, leader) != 0) {
					return vp_errorf(r->err, -errno, "event '%s': cannot share CPU %d's buffer: %s",
							 r->ev[e].name, r->cpus[c], strerror(errno));
				}
			}
	}
	return 0;
}

/* Copy whatever the kernel has written since the last pass. */
static int drain(struct rec *r, int *any)
{
	for (size_t i = 0; i < r->nrings; i++) {
		struct ring *g = &r->rings[i];
		struct perf_event_mmap_page *mp = g->base;
		unsigned char *data = (unsigned char *)g->base + r->page;
		uint64_t head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE), tail = mp->data_tail;

		while (tail < head) {
			size_t at = (size_t)(tail & (g->size - 1));
			struct perf_event_header h;
			memcpy(&h, data + at, sizeof(h));	/* 8-byte aligned: never split */
			if (h.size < sizeof(h) || h.size > head - tail)
				break;	/* cannot happen with a sane kernel; stop rather than spin */
			const void *rec = data + at;
			if (at + h.size > g->size) {	/* wraps: make it whole */
				size_t first = g->size - at;
				memcpy(r->copy, data + at, first);
				memcpy(r->copy + first, data, h.size - first);
				rec = r->copy;
			}
			if (h.type == PERF_RECORD_SAMPLE)
				r->samples++;
			else if (h.type == PERF_RECORD_LOST && h.size >= 24)
				r->lost += ((const uint64_t *)rec)[2];
			if (vp_pdw_write(r->w, rec, h.size) < 0)
				return -1;
			tail += h.size;
			*any = 1;
		}
		__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
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

/* OUTPUT.partial with the events and their ids, then what existed before. */
static int open_output(struct rec *r)
{
	int rc;

	r->pev = calloc(r->nev, sizeof(*r->pev));
	if (!r->pev)
		return vp_errorf(r->err, -ENOMEM, "out of memory");
	for (size_t e = 0; e < r->nev; e++)
		r->pev[e] = (struct vp_pdw_event){ r->ev[e].attr, r->ev[e].name, r->ids[e], r->nids[e] };
	if ((rc = vp_pdw_open(r->partial, r->pev, r->nev, &r->w, r->err)) < 0)
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

/* The command reaped (options: WNOHANG or 0): 1 with its wait status and the
 * CPU time of its process tree (user + system, from rusage) kept. */
static int reap(struct rec *r, int options)
{
	struct rusage ru;
	int status;

	if (wait4(r->child, &status, options, &ru) != r->child)
		return 0;
	r->res->status = status;
	r->cpu_time = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		      (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	r->child = -1;
	return 1;
}

/* Sleep until a buffer fills past its watermark, the command ends, a
 * signal arrives, or (with -d) time is up; drain after each wakeup. */
static void record_loop(struct rec *r)
{
	const struct vp_record_opts *o = r->o;
	struct pollfd *pf = calloc(r->nrings + 2, sizeof(*pf));
	int done = 0;

	vp_progress_record(0, 0);
	while (!done && pf) {
		size_t np = 0;
		int any = 0;
		for (size_t i = 0; i < r->nrings; i++)
			pf[np++] = (struct pollfd){ r->rings[i].fd, POLLIN, 0 };
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
	drain(r, &any);
	if (any)
		vp_pdw_finished_round(r->w);
	if (r->child > 0) {	/* stopped early: the command ends with us */
		kill(r->child, SIGTERM);
		reap(r, 0);
		r->child = -1;
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
		munmap(r->rings[i].base, r->rings[i].size + r->page);
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
}

int vp_record(const struct vp_record_opts *o, struct vp_record_result *res, struct vp_error *err)
{
	struct rec r = { .o = o, .err = err, .res = res, .child = -1, .go = { -1, -1 },
			 .fail = { -1, -1 }, .wake = { -1, -1 }, .pidfd = -1, .cpu_time = -1,
			 .start = time(NULL), .steal0 = vp_steal_seconds() };
	int rc;

	memset(res, 0, sizeof(*res));
	stop_flag = 0;
	if ((rc = prepare(&r)) < 0 || (rc = choose_targets(&r)) < 0)
		goto fail;
	if ((rc = open_all(&r)) < 0)
		goto fail;
	if (r.user_only)
		warn_user_only(&r);

	/* The file: previous output kept as .old once this one is complete. */
	if ((rc = open_output(&r)) < 0 || (rc = start(&r)) < 0)
		goto fail;
	record_loop(&r);
	stop(&r);
	struct vp_record_facts facts = { r.start, res->seconds, r.steal0, r.cpu_time };
	rc = vp_record_finish(r.w, r.partial, o, r.ev, r.nev, r.page, &facts, err);
	r.w = NULL;	/* finished or, on failure, removed */
	if (rc < 0 || (rc = vp_record_put_in_place(r.partial, o->output, err)) < 0)
		goto fail;
	rc = 0;
fail:
	cleanup(&r);
	return rc;
}
