/* The machine rebuilt from the record stream, and address resolution as perf
 * report does it: kernel addresses (host and guest) here, into kallsyms with
 * KASLR relocation or the recording's own kernel symbols; user addresses
 * through the process's maps (process.c) into its object's symbols (dso.c);
 * answers cached per (pid, cpumode, ip) while their maps stay as they are. */
#include "session.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dso.h"
#include "maps.h"
#include "kernel_id.h"
#include "portsyms.h"
#include "process.h"
#include "lib/profile/profile.h"
#include "lib/util/u64map.h"

#define UNKNOWN "[unknown]"
#define CACHE_SIZE 8192	/* direct-mapped: hot code hits few addresses */

struct kernel {
	const char *kallsyms_path;
	int tried;
	struct vp_kallsyms *syms;
	uint64_t recorded_ref;	/* _text address when recorded (kernel map pgoff) */
	int have_recorded_ref;
	uint64_t delta;		/* add to a recorded address to get a kallsyms address */
	struct vp_dso *dso;
	struct vp_maps maps;	/* kernel and module maps */
	uint32_t gen;
	int guest;
	int use_port;		/* no usable kallsyms: the file's own kernel symbols */
	/* kallsyms is read on a second thread from the moment the kernel map
	 * shows up, overlapping the ~0.1 s /proc/kallsyms costs with the walk. */
	pthread_t thread;
	int thread_started, thread_rc;
	int later;		/* kallsyms_later: 1 while load_path waits for
				 * vp_session_read_kallsyms, 2 once read */
	const char *load_path;
	struct vp_error thread_err;
};

/* A resolution is valid while the address space it came from is unchanged:
 * the entry keeps a pointer to that space's generation (processes and
 * kernels live as long as the session). */
struct cache_entry {
	uint64_t ip;
	uint32_t pid;
	uint32_t gen;
	const uint32_t *genp;
	unsigned cpumode;
	struct vp_resolved r;
};

struct vp_session {
	const struct vp_perfdata *pd;
	struct vp_session_opts opts;
	struct vp_strpool *pool;
	struct vp_procs procs;		/* user space */
	struct vp_dsos dsos;
	struct kernel host, guest;
	const char *unknown;
	const char *unknown_dso;
	enum vp_kernel_match kernel_match;	/* the file's kernel against this machine's */
	char kernel_why[160];			/* the evidence, for the warning */
	uint32_t static_gen;	/* for resolutions no map change can alter (hypervisor, guest user) */
	struct cache_entry *cache;
	struct vp_portsyms *port;	/* VP_FEAT_VMPROF_SYMS, NULL when absent */
	struct vp_dso **listed;		/* vp_session_list_objects' */
	size_t nlisted;
};

static struct vp_dso *dso_get(struct vp_session *s, const char *name, enum dso_kind kind)
{
	return vp_dso_get(&s->dsos, name, kind);
}

/* "[xfs]" from "/lib/modules/.../xfs.ko.xz" or "[xfs]", as perf's kmod_path__parse_name. */
static void module_name(const char *path, char *out, size_t n)
{
	const char *base = strrchr(path, '/');
	size_t len;

	if (path[0] == '[') {
		snprintf(out, n, "%s", path);
		return;
	}
	base = base ? base + 1 : path;
	len = strcspn(base, ".");
	snprintf(out, n, "[%.*s]", (int)len, base);
	for (char *p = out; *p; p++)
		if (*p == '-')
			*p = '_';
}

/* ---- session ---- */

int vp_session_new(const struct vp_perfdata *pd, const struct vp_session_opts *o,
		   struct vp_strpool *pool, struct vp_session **out, struct vp_error *err)
{
	struct vp_session *s = calloc(1, sizeof(*s));
	struct vp_profile_meta meta;

