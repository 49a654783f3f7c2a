/* The end of a recording: the header's feature sections (the machine, the
 * command line, vmprof's own facts, tracepoint formats, the portable symbols
 * and perf's build-id table) written, and the file renamed into place. */
#ifndef VP_FINISH_H
#define VP_FINISH_H

#include <stddef.h>
#include <time.h>

#include "events.h"
#include "record.h"

struct vp_pdw;

struct vp_sched_totals;

/* What the recording knows of itself when it stops; seconds, < 0 unknown. */
struct vp_record_facts {
	time_t start;		/* wall clock at the start */
	double seconds;		/* recording time */
	double steal;		/* steal over all CPUs while the command ran (or the recording) */
	double steal_running;	/* of that, estimated while its threads ran on those CPUs */
	double user, system;	/* CPU time of the command's process tree */
	double wall;		/* the command's wall time, exec to exit */
	const char *no_sched;	/* why the threads' scheduling was not followed, or NULL */
	const char *no_wakeups;	/* why the wakeups were not seen, or NULL */
	const struct vp_sched_totals *sched;	/* NULL when not followed */
};

/* Finish w (written to partial), which is gone after the call: on failure
 * partial is removed too. */
int vp_record_finish(struct vp_pdw *w, const char *partial, const struct vp_record_opts *o,
		     const struct vp_event_spec *ev, size_t nev, size_t page,
		     const struct vp_record_facts *facts, struct vp_error *err);
/* partial becomes out in one rename; a previous out is kept as out.old. */
int vp_record_put_in_place(const char *partial, const char *out, struct vp_error *err);

#endif
