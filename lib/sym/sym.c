// SPDX-License-Identifier: GPL-2.0
/*
 * sym: the symtab (dsos by name), symbol arrays (sorted, de-aliased, searched by bisection)
 * and the mapping of runtime addresses into a dso's address space. The loaders live in
 * elf.c, kallsyms.c, jitmap.c and vdso.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base/log.h"
#include "lib/sym/rbsim.h"
#include "lib/sym/sym-int.h"

int symtab_new(const char *root_dir, struct symtab **ret)
{
	struct symtab *st = calloc(1, sizeof(*st));
	size_t n;

	*ret = NULL;
	if (!st)
		return -ENOMEM;
	st->root = strdup(root_dir ? root_dir : "");
	if (!st->root) {
		free(st);
		return -ENOMEM;
	}
	if (st->root[0] && asprintf(&st->cache_dir, "%s/.debug", st->root) < 0) {
		free(st->root);
		free(st);
		return -ENOMEM;
	}
	st->symfs_kernel = st->root[0] && strcmp(st->root, "/");
	n = strlen(st->root);
	while (n > 0 && st->root[n - 1] == '/')
		st->root[--n] = '\0';
	*ret = st;
	return 0;
}

int symtab_set_kallsyms(struct symtab *st, const char *path)
{
	free(st->kallsyms);
	st->kallsyms = path ? strdup(path) : NULL;
	return path && !st->kallsyms ? -ENOMEM : 0;
}

void symtab_set_demangle(struct symtab *st, bool demangle)
{
	st->no_demangle = !demangle;
}

void symtab_free(struct symtab *st)
{
	if (!st)
		return;
	kallsyms_prefetch_free(st);
	hashmap_release(&st->dsos);
	hashmap_release(&st->jit_seen);
	free(st->kmods);
	arena_release(&st->arena);
	free(st->root);
	free(st->cache_dir);
	free(st->kallsyms);
	free(st);
}

const char *symtab_path(const struct symtab *st, const char *path, char *buf, size_t len)
{
	if (!st->root[0] || path[0] != '/')
		return path;
	snprintf(buf, len, "%s%s", st->root, path);
	return buf;
}

static bool is_anon_name(const char *path)
{
	return !strcmp(path, "//anon") || !strncmp(path, "/dev/zero", 9) ||
	       !strncmp(path, "/anon_hugepage", 14) || !strncmp(path, "[stack", 6) ||
	       !strncmp(path, "/SYSV", 5) || !strcmp(path, "[heap]");
}

static enum dso_kind kind_of(const char *path)
{
	if (!strcmp(path, "[vdso]"))
		return DSO_VDSO;
	if (!strncmp(path, "[kernel.kallsyms]", 17))
		return DSO_KERNEL;
	if (!strncmp(path, "/tmp/perf-", 10) && strstr(path, ".map"))
		return DSO_JIT_MAP;
	if (path[0] == '[')
		return DSO_ANON; /* [vsyscall], [uprobes], ...: nothing to read */
	return DSO_USER;
}

static const char *short_name_of(const char *path)
{
	const char *slash;

	if (path[0] == '[')
		return path;
	slash = strrchr(path, '/');
	return slash && slash[1] ? slash + 1 : path;
}

static struct dso_int *dso_lookup(struct symtab *st, const char *path, uint64_t key)
{
	void *v = NULL;
	struct dso_int *d;

	if (!hashmap_get(&st->dsos, key, &v))
		return NULL;
	for (d = v; d; d = d->hnext)
		if (!strcmp(d->pub.long_name, path))
			return d;
	return NULL;
}

static struct dso_int *dso_create(struct symtab *st, const char *path, enum dso_kind kind)
{
	uint64_t key = hash_str(path);
	struct dso_int *d;
	void **slot;
	char *name;

	d = dso_lookup(st, path, key);
	if (d)
		return d;
	d = arena_zalloc(&st->arena, sizeof(*d));
	name = arena_strdup(&st->arena, path);
	slot = hashmap_slot(&st->dsos, key);
	if (!d || !name || !slot)
		return NULL;
	d->pub.long_name = name;
	d->pub.short_name = short_name_of(name);
	d->pub.kind = kind;
	d->key = key;
	d->hnext = *slot;
	*slot = d;
	return d;
}

