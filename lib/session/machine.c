// SPDX-License-Identifier: GPL-2.0
/*
 * machine: threads, processes, maps and address resolution for the replay (see machine.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base/arena.h"
#include "lib/base/hashmap.h"
#include "lib/base/log.h"
#include "lib/session/filter.h"
#include "lib/session/machine.h"
#include "lib/unwind/unwind.h"

struct map {
	uint64_t start, end, pgoff;
	struct dso *dso;  /* NULL: a mapping with nothing to resolve (data) */
	const char *name; /* a data mapping's name ("//anon", "[stack]"), interned */
};

struct maps {
	struct map *v;
	size_t nr, alloc;
	uint32_t gen; /* changes with every insertion: invalidates the frame cache */
};

struct proc {
	uint32_t pid;
	struct maps maps;
};

struct thread_int {
	struct thread pub;
	struct proc *proc;
	bool comm_set; /* named by a COMM (or a fork from a named one), not ":tid" */
};

#define RC_BITS 13

/* One resolved address, cached per address space (maps) and mode. */
struct rc_ent {
	uint64_t ip;
	const struct maps *maps;
	uint32_t gen;
	uint8_t mode;
	struct frame f;
};

struct machine {
	struct symtab *st;
	struct arena arena;	/* threads, procs, comm strings */
	struct hashmap threads; /* tid -> thread_int */
	struct hashmap procs;	/* pid -> proc */
	struct hashmap comms;	/* hash -> interned comm (collisions: not interned) */
	struct maps kmaps;	/* kernel modules */
	struct map kernel_map;	/* the kernel's text, as its MMAP says, and its init text */
	uint64_t kernel_start;	/* addresses at or above it are the kernel's */
	struct rc_ent *cache;
	struct thread_int *last; /* the last thread looked up (samples come in runs) */
	struct proc **all_procs; /* for freeing map arrays */
	size_t nr_procs, alloc_procs;
	struct unwinder *uw; /* created on the first sample with a user stack copy */
	uint64_t *uw_ips;    /* scratch: MACHINE_UNWIND_MAX addresses */
	size_t max_stack;    /* 0: no limit */
	bool max_outermost;  /* the limit keeps a chain's outermost entries (caller order) */
};

static uint32_t maps_gen_counter;

static const char *intern(struct machine *m, const char *s, size_t len)
{
	uint64_t h = hash_bytes(s, len);
	void **slot = hashmap_slot(&m->comms, h);
	char *c;

	if (!slot)
		return NULL;
	c = *slot;
	if (c && strlen(c) == len && !memcmp(c, s, len))
		return c;
	c = arena_strndup(&m->arena, s, len);
	if (c && !*slot)
		*slot = c;
	return c;
}

int machine_new(struct symtab *st, struct machine **ret)
{
	struct machine *m = calloc(1, sizeof(*m));
	struct thread_int *idle;

	*ret = NULL;
	if (!m)
		return -ENOMEM;
	m->st = st;
	m->kernel_start = 1ULL << 63;
	m->cache = calloc(1u << RC_BITS, sizeof(*m->cache));
	if (!m->cache) {
		free(m);
		return -ENOMEM;
	}
	*ret = m;
	/* perf names the idle task "swapper" */
	idle = (struct thread_int *)machine_findnew_thread(m, 0, 0);
	if (!idle || !(idle->pub.comm = intern(m, "swapper", 7))) {
		machine_free(m);
		*ret = NULL;
		return -ENOMEM;
	}
	idle->comm_set = true;
	return 0;
}

void machine_free(struct machine *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->nr_procs; i++)
		free(m->all_procs[i]->maps.v);
	free(m->all_procs);
	unwinder_free(m->uw);
	free(m->uw_ips);
	free(m->kmaps.v);
	free(m->cache);
	hashmap_release(&m->threads);
	hashmap_release(&m->procs);
	hashmap_release(&m->comms);
	arena_release(&m->arena);
	free(m);
}

static struct proc *proc_new(struct machine *m, uint32_t pid)
{
	struct proc *p = arena_zalloc(&m->arena, sizeof(*p));

