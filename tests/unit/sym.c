// SPDX-License-Identifier: GPL-2.0
/*
 * sym: symbol tables (ELF, perf-PID.map, kallsyms, vdso), perf's choice between aliases and
 * its end fixup, demangling as perf 6.1 prints names, and address mapping for PIE objects.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tests/unit/unit.h"
#include "lib/sym/rbsim.h"
#include "lib/sym/sym-int.h"

static const char *testdata(void)
{
	const char *d = getenv("TESTDATA");

	return d ? d : "tests/data";
}

static const struct symbol *by_name(struct dso *dso, const char *name)
{
	struct dso_int *d = dso_int(dso);
	size_t i;

	for (i = 0; i < d->nr_syms; i++)
		if (!strcmp(d->syms[i].name, name))
			return &d->syms[i];
	return NULL;
}

TEST(demangle_like_perf)
{
	char *s;

	/* C++: no parameter lists, as perf prints without -v */
	s = sym_demangle("_ZN2ns1WIlE4spinEl");
	CHECK_STR(s, "ns::W<long>::spin");
	free(s);
	s = sym_demangle("_Z4workiRSt6vectorIiSaIiEE");
	CHECK_STR(s, "work");
	free(s);
	/* Rust legacy: escapes decoded, hash dropped */
	s = sym_demangle("_ZN1r5inner10S$LT$T$GT$4spin17h914d1ba85d001594E");
	CHECK_STR(s, "r::inner::S<T>::spin");
	free(s);
	s = sym_demangle(
		"_ZN3std2rt10lang_start28_$u7b$$u7b$closure$u7d$$u7d$17ha86af84d9cc65291E");
	CHECK_STR(s, "std::rt::lang_start::{{closure}}");
	free(s);
	/* Rust v0 */
	s = sym_demangle("_RNvMNtCs6GmmlP4bgsG_1r5innerINtB2_1SmE4spinB4_");
	CHECK_STR(s, "<r::inner::S<u32>>::spin");
	free(s);
	s = sym_demangle("_RNvNtCsjrHSEGnQ3l9_3std2rt19lang_start_internal");
	CHECK_STR(s, "std::rt::lang_start_internal");
	free(s);
	CHECK(sym_demangle("main") == NULL);
	CHECK(sym_demangle("_start") == NULL);
}

TEST(aliases_and_ends)
{
	struct symtab *st;
	struct symbuf sb = { 0 };
	struct dso_int *d;

	CHECK(symtab_new("", &st) == 0);
	d = dso_int(symtab_dso(st, "/nonexistent/x", 1));
	CHECK(d);
	/* same start: sized beats zero-sized, global beats weak/local, fewer '_', longer */
	CHECK(symbuf_add(&sb, 0x100, 0x100, "zero", 1) == 0);
	CHECK(symbuf_add(&sb, 0x100, 0x120, "__sized", 0) == 0);
	CHECK(symbuf_add(&sb, 0x200, 0x220, "weak_one", 2) == 0);
	CHECK(symbuf_add(&sb, 0x200, 0x220, "__global", 1) == 0);
	CHECK(symbuf_add(&sb, 0x300, 0x310, "_x", 1) == 0);
	CHECK(symbuf_add(&sb, 0x300, 0x310, "x", 1) == 0);
	CHECK(symbuf_add(&sb, 0x400, 0x400, "short", 1) == 0);
	CHECK(symbuf_add(&sb, 0x400, 0x400, "longer", 1) == 0);
	/* zero-sized aliases (kallsyms): only the last listed gets a size, so it wins */
	CHECK(symbuf_add(&sb, 0x480, 0x480, "__ia32_sys_vfork", 1) == 0);
	CHECK(symbuf_add(&sb, 0x480, 0x480, "__x64_sys_vfork", 1) == 0);
	CHECK(symbuf_add(&sb, 0x500, 0x500, "last", 1) == 0);
	CHECK(symbuf_finish(st, d, &sb, false) == 0);
	d->pub.loaded = true;
	CHECK(d->nr_syms == 6);
	CHECK_STR(dso_find_symbol(st, &d->pub, 0x480)->name, "__x64_sys_vfork");
	CHECK_STR(dso_find_symbol(st, &d->pub, 0x110)->name, "__sized");
	CHECK(dso_find_symbol(st, &d->pub, 0x120) == NULL); /* gap after a sized symbol */
	CHECK_STR(dso_find_symbol(st, &d->pub, 0x200)->name, "__global");
	CHECK_STR(dso_find_symbol(st, &d->pub, 0x30f)->name, "x");
	/* zero-sized: reaches the next symbol; the last one the next page boundary + 4096 */
	CHECK_STR(dso_find_symbol(st, &d->pub, 0x47f)->name, "longer");
	CHECK_STR(dso_find_symbol(st, &d->pub, 0x1fff)->name, "last");
	CHECK(dso_find_symbol(st, &d->pub, 0x2000) == NULL);
	CHECK(dso_find_symbol(st, &d->pub, 0xff) == NULL);
	symtab_free(st);
}

