/* lib/record/, the record stage: events parsed (events.h), opened and
 * drained into a perf.data file (this header), what existed before
 * (synth.h), the machine's facts (machine.h), and the file finished with its
 * portable symbols (finish.h, portable.h).
 *
 * The recorder: opens events with perf_event_open (per CPU, for a command, a
 * set of processes or the whole system), drains the ring buffers in a poll
 * loop and writes a perf.data file perf reads. */
#ifndef VP_RECORD_H
#define VP_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "lib/util/error.h"

struct vp_record_opts {
	const char *output;		/* final name; written as OUTPUT.partial, then renamed */
	const char *events;		/* perf syntax; NULL: cycles, else cpu-clock */
	unsigned freq;			/* -F; used when period is 0 */
	uint64_t period;		/* -c */
	int callchain;			/* -g: frame-pointer callchains */
	int system_wide;		/* -a */
	const char *cpus;		/* -C list, NULL: all online */
	const char *pids;		/* -p list */
	double duration;		/* -d seconds, 0: until the command ends or a signal */
	int host_only, guest_only;	/* --host / --guest */
	const char *label;
	const char *guest_kallsyms, *guest_modules;
	char *const *argv;		/* command to run, NULL-terminated, or NULL */
	int argc_all;			/* vmprof's own command line, for the cmdline feature */
	char *const *argv_all;
	size_t mmap_pages;		/* per CPU, power of two; 0: 128 (512 KiB) */
	int off_cpu;			/* --off-cpu: an offcpu-time event of blocked time (sched.h) */
	int io;				/* --io: VP_IO_EVENTS too, with callchains */
};

/* The tracepoints record --io adds, in perf's syntax: what vmprof report
 * --io reads (lib/profile/io.h). */
#define VP_IO_EVENTS                                                                      \
	"syscalls:sys_enter_read,syscalls:sys_exit_read,syscalls:sys_enter_write,"        \
	"syscalls:sys_exit_write,syscalls:sys_enter_pread64,syscalls:sys_exit_pread64,"   \
	"syscalls:sys_enter_pwrite64,syscalls:sys_exit_pwrite64"

struct vp_record_result {
	int ran_command;
	int status;		/* wait status of the command */
	uint64_t samples, lost, bytes;
	double seconds;
	int fell_back;		/* cycles were asked for (default) but cpu-clock recorded */
};

/* Set by a signal handler to stop recording (SIGINT/SIGTERM). */
void vp_record_stop(void);

int vp_record(const struct vp_record_opts *o, struct vp_record_result *res, struct vp_error *err);

#endif
