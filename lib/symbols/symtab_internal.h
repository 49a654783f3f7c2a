/* Internal to the symbol modules: what loaders need beyond symbols.h to
 * replay perf's handling of its symbol trees (kallsyms splitting). */
#ifndef VP_SYMTAB_INTERNAL_H
#define VP_SYMTAB_INTERNAL_H

#include "symbols.h"

/* Add with a name of len bytes (need not be NUL-terminated). */
int vp_symtab_add_n(struct vp_symtab *t, uint64_t start, uint64_t size, const char *name,
		    size_t len, uint8_t bind, uint8_t type);
/* Walk the live symbols in tree order before the table is sealed. */
const struct vp_sym *vp_symtab_first(const struct vp_symtab *t);
const struct vp_sym *vp_symtab_next(const struct vp_symtab *t, const struct vp_sym *s);
/* Keep the tree from the next insert on, as if every insert and erase had
 * changed it (a table makes it only when needed): what the lazy tree is
 * tested against. -ENOMEM. */
int vp_symtab_keep_tree(struct vp_symtab *t);
/* Remove a symbol from the tree as perf's rb_erase would; -ENOMEM. */
int vp_symtab_erase(struct vp_symtab *t, const struct vp_sym *s);

#endif
