/* lib/symbols/, the resolve stage: addresses into (symbol, object, domain)
 * as perf report names them. The session (this header) rebuilds the machine
 * from a walk and resolves through process.c (user space), dso.c (objects),
 * the symbol tables of symbols.h (ELF, kallsyms, JIT maps, demangling) and
 * the recording's own portable symbols (portsyms.h).
 *
 * Machine state rebuilt from a perf.data stream: processes and their maps
 * (MMAP/MMAP2, FORK, COMM), kernel and module maps, and the objects (dsos)
 * behind them; resolves an address seen by a process into (symbol, dso,
 * domain) the way perf report does. */
#ifndef VP_SESSION_H
#define VP_SESSION_H

#include <stdint.h>

#include "lib/util/error.h"
#include "lib/perfdata/perfdata.h"
#include "lib/util/strpool.h"
#include "symbols.h"

struct vp_session_opts {
	const char *symfs;		/* root prepended to object paths */
	const char *kallsyms;		/* host kernel symbols; default /proc/kallsyms */
	const char *guest_kallsyms;	/* guest kernel symbols */
	const char *guest_modules;	/* guest /proc/modules */
	int quiet;			/* no warnings about missing symbols (the recorder's own pass) */
	int kallsyms_later;		/* the kernels' symbols are read by vp_session_read_kallsyms,
					 * not on a thread of their own from the kernel's map on */
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

/* perf's perf_event__process_mmap/comm/fork: tool callbacks forwarding a
 * walk's MMAP, COMM and FORK records to a session. The walk's ctx is a
 * struct whose first member is a struct vp_session_client (a pointer to a
 * struct is a pointer to its first member); a failure is "out of memory" in
 * err. vp_session_tool sets the three in a tool. */
struct vp_session_client {
	struct vp_session *session;
	struct vp_error *err;
};
int vp_session_process_mmap(void *ctx, const struct vp_mmap_event *m);
int vp_session_process_comm(void *ctx, const struct vp_comm_event *c);
int vp_session_process_fork(void *ctx, const struct vp_task_event *t);
void vp_session_tool(struct vp_perf_tool *tool);

/* 1 when m is a host kernel mmap record that would change the kernel's maps
 * (a record mapping again what is mapped does not). */
int vp_session_mmap_changes_kernel(struct vp_session *s, const struct vp_mmap_event *m);

/* Resolve ip as seen by pid in cpumode (the low bits of a record's misc). */
void vp_session_resolve(struct vp_session *s, uint32_t pid, unsigned cpumode, uint64_t ip,
			struct vp_resolved *out);
/* As vp_session_resolve, for an address asked once (the tally's keys are
 * distinct): the cache of recent answers is neither read nor written, as
 * every look there would miss (the -g bench file's resolve on 2 CPUs:
 * 9.05 -> 7.81 ms, medians of 16 alternated runs). */
void vp_session_resolve_once(struct vp_session *s, uint32_t pid, unsigned cpumode, uint64_t ip,
			     struct vp_resolved *out);
/* As vp_session_resolve, and how long the answer holds: while *genp == gen
 * (*genp NULL: not for keeping, the process is not known yet). */
void vp_session_resolve_gen(struct vp_session *s, uint32_t pid, unsigned cpumode, uint64_t ip,
			    struct vp_resolved *out, const uint32_t **genp, uint32_t *gen);
/* What a resolution found, for the recorder's portable symbol section: the
 * table and symbol (NULL when unresolved), the object and what kind it is. */
struct vp_resolved_sym {
	const struct vp_symtab *tab;
	const struct vp_sym *sym;
	const char *dso;	/* interned, as in vp_resolved */
	char kind;		/* VP_PORTSYMS_USER, _KERNEL or _GUEST (portsyms.h) */
	uint64_t delta;		/* sym addresses minus delta = the recording's addresses */
	uint8_t build_id[20];	/* user objects: the object's build-id, when it has one */
	uint8_t build_id_size;
};
void vp_session_resolve_sym(struct vp_session *s, uint32_t pid, unsigned cpumode, uint64_t ip,
			    struct vp_resolved_sym *out);

/* An address met in samples: the process, the cpumode, the address. */
struct vp_session_addr {
	uint32_t pid;
	uint8_t cpumode;
	uint64_t ip;
};
/* Read ahead, on `threads` threads at once, the symbols of the ELF objects
 * that plan (a session that has seen the file's maps to their end) maps at
 * these user addresses, for s to take when its replay first uses each
 * object (see vp_dsos_load_ahead): a report's objects load in parallel and
 * its output stays as if each were read where it is first used. Objects
 * plan read early (vp_session_read_early) are taken from it, not read again. */
void vp_session_load_ahead(struct vp_session *s, struct vp_session *plan,
			   const struct vp_session_addr *a, size_t n, unsigned threads);

/* The map an address falls in, as vp_session_resolve reads it: for writers
 * that describe mappings (pprof). 0, or -ENOENT when no map covers it
 * (hypervisor and guest user addresses, unmapped ones). */
struct vp_map_info {
	uint64_t start, end;	/* [start, end) */
	uint64_t pgoff;		/* file offset of start; 0 for what is no file */
	const char *dso;	/* interned, as vp_resolved's */
	uint8_t build_id[20];
	uint8_t build_id_size;
};
int vp_session_map_of(struct vp_session *s, uint32_t pid, unsigned cpumode, uint64_t ip,
		      struct vp_map_info *out);

/* Address spaces, for a walk that adds samples up before it resolves them
 * (lib/profile/tally.c): a sample resolves in one space, a pid's or one of
 * these; an MMAP or FORK record changes one; and two moments when a space's
 * fingerprint is the same (the sum of its maps' hashes) resolve alike. */
#define VP_SPACE_KERNEL		(1ull << 32)
#define VP_SPACE_GUEST_KERNEL	(2ull << 32)
#define VP_SPACE_NONE		(3ull << 32)	/* nothing here names it: hypervisor, guest user */
/* Inline: the count asks it of every sample (as a call, 1.3% of the
 * instructions of a compare of two flat files). */
static inline uint64_t vp_session_sample_space(uint32_t pid, unsigned cpumode)
{
	switch (cpumode & VP_MISC_CPUMODE_MASK) {
	case PERF_RECORD_MISC_KERNEL:
		return VP_SPACE_KERNEL;
	case PERF_RECORD_MISC_GUEST_KERNEL:
		return VP_SPACE_GUEST_KERNEL;
	case PERF_RECORD_MISC_USER:
	case PERF_RECORD_MISC_CPUMODE_UNKNOWN:
		return pid;
	default:	/* hypervisor, guest user: nothing on this side can name them */
		return VP_SPACE_NONE;
	}
}
uint64_t vp_session_mmap_space(const struct vp_mmap_event *m);
/* 0 for a process not seen yet (it resolves like one without maps). */
uint64_t vp_session_space_fp(struct vp_session *s, uint64_t space);

/* Host kernel symbols are still being read on the background thread: a
 * caller may set kernel addresses aside and resolve them later, as long as the
 * kernel's maps stay as they are (vp_session_kernel_gen unchanged). */
int vp_session_kernel_loading(const struct vp_session *s);
/* With kallsyms_later: read the kernels' symbols that the records so far
 * call for, on the calling thread (a worker's, among other work), into the
 * cache that later sessions share. */
void vp_session_read_kallsyms(struct vp_session *s);
/* Whether vp_session_read_kallsyms has anything to read. */
int vp_session_kallsyms_waiting(const struct vp_session *s);
/* With kallsyms_later: the same before any record, for the host kernel
 * (host) and the guest's (guest) as a kernel map of theirs would call for
 * (the file's events tell whether they sample a kernel at all). */
void vp_session_read_kallsyms_ahead(struct vp_session *s, int host, int guest);
/* Read the ELF object that plan maps at this user address at the file's
 * end, once, on the calling thread, for vp_session_load_ahead to give
 * another session: the count's workers read each object as they first meet
 * it, so the reading is over when the count is. Safe on several threads at
 * once (plan's maps are only read). [*start, *end): the map's addresses,
 * whose object this has now read or claimed (0, 0: none there). */
void vp_session_read_early(struct vp_session *plan, uint32_t pid, unsigned cpumode, uint64_t ip,
			   uint64_t *start, uint64_t *end);
/* The user objects the file's build-id table names (perf record writes the
 * objects with samples there), made known to plan before its replay so that
 * vp_session_read_listed can read them while the file is first read, beside
 * the scan, and not after it; their number. None when the table names more
 * than VP_SESSION_LISTED_MAX (perf record --buildid-all: every object
 * mapped, most of them never sampled). Call before any thread uses plan. */
#define VP_SESSION_LISTED_MAX 256
size_t vp_session_list_objects(struct vp_session *plan);
/* Listed object i read as vp_session_read_early would read it (on any
 * thread, once each). */
void vp_session_read_listed(struct vp_session *plan, size_t i);
/* Objects read so far in this process by vp_session_read_listed and
 * vp_session_read_early (for tests). */
extern size_t vp_session_early_reads;
uint32_t vp_session_kernel_gen(const struct vp_session *s);
/* The command name of a thread at this point of the stream (interned). */
const char *vp_session_comm_of(struct vp_session *s, uint32_t pid, uint32_t tid);

#endif
