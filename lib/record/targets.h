/* Which threads a recording opens its events for: with -p, every thread of
 * every listed process as /proc shows it now; and whether any of those
 * processes still runs (-p ends when they all have). */
#ifndef VP_TARGETS_H
#define VP_TARGETS_H

#include <stddef.h>
#include <sys/types.h>

#include "lib/util/error.h"

/* Append p (-1: every thread, for CPU-wide events); -ENOMEM. */
int vp_targets_add(pid_t **targets, size_t *ntargets, pid_t p);
/* -p LIST: the processes into procs, their threads into targets. */
int vp_targets_of_pids(const char *list, pid_t **targets, size_t *ntargets, pid_t **procs,
		       size_t *nprocs, struct vp_error *err);
int vp_targets_alive(const pid_t *procs, size_t nprocs);

#endif