	*out = NULL;
	if (!s || !(s->cache = calloc(CACHE_SIZE, sizeof(*s->cache)))) {
		free(s);
		return vp_errorf(err, -ENOMEM, "out of memory");
	}
	s->pd = pd;
	if (o)
		s->opts = *o;
	s->pool = pool;
	s->unknown = vp_strpool_intern(pool, UNKNOWN);
	s->unknown_dso = s->unknown;
	s->procs = (struct vp_procs){ .pool = pool, .path = vp_perfdata_path(pd), .unknown = s->unknown };
	s->dsos = (struct vp_dsos){ .pool = pool, .pd = pd, .symfs = s->opts.symfs, .quiet = s->opts.quiet };
	s->host.kallsyms_path = s->opts.kallsyms;
	s->guest.kallsyms_path = s->opts.guest_kallsyms;
	s->guest.guest = 1;
	const void *pdata;
	uint64_t psize;
	if (vp_perfdata_feature(pd, VP_FEAT_VMPROF_SYMS, &pdata, &psize) == 0 &&
	    vp_portsyms_parse(vp_perfdata_path(pd), pdata, (size_t)psize, &s->port,
			      err) < 0) {
		vp_session_free(s);
		return vp_error_prefix(err, "'%s'", vp_perfdata_path(pd));
	}
	s->dsos.port = s->port;
	s->host.dso = dso_get(s, "[kernel.kallsyms]", DSO_KERNEL);
	s->guest.dso = dso_get(s, "[guest.kernel.kallsyms]", DSO_GUEST_KERNEL);
	if (!s->unknown || !s->host.dso || !s->guest.dso) {
		vp_session_free(s);
		return vp_errorf(err, -ENOMEM, "out of memory");
	}
	/* Kernel symbols from this machine only make sense for the kernel the file
	 * was recorded on. */
	vp_profile_meta_init(&meta);
	vp_perfdata_meta(pd, &meta, pool);
	s->kernel_match = vp_kernel_match_file(pd, meta.osrelease, s->kernel_why, sizeof(s->kernel_why));
	*out = s;
	return 0;
}

void vp_session_free(struct vp_session *s)
{
	if (!s)
		return;
	vp_procs_free(&s->procs);
	vp_dsos_free(&s->dsos);
	if (s->host.thread_started)
		pthread_join(s->host.thread, NULL);
	if (s->guest.thread_started)
		pthread_join(s->guest.thread, NULL);
	vp_kallsyms_put(s->host.syms);
	vp_kallsyms_put(s->guest.syms);
	vp_maps_clear(&s->host.maps);
	vp_maps_clear(&s->guest.maps);
	vp_portsyms_free(s->port);
	free(s->cache);
	free(s->listed);
	free(s);
}

/* ---- stream events ---- */

/* The host kernel's samples may not be named from this machine's kallsyms:
 * the file's kernel is not known to be this one and no --kallsyms says
 * which symbols to use. */
static int kernel_foreign(const struct vp_session *s)
{
	return !s->opts.kallsyms && s->kernel_match != VP_KERNEL_THIS;
}

/* Where this kernel's symbols come from, NULL when none may be used. */
static const char *kallsyms_path(const struct vp_session *s, const struct kernel *k)
{
	if (k->guest)
		return k->kallsyms_path;
	if (kernel_foreign(s))
		return NULL;
	return k->kallsyms_path ? k->kallsyms_path : "/proc/kallsyms";
}

static void *kallsyms_thread(void *arg)
{
	struct kernel *k = arg;

	k->thread_rc = vp_kallsyms_get(k->load_path, &k->syms, &k->thread_err);
	return NULL;
}

static void kernel_prefetch(struct vp_session *s, struct kernel *k)
{
	if (k->tried || k->thread_started || k->later || !(k->load_path = kallsyms_path(s, k)))
		return;
	if (s->opts.kallsyms_later) {
		k->later = 1;
		return;
	}
	k->thread_started = pthread_create(&k->thread, NULL, kallsyms_thread, k) == 0;
}

/* The map a kernel's mmap record gives: 1, 0 when it names nothing we
 * follow, -ENOMEM. */
static int kernel_map_of(struct vp_session *s, struct kernel *k, const struct vp_mmap_event *m,
			 struct vp_map *map)
{
	const char *f = m->filename;
	char name[256];

	*map = (struct vp_map){ m->start, m->start + m->len, m->pgoff, NULL };
	if (m->start + m->len < m->start)
		map->end = UINT64_MAX;
	if (!strncmp(f, "[kernel.kallsyms]", 17) || !strncmp(f, "[guest.kernel.kallsyms]", 23)) {
		map->dso = k->dso;
	} else if (f[0] == '/' || f[0] == '[') {
		module_name(f, name, sizeof(name));
		map->dso = dso_get(s, name, k->guest ? DSO_GUEST_MODULE : DSO_MODULE);
		if (!map->dso)
			return -ENOMEM;
	} else {
		return 0;
	}
	return 1;
}

