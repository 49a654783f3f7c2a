/* Event names as perf spells them, shared by the reader (names for attrs
 * without HEADER_EVENT_DESC) and the event-spec parser. */
#ifndef VP_EVNAME_H
#define VP_EVNAME_H

#include <stddef.h>
#include <stdint.h>

extern const char *const vp_hw_event_names[];		/* PERF_TYPE_HARDWARE configs */
extern const size_t vp_hw_event_count;
extern const char *const vp_sw_event_names[];		/* PERF_TYPE_SOFTWARE configs */
extern const size_t vp_sw_event_count;
extern const char *const vp_hw_cache_names[];		/* L1-dcache, ..., node */
extern const size_t vp_hw_cache_count;
extern const char *const vp_hw_cache_op_names[];	/* load, store, prefetch */
extern const char *const vp_hw_cache_op_plural[];	/* loads, stores, prefetches */
extern const char *const vp_hw_cache_result_names[];	/* refs, misses */

#endif
