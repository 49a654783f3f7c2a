/* Portable symbols (feature section VP_FEAT_VMPROF_SYMS): the symbols that
 * cover every sampled address of a recording, per object, stored by
 * `vmprof record` so a file resolves on a machine without the recorded
 * binaries or kernel (a guest's file read on the host). The section is text:
 *
 *   vmprof-syms 1
 *   dso KIND BUILDID NAME          KIND u (user object), k (host kernel or
 *   START END FLAG NAME            module), g (guest kernel or module), j (JIT map);
 *   ...                            BUILDID hex or "-"; START END hex in the
 *                                  recording's address space (user: file
 *                                  offsets, as perf's tables); FLAG "p" for
 *                                  a PLT entry (NAME is its target), else "-"
 */
#ifndef VP_PORTSYMS_H
#define VP_PORTSYMS_H

#include <stddef.h>
#include <stdint.h>

#include "lib/util/error.h"
#include "symbols.h"

#define VP_PORTSYMS_USER 'u'
#define VP_PORTSYMS_KERNEL 'k'
#define VP_PORTSYMS_GUEST 'g'
#define VP_PORTSYMS_JIT 'j'	/* a perf-PID.map: absolute addresses, names verbatim */

#define VP_PORTSYMS_MAGIC "vmprof-syms 1"	/* the first line */
#define VP_PORTSYMS_NAME_MAX 4096		/* longer names are not written */

struct vp_portsyms;

struct vp_portsyms_dso {
	char kind;
	const char *name;
	uint8_t build_id[20];
	uint8_t build_id_size;
	struct vp_symtab *tab;	/* sealed, lookups in the recording's address space */
};

/* The section comes from the file: bounded, so a hostile one costs neither
 * unbounded memory nor long lookups. */
#define VP_PORTSYMS_MAX_OBJECTS	4096
#define VP_PORTSYMS_MAX_SYMBOLS	(1u << 22)

/* Parse a section of the file at path (named in warnings); malformed lines or
 * a limit end the parse with what was read so far, warned. Never fails on
 * content, only on memory. */
int vp_portsyms_parse(const char *path, const void *data, size_t size,
		      struct vp_portsyms **out, struct vp_error *err);
void vp_portsyms_free(struct vp_portsyms *p);
size_t vp_portsyms_count(const struct vp_portsyms *p);
const struct vp_portsyms_dso *vp_portsyms_at(const struct vp_portsyms *p, size_t i);
/* The object of that kind and name, NULL if the section has none. */
const struct vp_portsyms_dso *vp_portsyms_find(const struct vp_portsyms *p, char kind,
					       const char *name);

#endif