/* The same range of the same object at the same offset: mapping it again
 * changes nothing (and must not drop what was resolved against it). */
static int kernel_map_held(const struct kernel *k, const struct vp_map *map)
{
	const struct vp_map *old = vp_maps_find(&k->maps, map->start);

	return old && old->start == map->start && old->end == map->end &&
	       old->pgoff == map->pgoff && old->dso == map->dso;
}

static int kernel_mmap(struct vp_session *s, struct kernel *k, const struct vp_mmap_event *m)
{
	struct vp_map map;
	int r = kernel_map_of(s, k, m, &map);

	if (r <= 0 || kernel_map_held(k, &map))
		return r;
	k->gen++;
	if (map.dso == k->dso) {
		/* pgoff holds the address of the relocation symbol (_text) at record time. */
		k->recorded_ref = m->pgoff;
		k->have_recorded_ref = 1;
		kernel_prefetch(s, k);
	} else {
		map.dso->module_base = m->start;
	}
	return vp_maps_insert(&k->maps, &map);
}

int vp_session_mmap_changes_kernel(struct vp_session *s, const struct vp_mmap_event *m)
{
	unsigned cpumode = m->misc & VP_MISC_CPUMODE_MASK;
	struct vp_map map;

	if (cpumode != PERF_RECORD_MISC_KERNEL && m->pid != UINT32_MAX)
		return 0;
	int r = kernel_map_of(s, &s->host, m, &map);
	return r < 0 || (r > 0 && !kernel_map_held(&s->host, &map));
}

uint64_t vp_session_mmap_space(const struct vp_mmap_event *m)
{
	unsigned cpumode = m->misc & VP_MISC_CPUMODE_MASK;

	if (cpumode == PERF_RECORD_MISC_GUEST_KERNEL)
		return VP_SPACE_GUEST_KERNEL;
	if (cpumode == PERF_RECORD_MISC_KERNEL || m->pid == UINT32_MAX)
		return VP_SPACE_KERNEL;
	if (cpumode == PERF_RECORD_MISC_GUEST_USER)
		return VP_SPACE_NONE;	/* guest user space has no maps we could follow */
	return m->pid;
}

int vp_session_mmap(struct vp_session *s, const struct vp_mmap_event *m)
{
	uint64_t space = vp_session_mmap_space(m);

	if (space == VP_SPACE_GUEST_KERNEL)
		return kernel_mmap(s, &s->guest, m);
	if (space == VP_SPACE_KERNEL)
		return kernel_mmap(s, &s->host, m);
	if (space == VP_SPACE_NONE)
		return 0;
	return vp_procs_mmap(&s->procs, &s->dsos, m);
}

int vp_session_comm(struct vp_session *s, const struct vp_comm_event *c)
{
	return vp_procs_comm(&s->procs, c);
}

int vp_session_fork(struct vp_session *s, const struct vp_task_event *e)
{
	return vp_procs_fork(&s->procs, e);
}

int vp_session_exit(struct vp_session *s, const struct vp_task_event *e)
{
	(void)s;
	(void)e;
	return 0;	/* perf keeps exited threads: late samples still resolve */
}

const char *vp_session_comm_of(struct vp_session *s, uint32_t pid, uint32_t tid)
{
	return vp_procs_comm_of(&s->procs, pid, tid);
}

/* ---- resolution ---- */

static int kernel_port_usable(const struct vp_session *s, const struct kernel *k)
{
	char kind = k->guest ? VP_PORTSYMS_GUEST : VP_PORTSYMS_KERNEL;

	for (size_t i = 0; i < vp_portsyms_count(s->port); i++)
		if (vp_portsyms_at(s->port, i)->kind == kind)
			return 1;
	return 0;
}

static int kernel_load_failed(struct vp_session *s, struct kernel *k, const char *path,
			      const struct vp_error *err)
{
	if (kernel_port_usable(s, k)) {
		k->use_port = 1;
		return 0;
	}
	if (!s->opts.quiet)
		vp_warn_once(path, "kernel samples stay unresolved: %s", err->msg);
	return -1;
}