TEST(elf_pie_symbols)
{
	char path[4096];
	struct symtab *st;
	struct dso *d;
	const struct symbol *a, *b, *m;
	uint8_t id[20];

	snprintf(path, sizeof(path), "%s/bin/cpu_burn", testdata());
	CHECK(symtab_new("", &st) == 0);
	d = symtab_dso(st, path, 1);
	CHECK(d && d->kind == DSO_USER);
	CHECK_STR(d->short_name, "cpu_burn");
	CHECK(symtab_dso(st, path, 2) == d); /* one dso per file */
	a = by_name(d, "a");		     /* not loaded yet */
	CHECK(a == NULL);
	CHECK(dso_find_symbol(st, d, 0) == NULL);
	CHECK(d->loaded && d->has_symbols);
	a = by_name(d, "a");
	b = by_name(d, "b");
	m = by_name(d, "main");
	CHECK(a && b && m && by_name(d, "burn")); /* static functions come from .symtab */
	CHECK(dso_find_symbol(st, d, a->start + 3) == a);
	CHECK(dso_find_symbol(st, d, m->end - 1) == m);
	/* PIE: an r-xp mapping at 0x55550000_1000 with pgoff 0x1000 */
	CHECK(dso_map_ip(st, d, 0x555500001000ULL, 0x1000,
			 0x555500001000ULL + (b->start - 0x1000)) == b->start);
	CHECK(elf_read_build_id(path, id, sizeof(id)) == 20);
	CHECK(d->build_id_size == 20 && !memcmp(d->build_id, id, 20));
	symtab_free(st);
}

TEST(jit_map)
{
	char dir[] = "/tmp/flare-symtest-XXXXXX", path[256];
	struct symtab *st;
	struct dso *d;
	FILE *f;

	CHECK(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/tmp", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/tmp/perf-4242.map", dir);
	f = fopen(path, "w");
	CHECK(f);
	fprintf(f, "7f0000001000 40 jit_one\n0x7f0000001040 20 Lfoo;::bar (int)\n"
		   "garbage line\n7f0000002000 10 last\n");
	fclose(f);
	CHECK(symtab_new(dir, &st) == 0);
	d = symtab_dso(st, "//anon", 4242);
	CHECK(d && d->kind == DSO_JIT_MAP);
	CHECK_STR(d->long_name, "/tmp/perf-4242.map");
	CHECK_STR(d->short_name, "[JIT] tid 4242");
	CHECK(dso_map_ip(st, d, 0x7f0000000000ULL, 0, 0x7f0000001050ULL) == 0x7f0000001050ULL);
	CHECK_STR(dso_find_symbol(st, d, 0x7f000000103fULL)->name, "jit_one");
	CHECK_STR(dso_find_symbol(st, d, 0x7f0000001050ULL)->name, "Lfoo;::bar (int)");
	CHECK(dso_find_symbol(st, d, 0x7f0000001060ULL) == NULL);
	CHECK_STR(dso_find_symbol(st, d, 0x7f0000002001ULL)->name, "last");
	symtab_free(st);
	unlink(path);
	snprintf(path, sizeof(path), "%s/tmp", dir);
	rmdir(path);
	rmdir(dir);
}

