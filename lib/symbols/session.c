/* Processes, maps and objects rebuilt from the record stream, and address
 * resolution as perf report does it: user addresses through the process's
 * maps into ELF (or JIT map) symbols, kernel addresses into kallsyms with
 * KASLR relocation, guest kernel addresses into the guest's kallsyms. */
#include "session.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>
#include <elf.h>

#include "maps.h"
#include "kernel_id.h"
#include "portsyms.h"
#include "lib/profile/profile.h"
#include "lib/util/u64map.h"

#define UNKNOWN "[unknown]"
#define CACHE_SIZE 8192	/* direct-mapped: hot code hits few addresses */

enum dso_kind {
	DSO_ELF,	/* a file: executable, library */
	DSO_KERNEL,	/* [kernel.kallsyms] */
	DSO_MODULE,	/* [mod] */
	DSO_GUEST_KERNEL,
	DSO_GUEST_MODULE,
	DSO_JIT,	/* /tmp/perf-PID.map */
	DSO_VDSO,	/* [vdso]: this kernel's image (as perf extracts it) or the file's symbols */
	DSO_NONE,	/* [heap], [stack], anonymous memory: nothing to resolve */
};

struct vp_dso {
	const char *name;	/* interned in the output pool */
	enum dso_kind kind;
	int loaded;		/* symbols looked for (found or not) */
	struct vp_elf *elf;
	struct vp_symtab *jit;
	uint8_t build_id[20];
	uint8_t build_id_size;
	uint64_t module_base;	/* modules: load address at record time (map start) */
	const struct vp_portsyms_dso *port;	/* the file's own symbols for it, if any */
	int use_port;		/* the object itself is missing or changed: use port */
};

struct process {
	uint32_t pid;
	uint32_t gen;		/* bumped when its maps change: stale cache entries miss */
	struct vp_maps maps;
};

struct thread {
	uint32_t tid, pid;
	const char *comm;
};

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
	struct vp_u64map procs, threads, dsos_by_name;
	struct kernel host, guest;
	const char *unknown;
	const char *unknown_dso;
	enum vp_kernel_match kernel_match;	/* the file's kernel against this machine's */
	char kernel_why[160];			/* the evidence, for the warning */
	uint32_t static_gen;	/* for resolutions no map change can alter (hypervisor, guest user) */
	struct cache_entry *cache;
	struct vp_portsyms *port;	/* VP_FEAT_VMPROF_SYMS, NULL when absent */
	/* build-ids by file name (interned here) -> index + 1, the first entry
	 * for a name winning; entries arrive late in pipe streams */
	struct vp_u64map bid_by_name;
	size_t bid_indexed;
	uint64_t maps_copied;	/* map entries copied to forked processes so far */
};

/* ---- dsos ---- */

static struct vp_dso *dso_get(struct vp_session *s, const char *name, enum dso_kind kind)
{
	const char *iname = vp_strpool_intern(s->pool, name);
	struct vp_dso *d;

	if (!iname)
		return NULL;
	d = vp_u64map_get(&s->dsos_by_name, (uintptr_t)iname);
	if (d)
		return d;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->name = iname;
	d->kind = kind;
	/* Build-ids recorded by perf pin the exact file; a mismatch is warned about. */
	size_t nb;
	const struct vp_build_id *b = vp_perfdata_build_ids(s->pd, &nb);
	for (; s->bid_indexed < nb; s->bid_indexed++) {
		const char *fn = vp_strpool_intern(s->pool, b[s->bid_indexed].filename);
		if (fn && !vp_u64map_get(&s->bid_by_name, (uintptr_t)fn) &&
		    vp_u64map_put(&s->bid_by_name, (uintptr_t)fn,
				  (void *)(uintptr_t)(s->bid_indexed + 1)) < 0)
			break;
	}
	uintptr_t bi = (uintptr_t)vp_u64map_get(&s->bid_by_name, (uintptr_t)iname);
	if (bi) {
		memcpy(d->build_id, b[bi - 1].id, b[bi - 1].size);
		d->build_id_size = b[bi - 1].size;
	}
	if (kind == DSO_ELF && (d->port = vp_portsyms_find(s->port, VP_PORTSYMS_USER, name)) &&
	    !d->build_id_size && d->port->build_id_size) {
		/* The recorder saw this build-id: a changed file on disk is not used. */
		memcpy(d->build_id, d->port->build_id, d->port->build_id_size);
		d->build_id_size = d->port->build_id_size;
	}
	if (kind == DSO_JIT)
		d->port = vp_portsyms_find(s->port, VP_PORTSYMS_JIT, name);
	if (kind == DSO_VDSO)
		d->port = vp_portsyms_find(s->port, VP_PORTSYMS_USER, name);
	if (vp_u64map_put(&s->dsos_by_name, (uintptr_t)iname, d) < 0) {
		free(d);
		return NULL;
	}
	return d;
}

