// SPDX-License-Identifier: GPL-2.0
/*
 * kallsyms: kernel symbols from /proc/kallsyms as perf reads them: text, weak, data and bss
 * symbols (types T W D B, either case), each ending where the next begins. Symbols of a
 * module ("name\t[mod]") go to the module's dso when /proc/modules lists it and are dropped
 * otherwise, as perf does. _text is kept as the reference for a relocated kernel. A recording of
 * another kernel is read with perf record's cached copy of that kernel's kallsyms (cache.c).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base/log.h"
#include "lib/base/strbuf.h"
#include "lib/sym/sym-int.h"

/* Far above any kernel's (tens of MB): what a reader of a device or FIFO stops at. */
#define KALLSYMS_MAX ((size_t)1 << 30)

static bool type_kept(char t)
{
	char u = (char)(t & ~0x20);

	return u == 'T' || u == 'W' || u == 'D' || u == 'B' || t == 'u' || t == 'l' || t == 'N';
}

/* Reads /proc/modules into module dsos ("[name]") sorted by start. */
int proc_modules_for_each(const char *path, proc_module_cb cb, void *ctx)
{
	struct strbuf sb = STRBUF_INIT;
	char *line, *save = NULL;
	int ret = strbuf_read_file(&sb, path);

	if (ret < 0)
		return ret;
	for (line = strtok_r(sb.buf, "\n", &save); line && !ret;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[128];
		unsigned long long size, addr;

		if (sscanf(line, "%127s %llu %*s %*s %*s %llx", name, &size, &addr) != 3 || !addr)
			continue;
		ret = cb(ctx, name, addr, size);
	}
	strbuf_release(&sb);
	return ret;
}

static int add_module(void *ctx, const char *name, uint64_t addr, uint64_t size)
{
	struct symtab *st = ctx;
	char dname[132];
	struct dso_int *d;
	void *p;

	snprintf(dname, sizeof(dname), "[%s]", name);
	d = dso_int(symtab_dso(st, dname, 0));
	p = realloc(st->kmods, (st->nr_kmods + 1) * sizeof(*st->kmods));
	if (!d || !p)
		return -ENOMEM;
	st->kmods = p;
	d->pub.kind = DSO_KMODULE;
	d->pub.loaded = true;
	d->mod_start = addr;
	d->mod_end = addr + size;
	st->kmods[st->nr_kmods++] = d;
	return 0;
}

static int load_modules(struct symtab *st)
{
	char path[4096];

	return proc_modules_for_each(symtab_path(st, "/proc/modules", path, sizeof(path)),
				     add_module, st);
}

/* Index in st->kmods of the module named by "[name]", or -1. */
static long kmod_index(struct symtab *st, const char *bracketed)
{
	size_t i;

	for (i = 0; i < st->nr_kmods; i++)
		if (!strcmp(st->kmods[i]->pub.short_name, bracketed))
			return (long)i;
	return -1;
}

bool dso_kernel_init_text(struct symtab *st, struct dso *kernel, uint64_t dso_addr)
{
	struct dso_int *k = dso_int(kernel);

	if (!kernel->loaded)
		dso_find_symbol(st, kernel, 0);
	return k->kinit_end > k->kinit_start && dso_addr >= k->kinit_start &&
	       dso_addr < k->kinit_end;
}

struct dso *symtab_kernel_module(struct symtab *st, uint64_t addr)
{
	size_t i;

	symtab_kernel(st);
	if (st->kernel && !st->kernel->pub.loaded)
		dso_find_symbol(st, &st->kernel->pub, 0);
	for (i = 0; i < st->nr_kmods; i++)
		if (addr >= st->kmods[i]->mod_start && addr < st->kmods[i]->mod_end)
			return &st->kmods[i]->pub;
	return NULL;
}

static int parse_kallsyms(struct symtab *st, struct dso_int *kernel, char *text, struct symbuf *ksb,
			  struct symbuf *msb)
{
	char *line = text, *next;

