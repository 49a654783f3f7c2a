/* User space as a session rebuilds it (perf's threads and their maps):
 * processes with the maps their MMAP records give (a fork copies the
 * parent's), threads with their command names, and the resolution of a user
 * address through a process's maps into its object's symbols. Internal to
 * lib/symbols/. */
#ifndef VP_PROCESS_H
#define VP_PROCESS_H

#include <stdint.h>

#include "dso.h"
#include "maps.h"
#include "session.h"

struct vp_process {
	uint32_t pid;
	uint32_t gen;		/* bumped when its maps change: stale cache entries miss */
	struct vp_maps maps;
};

struct vp_procs {
	struct vp_u64map procs;		/* pid -> struct vp_process */
	struct vp_u64map threads;	/* tid -> its pid and comm */
	struct vp_thread *last;		/* the thread thread_get gave last */
	struct vp_strpool *pool;	/* comms interned here */
	const char *path;		/* the recording, for warnings */
	const char *unknown;		/* "[unknown]", interned */
	uint64_t maps_copied;		/* map entries copied to forked processes so far */
};

/* The process of pid, made on first sight; NULL when out of memory. */
struct vp_process *vp_procs_get(struct vp_procs *s, uint32_t pid);
/* A user-space MMAP record (kernel ones are the session's). */
int vp_procs_mmap(struct vp_procs *s, struct vp_dsos *dsos, const struct vp_mmap_event *m);
/* The map a process's mmap record makes, its object's file and kind (jit
 * holds a JIT map's file name), dso left NULL: 1, or 0 when it makes none. */
int vp_procs_map_of(const struct vp_mmap_event *m, char jit[64], const char **file,
		    enum dso_kind *kind, struct vp_map *map);
int vp_procs_comm(struct vp_procs *s, const struct vp_comm_event *c);
int vp_procs_fork(struct vp_procs *s, const struct vp_task_event *e);
const char *vp_procs_comm_of(struct vp_procs *s, uint32_t pid, uint32_t tid);
/* Resolve ip in pid's maps; *genp is the process's generation (NULL when the
 * process is not known yet); rs (may be NULL) gets what the recorder stores. */
void vp_procs_resolve(struct vp_procs *s, struct vp_dsos *dsos, int other_kernel, uint32_t pid,
		      uint64_t ip, struct vp_resolved *out, const uint32_t **genp,
		      struct vp_resolved_sym *rs);
void vp_procs_free(struct vp_procs *s);

#endif
