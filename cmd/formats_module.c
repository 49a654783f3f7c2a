/* The vmprof executable is linked without libxml2 and cairo: the 25 shared
 * libraries they pull in (ICU, X11, fontconfig...) cost every run 2.3 ms of
 * loading (vmprof --version: 4.2 ms with them, 1.9 without), and reading
 * perf.data into a table never needs them. The code that does is
 * vmprof-formats.so (render/, converters/xml_*), found next to the
 * executable (a build tree) or in ../lib/vmprof (make install), and loaded
 * by the first call of one of the functions below, which forward to it. The
 * module's own calls stay inside it (-Bsymbolic); what it uses of lib/ is
 * the executable's (its vp_* symbols, exported by cmd/exports.list), so
 * there is one copy of every state. */
#include "formats_module.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "converters/formats.h"
#include "render/chart.h"

#define MODULE "vmprof-formats.so"

static void *module;
static struct vp_error load_err;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

/* glibc's loader maps a shared object's segments as its headers say and
 * faults when the file is shorter (a copy cut short): check them first. */
static int whole_elf(const char *path, struct vp_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0;
	struct stat st;
	size_t n = 0;
	Elf *elf;

	if (fd < 0)
		return vp_errorf(err, -errno, "cannot load '%s': %s", path, strerror(errno));
	elf_version(EV_CURRENT);
	elf = fstat(fd, &st) == 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
	if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getphdrnum(elf, &n) != 0)
		rc = vp_errorf(err, -ENOEXEC, "cannot load '%s': not an ELF shared object", path);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_offset > (uint64_t)st.st_size ||
		    ph.p_filesz > (uint64_t)st.st_size - ph.p_offset)
			rc = vp_errorf(err, -ENOEXEC, "cannot load '%s': cut short (%lld bytes)", path,
				       (long long)st.st_size);
	}
	elf_end(elf);
	close(fd);
	return rc;
}

/* Once per process, whichever thread (a comparison reads its runs on
 * several) comes first: module, or load_err. */
static int load(struct vp_error *err)
{
	static const char *const where[] = { "", "../lib/vmprof/" };
	char exe[PATH_MAX], path[PATH_MAX + 64];
	ssize_t n;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return vp_errorf(err, -errno, "cannot find " MODULE ": /proc/self/exe: %s",
				 strerror(errno));
	exe[n] = '\0';
	*(strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe) = '\0';
	for (size_t i = 0; i < sizeof(where) / sizeof(*where); i++) {
		snprintf(path, sizeof(path), "%s%s" MODULE, exe, where[i]);
		if (access(path, F_OK) < 0)
			continue;
		if (whole_elf(path, err) < 0)
			return err->code;
		/* Lazy: the libraries the module pulls in (ICU, X11, libstdc++)
		 * bind a function when first called, not all 5900 relocations
		 * now (compare of two small files 12.4 -> 7.4 ms). The module's
		 * own references are still bound here (linked -z now), so one
		 * from another build fails now, named. */
		if (!(module = dlopen(path, RTLD_LAZY | RTLD_LOCAL)))
			return vp_errorf(err, -ENOEXEC, "cannot load '%s': %s", path, dlerror());
		return 0;
	}
	return vp_errorf(err, -ENOENT,
			 "no " MODULE " in '%s' or '%s../lib/vmprof': XML, SVG, HTML, PNG, PDF and "
			 "EPS need it (make install puts it there)", exe, exe);
}

static void load_module(void)
{
	load(&load_err);
}

int vp_formats_load(struct vp_error *err)
{
	pthread_once(&load_once, load_module);
	if (module)
		return 0;
	*err = load_err;
	return err->code;
}

/* name in the module; on failure err is set and NULL returned */
static void *find(const char *name, struct vp_error *err)
{
	void *fn;

	if (vp_formats_load(err) < 0)
		return NULL;
	if (!(fn = dlsym(module, name)))
		vp_errorf(err, -ENOEXEC, MODULE " has no %s: %s", name, dlerror());
	return fn;
}

/* For the calls that cannot return an error: a command that makes them has
 * loaded the module first (vp_formats_load), so this stop is for a module
 * that lacks a symbol. */
static void *find_or_exit(const char *name)
{
	struct vp_error err = { 0 };
	void *fn = find(name, &err);

	if (!fn) {
		fprintf(stderr, "vmprof: %s\n", err.msg);
		exit(1);
	}
	return fn;
}

/* A forwarder: the function's type, looked up on first use (threads that
 * race there look up the same address). */
#define FORWARD(ret, name, params, args, lookup)                                \
	ret name params                                                         \
	{                                                                       \
		static ret(*fn) params;                                         \
		ret(*fwd) params = __atomic_load_n(&fn, __ATOMIC_ACQUIRE);      \
		if (!fwd)                                                       \
			__atomic_store_n(&fn, fwd = (ret(*) params)lookup,      \
					 __ATOMIC_RELEASE);                     \
		return fwd args;                                                \
	}
/* the same for a reader or renderer that reports through err */
#define FORWARD_ERR(name, params, args)                                         \
	int name params                                                         \
	{                                                                       \
		static int(*fn) params;                                         \
		int(*fwd) params = __atomic_load_n(&fn, __ATOMIC_ACQUIRE);      \
		if (!fwd) {                                                     \
			if (!(fwd = (int(*) params)find(#name, err)))           \
				return err->code;                               \
			__atomic_store_n(&fn, fwd, __ATOMIC_RELEASE);           \
		}                                                               \
		return fwd args;                                                \
	}

FORWARD_ERR(vp_profile_read_xml,
	    (const char *path, const char *data, size_t len, struct vp_profile **out,
	     struct vp_error *err),
	    (path, data, len, out, err))
FORWARD_ERR(vp_cmp_read_xml,
	    (const char *path, const char *data, size_t len, struct vp_comparison **out,
	     struct vp_error *err),
	    (path, data, len, out, err))
FORWARD_ERR(vp_chart_render,
	    (const struct vp_comparison *c, const struct vp_chart_opts *o, struct vp_error *err),
	    (c, o, err))
FORWARD_ERR(vp_chart_render_profile,
	    (const struct vp_profile *p, const struct vp_chart_opts *o, struct vp_error *err),
	    (p, o, err))
FORWARD(int, vp_profile_write_xml, (FILE *f, const struct vp_profile *p, const struct vp_out_opts *o),
	(f, p, o), find_or_exit("vp_profile_write_xml"))
FORWARD(int, vp_cmp_write_xml, (FILE *f, const struct vp_comparison *c, const struct vp_out_opts *o),
	(f, c, o), find_or_exit("vp_cmp_write_xml"))
FORWARD(int, vp_cmp_save_xml, (FILE *f, const struct vp_comparison *c), (f, c),
	find_or_exit("vp_cmp_save_xml"))
FORWARD(int, vp_chart_formats_parse, (const char *s, unsigned *mask), (s, mask),
	find_or_exit("vp_chart_formats_parse"))
FORWARD(int, vp_chart_kinds_parse, (const char *s, unsigned *mask), (s, mask),
	find_or_exit("vp_chart_kinds_parse"))
FORWARD(void, vp_chart_opts_init, (struct vp_chart_opts *o), (o), find_or_exit("vp_chart_opts_init"))