/* The address of a global kernel text symbol in /proc/kallsyms, 0 when unreadable. */
static unsigned long long kallsyms_addr(const char *want)
{
	char line[512], name[256], type;
	unsigned long long addr, ret = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) == 3 && !strcmp(name, want)) {
			ret = addr;
			break;
		}
	if (f)
		fclose(f);
	return ret;
}

TEST(kallsyms)
{
	unsigned long long sk = kallsyms_addr("start_kernel"), text = kallsyms_addr("_text");
	struct symtab *st;
	struct dso *k;
	const struct symbol *s;

	CHECK(symtab_new("", &st) == 0);
	k = symtab_kernel(st);
	CHECK(k && k->kind == DSO_KERNEL);
	CHECK_STR(k->short_name, "[kernel.kallsyms]");
	s = dso_find_symbol(st, k, sk + 1);
	CHECK(s && !strcmp(s->name, "start_kernel") && s->start == sk);
	/* the recording's _text is the reference: a kernel loaded 2 MiB higher maps back */
	CHECK(dso_map_ip(st, k, text + 0x200000, text + 0x200000, sk + 0x200000) == sk);
	CHECK(dso_map_ip(st, k, text, text, sk) == sk);
	symtab_free(st);
}

TEST(vdso)
{
	struct symtab *st;
	struct dso *v;
	const struct symbol *s, *g;

	CHECK(symtab_new("", &st) == 0);
	v = symtab_dso(st, "[vdso]", 77);
	CHECK(v && v->kind == DSO_VDSO);
	CHECK_STR(v->short_name, "[vdso]");
	dso_find_symbol(st, v, 0); /* loads the symbols */
	CHECK(v->has_symbols);
	s = by_name(v, "__vdso_clock_gettime");
	CHECK(s);
	/* the weak alias clock_gettime loses to the global __vdso_ name, as in perf */
	g = dso_find_symbol(st, v, s->start);
	CHECK(g == s);
	CHECK(by_name(v, "clock_gettime") == NULL);
	symtab_free(st);
}

TEST(missing_file)
{
	struct symtab *st;
	struct dso *d;

	CHECK(symtab_new("", &st) == 0);
	d = symtab_dso(st, "/no/such/file.so", 1);
	CHECK(d);
	CHECK_STR(d->short_name, "file.so");
	CHECK(dso_find_symbol(st, d, 0x1000) == NULL);
	CHECK(d->loaded && !d->has_symbols);
	CHECK(dso_map_ip(st, d, 0x7000, 0x1000, 0x7010) == 0x1010);
	CHECK(elf_read_build_id("/no/such/file.so", NULL, 0) < 0);
	symtab_free(st);
	symtab_free(NULL);
}