struct dso *symtab_dso(struct symtab *st, const char *path, uint32_t pid)
{
	char jit[64];
	struct dso_int *d;

	if (is_anon_name(path)) {
		/* perf names every anonymous executable mapping after the JIT map file */
		snprintf(jit, sizeof(jit), "/tmp/perf-%u.map", pid);
		path = jit;
	}
	d = dso_create(st, path, kind_of(path));
	if (!d)
		return NULL;
	if (d->pub.kind == DSO_JIT_MAP && d->pub.short_name == short_name_of(d->pub.long_name)) {
		/* perf report calls a perf-PID.map "[JIT] tid PID" */
		char sn[40];
		unsigned int mpid = pid;

		sscanf(d->pub.long_name, "/tmp/perf-%u.map", &mpid);
		snprintf(sn, sizeof(sn), "[JIT] tid %u", mpid);
		d->pub.short_name = arena_strdup(&st->arena, sn);
		if (!d->pub.short_name)
			return NULL;
	}
	d->pid = pid;
	return &d->pub;
}

struct dso *symtab_kernel(struct symtab *st)
{
	if (!st->kernel)
		st->kernel = dso_create(st, "[kernel.kallsyms]", DSO_KERNEL);
	return st->kernel ? &st->kernel->pub : NULL;
}

void dso_set_build_id(struct dso *dso, const uint8_t *id, size_t size)
{
	if (size > sizeof(dso->build_id))
		size = sizeof(dso->build_id);
	memcpy(dso->build_id, id, size);
	dso->build_id_size = (uint8_t)size;
}

static void dso_load(struct symtab *st, struct dso_int *d)
{
	int err = 0;

	d->pub.loaded = true;
	switch (d->pub.kind) {
	case DSO_USER:
		err = elf_load_dso(st, d);
		break;
	case DSO_KERNEL:
		err = kallsyms_load(st, d);
		break;
	case DSO_JIT_MAP:
		err = jitmap_load(st, d);
		break;
	case DSO_VDSO:
		err = vdso_load(st, d);
		break;
	case DSO_KMODULE: /* filled by kallsyms_load of the kernel */
	case DSO_ANON:
		break;
	}
	if (err < 0)
		log_debug("no symbols for %s: %s", d->pub.long_name, strerror(-err));
	d->pub.has_symbols = d->nr_syms > 0;
}

static const struct symbol *syms_find(const struct symbol *syms, size_t nr, uint64_t addr)
{
	size_t lo = 0, hi = nr, i;

	/* first symbol with start > addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* lo - 1 starts at or before addr; a few earlier ones may still enclose it */
	for (i = lo; i > 0 && lo - i < 4; i--)
		if (addr < syms[i - 1].end)
			return &syms[i - 1];
	return NULL;
}

const struct symbol *dso_find_symbol(struct symtab *st, struct dso *dso, uint64_t addr)
{
	struct dso_int *d = dso_int(dso);

	if (!dso)
		return NULL;
	if (!dso->loaded)
		dso_load(st, d);
	return syms_find(d->syms, d->nr_syms, addr);
}

const struct symbol *dso_find_symbol_by_name(struct symtab *st, struct dso *dso, const char *name)
{
	struct dso_int *d = dso_int(dso);
	size_t i;

	if (!dso)
		return NULL;
	if (!dso->loaded)
		dso_load(st, d);
	for (i = 0; i < d->nr_syms; i++)
		if (!strcmp(d->syms[i].name, name))
			return &d->syms[i];
	return NULL;
}

struct dso *symtab_kernel_module_nth(struct symtab *st, size_t i)
{
	return i < st->nr_kmods ? &st->kmods[i]->pub : NULL;
}

