/* The accounting behind the scheduler side channel (sched.h): scheduling
 * events of the followed threads, in time order, turned into each thread's
 * blocked intervals and its runnable waiting. Apart from the rings so that
 * it can be tested with made-up event sequences. */
#ifndef VP_SCHEDACCT_H
#define VP_SCHEDACCT_H

#include <stddef.h>
#include <stdint.h>

enum vp_sev_kind {
	VP_SEV_FORK,	/* a followed thread made tid */
	VP_SEV_EXIT,	/* tid ended: later records of it (its last switch out) are not blocking */
	VP_SEV_STACK,	/* sched_switch: the stack tid is switched out at, the thread after it */
	VP_SEV_OUT,	/* switched out: preempt says still runnable */
	VP_SEV_IN,	/* switched in */
	VP_SEV_WAKE,	/* woken (sched_wakeup, sched_wakeup_new) */
};

struct vp_sev {
	uint64_t time, seq;	/* seq: the order records came in, for equal times */
	uint32_t pid, tid, cpu;
	uint8_t kind, preempt;
	uint32_t nstack;
	uint64_t *stack;	/* VP_SEV_STACK: malloc'd, handed over with the event, or NULL */
	uint32_t next;		/* VP_SEV_STACK: the thread switched to, 0 when unknown */
};

/* A blocked interval that ended (or was cut at the end of the recording). */
struct vp_blocked {
	uint32_t pid, tid, cpu;		/* cpu: where it blocked */
	uint64_t start, end;
	const uint64_t *stack;		/* NULL when no sched_switch sample was had */
	uint32_t nstack;
};
typedef int (*vp_blocked_fn)(void *ctx, const struct vp_blocked *b);

struct vp_schedacct_totals {
	/* summed over the threads: runnable waiting (schedstat's run_delay)
	 * and blocked (the offcpu-time samples' periods) */
	uint64_t wait_ns, blocked_ns;
	/* the command as a whole, from its first event on: some thread
	 * running; else some runnable; else all blocked (these add up to the
	 * time its threads were followed) */
	uint64_t running_wall_ns, waiting_wall_ns, blocked_wall_ns;
	uint64_t switches_out, blocked_intervals, wakeups;
};


struct vp_schedacct;

/* Threads are known from their fork or their first switch (the command's
 * first thread, -p's threads); wakeups of unknown threads (the CPU-wide
 * tracepoints see every thread) are ignored. NULL on ENOMEM. */
struct vp_schedacct *vp_schedacct_new(void);
void vp_schedacct_free(struct vp_schedacct *a);
/* One event, in time order; e->stack is taken over (freed by the call or
 * kept). fn hears of each blocked interval as it ends. fn's error, -ENOMEM
 * or 0. */
int vp_schedacct_event(struct vp_schedacct *a, struct vp_sev *e, vp_blocked_fn fn, void *ctx);
/* End of the recording: open intervals are cut at end. */
int vp_schedacct_end(struct vp_schedacct *a, uint64_t end, vp_blocked_fn fn, void *ctx);
void vp_schedacct_totals(const struct vp_schedacct *a, struct vp_schedacct_totals *t);
/* Nanoseconds the threads ran on a CPU, summed over them (switch in to
 * switch out there). */
uint64_t vp_schedacct_ran_on(const struct vp_schedacct *a, uint32_t cpu);

#endif