/* Copies file src to dst. 0 or -1. */
static int copy_file(const char *src, const char *dst)
{
	FILE *in = fopen(src, "rb"), *out = in ? fopen(dst, "wb") : NULL;
	char buf[8192];
	size_t n;
	int ret = in && out ? 0 : -1;

	while (!ret && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			ret = -1;
	if (in)
		fclose(in);
	if (out && fclose(out))
		ret = -1;
	return ret;
}

TEST(build_id_mismatch_and_cache)
{
	char home[] = "/tmp/flare-symhome-XXXXXX", path[8192], dir[4096], bin[1024], other[1024];
	char hex[41];
	const char *old_home = getenv("HOME");
	char *saved = old_home ? strdup(old_home) : NULL;
	uint8_t id[20];
	struct symtab *st;
	struct dso *d;
	int ok, n, i;

	snprintf(bin, sizeof(bin), "%s/bin/cpu_burn", testdata());
	snprintf(other, sizeof(other), "%s/bin/mt_burn", testdata());
	n = elf_read_build_id(bin, id, sizeof(id));
	CHECK(n == 20);
	for (i = 0; i < n; i++)
		sprintf(hex + 2 * i, "%02x", id[i]);
	CHECK(mkdtemp(home));
	setenv("HOME", home, 1);
	/* the file at the recorded path is another build: perf (and flare) do not use it */
	CHECK(symtab_new("", &st) == 0);
	d = symtab_dso(st, other, 1);
	dso_set_build_id(d, id, n);
	ok = dso_find_symbol(st, d, 0x1100) == NULL && !d->has_symbols;
	symtab_free(st);
	/* perf record's copy in ~/.debug/.build-id/xx/<the other 19 bytes>/elf is used instead */
	snprintf(dir, sizeof(dir), "%s/.debug/.build-id/%.2s/%s", home, hex, hex + 2);
	snprintf(path, sizeof(path), "mkdir -p %s", dir);
	ok = ok && system(path) == 0;
	snprintf(path, sizeof(path), "%s/elf", dir);
	ok = ok && copy_file(bin, path) == 0;
	CHECK(symtab_new("", &st) == 0);
	d = symtab_dso(st, other, 1);
	dso_set_build_id(d, id, n);
	dso_find_symbol(st, d, 0);
	ok = ok && d->has_symbols && by_name(d, "main") && by_name(d, "b");
	symtab_free(st);
	/* a cached copy of yet another build (overwritten in place) is not used either */
	ok = ok && copy_file(other, path) == 0;
	CHECK(symtab_new("", &st) == 0);
	d = symtab_dso(st, other, 1);
	dso_set_build_id(d, id, n);
	dso_find_symbol(st, d, 0);
	ok = ok && !d->has_symbols;
	symtab_free(st);
	snprintf(path, sizeof(path), "rm -rf %s", home);
	if (system(path) != 0)
		ok = 0;
	if (saved)
		setenv("HOME", saved, 1);
	free(saved);
	CHECK(ok);
}

/* Writes text to path. 0 or -1. */
static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int ret = f && fputs(text, f) >= 0 ? 0 : -1;

	if (f && fclose(f))
		ret = -1;
	return ret;
}

TEST(kernel_of_another_build)
{
	char dir[] = "/tmp/flare-kcache-XXXXXX", path[8192];
	uint8_t fake[20];
	struct symtab *st;
	struct dso *k;
	const struct symbol *s;
	int ok;

	memset(fake, 0xcd, sizeof(fake));
	CHECK(mkdtemp(dir));
	setenv("PERF_BUILDID_DIR", dir, 1);
	/* another kernel, not cached: its addresses stay unresolved, as in perf */
	CHECK(symtab_new("", &st) == 0);
	k = symtab_kernel(st);
	dso_set_build_id(k, fake, sizeof(fake));
	ok = dso_find_symbol(st, k, 0xffffffff81000010ull) == NULL && !k->has_symbols;
	symtab_free(st);
	/* the cache's directory for it without its kallsyms: still unresolved */
	snprintf(path, sizeof(path), "mkdir -p '%s/[kernel.kallsyms]/%s'", dir,
		 "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd");
	ok = ok && system(path) == 0;
	CHECK(symtab_new("", &st) == 0);
	k = symtab_kernel(st);
	dso_set_build_id(k, fake, sizeof(fake));
	ok = ok && dso_find_symbol(st, k, 0xffffffff81000010ull) == NULL && !k->has_symbols;
	symtab_free(st);
	/* perf record's copy of its kallsyms, in the cache, names them */
	snprintf(path, sizeof(path), "%s/[kernel.kallsyms]/%s/kallsyms", dir,
		 "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd");
	ok = ok && write_text(path, "ffffffff81000000 T _text\n"
				    "ffffffff81000000 T other_kernel_entry\n"
				    "ffffffff81000100 t other_kernel_helper\n"
				    "ffffffff81000200 T _etext\n") == 0;
	CHECK(symtab_new("", &st) == 0);
	k = symtab_kernel(st);
	dso_set_build_id(k, fake, sizeof(fake));
	s = dso_find_symbol(st, k, 0xffffffff81000110ull);
	ok = ok && s && !strcmp(s->name, "other_kernel_helper");
	s = dso_find_symbol(st, k, 0xffffffff81000010ull);
	ok = ok && s && !strcmp(s->name, "other_kernel_entry");
	symtab_free(st);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	if (system(path) != 0)
		ok = 0;
	unsetenv("PERF_BUILDID_DIR");
	CHECK(ok);
}

