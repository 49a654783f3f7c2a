/* perf's HEADER_TRACING_DATA (version 0.6) for the tracepoints of a
 * recording: the page and event headers and each event's format file from
 * tracefs, so perf and libtraceevent can decode the samples' raw payloads. */
#ifndef VP_TRACING_H
#define VP_TRACING_H

#include <stddef.h>

#include "events.h"

/* The section's bytes (malloc'd), or NULL when tracefs is not there or
 * memory ran out. */
char *vp_tracing_data(const struct vp_event_spec *ev, size_t nev, size_t page_size, size_t *size);

#endif