	for (; *line; line = next) {
		char *end, *name, *mod, type;
		unsigned long long addr;
		struct symbuf *sb = ksb;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		addr = strtoull(line, &end, 16);
		if (end == line || end[0] != ' ' || !end[1] || end[2] != ' ')
			continue;
		type = end[1];
		name = end + 3;
		mod = strchr(name, '\t');
		if (mod)
			*mod++ = '\0';
		if (!mod && !strcmp(name, "_text"))
			kernel->kaddr_ref = addr;
		else if (!mod && !strcmp(name, "_sinittext"))
			kernel->kinit_start = addr;
		else if (!mod && !strcmp(name, "_einittext"))
			kernel->kinit_end = addr;
		if (!type_kept(type))
			continue;
		if (mod) {
			long i = kmod_index(st, mod);

			if (i < 0)
				continue; /* not in /proc/modules: perf drops it too */
			sb = &msb[i];
		}
		if (symbuf_add(sb, addr, addr, name, type >= 'a' ? 0 : type == 'W' ? 2 : 1))
			return -ENOMEM;
	}
	return 0;
}

/*
 * Which kallsyms describes the recorded kernel, as perf's dso__find_kallsyms decides: the
 * running kernel's when the recording names no build-id for it or the same one as
 * /sys/kernel/notes (then its modules come from /proc/modules), else perf record's copy in the
 * build-id cache, else none: another kernel's symbols would name every address wrongly.
 * --kallsyms FILE: that file. Under --symfs DIR the cache is DIR/.debug, and a DIR other than
 * exactly "/" gives none (perf then looks for a vmlinux only, and tries no local files).
 */
static const char *kallsyms_source(struct symtab *st, struct dso_int *k, char *buf, size_t len,
				   bool *host, bool warn)
{
	uint8_t id[20];
	char hex[41], dir[4096];
	int n;

	*host = !st->kallsyms;
	if (st->kallsyms)
		return st->kallsyms;
	if (st->symfs_kernel)
		return NULL;
	if (!k->pub.build_id_size)
		return "/proc/kallsyms";
	n = buildid_of("[kernel.kallsyms]", id, sizeof(id));
	if (n == k->pub.build_id_size && !memcmp(id, k->pub.build_id, n))
		return "/proc/kallsyms";
	*host = false;
	if (buildid_cache_kallsyms(st, &k->pub, buf, len))
		return buf;
	if (!warn)
		return NULL;
	buildid_hex(k->pub.build_id, k->pub.build_id_size, hex);
	log_warn(
		"no kallsyms with build-id %s was found: the recording is of another kernel, whose "
		"addresses stay unresolved (its /proc/kallsyms belongs in %s/[kernel.kallsyms]/%s/"
		"kallsyms, where perf record puts it)",
		hex, symtab_cache_dir(st, dir, sizeof(dir)) ? dir : "~/.debug", hex);
	return NULL;
}

/* A read of the kallsyms file on a thread of its own: the path, then what was read. A
 * symtab freed before the read ends leaves it to the thread to free (abandoned). */
struct kallsyms_prefetch {
	pthread_t thread;
	pthread_mutex_t lock;
	bool done, abandoned;
	char path[4096];
	struct strbuf text;
	int err;
};

static void prefetch_destroy(struct kallsyms_prefetch *pf)
{
	strbuf_release(&pf->text);
	pthread_mutex_destroy(&pf->lock);
	free(pf);
}

static void *prefetch_read(void *arg)
{
	struct kallsyms_prefetch *pf = arg;
	bool abandoned;

	pf->err = strbuf_read_text(&pf->text, pf->path, KALLSYMS_MAX);
	pthread_mutex_lock(&pf->lock);
	pf->done = true;
	abandoned = pf->abandoned;
	pthread_mutex_unlock(&pf->lock);
	if (abandoned)
		prefetch_destroy(pf);
	return NULL;
}

