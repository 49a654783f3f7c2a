/* The recorder (see record.h): one ring buffer per CPU, the other events of
 * that CPU redirected into it (PERF_EVENT_IOC_SET_OUTPUT), drained by a poll
 * loop that sleeps until the kernel wakes it; records go straight into the
 * perf.data writer, a FINISHED_ROUND after each pass as perf writes them. */
#include "record.h"

#include <dirent.h>
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
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "events.h"
#include "machine.h"
#include "lib/perfdata/write.h"
#include "lib/symbols/kernel_id.h"
#include "lib/symbols/portsyms.h"
#include "lib/symbols/session.h"

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

/* ---- what existed before the recording ---- */

static uint64_t kernel_text(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512];
	unsigned long long a = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char t, name[256];
		unsigned long long v;
		if (sscanf(line, "%llx %c %255s", &v, &t, name) == 3 && !strcmp(name, "_text")) {
			a = v;
			break;
		}
	}
	fclose(f);
	return a;
}

static void synth_process(struct rec *r, pid_t pid)
{
	char path[64], comm[64] = "", line[4352];
	FILE *f;
	DIR *d;
	struct dirent *de;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	if ((f = fopen(path, "r"))) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	if (!comm[0])
		return;	/* gone */
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	if ((d = opendir(path))) {
		while ((de = readdir(d)))
			if (de->d_name[0] >= '0' && de->d_name[0] <= '9')
				vp_pdw_comm(r->w, (uint32_t)pid, (uint32_t)atoi(de->d_name), comm);
		closedir(d);
	}
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	if (!(f = fopen(path, "r")))
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;
		char perms[8], file[4097] = "";
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4096[^\n]", &s, &e, perms, &off, file) < 4)
			continue;
		if (perms[2] != 'x')
			continue;	/* only code is sampled */
		char *fn = file + strspn(file, " ");
		if (!*fn)
			fn = "//anon";
		uint32_t prot = (perms[0] == 'r' ? 1 : 0) | (perms[1] == 'w' ? 2 : 0) | 4;
		vp_pdw_mmap2(r->w, PERF_RECORD_MISC_USER, (uint32_t)pid, (uint32_t)pid, s, e - s, off, prot,
			     perms[3] == 's' ? 1 : 2, fn);
	}
	fclose(f);
}

static void synth_existing(struct rec *r)
{
	uint64_t text = kernel_text();
	uint8_t kid[20];
	size_t kn;

	/* Which kernel this is, first in the data: a recording killed before
	 * its header sections were written still says it (perf reads the
	 * record anywhere in the stream). */
	if (vp_kernel_build_id(kid, &kn) == 0)
		vp_pdw_build_id(r->w, PERF_RECORD_MISC_KERNEL, -1, kid, kn, "[kernel.kallsyms]");

	if (text)	/* the kernel map; its pgoff locates _text (KASLR) */
		vp_pdw_mmap2(r->w, PERF_RECORD_MISC_KERNEL, UINT32_MAX, 0, text, ~0ull - text, text, 5, 0,
			     "[kernel.kallsyms]_text");
	if (r->o->argv && !r->o->system_wide)
		return;	/* the command's own records come from the kernel after exec */
	if (r->o->system_wide) {
		DIR *d = opendir("/proc");
		struct dirent *de;
		while (d && (de = readdir(d)))
			if (de->d_name[0] >= '1' && de->d_name[0] <= '9')
				synth_process(r, atoi(de->d_name));
		if (d)
			closedir(d);
	} else {	/* per process: its threads' names and its maps, once */
		for (size_t i = 0; i < r->nprocs; i++)
			synth_process(r, r->procs[i]);
	}
}

/* ---- targets ---- */

/* -p ends when every listed process has: a zombie counts as gone. */
static int any_alive(const struct rec *r)
{
	for (size_t i = 0; i < r->nprocs; i++) {
		char path[64], buf[512];
		FILE *f;
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)r->procs[i]);
		if (!(f = fopen(path, "r")))
			continue;
		size_t n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[n] = '\0';
		const char *paren = strrchr(buf, ')');
		if (paren && paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X')
			return 1;
	}
	return 0;
}

