/* Error records and the warning hook. */
#include "error.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int vp_errorf(struct vp_error *err, int code, const char *fmt, ...)
{
	if (code >= 0)
		code = -1;
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
		err->code = code;
	}
	return code;
}

int vp_error_prefix(struct vp_error *err, const char *fmt, ...)
{
	char pre[512], old[sizeof(err->msg)];
	va_list ap;

	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(pre, sizeof(pre), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	/* Built by hand: gcc's truncation warning cannot see the lengths are bounded. */
	size_t n = strnlen(pre, sizeof(err->msg) - 3);
	memcpy(err->msg, pre, n);
	memcpy(err->msg + n, ": ", 2);
	size_t m = strnlen(old, sizeof(err->msg) - n - 3);
	memcpy(err->msg + n + 2, old, m);
	err->msg[n + 2 + m] = '\0';
	return err->code ? err->code : -1;
}

void vp_error_clear(struct vp_error *err)
{
	if (err) {
		err->code = 0;
		err->msg[0] = '\0';
	}
}

static vp_warn_fn warn_fn;
static void *warn_ctx;
/* Readers run on more than one thread (perfdata/threaded.c, kallsyms). */
static pthread_mutex_t warn_mu = PTHREAD_MUTEX_INITIALIZER;

void vp_set_warn_handler(vp_warn_fn fn, void *ctx)
{
	warn_fn = fn;
	warn_ctx = ctx;
}

static int muted;

void vp_warn_mute(int mute)
{
	muted = mute;
}

static void vwarn(const char *fmt, va_list ap)
{
	char buf[1024];

	if (muted)
		return;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (warn_fn)
		warn_fn(buf, warn_ctx);
	else
		fprintf(stderr, "vmprof: warning: %s\n", buf);
}

void vp_warn(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&warn_mu);
	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
	pthread_mutex_unlock(&warn_mu);
}

/* A short list is enough: warnings are few (one per unreadable file). */
static char **once_keys;
static size_t once_n;

void vp_warn_once(const char *key, const char *fmt, ...)
{
	va_list ap;
	char **grown;

	pthread_mutex_lock(&warn_mu);
	for (size_t i = 0; i < once_n; i++)
		if (strcmp(once_keys[i], key) == 0) {
			pthread_mutex_unlock(&warn_mu);
			return;
		}
	grown = realloc(once_keys, (once_n + 1) * sizeof(*once_keys));
	if (grown) {
		once_keys = grown;
		once_keys[once_n] = strdup(key);
		if (once_keys[once_n])
			once_n++;
	}
	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
	pthread_mutex_unlock(&warn_mu);
}

void vp_warn_once_reset(void)
{
	for (size_t i = 0; i < once_n; i++)
		free(once_keys[i]);
	free(once_keys);
	once_keys = NULL;
	once_n = 0;
}
