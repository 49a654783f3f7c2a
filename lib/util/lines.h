/* Reading a text file line by line through one fixed buffer: lines of any
 * length cost no memory (the part past the buffer is dropped and flagged). */
#ifndef VP_LINES_H
#define VP_LINES_H

#include <stddef.h>

struct vp_readahead;

struct vp_lines {
	int fd;
	char *buf;
	size_t cap, start, end;
	int eof, skip_rest;
	struct vp_readahead *ahead;	/* NULL: reads here */
};

/* Opens path with a buffer of cap bytes (lines shorter than cap - 1 stay whole). */
int vp_lines_open(struct vp_lines *r, const char *path, size_t cap);
/* From here on the file's reads are done ahead on a thread of their own
 * (readahead.h), when one can be had; the lines are the same. */
void vp_lines_read_ahead(struct vp_lines *r);
void vp_lines_close(struct vp_lines *r);
/* Next line without its '\n', NUL-terminated in place: 1, 0 at the end, < 0
 * on a read error. *truncated is set when the line was longer (it then holds
 * its first cap - 1 bytes and the rest is skipped); *had_nl says whether it
 * ended in a newline (a file's last line may not). */
int vp_lines_next(struct vp_lines *r, char **line, size_t *len, int *truncated, int *had_nl);

#endif
