// SPDX-License-Identifier: GPL-2.0
/*
 * objfile: ELF bytes and symbols for disassembly (see objfile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libiberty/demangle.h>
#include "lib/annotate/objfile.h"
#include "lib/base/arena.h"
#include "lib/base/vec.h"

struct osym {
	uint64_t addr;
	const char *name;
	int shndx;
	uint8_t rank; /* lower wins among symbols at one address */
};

struct oregion {
	uint64_t addr, size;
	const uint8_t *data; /* NULL: no bytes in the file, or read with pread at off */
	uint64_t off;
	bool pread; /* a segment of /proc/kcore: read on demand */
	const char *name;
	int shndx;
};

struct objfile {
	int fd;
	Elf *elf;
	char *path;
	struct arena arena;
	struct osym *syms;
	size_t nr_syms, alloc_syms;
	bool sorted;
	bool has_symtab; /* a .symtab of its own (else .dynsym's symbols) */
	struct oregion *regions;
	size_t nr_regions;
	uint8_t *buf; /* the last bytes read with pread */
	size_t buf_len;
};

/* suffix: a version objdump shows after the (demangled) name, or "". */
static int add_sym(struct objfile *o, uint64_t addr, const char *name, const char *suffix,
		   int shndx, uint8_t rank)
{
	char *dem = NULL, *full;

	if (vec_reserve_((void **)&o->syms, &o->alloc_syms, o->nr_syms + 1, sizeof(*o->syms)))
		return -ENOMEM;
	if (name[0] == '_' && name[1] == 'Z')
		dem = cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI);
	name = dem ? dem : name;
	full = arena_alloc(&o->arena, strlen(name) + strlen(suffix) + 1);
	if (full)
		sprintf(full, "%s%s", name, suffix);
	free(dem);
	if (!full)
		return -ENOMEM;
	name = full;
	o->syms[o->nr_syms++] = (struct osym){ addr, name, shndx, rank };
	o->sorted = false;
	return 0;
}

static Elf_Scn *find_scn(Elf *elf, Elf64_Word type)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == type)
			return scn;
	return NULL;
}

/* The version names a .dynsym's symbols are defined with (.gnu.version_d), by index. */
struct versions {
	Elf_Data *versym;
	const char *names[64];
};

static void load_versions(Elf *elf, struct versions *v)
{
	Elf_Scn *scn = find_scn(elf, SHT_GNU_versym);
	Elf_Data *d;
	GElf_Shdr sh;
	size_t off = 0;
	int i;

	memset(v, 0, sizeof(*v));
	if (scn)
		v->versym = elf_getdata(scn, NULL);
	scn = find_scn(elf, SHT_GNU_verdef);
	if (!scn || !gelf_getshdr(scn, &sh) || !(d = elf_getdata(scn, NULL)))
		return;
	for (i = 0; i < (int)sh.sh_info; i++) {
		GElf_Verdef vd;
		GElf_Verdaux va;

		if (!gelf_getverdef(d, (int)off, &vd) ||
		    !gelf_getverdaux(d, (int)(off + vd.vd_aux), &va))
			break;
		if (vd.vd_ndx < 64 && !(vd.vd_flags & VER_FLG_BASE))
			v->names[vd.vd_ndx] = elf_strptr(elf, sh.sh_link, va.vda_name);
		if (!vd.vd_next)
			break;
		off += vd.vd_next;
	}
}

/* What objdump shows after a dynamic symbol's name: "@@VERSION" for its default version,
 * "@VERSION" for a hidden one, into buf (empty when it has none). */
static const char *version_suffix(const struct versions *v, size_t i, char *buf, size_t len)
{
	GElf_Versym vs;
	const char *ver;

	buf[0] = '\0';
	if (!v->versym || !gelf_getversym(v->versym, (int)i, &vs) || (vs & 0x7fff) >= 64)
		return buf;
	/* the global index, 1, is binutils' "Base" */
	ver = (vs & 0x7fff) == 1 ? "Base" : v->names[vs & 0x7fff];
	if (ver)
		snprintf(buf, len, "%s%s", vs & 0x8000 ? "@" : "@@", ver);
	return buf;
}

