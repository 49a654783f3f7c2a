/* User address spaces (see process.h). */
#include "process.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct vp_thread {
	uint32_t tid, pid;
	const char *comm;
};

/* forks x maps comes from the file: bounded, so a hostile one cannot take
 * memory growing with its length */
#define MAX_FORKED_MAPS		(1u << 22)

struct vp_process *vp_procs_get(struct vp_procs *s, uint32_t pid)
{
	struct vp_process *p = vp_u64map_get(&s->procs, pid);

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

/* A thread is made once and kept, whatever its pid: the last one asked
 * for answers most samples (a compare of -g runs looked a thread up for
 * each, 68 instructions of the ~1600 a sample costs there). */
static struct vp_thread *thread_get(struct vp_procs *s, uint32_t pid, uint32_t tid)
{
	struct vp_thread *t = s->last && s->last->tid == tid ? s->last : vp_u64map_get(&s->threads, tid);

	if (t)
		return s->last = t;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->tid = tid;
	t->pid = pid;
	/* A thread we never saw created takes its process leader's name. */
	struct vp_thread *leader = tid != pid ? vp_u64map_get(&s->threads, pid) : NULL;
	char buf[32];
	snprintf(buf, sizeof(buf), ":%d", (int)tid);
	t->comm = leader ? leader->comm : vp_strpool_intern(s->pool, buf);
	if (vp_u64map_put(&s->threads, tid, t) < 0) {
		free(t);
		return NULL;
	}
	return t;
}

int vp_procs_map_of(const struct vp_mmap_event *m, char jit[64], const char **file,
		    enum dso_kind *kind, struct vp_map *map)
{
	/* Data maps (no PROT_EXEC) never hold sampled code. */
	if (m->is_mmap2 && !(m->prot & 4 /* PROT_EXEC */))
		return 0;
	*file = m->filename;
	*kind = vp_dso_kind_of(m->filename);
	if (*kind == DSO_JIT) {
		snprintf(jit, 64, "/tmp/perf-%u.map", m->pid);
		*file = jit;
	}
	*map = (struct vp_map){ m->start, m->start + m->len, m->pgoff, NULL };
	if (*kind == DSO_JIT)	/* JIT symbols are absolute addresses */
		map->pgoff = m->start;
	return 1;
}

int vp_procs_mmap(struct vp_procs *s, struct vp_dsos *dsos, const struct vp_mmap_event *m)
{
	const char *f;
	char jit[64];
	enum dso_kind kind;
	struct vp_process *p;
	struct vp_map map;

	if (!vp_procs_map_of(m, jit, &f, &kind, &map))
		return 0;
	if (!(map.dso = vp_dso_get(dsos, f, kind)))
		return -ENOMEM;
	if (kind == DSO_ELF && m->build_id_size && !map.dso->build_id_size) {
		memcpy(map.dso->build_id, m->build_id, m->build_id_size);
		map.dso->build_id_size = m->build_id_size;
	}
	p = vp_procs_get(s, m->pid);
	if (!p)
		return -ENOMEM;
	p->gen++;
	return vp_maps_insert(&p->maps, &map);
}

int vp_procs_comm(struct vp_procs *s, const struct vp_comm_event *c)
{
	struct vp_thread *t = thread_get(s, c->pid, c->tid);

	if (!t)
		return -ENOMEM;
	t->pid = c->pid;
	t->comm = vp_strpool_intern(s->pool, c->comm);
	return t->comm ? 0 : -ENOMEM;
}

int vp_procs_fork(struct vp_procs *s, const struct vp_task_event *e)
{
	struct vp_thread *parent = thread_get(s, e->ppid, e->ptid), *child;

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
		struct vp_process *pp = vp_procs_get(s, e->ppid), *cp = vp_procs_get(s, e->pid);
		if (!pp || !cp)
			return -ENOMEM;
		cp->gen++;
		/* forks x maps is the file's to choose: bounded (a busy system-wide
		 * recording copies well under a million entries) */
		if ((s->maps_copied += pp->maps.n) > MAX_FORKED_MAPS) {
			vp_warn_once("forked-maps", "'%s': more than %u maps copied to forked "
				     "processes; later processes start without their parent's maps",
				     s->path, MAX_FORKED_MAPS);
			return 0;
		}
		return vp_maps_copy(&cp->maps, &pp->maps);
	}
	return 0;
}

const char *vp_procs_comm_of(struct vp_procs *s, uint32_t pid, uint32_t tid)
{
	struct vp_thread *t = thread_get(s, pid, tid);

	return t ? t->comm : s->unknown;
}

void vp_procs_resolve(struct vp_procs *s, struct vp_dsos *dsos, int other_kernel, uint32_t pid,
		      uint64_t ip, struct vp_resolved *out, const uint32_t **genp,
		      struct vp_resolved_sym *rs)
{
	struct vp_process *p = vp_u64map_get(&s->procs, pid);

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
		vp_dso_load(dsos, d, other_kernel);
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

static void free_maps_of(struct vp_u64map *m, int procs)
{
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->vals[i])
			continue;
		if (procs)
			vp_maps_clear(&((struct vp_process *)m->vals[i])->maps);
		free(m->vals[i]);
	}
	vp_u64map_free(m);
}

void vp_procs_free(struct vp_procs *s)
{
	free_maps_of(&s->procs, 1);
	free_maps_of(&s->threads, 0);
}
