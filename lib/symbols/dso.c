/* Objects and their symbols (see dso.h). */
#include "dso.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>
#include <elf.h>

#include "lib/util/threads.h"

struct vp_dso *vp_dso_get(struct vp_dsos *s, const char *name, enum dso_kind kind)
{
	const char *iname = vp_strpool_intern(s->pool, name);
	struct vp_dso *d;

	if (!iname)
		return NULL;
	d = vp_u64map_get(&s->by_name, (uintptr_t)iname);
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
	if (vp_u64map_put(&s->by_name, (uintptr_t)iname, d) < 0) {
		free(d);
		return NULL;
	}
	return d;
}

/* perf reads [vdso] samples from the vdso image of the kernel it runs on
 * (copied out of its own address space): right when the file comes from this
 * kernel. A recording's own [vdso] symbols serve anywhere. */
static void vdso_load(struct vp_dso *d, int other_kernel)
{
	const uint8_t *img = (const uint8_t *)getauxval(AT_SYSINFO_EHDR);
	struct vp_error err = { 0 };
	char path[64];
	size_t len = 0, done = 0;
	int fd;

	if (d->port) {
		d->use_port = 1;
		return;
	}
	if (!img || other_kernel || memcmp(img, "\177ELF", 4) || img[4] != 2 /* ELFCLASS64 */)
		return;
	/* The image's extent: its section headers end it (they come last). */
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
	len = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	/* A file in memory, not in /tmp: a full or read-only /tmp leaves the
	 * vDSO's samples named all the same, and nothing is left behind. */
	if (len < sizeof(*eh) || len > (1u << 20) ||
	    (fd = memfd_create("vmprof-vdso", MFD_CLOEXEC)) < 0)
		return;
	while (done < len) {
		ssize_t w = write(fd, img + done, len - done);
		if (w <= 0)
			break;
		done += (size_t)w;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (done == len && vp_elf_open(path, NULL, 0, &(struct vp_elf_opts){ NULL, NULL }, &d->elf,
				       &err) < 0)
		d->elf = NULL;
	close(fd);
}

/* An ELF object's symbols as perf's dso__load finds them. Pure: it only
 * fills *elf and *err, so objects load on several threads at once. */
static int elf_open(const struct vp_dsos *s, const struct vp_dso *d, struct vp_elf **elf,
		    struct vp_error *err)
{
	struct vp_elf_opts eo = { s->symfs, NULL };

	return vp_elf_get(d->name, d->build_id_size ? d->build_id : NULL, d->build_id_size, &eo,
			  elf, err);
}

struct vp_dso_ahead {
	int r;
	struct vp_elf *elf;
	struct vp_error err;
};

static void ahead_free(struct vp_dso_ahead **a)
{
	if (*a)
		vp_elf_put((*a)->elf);
	free(*a);
	*a = NULL;
}

int vp_dso_read_early(const struct vp_dsos *s, struct vp_dso *d)
{
	struct vp_dso_ahead *a;

	if (d->kind != DSO_ELF || __atomic_load_n(&d->early_claimed, __ATOMIC_RELAXED) ||
	    __atomic_exchange_n(&d->early_claimed, 1, __ATOMIC_RELAXED))
		return 0;
	if (!(a = calloc(1, sizeof(*a))))
		return 0;	/* read where used, as without this */
	a->r = elf_open(s, d, &a->elf, &a->err);
	d->early = a;	/* read once the count's threads are joined */
	return 1;
}

int vp_dso_take_early(struct vp_dso *d, struct vp_dso *from)
{
	if (!from->early || d->kind != DSO_ELF || d->loaded || d->ahead ||
	    d->build_id_size != from->build_id_size ||
	    memcmp(d->build_id, from->build_id, d->build_id_size))
		return 0;
	d->ahead = from->early;
	from->early = NULL;
	return 1;
}

struct ahead_job {
	const struct vp_dsos *s;
	struct vp_dso **v;
};

static int ahead_item(void *ctx, unsigned thread, size_t i)
{
	struct ahead_job *j = ctx;
	struct vp_dso_ahead *a = j->v[i]->ahead;
	(void)thread;

	a->r = elf_open(j->s, j->v[i], &a->elf, &a->err);
	return 0;
}

void vp_dsos_load_ahead(struct vp_dsos *s, struct vp_dso **v, size_t n, unsigned threads)
{
	struct ahead_job j = { s, v };
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		struct vp_dso *d = v[i];
		/* out of memory here: the object loads when used, as before */
		if (d->kind != DSO_ELF || d->loaded || d->ahead ||
		    !(d->ahead = calloc(1, sizeof(*d->ahead))))
			continue;
		v[i] = v[k];
		v[k++] = d;
	}
	vp_run_queue(threads, k, ahead_item, &j);
}

void vp_dso_load(struct vp_dsos *s, struct vp_dso *d, int other_kernel)
{
	struct vp_error err = { 0 };
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
		if (vp_perfmap_load(d->name, &d->jit, &err) < 0 && !s->quiet)
			vp_warn_once(d->name, "%s", err.msg);
		return;
	}
	if (d->kind == DSO_VDSO) {
		vdso_load(d, other_kernel);
		return;
	}
	if (d->kind != DSO_ELF)
		return;
	if (d->ahead) {
		r = d->ahead->r;
		err = d->ahead->err;
		d->elf = d->ahead->elf;
		d->ahead->elf = NULL;
		ahead_free(&d->ahead);
	} else {
		r = elf_open(s, d, &d->elf, &err);
	}
	if (r < 0 && d->port) {
		d->use_port = 1;	/* missing or changed: the recording's own symbols */
		return;
	}
	if (s->quiet)
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

enum dso_kind vp_dso_kind_of(const char *f)
{
	if (is_anon(f))
		return DSO_JIT;
	if (!strcmp(f, "[vdso]"))
		return DSO_VDSO;
	return is_no_dso(f) ? DSO_NONE : DSO_ELF;
}

void vp_dsos_free(struct vp_dsos *s)
{
	for (size_t i = 0; i < s->by_name.cap; i++) {
		struct vp_dso *d = s->by_name.vals[i];
		if (!d)
			continue;
		vp_elf_put(d->elf);
		vp_symtab_free(d->jit);
		ahead_free(&d->ahead);
		ahead_free(&d->early);
		free(d);
	}
	vp_u64map_free(&s->by_name);
	vp_u64map_free(&s->bid_by_name);
}
