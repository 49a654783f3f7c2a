/* Tracepoint payloads decoded through libtraceevent with formats from the
 * file: what report --weight and --group-by do with each sample. Input:
 * u32 length, that many bytes of tracing data (perf's HEADER_TRACING_DATA),
 * then raw payloads, each a u16 length and the bytes. */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util/strpool.h"
#include "lib/perfdata/tracedata.h"

/* Fields of the fixtures' tracepoints and of KVM's, plus the common ones. */
static const char *const fields[] = {
	"common_type", "common_pid", "common_flags", "ret", "__syscall_nr", "count",
	"prev_state", "prev_comm", "prev_pid", "next_comm", "next_pid", "exit_reason",
	"isa", "guest_rip", "error_code", "ptr", "bytes_req",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vp_tracedata *td = NULL;
	struct vp_error err = { 0 };
	struct vp_strpool *pool;
	uint32_t tlen;
	char name[256];

	vp_fuzz_quiet();
	if (size < 4)
		return 0;
	memcpy(&tlen, data, 4);
	if (tlen > size - 4)
		tlen = (uint32_t)(size - 4);
	if (vp_tracedata_parse(data + 4, tlen, &td, &err) < 0) {
		if (!err.msg[0])
			abort();
		return 0;
	}
	if (!(pool = vp_strpool_new()))
		abort();
	for (size_t off = 4 + (size_t)tlen; size - off >= 2;) {
		uint16_t rlen;
		memcpy(&rlen, data + off, 2);
		off += 2;
		if (rlen > size - off)
			rlen = (uint16_t)(size - off);
		/* a copy of exactly the payload's size, so ASan sees any overread */
		uint8_t *raw = malloc(rlen ? rlen : 1);
		if (!raw)
			abort();
		memcpy(raw, data + off, rlen);
		off += rlen;
		int id = vp_tracedata_raw_id(td, raw, rlen);
		if (id >= 0) {
			vp_tracedata_event_name(td, id, name, sizeof(name));
			for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
				const struct vp_tpfield *f = vp_tracedata_field(td, id, fields[i]);
				int64_t v;
				if (!f)
					continue;
				vp_tpfield_value(f, raw, rlen, &v);
				if (!vp_tpfield_label(f, raw, rlen, pool))
					abort();
			}
		}
		free(raw);
	}
	vp_strpool_free(pool);
	vp_tracedata_free(td);
	return 0;
}
