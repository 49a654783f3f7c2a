/* NULL-terminated lists of names, as -e gives events: the one test of
 * whether a list holds a name, for every filter by name. */
#ifndef VP_NAMELIST_H
#define VP_NAMELIST_H

/* 1 when names holds name; a NULL list (no filter) holds every name. */
int vp_names_want(const char *const *names, const char *name);

#endif