static int kernel_load(struct vp_session *s, struct kernel *k)
{
	struct vp_error err = { 0 };
	const char *path = k->kallsyms_path;
	const char *ref;
	uint64_t now;

	if (k->tried)
		return k->syms || k->use_port ? 0 : -1;
	k->tried = 1;
	if (kernel_port_usable(s, k) && ((k->guest && !path) || (!k->guest && kernel_foreign(s)))) {
		k->use_port = 1;
		return 0;
	}
	if (k->guest && !path) {
		if (!s->opts.quiet)
			vp_warn_once("guest-kallsyms", "guest kernel samples stay unresolved: no "
				     "guest kernel symbols (give --guest-kallsyms)");
		return -1;
	}
	if (!k->guest && kernel_foreign(s)) {
		char key[4200];
		snprintf(key, sizeof(key), "kernel of %s", vp_perfdata_path(s->pd));
		if (!s->opts.quiet)
			vp_warn_once(key, "kernel samples stay unresolved: '%s': %s "
				     "(give --kallsyms with the symbols of the kernel it was recorded "
				     "on%s)", vp_perfdata_path(s->pd), s->kernel_why,
				     s->kernel_match == VP_KERNEL_UNKNOWN ?
				     ", /proc/kallsyms if it was this machine's" : "");
		return -1;
	}
	path = kallsyms_path(s, k);
	if (k->thread_started || k->later == 2) {
		if (k->thread_started)
			pthread_join(k->thread, NULL);
		k->thread_started = k->later = 0;
		err = k->thread_err;
		if (k->thread_rc < 0)
			return kernel_load_failed(s, k, path, &err);
	} else if (vp_kallsyms_get(path, &k->syms, &err) < 0) {
		return kernel_load_failed(s, k, path, &err);
	}
	/* KASLR: the same kernel on a later boot sits at another address. */
	now = vp_kallsyms_ref_addr(k->syms, &ref);
	if (k->have_recorded_ref && now)
		k->delta = now - k->recorded_ref;
	return 0;
}

/* The file's own symbols for a kernel's object (port mode). */
static const struct vp_portsyms_dso *kernel_port(const struct vp_session *s, const struct kernel *k,
						 const char *name)
{
	return vp_portsyms_find(s->port, k->guest ? VP_PORTSYMS_GUEST : VP_PORTSYMS_KERNEL, name);
}

/* Port mode: every table holds the recording's addresses, so no relocation;
 * core symbols first, then each module's, as vp_kallsyms_find. */
static void resolve_kernel_port(struct vp_session *s, struct kernel *k, const struct vp_map *map,
				uint64_t ip, struct vp_resolved *out, const struct vp_symtab **tab,
				const struct vp_sym **sym)
{
	char kind = k->guest ? VP_PORTSYMS_GUEST : VP_PORTSYMS_KERNEL;
	const struct vp_portsyms_dso *pd;

	if (map && map->dso && map->dso != k->dso) {
		if ((pd = kernel_port(s, k, map->dso->name)) && (*sym = vp_symtab_find(pd->tab, ip)))
			*tab = pd->tab;
		return;
	}
	if ((pd = kernel_port(s, k, k->dso->name)) && (*sym = vp_symtab_find(pd->tab, ip))) {
		*tab = pd->tab;
		return;
	}
	for (size_t i = 0; i < vp_portsyms_count(s->port); i++) {
		pd = vp_portsyms_at(s->port, i);
		if (pd->kind != kind || !strcmp(pd->name, k->dso->name) || pd->name[0] != '[')
			continue;
		if ((*sym = vp_symtab_find(pd->tab, ip))) {
			struct vp_dso *d = dso_get(s, pd->name, k->guest ? DSO_GUEST_MODULE : DSO_MODULE);
			*tab = pd->tab;
			if (d)
				out->dso = d->name;
			return;
		}
	}
}

static void resolve_kernel(struct vp_session *s, struct kernel *k, uint64_t ip,
			   struct vp_resolved *out, struct vp_resolved_sym *rs)
{
	const struct vp_map *map = vp_maps_find(&k->maps, ip);
	const struct vp_symtab *tab = NULL;
	const struct vp_sym *sym = NULL;

