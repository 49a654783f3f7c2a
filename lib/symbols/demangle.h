/* Internal to the symbol modules: both demangled forms of a name at once
 * (the FULL form is chosen against the SHORT one), and the PLT variants. */
#ifndef VP_DEMANGLE_H
#define VP_DEMANGLE_H

#include <stddef.h>

#include "symbols.h"

/* *shrt and *full malloc'd, both NULL when name is not mangled; -ENOMEM. */
int vp_demangle_pair(const char *name, char **shrt, char **full);
/* The pair's halves: the SHORT form (malloc'd; NULL when not mangled), and
 * the FULL form of a name whose SHORT form is shrt (malloc'd; NULL when out
 * of memory). */
char *vp_demangle_short(const char *name);
char *vp_demangle_full(const char *name, const char *shrt);
/* Names of a PLT entry for a target whose forms are shrt/full (NULL: not
 * mangled, base[0..blen) verbatim), as perf names it: SHORT "target@plt"
 * (cut at 1023 bytes as perf's buffer does), FULL with "@plt" at the display
 * cut. Both malloc'd; -ENOMEM. */
int vp_demangle_plt(const char *shrt, const char *full, const char *base, size_t blen,
		    char **pshort, char **pfull);

#endif