static int load_syms(struct objfile *o, Elf *elf)
{
	struct versions vers;
	Elf_Scn *scn = find_scn(elf, SHT_SYMTAB);
	Elf_Data *data;
	GElf_Shdr sh;
	size_t i, n;

	if (scn && elf == o->elf)
		o->has_symtab = true;
	if (!scn)
		scn = find_scn(elf, SHT_DYNSYM);
	if (!scn || !gelf_getshdr(scn, &sh) || !sh.sh_entsize)
		return 0;
	if (sh.sh_type == SHT_DYNSYM)
		load_versions(elf, &vers);
	else
		memset(&vers, 0, sizeof(vers));
	data = elf_getdata(scn, NULL);
	if (!data)
		return 0;
	n = sh.sh_size / sh.sh_entsize;
	for (i = 1; i < n; i++) {
		GElf_Sym s;
		const char *name;
		char ver[128];
		int type, bind, ret;

		if (!gelf_getsym(data, (int)i, &s))
			break;
		type = GELF_ST_TYPE(s.st_info);
		bind = GELF_ST_BIND(s.st_info);
		if (type == STT_SECTION || type == STT_FILE || s.st_shndx == SHN_UNDEF ||
		    s.st_shndx == SHN_ABS)
			continue;
		name = elf_strptr(elf, sh.sh_link, s.st_name);
		if (!name || !*name)
			continue;
		/* objdump's order among symbols at one address: functions, then objects; globals,
		 * then weak ones, then locals; then by name */
		ret = add_sym(o, s.st_value, name, version_suffix(&vers, i, ver, sizeof(ver)),
			      s.st_shndx,
			      (uint8_t)((type == STT_FUNC     ? 0
					 : type == STT_OBJECT ? 3
							      : 6) +
					(bind == STB_GLOBAL ? 0
					 : bind == STB_WEAK ? 1
							    : 2)));
		if (ret)
			return ret;
	}
	return 0;
}