uint64_t dso_map_ip(struct symtab *st, struct dso *dso, uint64_t map_start, uint64_t pgoff,
		    uint64_t ip)
{
	struct dso_int *d = dso_int(dso);
	uint64_t off;
	int i;

	switch (dso->kind) {
	case DSO_KERNEL:
		if (!dso->loaded)
			dso_load(st, d);
		/* pgoff is _text of the recording's kernel: relocate to the running one's */
		if (pgoff && d->kaddr_ref)
			return ip - pgoff + d->kaddr_ref;
		return ip;
	case DSO_KMODULE:
	case DSO_JIT_MAP:
	case DSO_ANON:
		return ip;
	case DSO_USER:
	case DSO_VDSO:
		break;
	}
	off = ip - map_start + pgoff;
	if (!d->segs_loaded) {
		d->segs_loaded = true;
		if (dso->kind == DSO_VDSO) {
			if (!dso->loaded)
				dso_load(st, d);
		} else {
			elf_load_segs(st, d);
		}
	}
	for (i = 0; i < d->nr_segs; i++)
		if (off >= d->segs[i].offset && off - d->segs[i].offset < d->segs[i].filesz)
			return off - d->segs[i].offset + d->segs[i].vaddr;
	return off;
}

/* ---- symbol arrays ---- */

int symbuf_add(struct symbuf *sb, uint64_t start, uint64_t end, const char *name, uint8_t bind)
{
	struct sym_ent *e;

	if (sb->nr == sb->alloc) {
		size_t n = sb->alloc ? sb->alloc * 2 : 256;
		void *p = realloc(sb->v, n * sizeof(*sb->v));

		if (!p)
			return -ENOMEM;
		sb->v = p;
		sb->alloc = n;
	}
	e = &sb->v[sb->nr++];
	e->start = start;
	e->end = end;
	e->name = name;
	e->bind = bind;
	e->kmod = false;
	e->seq = (uint32_t)(sb->nr - 1);
	return 0;
}

void symbuf_free(struct symbuf *sb)
{
	free(sb->v);
	sb->v = NULL;
	sb->nr = sb->alloc = 0;
}

