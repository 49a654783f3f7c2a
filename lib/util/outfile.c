/* Atomic output files: temporary in the same directory, rename on success. */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void outfile_release(struct vp_outfile *o)
{
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
	o->fp = NULL;
}

int vp_outfile_open(struct vp_outfile *o, const char *path, struct vp_error *err)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	const char *base = path + dirlen;
	mode_t mask;
	int fd;

	memset(o, 0, sizeof(*o));
	if (!*base)
		return vp_errorf(err, -EINVAL, "'%s': not a file name", path);
	o->path = strdup(path);
	/* dot-prefixed so a glob over the directory does not pick it up */
	if (!o->path || asprintf(&o->tmp, "%.*s.%s.tmp-XXXXXX", (int)dirlen, path, base) < 0) {
		o->tmp = NULL;
		outfile_release(o);
		return vp_errorf(err, -ENOMEM, "'%s': out of memory", path);
	}
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		int e = errno;
		vp_errorf(err, -e, "'%s': cannot create: %s", path, strerror(e));
		outfile_release(o);
		return -e;
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) != 0) {
		/* not fatal: the file is still ours, just more private */
	}
	o->fp = fdopen(fd, "w");
	if (!o->fp) {
		int e = errno;
		close(fd);
		unlink(o->tmp);
		vp_errorf(err, -e, "'%s': cannot open: %s", path, strerror(e));
		outfile_release(o);
		return -e;
	}
	return 0;
}

int vp_outfile_commit(struct vp_outfile *o, struct vp_error *err)
{
	int e = 0;

	if (!o->fp)
		return vp_errorf(err, -EBADF, "'%s': not open", o->path ? o->path : "?");
	if (ferror(o->fp))
		e = vp_outfile_errno(o->fp);
	else if (fflush(o->fp) != 0)
		e = errno ? errno : EIO;
	else if (fsync(fileno(o->fp)) != 0 && errno != EINVAL && errno != EROFS)
		e = errno;
	if (fclose(o->fp) != 0 && !e)
		e = errno ? errno : EIO;
	o->fp = NULL;
	if (!e && rename(o->tmp, o->path) != 0)
		e = errno;
	if (e) {
		unlink(o->tmp);
		vp_errorf(err, -e, "'%s': cannot write: %s", o->path, strerror(e));
		outfile_release(o);
		return -e;
	}
	outfile_release(o);
	return 0;
}

int vp_outfile_errno(FILE *fp)
{
	clearerr(fp);
	errno = 0;
	if (fflush(fp) != 0 && errno)
		return errno;
	return EIO;
}

void vp_outfile_abort(struct vp_outfile *o)
{
	if (o->fp)
		fclose(o->fp);
	if (o->tmp)
		unlink(o->tmp);
	outfile_release(o);
}