	out->dso = map && map->dso ? map->dso->name : k->dso->name;
	if (kernel_load(s, k) < 0)
		return;
	if (k->use_port) {
		resolve_kernel_port(s, k, map, ip, out, &tab, &sym);
	} else if (map && map->dso && map->dso != k->dso) {
		/* Module: symbols by module name, relative to its base now. */
		const char *mod = map->dso->name;
		char bare[256];
		snprintf(bare, sizeof(bare), "%.*s", (int)strlen(mod) - 2, mod + 1);
		/* Module symbols carry this boot's addresses: right when the file
		 * comes from this boot (modules move independently of _text). */
		tab = vp_kallsyms_module(k->syms, bare);
		if (tab)
			sym = vp_symtab_find(tab, ip);
	} else {
		const char *module = NULL;
		sym = vp_kallsyms_find(k->syms, ip + k->delta, &module, &tab);
		if (rs)
			rs->delta = k->delta;
		if (sym && module) {
			char name[256];
			snprintf(name, sizeof(name), "[%s]", module);
			struct vp_dso *d = dso_get(s, name, k->guest ? DSO_GUEST_MODULE : DSO_MODULE);
			if (d)
				out->dso = d->name;
		}
	}
	if (sym && tab) {
		const char *n = vp_sym_name(tab, sym, VP_DEMANGLE_FULL);
		const char *in = n ? vp_strpool_intern(s->pool, n) : NULL;
		if (in)
			out->symbol = in;
		if (rs) {
			rs->tab = tab;
			rs->sym = sym;
			rs->kind = k->guest ? VP_PORTSYMS_GUEST : VP_PORTSYMS_KERNEL;
		}
	}
}

int vp_session_kallsyms_waiting(const struct vp_session *s)
{
	return (s->host.later == 1 && !s->host.tried) || (s->guest.later == 1 && !s->guest.tried);
}

void vp_session_read_kallsyms(struct vp_session *s)
{
	struct kernel *ks[] = { &s->host, &s->guest };

	for (size_t i = 0; i < 2; i++) {
		struct kernel *k = ks[i];
		if (k->later == 1 && !k->tried) {
			k->thread_rc = vp_kallsyms_get(k->load_path, &k->syms, &k->thread_err);
			k->later = 2;	/* read: kernel_load takes it as the thread's */
		}
	}
}

void vp_session_read_kallsyms_ahead(struct vp_session *s, int host, int guest)
{
	struct kernel *ks[] = { host ? &s->host : NULL, guest ? &s->guest : NULL };

	for (size_t i = 0; i < 2; i++) {
		struct kernel *k = ks[i];
		if (!k || !s->opts.kallsyms_later || k->tried || k->thread_started || k->later == 2 ||
		    !(k->load_path = kallsyms_path(s, k)))
			continue;
		k->thread_rc = vp_kallsyms_get(k->load_path, &k->syms, &k->thread_err);
		k->later = 2;
	}
}

int vp_session_kernel_loading(const struct vp_session *s)
{
	return s->host.thread_started && !s->host.tried && !kernel_foreign(s);
}

uint32_t vp_session_kernel_gen(const struct vp_session *s)
{
	return s->host.gen;
}

uint64_t vp_session_space_fp(struct vp_session *s, uint64_t space)
{
	const struct vp_process *p;

	if (space == VP_SPACE_KERNEL)
		return s->host.maps.fp;
	if (space == VP_SPACE_GUEST_KERNEL)
		return s->guest.maps.fp;
	if (space == VP_SPACE_NONE)
		return 0;
	p = vp_u64map_get(&s->procs.procs, space);
	return p ? p->maps.fp : 0;
}

/* genout/genval (may be NULL): what the answer's life hangs on, as
 * vp_session_resolve_gen says. cached 0: the cache is neither read nor
 * written (vp_session_resolve_once). */