static int ent_cmp(const void *pa, const void *pb)
{
	const struct sym_ent *a = pa, *b = pb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static size_t underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* perf's choose_best_symbol(): true when a should be kept over b (same start). */
static bool ent_better(const struct sym_ent *a, const struct sym_ent *b)
{
	bool az = a->end == a->start, bz = b->end == b->start;
	size_t ua, ub, la, lb;

	if (az != bz)
		return bz;
	if ((a->bind == 2) != (b->bind == 2))
		return b->bind == 2;
	if ((a->bind == 1) != (b->bind == 1))
		return a->bind == 1;
	ua = underscores(a->name);
	ub = underscores(b->name);
	if (ua != ub)
		return ua < ub;
	la = strlen(a->name);
	lb = strlen(b->name);
	return la >= lb;
}

static uint64_t roundup_page(uint64_t x)
{
	return (x + 4095) & ~4095ULL;
}

/* Writes e as out[k]; returns k + 1. */
static size_t emit(struct symbol *out, size_t k, const struct sym_ent *e)
{
	out[k].start = e->start;
	out[k].end = e->end;
	out[k].name = e->name;
	return k + 1;
}

/* perf's symbols__fixup_end(): a zero-sized symbol reaches the next one. */
static void fixup_ends(struct symbuf *sb, bool kallsyms)
{
	size_t i;

	for (i = 0; i + 1 < sb->nr; i++) {
		struct sym_ent *p = &sb->v[i], *c = &sb->v[i + 1];

		if (p->end != p->start)
			continue;
		if (kallsyms && p->kmod != c->kmod)
			p->end = roundup_page(p->end + 4096);
		else
			p->end = c->start;
	}
	if (sb->nr && sb->v[sb->nr - 1].end == sb->v[sb->nr - 1].start)
		sb->v[sb->nr - 1].end = roundup_page(sb->v[sb->nr - 1].start) + 4096;
}

/*
 * perf's symbols__fixup_duplicate(): of equal starts keep choose_best_symbol()'s pick. Marks
 * the survivors in keep[] and takes the losers out of the tree t when there is one.
 */
static void fixup_duplicates(struct symbuf *sb, bool *keep, struct rbs *t, struct rbs_node *nodes)
{
	size_t i, w = 0;

	for (i = 0; i < sb->nr; i++) {
		keep[i] = true;
		if (!i || sb->v[w].start != sb->v[i].start) {
			w = i;
			continue;
		}
		if (ent_better(&sb->v[w], &sb->v[i])) {
			keep[i] = false;
			if (t)
				rbs_erase(t, &nodes[i]);
		} else {
			keep[w] = false;
			if (t)
				rbs_erase(t, &nodes[w]);
			w = i;
		}
	}
}

/*
 * Which PLT entries perf's lookup finds: perf inserts them into its symbol tree after the
 * others (whose ends are fixed by then, so a zero-sized _init may span .plt), and its lookup
 * returns whichever overlapping symbol the descent meets first. Rebuilds that tree (the
 * others in order of appearance, the duplicates' removal, then the PLT entries) and marks
 * in pkeep[] the entries a lookup of their own start returns.
 */
static int plt_visible(struct symbuf *sb, struct symbuf *plt, bool *pkeep)
{
	struct rbs_node *nodes = calloc(sb->nr + plt->nr, sizeof(*nodes));
	size_t *order = malloc((sb->nr + 1) * sizeof(*order));
	bool *keep = malloc(sb->nr + 1);
	struct rbs t = { NULL };
	size_t i;

	if (!nodes || !order || !keep) {
		free(nodes);
		free(order);
		free(keep);
		return -ENOMEM;
	}
	for (i = 0; i < sb->nr; i++)
		order[sb->v[i].seq] = i;
	for (i = 0; i < sb->nr; i++) {
		struct rbs_node *n = &nodes[order[i]];

		n->start = sb->v[order[i]].start;
		n->end = sb->v[order[i]].end;
		rbs_insert(&t, n);
	}
	fixup_duplicates(sb, keep, &t, nodes);
	for (i = 0; i < plt->nr; i++) {
		struct rbs_node *n = &nodes[sb->nr + i];

		n->start = plt->v[i].start;
		n->end = plt->v[i].end;
		rbs_insert(&t, n);
	}
	for (i = 0; i < plt->nr; i++)
		pkeep[i] = rbs_find(&t, plt->v[i].start) == &nodes[sb->nr + i];
	free(nodes);
	free(order);
	free(keep);
	return 0;
}

/*
 * perf's order: sorted by start (ties in order of appearance), then symbols__fixup_end()
 * (among equal starts only the last one gets a size), then symbols__fixup_duplicate() with
 * choose_best_symbol(). So of kallsyms aliases the last listed wins, as perf shows
 * __x64_sys_vfork rather than __ia32_sys_vfork. PLT entries (plt, may be NULL) come last.
 */
int symbuf_finish_plt(struct symtab *st, struct dso_int *d, struct symbuf *sb, bool kallsyms,
		      struct symbuf *plt)
{
	size_t i, j, k = 0, nplt = plt ? plt->nr : 0;
	bool *keep = malloc(sb->nr + nplt + 1);
	struct symbol *out = NULL;
	int ret = -ENOMEM;

	if (!keep)
		goto out;
	if (sb->nr) /* a dso without symbols has no array at all */
		qsort(sb->v, sb->nr, sizeof(*sb->v), ent_cmp);
	fixup_ends(sb, kallsyms);
	if (nplt && plt_visible(sb, plt, keep + sb->nr))
		goto out;
	fixup_duplicates(sb, keep, NULL, NULL);
	if (sb->nr + nplt)
		out = arena_alloc(&st->arena, (sb->nr + nplt) * sizeof(*out));
	if (sb->nr + nplt && !out)
		goto out;
	/* merge the survivors and the visible PLT entries (both sorted by start) */
	for (i = 0, j = 0; i < sb->nr || j < nplt;) {
		if (j < nplt && !keep[sb->nr + j]) {
			j++;
		} else if (i < sb->nr && !keep[i]) {
			i++;
		} else if (j >= nplt || (i < sb->nr && sb->v[i].start <= plt->v[j].start)) {
			k = emit(out, k, &sb->v[i++]);
		} else {
			k = emit(out, k, &plt->v[j++]);
		}
	}
	d->syms = out;
	d->nr_syms = k;
	ret = 0;
out:
	free(keep);
	symbuf_free(sb);
	if (plt)
		symbuf_free(plt);
	return ret;
}

int symbuf_finish(struct symtab *st, struct dso_int *d, struct symbuf *sb, bool kallsyms)
{
	return symbuf_finish_plt(st, d, sb, kallsyms, NULL);
}
