/* The objects behind a session's maps (perf's struct dso): one per name,
 * with the build-id the recording pins and the recording's own symbols for
 * it (portable section); on first use, its symbols from the ELF file, a JIT
 * map or this kernel's vdso image. Internal to lib/symbols/. */
#ifndef VP_DSO_H
#define VP_DSO_H

#include <stddef.h>
#include <stdint.h>

#include "lib/perfdata/perfdata.h"
#include "lib/util/strpool.h"
#include "lib/util/u64map.h"
#include "portsyms.h"
#include "symbols.h"

enum dso_kind {
	DSO_ELF,	/* a file: executable, library */
	DSO_KERNEL,	/* [kernel.kallsyms] */
	DSO_MODULE,	/* [mod] */
	DSO_GUEST_KERNEL,
	DSO_GUEST_MODULE,
	DSO_JIT,	/* /tmp/perf-PID.map */
	DSO_VDSO,	/* [vdso]: this kernel's image (as perf extracts it) or the file's symbols */
	DSO_NONE,	/* [heap], [stack], anonymous memory: nothing to resolve */
};

struct vp_dso {
	const char *name;	/* interned in the output pool */
	enum dso_kind kind;
	int loaded;		/* symbols looked for (found or not) */
	struct vp_elf *elf;
	struct vp_symtab *jit;
	uint8_t build_id[20];
	uint8_t build_id_size;
	uint64_t module_base;	/* modules: load address at record time (map start) */
	const struct vp_portsyms_dso *port;	/* the file's own symbols for it, if any */
	int use_port;		/* the object itself is missing or changed: use port */
	struct vp_dso_ahead *ahead;	/* loaded ahead, not used yet (vp_dsos_load_ahead) */
	struct vp_dso_ahead *early;	/* read by vp_dso_read_early, for another session */
	int early_claimed;		/* by the first thread to ask (atomic) */
};

/* Every object of a session, by name. */
struct vp_dsos {
	struct vp_strpool *pool;	/* names interned here (the session's output pool) */
	const struct vp_perfdata *pd;	/* the recording's build-ids */
	const struct vp_portsyms *port;	/* its portable symbols, NULL when none */
	const char *symfs;
	int quiet;			/* no warnings about missing symbols */
	struct vp_u64map by_name;	/* interned name -> struct vp_dso */
	/* build-ids by file name (interned here) -> index + 1, the first entry
	 * for a name winning; entries arrive late in pipe streams */
	struct vp_u64map bid_by_name;
	size_t bid_indexed;
};

/* The object of that name, made on first sight; NULL when out of memory. */
struct vp_dso *vp_dso_get(struct vp_dsos *s, const char *name, enum dso_kind kind);
/* Look for d's symbols (once; d->loaded says so). other_kernel: the file is
 * not known to come from the kernel this machine runs, whose vdso is here. */
void vp_dso_load(struct vp_dsos *s, struct vp_dso *d, int other_kernel);
/* Read the symbols of the ELF objects among v[0..n) not loaded yet, on
 * `threads` threads at once. Each is kept aside: vp_dso_load takes it when
 * the object is first used, and warns then, so what is said and when stays
 * as if it were read there. v is reordered. */
void vp_dsos_load_ahead(struct vp_dsos *s, struct vp_dso **v, size_t n, unsigned threads);
/* Read d's symbols now, on the calling thread, for another session of the
 * same recording to take (vp_dso_take_early): while the count goes on, the
 * first worker to meet an object reads it; the others go on. Safe on
 * several threads at once. 1 when this call read it. */
int vp_dso_read_early(const struct vp_dsos *s, struct vp_dso *d);
/* Give d what `from` (the same object in another session) read early, when
 * they name one build-id and d is not read yet: 1 when taken. */
int vp_dso_take_early(struct vp_dso *d, struct vp_dso *from);
/* What a user-space map of this file name holds: DSO_JIT (anonymous
 * executable memory: its perf-PID.map), DSO_VDSO, DSO_NONE (heap, stack...)
 * or DSO_ELF. */
enum dso_kind vp_dso_kind_of(const char *filename);
void vp_dsos_free(struct vp_dsos *s);

#endif