/* Black height of the subtree, or -1 when a red-black or ordering rule is broken. */
static int rb_check(const struct rbs_node *n, const struct rbs_node *parent)
{
	int l, r;

	if (!n)
		return 1;
	if (n->p != parent || (!n->black && parent && !parent->black))
		return -1;
	if ((n->c[0] && n->c[0]->start > n->start) || (n->c[1] && n->c[1]->start < n->start))
		return -1;
	l = rb_check(n->c[0], n);
	r = rb_check(n->c[1], n);
	if (l < 0 || r < 0 || l != r)
		return -1;
	return l + (n->black ? 1 : 0);
}

TEST(rbsim_invariants)
{
	static struct rbs_node nodes[2000];
	struct rbs t = { NULL };
	unsigned int x = 12345, i;

	for (i = 0; i < 2000; i++) {
		x = x * 1103515245 + 12345;
		nodes[i].start = (x >> 8) % 5000; /* duplicates included */
		nodes[i].end = nodes[i].start + 4;
		rbs_insert(&t, &nodes[i]);
	}
	CHECK(t.root->black && rb_check(t.root, NULL) > 0);
	for (i = 0; i < 2000; i += 3)
		rbs_erase(&t, &nodes[i]);
	CHECK(!t.root || (t.root->black && rb_check(t.root, NULL) > 0));
	for (i = 1; i < 2000; i += 3)
		CHECK(rbs_find(&t, nodes[i].start + 1) != NULL);
	for (i = 0; i < 2000; i++)
		if (i % 3)
			rbs_erase(&t, &nodes[i]);
	CHECK(t.root == NULL);
}

/* perf's lookup meets an overlapping symbol first or not depending on its tree: with a
 * .plt of many entries under a zero-sized _init stretched over it, the entries win (as perf
 * shows PyIter_Next@plt in libpython); tests/cli/sym.sh checks real binaries against perf. */
TEST(plt_under_stretched_init)
{
	struct symtab *st;
	struct symbuf sb = { 0 }, plt = { 0 };
	struct dso_int *d;
	int i;

	CHECK(symtab_new("", &st) == 0);
	d = dso_int(symtab_dso(st, "/nonexistent/y", 1));
	d->pub.loaded = true;
	CHECK(symbuf_add(&sb, 0x1000, 0x1000, "_init", 1) == 0);
	CHECK(symbuf_add(&sb, 0x2000, 0x2070, "_start", 1) == 0);
	for (i = 1; i < 200; i++) {
		char name[32];

		snprintf(name, sizeof(name), "f%d@plt", i);
		CHECK(symbuf_add(&plt, 0x1000 + i * 16, 0x1010 + i * 16,
				 arena_strdup(&st->arena, name), 1) == 0);
	}
	CHECK(symbuf_finish_plt(st, d, &sb, false, &plt) == 0);
	CHECK_STR(dso_find_symbol(st, &d->pub, 0x1000)->name, "_init");
	CHECK_STR(dso_find_symbol(st, &d->pub, 0x1000 + 150 * 16)->name, "f150@plt");
	symtab_free(st);
}

int main(void)
{
	RUN(demangle_like_perf);
	RUN(aliases_and_ends);
	RUN(rbsim_invariants);
	RUN(plt_under_stretched_init);
	RUN(elf_pie_symbols);
	RUN(jit_map);
	if (kallsyms_addr("_text"))
		RUN(kallsyms);
	else
		SKIP(kallsyms, "/proc/kallsyms hides addresses (kptr_restrict)");
	if (getauxval(AT_SYSINFO_EHDR))
		RUN(vdso);
	else
		SKIP(vdso, "no vdso in this process");
	RUN(missing_file);
	RUN(build_id_mismatch_and_cache);
	RUN(kernel_of_another_build);
	return unit_done();
}
