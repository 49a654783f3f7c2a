/* lib/util/: what every stage uses, no stage of its own: errors (this
 * header), interned strings, u64 maps, line reading, atomic output files.
 *
 * Errors travel up: lib/ functions return 0 or a negative errno-style code and
 * fill a struct vp_error; only cmd/ prints and picks the exit status.
 * Warnings (degraded but usable results) go through one hook cmd/ installs. */
#ifndef VP_ERROR_H
#define VP_ERROR_H

#include <stdarg.h>

struct vp_error {
	int code;		/* negative errno-style, 0 when unset */
	char msg[1024];		/* "'file': what went wrong" */
};

/* Record an error and return code (< 0) so callers can `return vp_errorf(...)`. */
int vp_errorf(struct vp_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Prefix an existing message, e.g. with the file name it concerns. */
int vp_error_prefix(struct vp_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void vp_error_clear(struct vp_error *err);

typedef void (*vp_warn_fn)(const char *msg, void *ctx);
void vp_set_warn_handler(vp_warn_fn fn, void *ctx);
void vp_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Warn once per distinct key string (e.g. one warning per unreadable binary). */
void vp_warn_once(const char *key, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void vp_warn_once_reset(void);
/* While muted, warnings are dropped (a pass whose warnings are not news). */
void vp_warn_mute(int mute);

#endif
