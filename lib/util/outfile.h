/* Output files written atomically: everything goes to a temporary file in the
 * destination's directory and is renamed over the final name only when it was
 * written completely, so a full disk or a crash never leaves half a file there. */
#ifndef VP_OUTFILE_H
#define VP_OUTFILE_H

#include <stdio.h>

#include "error.h"

struct vp_outfile {
	FILE *fp;	/* write here (fileno(fp) for pwrite-style writers) */
	char *path;	/* final name */
	char *tmp;	/* temporary name, same directory */
};

/* Create the temporary file. Mode follows the umask like a plain fopen(). */
int vp_outfile_open(struct vp_outfile *o, const char *path, struct vp_error *err);
/* Flush, sync, close and rename into place; on any failure the temporary is
 * removed, the final name is untouched and err names the file and the cause. */
int vp_outfile_commit(struct vp_outfile *o, struct vp_error *err);
/* The cause of a failed stream write (ENOSPC, EIO...): a stream's error flag
 * keeps no errno, so the buffered rest is flushed again to learn it. */
int vp_outfile_errno(FILE *fp);
/* Give up: close and remove the temporary. Safe on a closed or zeroed struct. */
void vp_outfile_abort(struct vp_outfile *o);

#endif