void symtab_prefetch_kernel(struct symtab *st)
{
	struct kallsyms_prefetch *pf;
	const char *src;
	bool host;

	if (st->prefetch || !symtab_kernel(st) || st->kernel->pub.loaded)
		return;
	pf = calloc(1, sizeof(*pf));
	if (!pf)
		return;
	src = kallsyms_source(st, st->kernel, pf->path, sizeof(pf->path), &host, false);
	if (!src || strlen(src) >= sizeof(pf->path)) {
		free(pf);
		return;
	}
	memmove(pf->path, src, strlen(src) + 1);
	pf->text = (struct strbuf)STRBUF_INIT;
	pthread_mutex_init(&pf->lock, NULL);
	if (pthread_create(&pf->thread, NULL, prefetch_read, pf)) {
		prefetch_destroy(pf);
		return;
	}
	st->prefetch = pf;
}

/* Not waited for: a symtab freed before any kernel address was looked up (a header
 * printed, a file of user samples only) does not wait for the kernel to list its symbols. */
void kallsyms_prefetch_free(struct symtab *st)
{
	struct kallsyms_prefetch *pf = st->prefetch;
	bool done;

	if (!pf)
		return;
	st->prefetch = NULL;
	pthread_mutex_lock(&pf->lock);
	done = pf->done;
	pf->abandoned = true;
	pthread_mutex_unlock(&pf->lock);
	if (done) {
		pthread_join(pf->thread, NULL);
		prefetch_destroy(pf);
	} else {
		pthread_detach(pf->thread);
	}
}

/* The text of src: what the prefetch read when it read that file, else read now. */
static int kallsyms_text(struct symtab *st, const char *src, struct strbuf *sb)
{
	struct kallsyms_prefetch *pf = st->prefetch;
	int err;

	if (pf) {
		pthread_join(pf->thread, NULL);
		st->prefetch = NULL;
		err = pf->err;
		if (!strcmp(pf->path, src) && err >= 0) {
			*sb = pf->text;
			pf->text = (struct strbuf)STRBUF_INIT;
			prefetch_destroy(pf);
			return err;
		}
		prefetch_destroy(pf);
	}
	return strbuf_read_text(sb, src, KALLSYMS_MAX);
}

int kallsyms_load(struct symtab *st, struct dso_int *kernel)
{
	struct strbuf sb = STRBUF_INIT;
	struct symbuf ksb = { 0 }, *msb = NULL;
	char *text, path[4096];
	const char *src;
	bool host;
	size_t i;
	int ret;

	src = kallsyms_source(st, kernel, path, sizeof(path), &host, true);
	if (!src) {
		kallsyms_prefetch_free(st);
		return -ENOENT;
	}
	if (host)
		load_modules(st);
	ret = kallsyms_text(st, src, &sb);
	if (ret < 0) {
		strbuf_release(&sb); /* what was read before the error */
		return ret;
	}
	text = arena_strndup(&st->arena, sb.buf, sb.len);
	strbuf_release(&sb);
	msb = calloc(st->nr_kmods + 1, sizeof(*msb));
	if (!text || !msb) {
		free(msb);
		return -ENOMEM;
	}
	ret = parse_kallsyms(st, kernel, text, &ksb, msb);
	if (ksb.nr && ksb.v[0].start == 0 && ksb.v[ksb.nr - 1].start == 0)
		ksb.nr = 0; /* kptr_restrict: all addresses read as 0 */
	if (!ret)
		ret = symbuf_finish(st, kernel, &ksb, true);
	for (i = 0; i < st->nr_kmods; i++) {
		if (!ret)
			ret = symbuf_finish(st, st->kmods[i], &msb[i], true);
		symbuf_free(&msb[i]);
		st->kmods[i]->pub.has_symbols = st->kmods[i]->nr_syms > 0;
	}
	symbuf_free(&ksb);
	free(msb);
	return ret;
}

int kallsyms_symbol_addrs(const char *path, const char *const *names, uint64_t *addrs, size_t n)
{
	char line[512], sym[256], type;
	unsigned long long a;
	size_t i, left = n;
	FILE *f = fopen(path, "re");

	for (i = 0; i < n; i++)
		addrs[i] = 0;
	if (!f)
		return -errno;
	while (left && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &a, &type, sym) != 3)
			continue;
		for (i = 0; i < n; i++) {
			if (!addrs[i] && a && !strcmp(sym, names[i])) {
				addrs[i] = a;
				left--;
			}
		}
	}
	fclose(f);
	return 0;
}