/* forks x maps comes from the file: bounded, so a hostile one cannot take
 * memory growing with its length */
#define MAX_FORKED_MAPS		(1u << 22)

/* perf reads [vdso] samples from the vdso image of the kernel it runs on
 * (copied out of its own address space): right when the file comes from this
 * kernel. A recording's own [vdso] symbols serve anywhere. */
static void vdso_load(struct vp_session *s, struct vp_dso *d)
{
	const uint8_t *img = (const uint8_t *)getauxval(AT_SYSINFO_EHDR);
	char tmp[] = "/tmp/vmprof-vdso.XXXXXX";
	struct vp_error err = { 0 };
	size_t len = 0;
	FILE *f;
	int fd;

	if (d->port) {
		d->use_port = 1;
		return;
	}
	if (!img || s->kernel_match != VP_KERNEL_THIS || memcmp(img, "\177ELF", 4) || img[4] != 2 /* ELFCLASS64 */)
		return;
	/* The image's extent: its section headers end it (they come last). */
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
	len = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	if (len < sizeof(*eh) || len > (1u << 20) || (fd = mkstemp(tmp)) < 0)
		return;
	f = fdopen(fd, "w");
	if (f && fwrite(img, 1, len, f) == len && fclose(f) == 0) {
		struct vp_elf_opts eo = { NULL, NULL };
		if (vp_elf_open(tmp, NULL, 0, &eo, &d->elf, &err) < 0)
			d->elf = NULL;
	} else if (f) {
		fclose(f);
	} else {
		close(fd);
	}
	unlink(tmp);
}

static void dso_load(struct vp_session *s, struct vp_dso *d)
{
	struct vp_error err = { 0 };
	struct vp_elf_opts eo = { s->opts.symfs, NULL };
	int r;

	d->loaded = 1;
	if (d->kind == DSO_JIT) {
		/* A JIT map has no build-id to check: the symbols the recording
		 * resolved are preferred over a file of that name here (another
		 * machine's /tmp may hold another process's map). */
		if (d->port) {
			d->use_port = 1;
			return;
		}
		if (vp_perfmap_load(d->name, &d->jit, &err) < 0 && !s->opts.quiet)
			vp_warn_once(d->name, "%s", err.msg);
		return;
	}
	if (d->kind == DSO_VDSO) {
		vdso_load(s, d);
		return;
	}
	if (d->kind != DSO_ELF)
		return;
	r = vp_elf_open(d->name, d->build_id_size ? d->build_id : NULL, d->build_id_size, &eo,
			&d->elf, &err);
	if (r < 0 && d->port) {
		d->use_port = 1;	/* missing or changed: the recording's own symbols */
		return;
	}
	if (s->opts.quiet)
		return;
	if (r == -ESTALE)
		vp_warn_once(d->name, "'%s' changed since it was recorded (build-id differs); its "
			     "samples stay unresolved", d->name);
	else if (r < 0)
		vp_warn_once(d->name, "no symbols for '%s': %s", d->name, err.msg);
}

/* perf names an anonymous executable map after the JIT map file it may have. */
static int is_anon(const char *f)
{
	return !strcmp(f, "//anon") || !strncmp(f, "/dev/zero", 9) ||
	       !strncmp(f, "/anon_hugepage", 14);
}