static int add_target(struct rec *r, pid_t p)
{
	pid_t *v = realloc(r->targets, (r->ntargets + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	r->targets = v;
	v[r->ntargets++] = p;
	return 0;
}

/* -p: every thread of every listed process. */
static int pid_targets(struct rec *r, const char *list)
{
	char *copy = strdup(list), *save = NULL;
	int rc = 0;

	if (!copy)
		return vp_errorf(r->err, -ENOMEM, "out of memory");
	for (char *t = strtok_r(copy, ",", &save); t && rc >= 0; t = strtok_r(NULL, ",", &save)) {
		char *end, path[64];
		long pid = strtol(t, &end, 10);
		DIR *d;
		struct dirent *de;
		if (*end || pid <= 0 || pid > 4194304) {
			rc = vp_errorf(r->err, -EINVAL, "-p: '%s' is not a process id", t);
			break;
		}
		snprintf(path, sizeof(path), "/proc/%ld/task", pid);
		if (!(d = opendir(path))) {
			rc = vp_errorf(r->err, -ESRCH, "-p: no process %ld", pid);
			break;
		}
		pid_t *pv = realloc(r->procs, (r->nprocs + 1) * sizeof(*pv));
		if (!pv) {
			closedir(d);
			rc = vp_errorf(r->err, -ENOMEM, "out of memory");
			break;
		}
		r->procs = pv;
		pv[r->nprocs++] = (pid_t)pid;
		while ((de = readdir(d)) && rc >= 0)
			if (de->d_name[0] >= '0' && de->d_name[0] <= '9')
				rc = add_target(r, atoi(de->d_name));
		closedir(d);
	}
	free(copy);
	return rc;
}

/* ---- tracepoint formats (perf's HEADER_TRACING_DATA, version 0.6) ---- */

static int put_file(FILE *out, const char *path, int size_bytes)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t n = 0, cap = 0, got;

	if (!f)
		return -errno;
	do {
		if (n + 4096 > cap) {
			char *nb = realloc(buf, cap = cap ? cap * 2 : 8192);
			if (!nb) {
				free(buf);
				fclose(f);
				return -ENOMEM;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, 4096, f);
		n += got;
	} while (got > 0);
	fclose(f);
	if (size_bytes == 8) {
		uint64_t sz = n;
		fwrite(&sz, 8, 1, out);
	} else {
		uint32_t sz = (uint32_t)n;
		fwrite(&sz, 4, 1, out);
	}
	fwrite(buf, 1, n, out);
	free(buf);
	return 0;
}

static char *tracing_data(const struct rec *r, size_t *size)
{
	const char *fs = vp_tracefs();
	char *blob = NULL, path[512];
	size_t len = 0;
	FILE *out;
	uint32_t page = (uint32_t)r->page, zero32 = 0, nsys = 0;
	uint64_t zero64 = 0;

	if (!fs || !(out = open_memstream(&blob, &len)))
		return NULL;
	fwrite("\027\010\104tracing", 1, 10, out);
	fwrite("0.6", 1, 4, out);
	fputc(0, out);			/* little endian */
	fputc((int)sizeof(long), out);
	fwrite(&page, 4, 1, out);
	fwrite("header_page", 1, 12, out);
	snprintf(path, sizeof(path), "%s/events/header_page", fs);
	put_file(out, path, 8);
	fwrite("header_event", 1, 13, out);
	snprintf(path, sizeof(path), "%s/events/header_event", fs);
	put_file(out, path, 8);
	fwrite(&zero32, 4, 1, out);	/* no ftrace-internal formats */
	/* systems in first-seen order, each with its events' formats */
	for (size_t i = 0; i < r->nev; i++) {
		int first = r->ev[i].tracepoint;
		for (size_t j = 0; j < i && first; j++)
			if (r->ev[j].tracepoint && !strcmp(r->ev[j].tp_system, r->ev[i].tp_system))
				first = 0;
		nsys += first;
	}
	fwrite(&nsys, 4, 1, out);
	for (size_t i = 0; i < r->nev; i++) {
		int first = r->ev[i].tracepoint;
		uint32_t count = 0;
		for (size_t j = 0; j < i && first; j++)
			if (r->ev[j].tracepoint && !strcmp(r->ev[j].tp_system, r->ev[i].tp_system))
				first = 0;
		if (!first)
			continue;
		fwrite(r->ev[i].tp_system, 1, strlen(r->ev[i].tp_system) + 1, out);
		for (size_t j = i; j < r->nev; j++)
			count += r->ev[j].tracepoint && !strcmp(r->ev[j].tp_system, r->ev[i].tp_system);
		fwrite(&count, 4, 1, out);
		for (size_t j = i; j < r->nev; j++)
			if (r->ev[j].tracepoint && !strcmp(r->ev[j].tp_system, r->ev[i].tp_system)) {
				snprintf(path, sizeof(path), "%s/events/%s/%s/format", fs, r->ev[j].tp_system,
					 r->ev[j].tp_event);
				put_file(out, path, 8);
			}
	}
	fwrite(&zero32, 4, 1, out);	/* kallsyms */
	fwrite(&zero32, 4, 1, out);	/* printk formats */
	fwrite(&zero64, 8, 1, out);	/* saved cmdlines */
	if (fclose(out) != 0) {
		free(blob);
		return NULL;
	}
	*size = len;
	return blob;
}

/* ---- metadata ---- */

static char *meta_text(const struct vp_record_opts *o, const char *hv, time_t start, double dur,
		       double steal, double cpu)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	if (!f)
		return NULL;
	fprintf(f, "vmprof-version=%s\n", VP_VERSION);
	if (o->label)
		fprintf(f, "label=%s\n", o->label);
	fprintf(f, "hypervisor=%s\n", hv);
	fprintf(f, "start-time=%lld\n", (long long)start);
	fprintf(f, "duration=%.6f\n", dur);
	if (steal >= 0)
		fprintf(f, "steal-time=%.6f\n", steal);
	if (cpu >= 0)
		fprintf(f, "cpu-time=%.6f\n", cpu);
	if (o->guest_kallsyms)
		fprintf(f, "guest-kallsyms=%s\n", o->guest_kallsyms);
	if (o->guest_modules)
		fprintf(f, "guest-modules=%s\n", o->guest_modules);
	fclose(f);
	return s;
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ---- the whole recording ---- */

static void cleanup(struct rec *r)
{
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
}

int vp_record(const struct vp_record_opts *o, struct vp_record_result *res, struct vp_error *err)
{
	struct rec r = { .o = o, .err = err };
	int go[2] = { -1, -1 }, fail[2] = { -1, -1 }, wake[2] = { -1, -1 }, pidfd = -1, rc;
	pid_t child = -1;
	char partial[4096], old[4096], hv[256];
	struct utsname u;
	time_t start = time(NULL);
	double t0, steal0 = vp_steal_seconds(), cpu_time = -1;
	int defaulted = !o->events;

	memset(res, 0, sizeof(*res));
	stop_flag = 0;
	r.page = (size_t)sysconf(_SC_PAGESIZE);
	if (o->mmap_pages & (o->mmap_pages - 1))
		return vp_errorf(err, -EINVAL, "the buffer size must be a power of two pages");
	if (snprintf(partial, sizeof(partial), "%s.partial", o->output) >= (int)sizeof(partial))
		return vp_errorf(err, -ENAMETOOLONG, "'%s': name too long", o->output);
	enum vp_kvm_mode kvm = o->host_only ? VP_KVM_HOST : o->guest_only ? VP_KVM_GUEST : VP_KVM_BOTH;
	if ((rc = vp_events_parse_kvm(o->events ? o->events : "cycles", kvm, &r.ev, &r.nev, err)) < 0)
		return rc;
	r.cpus = malloc(MAX_CPUS * sizeof(*r.cpus));
	r.copy = malloc(65536);
	if (!r.cpus || !r.copy) {
		cleanup(&r);
		return vp_errorf(err, -ENOMEM, "out of memory");
	}
	if (o->cpus) {
		if (vp_cpu_list_parse(o->cpus, r.cpus, MAX_CPUS, &r.ncpus) < 0) {
			cleanup(&r);
			return vp_errorf(err, -EINVAL, "-C: '%s' is not a CPU list like 0-3,6", o->cpus);
		}
	} else {
		r.ncpus = vp_online_cpus(r.cpus, MAX_CPUS);
	}

	/* The default event: cycles when a PMU exists, else cpu-clock (said once). */
	if (defaulted) {
		struct perf_event_attr probe = r.ev[0].attr;
		probe.size = sizeof(probe);
		probe.disabled = 1;
		probe.exclude_kernel = 1;
		long fd = perf_event_open(&probe, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd >= 0) {
			close((int)fd);
		} else {
			free(r.ev);
			r.ev = NULL;
			if ((rc = vp_events_parse_kvm("cpu-clock", kvm, &r.ev, &r.nev, err)) < 0) {
				cleanup(&r);
				return rc;
			}
			res->fell_back = 1;
		}
	}
	setup_attrs(&r);

	if (o->argv) {
		if (pipe2(go, O_CLOEXEC) || pipe2(fail, O_CLOEXEC)) {
			cleanup(&r);
			return vp_errorf(err, -errno, "cannot create a pipe: %s", strerror(errno));
		}
		child = fork();
		if (child < 0) {
			cleanup(&r);
			return vp_errorf(err, -errno, "cannot fork: %s", strerror(errno));
		}
		if (child == 0) {
			char c;
			close(go[1]);
			close(fail[0]);
			signal(SIGINT, SIG_DFL);
			signal(SIGTERM, SIG_DFL);
			if (read(go[0], &c, 1) != 1)
				_exit(127);	/* the recorder gave up */
			execvp(o->argv[0], o->argv);
			int e = errno;
			ssize_t w = write(fail[1], &e, sizeof(e));
			(void)w;
			_exit(127);
		}
		close(go[0]);
		close(fail[1]);
		go[0] = fail[1] = -1;
		/* -a -- CMD: the whole system while the command runs */
		add_target(&r, o->system_wide ? -1 : child);
		res->ran_command = 1;
	} else if (o->pids) {
		if ((rc = pid_targets(&r, o->pids)) < 0)
			goto fail;
	} else {
		add_target(&r, -1);
	}
	if (!r.targets) {
		rc = vp_errorf(err, -ENOMEM, "out of memory");
		goto fail;
	}
	if ((rc = open_all(&r)) < 0)
		goto fail;
	if (r.user_only)
		warn_user_only(&r);

	/* The file: previous output kept as .old once this one is complete. */
	struct vp_pdw_event *pev = calloc(r.nev, sizeof(*pev));
	if (!pev) {
		rc = vp_errorf(err, -ENOMEM, "out of memory");
		goto fail;
	}
	for (size_t e = 0; e < r.nev; e++)
		pev[e] = (struct vp_pdw_event){ r.ev[e].attr, r.ev[e].name, r.ids[e], r.nids[e] };
	rc = vp_pdw_open(partial, pev, r.nev, &r.w, err);
	if (rc < 0) {
		free(pev);
		goto fail;
	}
	synth_existing(&r);
	vp_pdw_finished_round(r.w);

	if (pipe2(wake, O_CLOEXEC | O_NONBLOCK) == 0)
		wake_fd = wake[1];
	t0 = now();
	/* -a and -p count from now; a command's own events from its exec. With
	 * -a -- CMD, enabled before the command is let go, so it is seen whole. */
	if (!o->argv || o->system_wide)
		for (size_t i = 0; i < r.nfds; i++)
			ioctl(r.fds[i], PERF_EVENT_IOC_ENABLE, 0);
	if (o->argv) {
		pidfd = (int)syscall(SYS_pidfd_open, child, 0);
		if (write(go[1], "g", 1) != 1) {
			rc = vp_errorf(err, -errno, "cannot start the command");
			free(pev);
			goto fail;
		}
		close(go[1]);
		go[1] = -1;
		int e;
		if (read(fail[0], &e, sizeof(e)) == sizeof(e)) {	/* EOF once exec succeeded */
			rc = vp_errorf(err, -e, "cannot run '%s': %s", o->argv[0], strerror(e));
			waitpid(child, NULL, 0);
			child = -1;
			free(pev);
			vp_pdw_close(r.w);
			r.w = NULL;
			unlink(partial);
			goto fail;
		}
	}

	/* Sleep until a buffer fills past its watermark, the command ends, a
	 * signal arrives, or (with -d) time is up. */
	struct pollfd *pf = calloc(r.nrings + 2, sizeof(*pf));
	int done = 0, status = 0;
	while (!done && pf) {
		size_t np = 0;
		int any = 0;
		for (size_t i = 0; i < r.nrings; i++)
			pf[np++] = (struct pollfd){ r.rings[i].fd, POLLIN, 0 };
		if (wake[0] >= 0)
			pf[np++] = (struct pollfd){ wake[0], POLLIN, 0 };
		if (pidfd >= 0)
			pf[np++] = (struct pollfd){ pidfd, POLLIN, 0 };
		/* Besides the watermark wakeups, a pass every DRAIN_MS: a quarter
		 * buffer can take seconds to fill at low rates, and what is still in
		 * the ring or in stdio is lost when the recorder is killed. */
		int timeout = DRAIN_MS;
		if (o->duration > 0) {
			double left = o->duration - (now() - t0);
			int ms = left <= 0 ? 0 : (int)(left * 1000) + 1;
			timeout = ms < timeout ? ms : timeout;
		} else if (pidfd < 0 && child > 0) {
			timeout = 100;	/* no pidfd (old kernel): look for the child now and then */
		}
		poll(pf, np, timeout);
		if (drain(&r, &any) < 0)
			break;
		if (any) {
			vp_pdw_finished_round(r.w);
			vp_pdw_flush(r.w);	/* a killed recording keeps every whole round */
		}
		if (stop_flag || (o->duration > 0 && now() - t0 >= o->duration))
			done = 1;
		if (r.nprocs && !o->argv && !o->system_wide && !any_alive(&r))
			done = 1;	/* as perf record -p: the processes are gone */
		if (child > 0) {
			struct rusage ru;
			pid_t w = wait4(child, &status, WNOHANG, &ru);
			if (w == child) {
				res->status = status;
				cpu_time = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
					   (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
				child = -1;
				done = 1;
			}
		}
	}
	free(pf);
	for (size_t i = 0; i < r.nfds; i++)
		ioctl(r.fds[i], PERF_EVENT_IOC_DISABLE, 0);
	int any = 0;
	drain(&r, &any);
	if (any)
		vp_pdw_finished_round(r.w);
	if (child > 0) {	/* stopped early: the command ends with us */
		struct rusage ru;
		kill(child, SIGTERM);
		if (wait4(child, &status, 0, &ru) == child) {
			res->status = status;
			cpu_time = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
				   (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
		}
		child = -1;
	}
	res->seconds = now() - t0;
	res->samples = r.samples;
	res->lost = r.lost;
	res->bytes = vp_pdw_data_size(r.w);

	/* Finish the file and put it in place. */
	vp_hypervisor(hv, sizeof(hv));
	uname(&u);
	double steal1 = vp_steal_seconds();
	char *meta = meta_text(o, hv, start, res->seconds, steal0 >= 0 && steal1 >= 0 ? steal1 - steal0 : -1,
			       cpu_time);
	char version[64];
	snprintf(version, sizeof(version), "vmprof %s", VP_VERSION);
	struct vp_pdw_features feat = { u.nodename, u.release, version, u.machine,
					(uint32_t)sysconf(_SC_NPROCESSORS_CONF),
					(uint32_t)sysconf(_SC_NPROCESSORS_ONLN), o->argc_all, o->argv_all, meta };
	char *td = NULL;
	for (size_t e = 0; e < r.nev; e++)
		if (r.ev[e].tracepoint && !td)
			td = tracing_data(&r, &feat.tracing_size);
	feat.tracing_data = td;
	/* Portable file: the symbols of every sampled address go in with it. */
	char *syms = NULL;
	void *bids = NULL;
	size_t syms_size = 0;
	struct vp_error serr = { 0 };
	struct vp_session_opts so = { NULL, NULL, o->guest_kallsyms, o->guest_modules, 1 };
	if (vp_pdw_sync(r.w) == 0 &&
	    vp_portsyms_collect(partial, &so, &syms, &syms_size, &bids, &feat.build_ids_size,
				&serr) == 0) {
		feat.vmprof_syms = syms;
		feat.build_ids = bids;	/* perf's own build-id table, for perf report */
	} else {
		vp_warn("no portable symbols stored (the file needs the recorded binaries to "
			"resolve): %s", serr.msg[0] ? serr.msg : "cannot write the data");
	}
	rc = vp_pdw_finish(r.w, &feat, err);
	free(syms);
	free(bids);
	r.w = NULL;
	free(td);
	free(meta);
	free(pev);
	if (rc < 0) {
		unlink(partial);
		goto fail;
	}
	/* The previous file stays under its name until the new one replaces it
	 * in one rename: a hard link keeps it as .old (a rename where the file
	 * system has no links). */
	snprintf(old, sizeof(old), "%s.old", o->output);
	if (access(o->output, F_OK) == 0 &&
	    ((unlink(old) != 0 && errno != ENOENT) ||
	     (link(o->output, old) != 0 && rename(o->output, old) != 0))) {
		rc = vp_errorf(err, -errno, "'%s': cannot keep the previous file as '%s': %s", o->output, old,
			       strerror(errno));
		goto fail;
	}
	if (rename(partial, o->output) != 0) {
		rc = vp_errorf(err, -errno, "'%s': cannot rename '%s' into place: %s", o->output, partial,
			       strerror(errno));
		goto fail;
	}
	rc = 0;
fail:
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	if (r.w) {
		vp_pdw_close(r.w);
		unlink(partial);
	}
	wake_fd = -1;
	for (int i = 0; i < 2; i++) {
		if (go[i] >= 0)
			close(go[i]);
		if (fail[i] >= 0)
			close(fail[i]);
		if (wake[i] >= 0)
			close(wake[i]);
	}
	if (pidfd >= 0)
		close(pidfd);
	cleanup(&r);
	return rc;
}