	if (!p)
		return NULL;
	if (m->nr_procs == m->alloc_procs) {
		size_t n = m->alloc_procs ? m->alloc_procs * 2 : 64;
		void *v = realloc(m->all_procs, n * sizeof(*m->all_procs));

		if (!v)
			return NULL;
		m->all_procs = v;
		m->alloc_procs = n;
	}
	m->all_procs[m->nr_procs++] = p;
	p->pid = pid;
	p->maps.gen = ++maps_gen_counter;
	if (hashmap_put(&m->procs, pid, p))
		return NULL;
	return p;
}

static struct proc *proc_findnew(struct machine *m, uint32_t pid)
{
	void *v;

	if (hashmap_get(&m->procs, pid, &v))
		return v;
	return proc_new(m, pid);
}

struct thread *machine_find_thread(struct machine *m, uint32_t tid)
{
	void *v;

	return hashmap_get(&m->threads, tid, &v) ? v : NULL;
}

int machine_threads(struct machine *m, const struct thread ***ret, size_t *nr)
{
	const struct thread **v = NULL, **nv;
	size_t n = 0, alloc = 0, iter = 0;
	uint64_t key;
	void *val;

	while (hashmap_next(&m->threads, &iter, &key, &val)) {
		if (n == alloc) {
			alloc = alloc ? 2 * alloc : 256;
			nv = realloc(v, alloc * sizeof(*v));
			if (!nv) {
				free(v);
				return -ENOMEM;
			}
			v = nv;
		}
		v[n++] = &((struct thread_int *)val)->pub;
	}
	*ret = v;
	*nr = n;
	return 0;
}

static struct thread_int *thread_new(struct machine *m, uint32_t pid, uint32_t tid)
{
	struct thread_int *t = arena_zalloc(&m->arena, sizeof(*t));
	char buf[16];
	int n;

	if (!t)
		return NULL;
	t->pub.pid = pid;
	t->pub.tid = tid;
	t->pub.ppid = -1;
	n = snprintf(buf, sizeof(buf), ":%d", (int)tid); /* ":-1" as perf */
	t->pub.comm = intern(m, buf, (size_t)n);
	t->proc = proc_findnew(m, pid);
	m->last = NULL;
	if (!t->pub.comm || !t->proc || hashmap_put(&m->threads, tid, t))
		return NULL;
	/* as perf, a thread of a process brings its leader (pid/pid) into the table */
	if (pid != tid && pid != (uint32_t)-1 && !machine_find_thread(m, pid) &&
	    !thread_new(m, pid, pid))
		return NULL;
	return t;
}

struct thread *machine_findnew_thread(struct machine *m, uint32_t pid, uint32_t tid)
{
	struct thread_int *t = m->last;

	if (t && t->pub.tid == tid && t->pub.pid == pid)
		return &t->pub;
	t = (struct thread_int *)machine_find_thread(m, tid);
	if (t && t->pub.pid == pid)
		m->last = t;

	if (t && (t->pub.pid == pid || pid == (uint32_t)-1))
		return &t->pub;
	if (t && t->pub.pid == (uint32_t)-1) {
		/* first seen without a pid (a COMM of perf's): now we know it */
		t->pub.pid = pid;
		t->proc = proc_findnew(m, pid);
		return t->proc ? &t->pub : NULL;
	}
	t = thread_new(m, pid, tid);
	return t ? &t->pub : NULL;
}

/* ---- maps ---- */

static size_t maps_upper(const struct maps *ms, uint64_t addr)
{
	size_t lo = 0, hi = ms->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ms->v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo; /* first map starting after addr */
}

static const struct map *maps_find(const struct maps *ms, uint64_t addr)
{
	size_t i = maps_upper(ms, addr);

	if (i && addr < ms->v[i - 1].end)
		return &ms->v[i - 1];
	return NULL;
}

static int maps_reserve(struct maps *ms, size_t more)
{
	size_t n;
	void *v;

	if (ms->nr + more <= ms->alloc)
		return 0;
	n = ms->alloc ? ms->alloc * 2 : 16;
	while (n < ms->nr + more)
		n *= 2;
	v = realloc(ms->v, n * sizeof(*ms->v));
	if (!v)
		return -ENOMEM;
	ms->v = v;
	ms->alloc = n;
	return 0;
}

