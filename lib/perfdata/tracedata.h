/* Tracepoint payloads: the event formats stored in a perf.data file (the
 * HEADER_TRACING_DATA section) fed to libtraceevent, so fields of a sample's
 * raw data decode without the recording machine's tracefs. */
#ifndef VP_TRACEDATA_H
#define VP_TRACEDATA_H

#include <stddef.h>
#include <stdint.h>

#include "lib/util/error.h"
#include "lib/util/strpool.h"

struct vp_tracedata;
struct vp_tpfield;

/* Parse perf's tracing data ("\027\010\104tracing" + formats...). */
int vp_tracedata_parse(const void *data, size_t size, struct vp_tracedata **out,
		       struct vp_error *err);
void vp_tracedata_free(struct vp_tracedata *td);
/* "system:name" of a tracepoint id; 0 on success. */
int vp_tracedata_event_name(const struct vp_tracedata *td, int id, char *buf, size_t size);
/* A field of the event with this id; NULL when the event has no such field.
 * Owned by td. */
const struct vp_tpfield *vp_tracedata_field(struct vp_tracedata *td, int id, const char *name);
/* The event id at the start of a raw sample (common_type), -1 if too short. */
int vp_tracedata_raw_id(const struct vp_tracedata *td, const void *raw, size_t size);
/* The field's value as a signed number; -1 when the raw data is too short. */
int vp_tpfield_value(const struct vp_tpfield *f, const void *raw, size_t size, int64_t *val);
/* The field's value as the event's print format names it (e.g. a KVM exit
 * reason's name), else as a number; interned in pool. */
const char *vp_tpfield_label(const struct vp_tpfield *f, const void *raw, size_t size,
			     struct vp_strpool *pool);

#endif
