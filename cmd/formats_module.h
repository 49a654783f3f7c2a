/* The formats that need libxml2 and cairo (XML in and out, SVG, HTML, PNG,
 * PDF, EPS charts) are built as vmprof-formats.so, loaded by the first call
 * into them (cmd/formats_module.c). */
#ifndef VP_CMD_FORMATS_MODULE_H
#define VP_CMD_FORMATS_MODULE_H

#include "lib/util/error.h"

/* Load the module now: a command that will write through it calls this
 * before it writes anything, so a missing module stops it with nothing
 * half-done. 0, or a negative code with err naming the file and why. */
int vp_formats_load(struct vp_error *err);

#endif