static int load_regions(struct objfile *o)
{
	size_t shstrndx, n = 0, i;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(o->elf, &shstrndx))
		shstrndx = 0;
	while ((scn = elf_nextscn(o->elf, scn)))
		n++;
	if (n) {
		o->regions = calloc(n, sizeof(*o->regions));
		if (!o->regions)
			return -ENOMEM;
		while ((scn = elf_nextscn(o->elf, scn))) {
			struct oregion *r = &o->regions[o->nr_regions];
			Elf_Data *d;

			if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) || !sh.sh_size)
				continue;
			r->addr = sh.sh_addr;
			r->size = sh.sh_size;
			r->shndx = (int)elf_ndxscn(scn);
			r->name = shstrndx ? elf_strptr(o->elf, shstrndx, sh.sh_name) : NULL;
			if (!r->name)
				r->name = "";
			if (sh.sh_type != SHT_NOBITS && (d = elf_getdata(scn, NULL)) && d->d_buf &&
			    d->d_size >= sh.sh_size)
				r->data = d->d_buf;
			o->nr_regions++;
		}
		if (o->nr_regions)
			return 0;
	}
	/* no sections (/proc/kcore): the PT_LOAD segments */
	if (elf_getphdrnum(o->elf, &n) || !n)
		return 0;
	free(o->regions);
	o->regions = calloc(n, sizeof(*o->regions));
	if (!o->regions)
		return -ENOMEM;
	o->nr_regions = 0;
	for (i = 0; i < n; i++) {
		struct oregion *r = &o->regions[o->nr_regions];
		GElf_Phdr ph;

		if (!gelf_getphdr(o->elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		/* read when asked: /proc/kcore's segments span the kernel's address space */
		r->addr = ph.p_vaddr;
		r->size = ph.p_filesz;
		r->off = ph.p_offset;
		r->pread = true;
		r->name = ".text"; /* as perf's copy of a kcore function names it */
		r->shndx = -1;
		o->nr_regions++;
	}
	return 0;
}

static int load_plt_syms(struct objfile *o);

int objfile_open(const char *path, struct objfile **ret)
{
	struct objfile *o = calloc(1, sizeof(*o));
	int err;

	if (!o)
		return -ENOMEM;
	o->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (o->fd < 0) {
		err = -errno;
		goto out_free;
	}
	elf_version(EV_CURRENT);
	/* /proc/kcore cannot be mapped whole: libelf reads its headers as asked */
	o->elf = elf_begin(o->fd, strcmp(path, "/proc/kcore") ? ELF_C_READ_MMAP : ELF_C_READ, NULL);
	err = -ENOEXEC;
	if (!o->elf || elf_kind(o->elf) != ELF_K_ELF)
		goto out_free;
	err = -ENOMEM;
	o->path = strdup(path);
	if (!o->path)
		goto out_free;
	err = load_regions(o);
	if (!err)
		err = load_syms(o, o->elf);
	if (!err)
		err = load_plt_syms(o);
	if (err)
		goto out_free;
	*ret = o;
	return 0;
out_free:
	objfile_free(o);
	return err;
}

void objfile_free(struct objfile *o)
{
	if (!o)
		return;
	if (o->elf)
		elf_end(o->elf);
	if (o->fd >= 0)
		close(o->fd);
	arena_release(&o->arena);
	free(o->syms);
	free(o->regions);
	free(o->buf);
	free(o->path);
	free(o);
}

const char *objfile_path(const struct objfile *o)
{
	return o->path;
}

int objfile_add_sym(struct objfile *o, uint64_t addr, const char *name)
{
	const char *at = strrchr(name, '@');
	char base[512];

	/* "_ZdlPv@plt": the name demangled, then its suffix, as objdump -C shows it */
	if (at && at != name && (size_t)(at - name) < sizeof(base)) {
		snprintf(base, sizeof(base), "%.*s", (int)(at - name), name);
		return add_sym(o, addr, base, at, -1, 0);
	}
	return add_sym(o, addr, name, "", -1, 0);
}

int objfile_add_debug_syms(struct objfile *o, const char *path)
{
	Elf *elf;
	int fd, ret;

	if (o->has_symtab)
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	ret = -ENOEXEC;
	if (elf && elf_kind(elf) == ELF_K_ELF && find_scn(elf, SHT_SYMTAB)) {
		size_t i, n = 0;

		/* its symbols replace the .dynsym ones (those the caller added stay) */
		for (i = 0; i < o->nr_syms; i++)
			if (o->syms[i].shndx < 0)
				o->syms[n++] = o->syms[i];
		o->nr_syms = n;
		o->sorted = false;
		ret = load_syms(o, elf);
		o->has_symtab = true;
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}

static const struct oregion *region_of(const struct objfile *o, uint64_t addr)
{
	size_t i;

	for (i = 0; i < o->nr_regions; i++)
		if (addr >= o->regions[i].addr && addr - o->regions[i].addr < o->regions[i].size)
			return &o->regions[i];
	return NULL;
}

const uint8_t *objfile_code(struct objfile *o, uint64_t addr, size_t *avail, const char **section)
{
	const struct oregion *r = region_of(o, addr);
	ssize_t got;
	size_t want;

	if (!r || (!r->data && !r->pread))
		return NULL;
	*avail = r->size - (addr - r->addr);
	if (section)
		*section = r->name;
	if (r->data)
		return r->data + (addr - r->addr);
	/* a kernel function is short: up to 1 MiB of it is read */
	want = *avail < (1u << 20) ? *avail : (1u << 20);
	if (want > o->buf_len) {
		uint8_t *p = realloc(o->buf, want);

		if (!p)
			return NULL;
		o->buf = p;
		o->buf_len = want;
	}
	got = pread(o->fd, o->buf, want, (off_t)(r->off + (addr - r->addr)));
	if (got <= 0)
		return NULL;
	*avail = (size_t)got;
	return o->buf;
}

static int cmp_osym(const void *a, const void *b)
{
	const struct osym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void sort_syms(struct objfile *o)
{
	if (o->sorted || !o->nr_syms)
		return;
	qsort(o->syms, o->nr_syms, sizeof(*o->syms), cmp_osym);
	o->sorted = true;
}

/* The index of the first symbol at the greatest address <= addr, or -1. */
static long find_le(struct objfile *o, uint64_t addr)
{
	size_t lo = 0, hi;

	sort_syms(o);
	hi = o->nr_syms;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (o->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -1;
	lo--;
	while (lo && o->syms[lo - 1].addr == o->syms[lo].addr)
		lo--;
	return (long)lo;
}

const char *objfile_sym(void *ctx, uint64_t addr, uint64_t *start)
{
	struct objfile *o = ctx;
	const struct oregion *r = region_of(o, addr);
	long i = find_le(o, addr), j;

	if (i < 0)
		return NULL;
	/* a symbol of the same section, searching back; else the nearest one */
	if (r && r->shndx >= 0) {
		for (j = i; j >= 0; j--) {
			const struct osym *s = &o->syms[j];

			if (s->shndx == r->shndx || (s->shndx < 0 && region_of(o, s->addr) == r)) {
				while (j && o->syms[j - 1].addr == s->addr)
					j--;
				*start = o->syms[j].addr;
				return o->syms[j].name;
			}
			if (r->addr > s->addr)
				break;
		}
	}
	*start = o->syms[i].addr;
	return o->syms[i].name;
}

const char *objfile_label(struct objfile *o, uint64_t addr)
{
	long i = find_le(o, addr);

	if (i < 0 || o->syms[i].addr != addr)
		return NULL;
	return o->syms[i].name;
}

bool objfile_section(const struct objfile *o, const char *name, uint64_t *addr, uint64_t *size)
{
	size_t i;

	for (i = 0; i < o->nr_regions; i++)
		if (!strcmp(o->regions[i].name, name)) {
			*addr = o->regions[i].addr;
			*size = o->regions[i].size;
			return true;
		}
	return false;
}

bool objfile_symbol_addr(struct objfile *o, const char *name, uint64_t *addr)
{
	size_t i;

	for (i = 0; i < o->nr_syms; i++)
		if (!strcmp(o->syms[i].name, name)) {
			*addr = o->syms[i].addr;
			return true;
		}
	return false;
}

struct plt_relocs {
	Elf_Data *rela[2]; /* .rela.plt, .rela.dyn */
	size_t nr[2];
	Elf_Data *dynsym;
	size_t strndx;
};

/* The name objdump gives the PLT entry at entry: the relocation of the GOT slot the entry
 * jumps through (its jmp *disp32(%rip), ff 25) names it "sym@plt", or "*ABS*+0xaddend@plt"
 * for an IRELATIVE one. False when the entry is no such jump. */
static bool plt_name(struct objfile *o, const struct plt_relocs *pr, uint64_t entry, char *buf,
		     size_t len)
{
	const uint8_t *code;
	size_t avail = 0, k, t;
	uint64_t got = 0;

	code = objfile_code(o, entry, &avail, NULL);
	for (k = 0; code && k + 6 <= avail && k < 16; k++)
		if (code[k] == 0xff && code[k + 1] == 0x25) {
			int32_t disp;

			memcpy(&disp, code + k + 2, 4);
			got = entry + k + 6 + (uint64_t)(int64_t)disp;
			break;
		}
	for (t = 0; got && t < 2; t++)
		for (k = 0; k < pr->nr[t]; k++) {
			GElf_Rela r;
			GElf_Sym sym;
			const char *name;

			if (!gelf_getrela(pr->rela[t], (int)k, &r) || r.r_offset != got)
				continue;
			if (GELF_R_TYPE(r.r_info) == R_X86_64_IRELATIVE) {
				snprintf(buf, len, "*ABS*+0x%" PRIx64 "@plt", (uint64_t)r.r_addend);
				return true;
			}
			if (!pr->dynsym || !GELF_R_SYM(r.r_info) ||
			    !gelf_getsym(pr->dynsym, (int)GELF_R_SYM(r.r_info), &sym))
				return false;
			name = elf_strptr(o->elf, pr->strndx, sym.st_name);
			if (!name || !*name)
				return false;
			snprintf(buf, len, "%s@plt", name);
			return true;
		}
	return false;
}

/* objdump's synthetic "name@plt" symbols: one per 16-byte entry of .plt and .plt.sec and per
 * 8-byte entry of .plt.got. */
static int load_plt_syms(struct objfile *o)
{
	static const char *const relas[2] = { ".rela.plt", ".rela.dyn" };
	struct plt_relocs pr = { { NULL, NULL }, { 0, 0 }, NULL, 0 };
	size_t shstrndx, i, t;
	Elf_Scn *scn = NULL, *dscn;
	GElf_Shdr sh, dsh;
	char name[512];

	if (elf_getshdrstrndx(o->elf, &shstrndx))
		return 0;
	while ((scn = elf_nextscn(o->elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || !sh.sh_entsize)
			continue;
		n = elf_strptr(o->elf, shstrndx, sh.sh_name);
		for (t = 0; n && t < 2; t++) {
			if (strcmp(n, relas[t]) || !(pr.rela[t] = elf_getdata(scn, NULL)))
				continue;
			pr.nr[t] = sh.sh_size / sh.sh_entsize;
			dscn = elf_getscn(o->elf, sh.sh_link);
			if (!pr.dynsym && dscn && gelf_getshdr(dscn, &dsh)) {
				pr.dynsym = elf_getdata(dscn, NULL);
				pr.strndx = dsh.sh_link;
			}
		}
	}
	for (i = 0; i < o->nr_regions; i++) {
		const struct oregion *r = &o->regions[i];
		uint64_t a, step = !strcmp(r->name, ".plt.got") ? 8 : 16;

		if (strcmp(r->name, ".plt") && strcmp(r->name, ".plt.sec") && step != 8)
			continue;
		for (a = r->addr; a < r->addr + r->size; a += step)
			if (plt_name(o, &pr, a, name, sizeof(name)) && objfile_add_sym(o, a, name))
				return -ENOMEM;
	}
	return 0;
}