static int is_no_dso(const char *f)
{
	return !strncmp(f, "[stack", 6) || !strncmp(f, "/SYSV", 5) || !strcmp(f, "[heap]") ||
	       !strncmp(f, "//", 2) || !strncmp(f, "/memfd:", 7) || !strcmp(f, "[vsyscall]");
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

/* ---- processes and threads ---- */

static struct process *proc_get(struct vp_session *s, uint32_t pid)
{
	struct process *p = vp_u64map_get(&s->procs, pid);

	if (p)
		return p;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pid = pid;
	if (vp_u64map_put(&s->procs, pid, p) < 0) {
		free(p);
		return NULL;
	}
	return p;
}

static struct thread *thread_get(struct vp_session *s, uint32_t pid, uint32_t tid)
{
	struct thread *t = vp_u64map_get(&s->threads, tid);

	if (t)
		return t;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->tid = tid;
	t->pid = pid;
	/* A thread we never saw created takes its process leader's name. */
	struct thread *leader = tid != pid ? vp_u64map_get(&s->threads, pid) : NULL;
	char buf[32];
	snprintf(buf, sizeof(buf), ":%d", (int)tid);
	t->comm = leader ? leader->comm : vp_strpool_intern(s->pool, buf);
	if (vp_u64map_put(&s->threads, tid, t) < 0) {
		free(t);
		return NULL;
	}
	return t;
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

static void free_maps_of(struct vp_u64map *m, int procs)
{
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->vals[i])
			continue;
		if (procs)
			vp_maps_clear(&((struct process *)m->vals[i])->maps);
		free(m->vals[i]);
	}
	vp_u64map_free(m);
}

