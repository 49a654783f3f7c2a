/* What existed before the recording, written as records the way perf
 * synthesizes them: the kernel's build-id and map (its pgoff locates _text,
 * for KASLR), and for the processes recorded their threads' names and
 * executable maps from /proc. */
#ifndef VP_SYNTH_H
#define VP_SYNTH_H

#include <stddef.h>
#include <sys/types.h>

struct vp_pdw;

/* command: a command is run (its own records come from the kernel after
 * exec); system_wide: every process now; else the -p processes procs. */
void vp_synth_existing(struct vp_pdw *w, int command, int system_wide, const pid_t *procs,
		       size_t nprocs);

#endif