static void resolve(struct vp_session *s, uint32_t pid, unsigned cpumode, uint64_t ip,
		    struct vp_resolved *out, struct vp_resolved_sym *rs, const uint32_t **genout,
		    uint32_t *genval, int cached)
{
	cpumode &= VP_MISC_CPUMODE_MASK;
	uint64_t h = vp_hash_u64(ip ^ ((uint64_t)pid << 40) ^ ((uint64_t)cpumode << 60));
	struct cache_entry *c = &s->cache[h & (CACHE_SIZE - 1)];

	if (cached && !rs && c->ip == ip && c->pid == pid && c->cpumode == cpumode && c->genp &&
	    *c->genp == c->gen) {
		*out = c->r;
		if (genout) {
			*genout = c->genp;
			*genval = c->gen;
		}
		return;
	}
	const uint32_t *genp = &s->static_gen;
	uint64_t space = vp_session_sample_space(pid, cpumode);
	out->symbol = s->unknown;
	out->dso = s->unknown_dso;
	out->domain = vp_domain_from_cpumode(cpumode);
	if (space == VP_SPACE_KERNEL) {
		resolve_kernel(s, &s->host, ip, out, rs);
		genp = &s->host.gen;
	} else if (space == VP_SPACE_GUEST_KERNEL) {
		resolve_kernel(s, &s->guest, ip, out, rs);
		genp = &s->guest.gen;
	} else if (space != VP_SPACE_NONE) {
		vp_procs_resolve(&s->procs, &s->dsos, s->kernel_match != VP_KERNEL_THIS, pid, ip, out,
				 &genp, rs);
	}
	if (genout) {
		*genout = genp;
		*genval = genp ? *genp : 0;
	}
	if (!genp || !cached)	/* no such process yet: do not remember */
		return;
	*c = (struct cache_entry){ ip, pid, *genp, genp, cpumode, *out };
}

void vp_session_resolve(struct vp_session *s, uint32_t pid, unsigned cpumode, uint64_t ip,
			struct vp_resolved *out)
{
	resolve(s, pid, cpumode, ip, out, NULL, NULL, NULL, 1);
}

void vp_session_resolve_once(struct vp_session *s, uint32_t pid, unsigned cpumode, uint64_t ip,
			     struct vp_resolved *out)
{
	resolve(s, pid, cpumode, ip, out, NULL, NULL, NULL, 0);
}

void vp_session_resolve_gen(struct vp_session *s, uint32_t pid, unsigned cpumode, uint64_t ip,
			    struct vp_resolved *out, const uint32_t **genp, uint32_t *gen)
{
	resolve(s, pid, cpumode, ip, out, NULL, genp, gen, 1);
}

void vp_session_resolve_sym(struct vp_session *s, uint32_t pid, unsigned cpumode, uint64_t ip,
			    struct vp_resolved_sym *out)
{
	struct vp_resolved r;

	memset(out, 0, sizeof(*out));
	resolve(s, pid, cpumode, ip, &r, out, NULL, NULL, 1);
	out->dso = r.dso;
}

/* The planning session's map where a user-space address falls at the
 * file's end: read-only lookups, so workers may ask at once. */
static const struct vp_map *plan_map(const struct vp_session *plan, uint32_t pid,
				     unsigned cpumode, uint64_t ip)
{
	unsigned mode = cpumode & VP_MISC_CPUMODE_MASK;
	const struct vp_process *p;

	if ((mode != PERF_RECORD_MISC_USER && mode != PERF_RECORD_MISC_CPUMODE_UNKNOWN) ||
	    !(p = vp_u64map_get(&plan->procs.procs, pid)))
		return NULL;
	return vp_maps_find(&p->maps, ip);
}

/* Its object, when an ELF one. */
static struct vp_dso *plan_object(const struct vp_session *plan, uint32_t pid, unsigned cpumode,
				  uint64_t ip)
{
	const struct vp_map *m = plan_map(plan, pid, cpumode, ip);

	return m && m->dso && m->dso->kind == DSO_ELF ? m->dso : NULL;
}

size_t vp_session_early_reads;

void vp_session_read_early(struct vp_session *plan, uint32_t pid, unsigned cpumode, uint64_t ip,
			   uint64_t *start, uint64_t *end)
{
	const struct vp_map *m = plan_map(plan, pid, cpumode, ip);

	*start = *end = 0;
	if (!m)
		return;
	*start = m->start;
	*end = m->end;
	if (m->dso && m->dso->kind == DSO_ELF && vp_dso_read_early(&plan->dsos, m->dso))
		__atomic_add_fetch(&vp_session_early_reads, 1, __ATOMIC_RELAXED);
}

