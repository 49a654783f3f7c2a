/* Machine state rebuilt from a perf.data stream: processes and their maps
 * (MMAP/MMAP2, FORK, COMM), kernel and module maps, and the objects (dsos)
 * behind them; resolves an address seen by a process into (symbol, dso,
 * domain) the way perf report does. */
#ifndef VP_SESSION_H
#define VP_SESSION_H

#include <stdint.h>

#include "error.h"
#include "perfdata.h"
#include "strpool.h"
#include "symbols.h"

struct vp_session_opts {
	const char *symfs;		/* root prepended to object paths */
	const char *kallsyms;		/* host kernel symbols; default /proc/kallsyms */
	const char *guest_kallsyms;	/* guest kernel symbols */
	const char *guest_modules;	/* guest /proc/modules */
};

struct vp_resolved {
	const char *symbol;	/* interned in the session's output pool; "[unknown]" when unresolved */
	const char *dso;	/* interned: long name as perf keeps it */
	char domain;		/* enum vp_domain */
};

struct vp_session;

/* Names are interned into out_pool (the profile's pool), so results can be
 * used as row keys directly. pd supplies build-ids and embedded symbols. */
int vp_session_new(const struct vp_perfdata *pd, const struct vp_session_opts *o,
		   struct vp_strpool *out_pool, struct vp_session **out, struct vp_error *err);
void vp_session_free(struct vp_session *s);

int vp_session_mmap(struct vp_session *s, const struct vp_mmap_event *m);
int vp_session_comm(struct vp_session *s, const struct vp_comm_event *c);
int vp_session_fork(struct vp_session *s, const struct vp_task_event *t);
int vp_session_exit(struct vp_session *s, const struct vp_task_event *t);

/* Resolve ip as seen by pid in cpumode (the low bits of a record's misc). */
void vp_session_resolve(struct vp_session *s, uint32_t pid, unsigned cpumode, uint64_t ip,
			struct vp_resolved *out);
/* Called for every symbol a resolution finds (the recorder gathers the
 * portable symbol section this way): kind '.' user object (start is a file
 * offset), 'k' host kernel, 'g' guest kernel (recorded addresses); name verbatim. */
typedef void (*vp_session_collect_fn)(void *ctx, const char *dso, char kind, uint64_t start,
				      uint64_t size, const char *name);
void vp_session_set_collect(struct vp_session *s, vp_session_collect_fn fn, void *ctx);

/* Host kernel symbols are still being read on the background thread: a
 * caller may set kernel addresses aside and resolve them later, as long as the
 * kernel's maps stay as they are (vp_session_kernel_gen unchanged). */
int vp_session_kernel_loading(const struct vp_session *s);
uint32_t vp_session_kernel_gen(const struct vp_session *s);
/* The command name of a thread at this point of the stream (interned). */
const char *vp_session_comm_of(struct vp_session *s, uint32_t pid, uint32_t tid);

#endif