void vp_session_free(struct vp_session *s)
{
	if (!s)
		return;
	free_maps_of(&s->procs, 1);
	free_maps_of(&s->threads, 0);
	for (size_t i = 0; i < s->dsos_by_name.cap; i++) {
		struct vp_dso *d = s->dsos_by_name.vals[i];
		if (!d)
			continue;
		vp_elf_close(d->elf);
		vp_symtab_free(d->jit);
		free(d);
	}
	vp_u64map_free(&s->dsos_by_name);
	vp_u64map_free(&s->bid_by_name);
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
	if (k->tried || k->thread_started || !(k->load_path = kallsyms_path(s, k)))
		return;
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

int vp_session_mmap(struct vp_session *s, const struct vp_mmap_event *m)
{
	unsigned cpumode = m->misc & VP_MISC_CPUMODE_MASK;
	const char *f = m->filename;
	char jit[64];
	enum dso_kind kind = DSO_ELF;
	struct process *p;
	struct vp_map map;

	if (cpumode == PERF_RECORD_MISC_GUEST_KERNEL)
		return kernel_mmap(s, &s->guest, m);
	if (cpumode == PERF_RECORD_MISC_KERNEL || m->pid == UINT32_MAX)
		return kernel_mmap(s, &s->host, m);
	if (cpumode == PERF_RECORD_MISC_GUEST_USER)
		return 0;	/* guest user space has no maps we could follow */
	/* Data maps (no PROT_EXEC) never hold sampled code. */
	if (m->is_mmap2 && !(m->prot & 4 /* PROT_EXEC */))
		return 0;
	if (is_anon(f)) {
		snprintf(jit, sizeof(jit), "/tmp/perf-%u.map", m->pid);
		f = jit;
		kind = DSO_JIT;
	} else if (!strcmp(f, "[vdso]")) {
		kind = DSO_VDSO;
	} else if (is_no_dso(f)) {
		kind = DSO_NONE;
	}
	map = (struct vp_map){ m->start, m->start + m->len, m->pgoff, dso_get(s, f, kind) };
	if (!map.dso)
		return -ENOMEM;
	if (kind == DSO_ELF && m->build_id_size && !map.dso->build_id_size) {
		memcpy(map.dso->build_id, m->build_id, m->build_id_size);
		map.dso->build_id_size = m->build_id_size;
	}
	if (kind == DSO_JIT)	/* JIT symbols are absolute addresses */
		map.pgoff = m->start;
	p = proc_get(s, m->pid);
	if (!p)
		return -ENOMEM;
	p->gen++;
	return vp_maps_insert(&p->maps, &map);
}

int vp_session_comm(struct vp_session *s, const struct vp_comm_event *c)
{
	struct thread *t = thread_get(s, c->pid, c->tid);

	if (!t)
		return -ENOMEM;
	t->pid = c->pid;
	t->comm = vp_strpool_intern(s->pool, c->comm);
	return t->comm ? 0 : -ENOMEM;
}

int vp_session_fork(struct vp_session *s, const struct vp_task_event *e)
{
	struct thread *parent = thread_get(s, e->ppid, e->ptid), *child;

	if (!parent)
		return -ENOMEM;
	/* perf drops a stale thread of the same tid and starts afresh. */
	child = vp_u64map_get(&s->threads, e->tid);
	if (!child && !(child = thread_get(s, e->pid, e->tid)))
		return -ENOMEM;
	child->pid = e->pid;
	child->comm = parent->comm;
	if (e->pid != e->ppid) {
		/* A new process starts with a copy of its parent's maps. */
		struct process *pp = proc_get(s, e->ppid), *cp = proc_get(s, e->pid);
		if (!pp || !cp)
			return -ENOMEM;
		cp->gen++;
		/* forks x maps is the file's to choose: bounded (a busy system-wide
		 * recording copies well under a million entries) */
		if ((s->maps_copied += pp->maps.n) > MAX_FORKED_MAPS) {
			vp_warn_once("forked-maps", "'%s': more than %u maps copied to forked "
				     "processes; later processes start without their parent's maps",
				     vp_perfdata_path(s->pd), MAX_FORKED_MAPS);
			return 0;
		}
		return vp_maps_copy(&cp->maps, &pp->maps);
	}
	return 0;
}

int vp_session_exit(struct vp_session *s, const struct vp_task_event *e)
{
	(void)s;
	(void)e;
	return 0;	/* perf keeps exited threads: late samples still resolve */
}

const char *vp_session_comm_of(struct vp_session *s, uint32_t pid, uint32_t tid)
{
	struct thread *t = thread_get(s, pid, tid);

	return t ? t->comm : s->unknown;
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
	if (k->thread_started) {
		pthread_join(k->thread, NULL);
		k->thread_started = 0;
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

static void resolve_user(struct vp_session *s, uint32_t pid, uint64_t ip, struct vp_resolved *out,
			 const uint32_t **genp, struct vp_resolved_sym *rs)
{
	struct process *p = vp_u64map_get(&s->procs, pid);

	*genp = p ? &p->gen : NULL;
	const struct vp_map *map = p ? vp_maps_find(&p->maps, ip) : NULL;
	const struct vp_symtab *tab = NULL;
	const struct vp_sym *sym = NULL;
	struct vp_dso *d;
	uint64_t addr;

	if (!map)
		return;
	d = map->dso;
	out->dso = d->name;
	if (!d->loaded)
		dso_load(s, d);
	if (d->use_port) {
		/* The recorder stored the table in perf's file-offset space (JIT:
		 * absolute addresses, which is what pgoff = start gives). */
		tab = d->port->tab;
		sym = vp_symtab_find(tab, ip - map->start + map->pgoff);
	} else if (d->kind == DSO_JIT && d->jit) {
		tab = d->jit;
		sym = vp_symtab_find(tab, ip);
	} else if (d->elf && vp_elf_offset_to_addr(d->elf, ip - map->start + map->pgoff, &addr) == 0) {
		tab = vp_elf_symtab(d->elf);
		sym = vp_symtab_find(tab, addr);
	}
	if (sym) {
		const char *n = vp_sym_name(tab, sym, VP_DEMANGLE_FULL);
		const char *in = n ? vp_strpool_intern(s->pool, n) : NULL;
		if (in)
			out->symbol = in;
		if (rs && d->kind == DSO_JIT) {
			rs->tab = tab;
			rs->sym = sym;
			rs->kind = VP_PORTSYMS_JIT;
		}
		if (rs && (d->kind == DSO_ELF || d->kind == DSO_VDSO) &&
		    !(d->elf && vp_elf_is_kernel_module(d->elf))) {
			size_t bsz = 0;
			rs->tab = tab;
			rs->sym = sym;
			rs->kind = VP_PORTSYMS_USER;
			if (d->elf && vp_elf_build_id(d->elf, rs->build_id, &bsz) == 0)
				rs->build_id_size = (uint8_t)bsz;
		}
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

/* genout/genval (may be NULL): what the answer's life hangs on, as
 * vp_session_resolve_gen says. */
static void resolve(struct vp_session *s, uint32_t pid, unsigned cpumode, uint64_t ip,
		    struct vp_resolved *out, struct vp_resolved_sym *rs, const uint32_t **genout,
		    uint32_t *genval)
{
	cpumode &= VP_MISC_CPUMODE_MASK;
	uint64_t h = vp_hash_u64(ip ^ ((uint64_t)pid << 40) ^ ((uint64_t)cpumode << 60));
	struct cache_entry *c = &s->cache[h & (CACHE_SIZE - 1)];

	if (!rs && c->ip == ip && c->pid == pid && c->cpumode == cpumode && c->genp &&
	    *c->genp == c->gen) {
		*out = c->r;
		if (genout) {
			*genout = c->genp;
			*genval = c->gen;
		}
		return;
	}
	const uint32_t *genp = &s->static_gen;
	out->symbol = s->unknown;
	out->dso = s->unknown_dso;
	out->domain = vp_domain_from_cpumode(cpumode);
	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL:
		resolve_kernel(s, &s->host, ip, out, rs);
		genp = &s->host.gen;
		break;
	case PERF_RECORD_MISC_GUEST_KERNEL:
		resolve_kernel(s, &s->guest, ip, out, rs);
		genp = &s->guest.gen;
		break;
	case PERF_RECORD_MISC_USER:
	case PERF_RECORD_MISC_CPUMODE_UNKNOWN:
		resolve_user(s, pid, ip, out, &genp, rs);
		break;
	default:	/* hypervisor, guest user: nothing on this side can name them */
		break;
	}
	if (genout) {
		*genout = genp;
		*genval = genp ? *genp : 0;
	}
	if (!genp)	/* no such process yet: do not remember */
		return;
	*c = (struct cache_entry){ ip, pid, *genp, genp, cpumode, *out };
}

void vp_session_resolve(struct vp_session *s, uint32_t pid, unsigned cpumode, uint64_t ip,
			struct vp_resolved *out)
{
	resolve(s, pid, cpumode, ip, out, NULL, NULL, NULL);
}

void vp_session_resolve_gen(struct vp_session *s, uint32_t pid, unsigned cpumode, uint64_t ip,
			    struct vp_resolved *out, const uint32_t **genp, uint32_t *gen)
{
	resolve(s, pid, cpumode, ip, out, NULL, genp, gen);
}

void vp_session_resolve_sym(struct vp_session *s, uint32_t pid, unsigned cpumode, uint64_t ip,
			    struct vp_resolved_sym *out)
{
	struct vp_resolved r;

	memset(out, 0, sizeof(*out));
	resolve(s, pid, cpumode, ip, &r, out, NULL, NULL);
	out->dso = r.dso;
}

int vp_session_map_of(struct vp_session *s, uint32_t pid, unsigned cpumode, uint64_t ip,
		      struct vp_map_info *out)
{
	const struct vp_map *map = NULL;
	struct process *p;
	size_t bsz = 0;

	memset(out, 0, sizeof(*out));
	cpumode &= VP_MISC_CPUMODE_MASK;
	if (cpumode == PERF_RECORD_MISC_KERNEL)
		map = vp_maps_find(&s->host.maps, ip);
	else if (cpumode == PERF_RECORD_MISC_GUEST_KERNEL)
		map = vp_maps_find(&s->guest.maps, ip);
	else if ((cpumode == PERF_RECORD_MISC_USER || cpumode == PERF_RECORD_MISC_CPUMODE_UNKNOWN) &&
		 (p = vp_u64map_get(&s->procs, pid)))
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