size_t vp_session_list_objects(struct vp_session *plan)
{
	size_t nb, n = 0;
	const struct vp_build_id *b = vp_perfdata_build_ids(plan->pd, &nb);

	for (size_t i = 0; i < nb; i++)
		n += (b[i].misc & VP_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_USER;
	if (!n || n > VP_SESSION_LISTED_MAX || !(plan->listed = malloc(n * sizeof(*plan->listed))))
		return 0;
	for (size_t i = 0; i < nb; i++) {
		struct vp_dso *d;
		if ((b[i].misc & VP_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_USER ||
		    vp_dso_kind_of(b[i].filename) != DSO_ELF)
			continue;
		/* out of memory: the objects not listed are read where first used */
		if (!(d = dso_get(plan, b[i].filename, DSO_ELF)))
			break;
		plan->listed[plan->nlisted++] = d;
	}
	return plan->nlisted;
}

void vp_session_read_listed(struct vp_session *plan, size_t i)
{
	if (i < plan->nlisted && vp_dso_read_early(&plan->dsos, plan->listed[i]))
		__atomic_add_fetch(&vp_session_early_reads, 1, __ATOMIC_RELAXED);
}

void vp_session_load_ahead(struct vp_session *s, struct vp_session *plan,
			   const struct vp_session_addr *a, size_t n, unsigned threads)
{
	struct vp_dso **v = malloc((n ? n : 1) * sizeof(*v));
	struct vp_u64map seen = { 0 };
	size_t k = 0;

	if (!v)
		return;	/* each object loads when used, as without this */
	for (size_t i = 0; i < n; i++) {
		struct vp_dso *pdso = plan_object(plan, a[i].pid, a[i].cpumode, a[i].ip), *d;

		if (!pdso || vp_u64map_get(&seen, (uintptr_t)pdso))
			continue;
		if (vp_u64map_put(&seen, (uintptr_t)pdso, v) < 0 ||
		    !(d = dso_get(s, pdso->name, DSO_ELF)))
			break;
		if (vp_dso_take_early(d, pdso))
			continue;
		/* A build-id that only map records give (perf record --buildid-mmap)
		 * is the object's from the first record that has one, which may
		 * come after its first use: such objects load where they are used. */
		if (d->kind == DSO_ELF && d->build_id_size == pdso->build_id_size)
			v[k++] = d;
	}
	vp_dsos_load_ahead(&s->dsos, v, k, threads);
	vp_u64map_free(&seen);
	free(v);
}

int vp_session_map_of(struct vp_session *s, uint32_t pid, unsigned cpumode, uint64_t ip,
		      struct vp_map_info *out)
{
	const struct vp_map *map = NULL;
	struct vp_process *p;
	size_t bsz = 0;

	memset(out, 0, sizeof(*out));
	cpumode &= VP_MISC_CPUMODE_MASK;
	if (cpumode == PERF_RECORD_MISC_KERNEL)
		map = vp_maps_find(&s->host.maps, ip);
	else if (cpumode == PERF_RECORD_MISC_GUEST_KERNEL)
		map = vp_maps_find(&s->guest.maps, ip);
	else if ((cpumode == PERF_RECORD_MISC_USER || cpumode == PERF_RECORD_MISC_CPUMODE_UNKNOWN) &&
		 (p = vp_u64map_get(&s->procs.procs, pid)))
		map = vp_maps_find(&p->maps, ip);
	if (!map || !map->dso)
		return -ENOENT;
	out->start = map->start;
	out->end = map->end;
	out->dso = map->dso->name;
	if (map->dso->kind == DSO_ELF || map->dso->kind == DSO_VDSO)
		out->pgoff = map->pgoff;
	if (map->dso->build_id_size) {
		memcpy(out->build_id, map->dso->build_id, map->dso->build_id_size);
		out->build_id_size = map->dso->build_id_size;
	} else if (map->dso->elf && vp_elf_build_id(map->dso->elf, out->build_id, &bsz) == 0) {
		out->build_id_size = (uint8_t)bsz;
	}
	return 0;
}