/* Inserts nm, cutting away what it overlaps of older maps (perf's fixup_overlappings). */
static int maps_insert(struct maps *ms, const struct map *nm)
{
	size_t i, j, out;
	struct map keep[2];
	int nkeep = 0;

	if (nm->end <= nm->start)
		return 0;
	if (maps_reserve(ms, 3)) /* at most one map split in two, plus nm */
		return -ENOMEM;
	ms->gen = ++maps_gen_counter;
	i = maps_upper(ms, nm->start);
	if (i)
		i--;
	/* maps [i, j) may overlap nm */
	for (j = i; j < ms->nr && ms->v[j].start < nm->end; j++) {
		const struct map *o = &ms->v[j];

		if (o->end <= nm->start)
			continue;
		if (o->start < nm->start) {
			keep[nkeep] = *o;
			keep[nkeep++].end = nm->start;
		}
		if (o->end > nm->end) {
			keep[nkeep] = *o;
			keep[nkeep].pgoff += nm->end - o->start;
			keep[nkeep++].start = nm->end;
		}
	}
	/* rebuild [i, j) as: maps of it that do not overlap, the kept pieces, nm; sorted */
	{
		struct map tmp[8], *t = tmp;
		size_t n = 0, k, cap = j - i + 3;

		if (cap > 8) {
			t = malloc(cap * sizeof(*t));
			if (!t)
				return -ENOMEM;
		}
		for (k = i; k < j; k++)
			if (ms->v[k].end <= nm->start || ms->v[k].start >= nm->end)
				t[n++] = ms->v[k];
		for (k = 0; k < (size_t)nkeep; k++)
			t[n++] = keep[k];
		t[n++] = *nm;
		/* insertion sort: n is tiny */
		for (k = 1; k < n; k++) {
			struct map x = t[k];
			size_t l = k;

			for (; l > 0 && t[l - 1].start > x.start; l--)
				t[l] = t[l - 1];
			t[l] = x;
		}
		out = i + n;
		memmove(&ms->v[out], &ms->v[j], (ms->nr - j) * sizeof(*ms->v));
		memcpy(&ms->v[i], t, n * sizeof(*t));
		ms->nr = ms->nr - (j - i) + n;
		if (t != tmp)
			free(t);
	}
	return 0;
}

static int maps_clone(struct maps *dst, const struct maps *src)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < src->nr && !ret; i++)
		ret = maps_insert(dst, &src->v[i]);
	return ret;
}

/* ---- records ---- */

static bool is_kernel_name(const char *name)
{
	return !strncmp(name, "[kernel.kallsyms]", 17) ||
	       !strncmp(name, "[guest.kernel.kallsyms", 22);
}

static int process_kernel_mmap(struct machine *m, uint64_t start, uint64_t len, uint64_t pgoff,
			       const char *name)
{
	struct map nm = { .start = start, .end = start + len, .pgoff = pgoff };

	if (nm.end < nm.start || !len)
		nm.end = ~0ULL;
	if (is_kernel_name(name)) {
		nm.dso = symtab_kernel(m->st);
		m->kernel_map = nm;
		m->kmaps.gen = ++maps_gen_counter;
		if (start < m->kernel_start)
			m->kernel_start = start;
		return 0;
	} else if (name[0] == '[' || name[0] == '/') {
		/* a module: perf names it [name] after the file's basename without .ko */
		const char *b = strrchr(name, '/');
		char mod[256];
		size_t n;

		b = b ? b + 1 : name;
		n = strcspn(b, ".");
		if (b[0] == '[')
			snprintf(mod, sizeof(mod), "%s", b);
		else
			snprintf(mod, sizeof(mod), "[%.*s]", (int)n, b);
		nm.dso = symtab_dso(m->st, mod, 0);
	}
	if (!nm.dso)
		return 0;
	return maps_insert(&m->kmaps, &nm);
}

static const char *rec_name(const struct perf_event_header *ev, const char *name)
{
	/* the name must end inside the record */
	if (!memchr(name, '\0', (size_t)((const char *)ev + ev->size - name)))
		return NULL;
	return name;
}

