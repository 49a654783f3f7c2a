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

/* What the recording knows of itself when it stops. */
struct vp_record_facts {
	time_t start;		/* wall clock at the start */
	double seconds;		/* recording time */
	double steal0;		/* steal time at the start, < 0 when unknown */
	double cpu_time;	/* the command's CPU time, < 0 when unknown */
};

/* Finish w (written to partial), which is gone after the call: on failure
 * partial is removed too. */
int vp_record_finish(struct vp_pdw *w, const char *partial, const struct vp_record_opts *o,
		     const struct vp_event_spec *ev, size_t nev, size_t page,
		     const struct vp_record_facts *facts, struct vp_error *err);
/* partial becomes out in one rename; a previous out is kept as out.old. */
int vp_record_put_in_place(const char *partial, const char *out, struct vp_error *err);

#endif
