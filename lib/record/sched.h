/* The scheduler side channel of a recording: where the command's threads
 * were while they did not run. Events of their own (not in the file) follow
 * each thread: PERF_RECORD_SWITCH in and out (a dummy event with
 * context_switch, per thread and inherited: "out" says whether the thread
 * was preempted, still runnable, or blocked), every sched:sched_wakeup and
 * sched_wakeup_new on each CPU (raw: the woken pid; the wakeup of a thread
 * by an interrupt happens outside it, so only CPU-wide events see it) and
 * sched:sched_switch per thread: the thread it switches to (a switch from
 * one followed thread straight to another is the CPU's time, not waiting)
 * and, with --off-cpu, its callchain: the stack at which it blocked.
 *
 * From these, per thread, in time order: blocked = switched out not
 * runnable until woken; runnable wait = woken (or preempted) until switched
 * in. Without the wakeup tracepoints (they need perf_event_paranoid -1 or
 * root) blocked lasts until the switch in and the wait counts preemptions
 * only; the method is said in the file. With --off-cpu every blocked
 * interval becomes a sample of the file's "offcpu-time" event, perf's name:
 * period = nanoseconds blocked, callchain = the switch out's, time = the
 * wakeup that ended it. */
#ifndef VP_SCHED_H
#define VP_SCHED_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/util/error.h"
#include "lib/perfdata/perf_format.h"

/* The clock of every event of a recording that tracks the scheduler, so
 * that the recorder knows how far the kernel's timestamps have come. */
#define VP_SCHED_CLOCK CLOCK_MONOTONIC

struct vp_sched_opts {
	int off_cpu;			/* sched_switch callchains, offcpu-time samples */
	const int *cpus;
	size_t ncpus;
	const pid_t *targets;		/* threads followed (inherited by their children) */
	size_t ntargets;
	int enable_on_exec;		/* a command's events start at its exec */
	size_t pages, page;		/* ring buffer pages per CPU, page size */
};

struct vp_sched_totals {
	double runnable_wait;		/* seconds summed over threads */
	double blocked;
	/* seconds of the command's time with no thread running: some thread
	 * runnable (waiting), or all blocked */
	double waiting_wall, blocked_wall;
	int wakeups;			/* 1: blocked ends at the wakeup; 0: at the switch in */
	uint64_t switches_out, blocked_intervals, wakeups_seen, lost;
};

struct vp_sched;

/* Open the side events. -EOPNOTSUPP (with the reason in err) when the
 * switch records cannot be had here; other failures of the wakeup
 * tracepoints only lose the wakeups (see vp_sched_totals), of sched_switch
 * fail when off_cpu was asked for. */
int vp_sched_open(const struct vp_sched_opts *o, struct vp_sched **out, struct vp_error *err);
void vp_sched_free(struct vp_sched *s);
/* Why the wakeup tracepoints were not opened, or NULL. */
const char *vp_sched_no_wakeups(const struct vp_sched *s);

/* offcpu-time as the file declares it (perf's: a software bpf-output
 * event); id is one no kernel event of the recording has. */
void vp_sched_offcpu_event(const struct vp_sched *s, struct perf_event_attr *attr, uint64_t *id);

/* The CPU-wide events start now (per-thread ones at exec, or now when not
 * enable_on_exec); stop stops them all. */
void vp_sched_start(struct vp_sched *s);
void vp_sched_stop(struct vp_sched *s);
/* Its rings, for the recorder's poll; the number written (<= max). */
size_t vp_sched_pollfds(const struct vp_sched *s, struct pollfd *pf, size_t max);

/* A record for the file (an offcpu-time sample). */
typedef int (*vp_sched_emit)(void *ctx, const void *rec, size_t len);

/* Drain the rings, then account what happened before upto (VP_SCHED_CLOCK
 * nanoseconds; UINT64_MAX: everything) in time order. Samples get a time no
 * earlier than floor, so perf's rounds keep them in order. *emitted counts
 * the records emitted. emit's error, or 0. */
int vp_sched_pass(struct vp_sched *s, uint64_t upto, uint64_t floor, vp_sched_emit emit,
		  void *ctx, size_t *emitted);
/* The recording ended at end: threads still blocked or waiting are charged
 * up to it. */
int vp_sched_end(struct vp_sched *s, uint64_t end, vp_sched_emit emit, void *ctx);
void vp_sched_totals(const struct vp_sched *s, struct vp_sched_totals *t);
/* The steal of the command: each CPU's steal over its run (steal0, steal1:
 * per CPU seconds at its start and end, ncpus of them, as
 * vp_steal_per_cpu reads them) in the share of the wall time its threads
 * ran there; steal is only read at the two ends, so it is taken as spread
 * evenly over the run. Steal on another CPU, or while the command waited or
 * slept, is not its time. */
double vp_sched_steal(const struct vp_sched *s, const double *steal0, const double *steal1,
		      size_t ncpus, double wall);

/* Now on VP_SCHED_CLOCK, in nanoseconds. */
uint64_t vp_sched_now(void);

#endif