static int process_mmap(struct machine *m, const struct perf_event_header *ev)
{
	uint32_t pid, tid, prot = 0;
	uint64_t start, len, pgoff;
	const char *name, *p = (const char *)(ev + 1);
	bool exec, kernel = (ev->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
	const uint8_t *bid = NULL;
	struct thread_int *t;
	struct map nm;

	if (ev->size < sizeof(*ev) + (ev->type == PERF_RECORD_MMAP2 ? 64 : 32))
		return 0;
	memcpy(&pid, p, 4);
	memcpy(&tid, p + 4, 4);
	memcpy(&start, p + 8, 8);
	memcpy(&len, p + 16, 8);
	memcpy(&pgoff, p + 24, 8);
	if (ev->type == PERF_RECORD_MMAP2) {
		memcpy(&prot, p + 56, 4);
		if (ev->misc & PERF_RECORD_MISC_MMAP_BUILD_ID)
			bid = (const uint8_t *)p + 32; /* u8 size, 3 reserved, id[20] */
		name = rec_name(ev, p + 64);
		exec = prot & 4; /* PROT_EXEC */
	} else {
		name = rec_name(ev, p + 32);
		exec = !(ev->misc & PERF_RECORD_MISC_MMAP_DATA);
	}
	if (!name)
		return 0;
	if (kernel || pid == (uint32_t)-1)
		return process_kernel_mmap(m, start, len, pgoff, name);
	t = (struct thread_int *)machine_findnew_thread(m, pid, tid);
	if (!t)
		return -ENOMEM;
	nm.start = start;
	nm.end = start + len;
	nm.pgoff = pgoff;
	nm.dso = exec || name[0] == '/' ? symtab_dso(m->st, name, pid) : NULL;
	if (!exec && nm.dso && nm.dso->kind == DSO_JIT_MAP)
		nm.dso = NULL; /* anonymous data */
	nm.name = nm.dso ? NULL : intern(m, name, strlen(name));
	if (nm.dso && bid && bid[0] && bid[0] <= 20 && !nm.dso->build_id_size)
		dso_set_build_id(nm.dso, bid + 4, bid[0]);
	return maps_insert(&t->proc->maps, &nm);
}

static int process_comm(struct machine *m, const struct perf_event_header *ev)
{
	const char *p = (const char *)(ev + 1), *name;
	uint32_t pid, tid;
	struct thread_int *t;

	if (ev->size < sizeof(*ev) + 16)
		return 0;
	memcpy(&pid, p, 4);
	memcpy(&tid, p + 4, 4);
	name = rec_name(ev, p + 8);
	if (!name)
		return 0;
	t = (struct thread_int *)machine_findnew_thread(m, pid, tid);
	if (!t)
		return -ENOMEM;
	t->pub.comm = intern(m, name, strlen(name));
	t->comm_set = true;
	return t->pub.comm ? 0 : -ENOMEM;
}

static int process_fork(struct machine *m, const struct perf_event_header *ev)
{
	const char *p = (const char *)(ev + 1);
	uint32_t pid, ppid, tid, ptid;
	struct thread_int *parent, *t;
	const char *comm;
	struct proc *pproc;
	bool comm_set;

	if (ev->size < sizeof(*ev) + 24)
		return 0;
	memcpy(&pid, p, 4);
	memcpy(&ppid, p + 4, 4);
	memcpy(&tid, p + 8, 4);
	memcpy(&ptid, p + 12, 4);
	parent = (struct thread_int *)machine_findnew_thread(m, ppid, ptid);
	if (!parent)
		return -ENOMEM;
	comm = parent->pub.comm;
	comm_set = parent->comm_set;
	pproc = parent->proc;
	/* a new task with this tid replaces any old one (tid reuse); the old stays allocated
	 * for the pointers handed out. A new process gets a copy of its parent's maps, unless
	 * the fork was synthesized from /proc (FORK_EXEC, perf's internal mark): its own maps
	 * follow, and the parent's may be those of the program it exec'd from. */
	hashmap_del(&m->threads, tid);
	m->last = NULL;
	if (pid != ppid) {
		struct proc *np = proc_new(m, pid);

		if (!np)
			return -ENOMEM;
		if (!(ev->misc & PERF_RECORD_MISC_FORK_EXEC) && maps_clone(&np->maps, &pproc->maps))
			return -ENOMEM;
	}
	t = thread_new(m, pid, tid);
	if (!t)
		return -ENOMEM;
	t->pub.ppid = (int32_t)ptid;
	/* as perf's thread__fork: a parent known only as ":ptid" leaves the child ":tid" */
	if (comm_set) {
		t->pub.comm = comm;
		t->comm_set = true;
	}
	return 0;
}

int machine_process(struct machine *m, struct perf_data *pd, const struct perf_event_header *ev)
{
	switch (ev->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return process_mmap(m, ev);
	case PERF_RECORD_COMM:
		return process_comm(m, ev);
	case PERF_RECORD_FORK:
		return process_fork(m, ev);
	default:
		return 0; /* EXIT: perf keeps the thread for later samples */
	}
}

/* ---- resolution ---- */

static bool lookup(struct machine *m, const struct maps *ms, uint64_t ip, struct frame *f)
{
	const struct map *mp = maps_find(ms, ip);
	struct dso *d = mp ? mp->dso : NULL;

	if (!mp && ms == &m->kmaps && ip >= m->kernel_start) {
		d = symtab_kernel_module(m->st, ip); /* modules are found at report time */
		mp = &m->kernel_map;
		if (d || !mp->dso || ip < mp->start)
			mp = NULL;
		else if (ip >= mp->end && /* past _etext: perf still knows the init text */
			 !dso_kernel_init_text(m->st, mp->dso,
					       dso_map_ip(m->st, mp->dso, mp->start, mp->pgoff,
							  ip)))
			mp = NULL;
		if (mp)
			d = mp->dso;
	}
	if (!d)
		return false;
	f->dso = d;
	if (mp) {
		f->dso_ip = dso_map_ip(m->st, d, mp->start, mp->pgoff, ip);
		f->addr = d->kind == DSO_USER || d->kind == DSO_VDSO ? ip - mp->start + mp->pgoff
								     : ip;
	} else {
		f->dso_ip = f->addr = ip;
	}
	f->sym = dso_find_symbol(m->st, d, f->dso_ip);
	return true;
}

static const struct maps *maps_for(struct machine *m, struct thread *t, uint8_t mode)
{
	if (mode == PERF_RECORD_MISC_KERNEL)
		return &m->kmaps;
	if (mode == PERF_RECORD_MISC_USER && t)
		return &((struct thread_int *)t)->proc->maps;
	return NULL;
}

/* perf's thread__find_map() for call-chain entries and sample ips: the mode's maps only (a
 * kernel address in the user part of a chain stays [unknown], as in perf script). */
static void resolve_uncached(struct machine *m, struct thread *t, uint8_t cpumode, uint64_t ip,
			     struct frame *f)
{
	const struct maps *ms = maps_for(m, t, cpumode);

	f->ip = f->dso_ip = f->addr = ip;
	f->dso = NULL;
	f->sym = NULL;
	f->cpumode = cpumode;
	f->unwound = false;
	if (ms)
		lookup(m, ms, ip, f);
}

/* A miss of the frame cache, out of line: the hit path stays a few instructions. */
static __attribute__((noinline)) void resolve_miss(struct machine *m, struct thread *t,
						   uint8_t cpumode, uint64_t ip, struct frame *f,
						   struct rc_ent *e, const struct maps *ms,
						   uint32_t gen)
{
	resolve_uncached(m, t, cpumode, ip, f);
	e->ip = ip;
	e->maps = ms;
	e->gen = gen;
	e->mode = cpumode;
	e->f = *f;
}

static inline void resolve(struct machine *m, struct thread *t, uint8_t cpumode, uint64_t ip,
			   struct frame *f)
{
	const struct maps *ms = maps_for(m, t, cpumode);
	uint64_t h = hash_u64(ip ^ (uint64_t)(uintptr_t)ms ^ cpumode);
	struct rc_ent *e = &m->cache[h & ((1u << RC_BITS) - 1)];
	uint32_t gen = ms ? ms->gen : 0;

	/* the kernel's maps: modules and the kernel map itself */
	if (cpumode == PERF_RECORD_MISC_KERNEL)
		gen ^= m->kmaps.gen * 0x9e3779b1u;
	if (e->ip == ip && e->maps == ms && e->gen == gen && e->mode == cpumode && e->f.ip == ip)
		*f = e->f;
	else
		resolve_miss(m, t, cpumode, ip, f, e, ms, gen);
}

void machine_resolve(struct machine *m, struct thread *t, uint8_t cpumode, uint64_t ip,
		     struct frame *f)
{
	resolve(m, t, cpumode, ip, f);
}

const char *machine_data_map(struct machine *m, struct thread *t, uint8_t cpumode, uint64_t addr)
{
	const struct maps *ms = maps_for(m, t, cpumode);
	const struct map *mp = ms && ms != &m->kmaps ? maps_find(ms, addr) : NULL;

	return mp && !mp->dso ? mp->name : NULL;
}

static bool unwind_find_map(void *ctx, uint64_t addr, struct unwind_map *out)
{
	const struct map *mp = maps_find(ctx, addr);

	if (!mp)
		return false;
	out->start = mp->start;
	out->end = mp->end;
	out->pgoff = mp->pgoff;
	out->dso = mp->dso;
	return true;
}

/* Appends the user frames unwound from the sample's registers and stack copy (perf's
 * thread__resolve_callchain_unwind): the first repeats the sample ip of a user sample. */
static size_t append_unwound(struct machine *m, struct thread *t, const struct perf_sample *s,
			     struct frame *frames, size_t n)
{
	struct maps *ms = &((struct thread_int *)t)->proc->maps;
	size_t i, nr, max = MACHINE_UNWIND_MAX;

	if (m->max_stack && m->max_stack < max)
		max = m->max_stack;
	if (!m->uw && unwinder_new(m->st, &m->uw))
		return n;
	if (!m->uw_ips && !(m->uw_ips = malloc(MACHINE_UNWIND_MAX * sizeof(*m->uw_ips))))
		return n;
	nr = unwind_user(m->uw, ms, unwind_find_map, ms, s, m->uw_ips, max, NULL);
	for (i = 0; i < nr; i++) {
		if (n == 1 && i == 0 && m->uw_ips[0] == s->ip) {
			frames[0].unwound = true; /* the sample's own frame, unwound too */
			continue;
		}
		resolve(m, t, PERF_RECORD_MISC_USER, m->uw_ips[i], &frames[n]);
		frames[n++].unwound = true;
	}
	return n;
}

void machine_set_max_stack(struct machine *m, size_t max_stack, bool outermost)
{
	m->max_stack = max_stack;
	m->max_outermost = outermost;
}

/* How many of the chain's innermost entries --max-stack drops in caller order. */
static size_t chain_skip(const struct machine *m, const struct perf_sample *s)
{
	uint64_t i, cnt = 0;
	bool first = true;

	if (!m->max_stack || !m->max_outermost)
		return 0;
	for (i = 0; i < s->nr_callchain; i++) {
		if (s->callchain[i] >= PERF_CONTEXT_MAX)
			continue;
		if (!first || s->callchain[i] != s->ip)
			cnt++;
		first = false;
	}
	return cnt > m->max_stack ? cnt - m->max_stack : 0;
}

const struct unwind_stats *machine_unwind_stats(const struct machine *m)
{
	return m->uw ? unwinder_stats(m->uw) : NULL;
}

size_t machine_resolve_sample(struct machine *m, struct thread *t, const struct perf_sample *s,
			      bool no_callchain, struct frame *frames, bool *discarded)
{
	uint8_t mode = PERF_RECORD_MISC_USER;
	bool first = true;
	size_t n = 1, skip;
	uint64_t i;

	*discarded = false;
	resolve(m, t, (uint8_t)s->cpumode, s->ip, &frames[0]);
	if (no_callchain || !s->callchain)
		return 1;
	skip = chain_skip(m, s);
	for (i = 0; i < s->nr_callchain; i++) {
		uint64_t ip = s->callchain[i];

		if (ip >= PERF_CONTEXT_MAX) {
			uint8_t mm = chain_marker_mode(ip);

			if (!mm) {
				/* perf drops the whole chain and keeps the sample */
				*discarded = true;
				return 1;
			}
			mode = mm;
			continue;
		}
		if (first) {
			first = false;
			if (ip == s->ip)
				continue; /* the chain starts with the sample ip itself */
		}
		if (skip) {
			skip--;
			continue;
		}
		if (m->max_stack && !m->max_outermost && n >= m->max_stack)
			break;
		resolve(m, t, mode, ip, &frames[n++]);
	}
	if (unwind_sample_has_stack(s))
		n = append_unwound(m, t, s, frames, n);
	return n;
}
