// SPDX-License-Identifier: GPL-2.0
/*
 * elf: symbols of an ELF object through libelf, as perf's dso__load() picks them: the first
 * of (the .gnu_debuglink file, /usr/lib/debug/.build-id/xx/rest.debug, /usr/lib/debug/PATH,
 * the object itself) that has a .symtab; failing that the object's .dynsym. Functions (FUNC,
 * IFUNC) and untyped labels in text sections are kept; C++ and Rust names are demangled.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/base/log.h"
#include "lib/sym/sym-int.h"

int elf_file_open(const char *path, struct elf_file *ef)
{
	ef->elf = NULL;
	ef->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (ef->fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	ef->elf = elf_begin(ef->fd, ELF_C_READ_MMAP, NULL);
	if (!ef->elf || elf_kind(ef->elf) != ELF_K_ELF) {
		if (ef->elf)
			elf_end(ef->elf);
		close(ef->fd);
		ef->elf = NULL;
		ef->fd = -1;
		return -ENOEXEC;
	}
	return 0;
}

void elf_file_close(struct elf_file *ef)
{
	if (ef->elf)
		elf_end(ef->elf);
	if (ef->fd >= 0)
		close(ef->fd);
	ef->elf = NULL;
	ef->fd = -1;
}

static Elf_Scn *find_section(Elf *elf, Elf64_Word type, const char *name)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, &sh) || (type && sh.sh_type != type))
			continue;
		n = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || (n && !strcmp(n, name)))
			return scn;
	}
	return NULL;
}

/* The note in the PT_NOTE segments, for an object without section headers. */
static int build_id_of_segments(Elf *elf, uint8_t *out, size_t outlen)
{
	size_t n, i;
	int ret = -ENOENT;

	if (elf_getphdrnum(elf, &n))
		return -ENOENT;
	for (i = 0; i < n && ret < 0; i++) {
		GElf_Phdr ph;
		Elf_Data *d;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_NOTE)
			continue;
		d = elf_getdata_rawchunk(elf, (int64_t)ph.p_offset, ph.p_filesz, ELF_T_NHDR);
		if (d && d->d_buf)
			ret = buildid_from_notes(d->d_buf, d->d_size, out, outlen);
	}
	return ret;
}

int elf_build_id(Elf *elf, uint8_t *out, size_t outlen)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *data;
		GElf_Nhdr nh;
		size_t off = 0, noff, doff;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		while (data && (off = gelf_getnote(data, off, &nh, &noff, &doff)) > 0) {
			size_t n = nh.n_descsz < outlen ? nh.n_descsz : outlen;

			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
			    memcmp((char *)data->d_buf + noff, "GNU", 4))
				continue;
			memcpy(out, (char *)data->d_buf + doff, n);
			return (int)n;
		}
	}
	return build_id_of_segments(elf, out, outlen);
}

int elf_read_build_id(const char *path, uint8_t *out, size_t outlen)
{
	struct elf_file ef;
	int ret = elf_file_open(path, &ef);

	if (ret < 0)
		return ret;
	ret = elf_build_id(ef.elf, out, outlen);
	elf_file_close(&ef);
	return ret;
}

const char *dso_elf_path(struct symtab *st, const struct dso *dso, char *buf, size_t len)
{
	char cache[4096];
	const char *path = symtab_path(st, dso->long_name, buf, len);
	uint8_t id[20];
	int n = elf_read_build_id(path, id, sizeof(id));

	if (n >= 0 && (!dso->build_id_size || n == 0 ||
		       (n == dso->build_id_size && !memcmp(id, dso->build_id, (size_t)n))))
		return path;
	if (dso->build_id_size && buildid_cache_path(st, dso, "elf", cache, sizeof(cache)) &&
	    elf_read_build_id(cache, id, sizeof(id)) == dso->build_id_size &&
	    !memcmp(id, dso->build_id, dso->build_id_size)) {
		snprintf(buf, len, "%s", cache);
		return buf;
	}
	return NULL;
}

static int read_segs(Elf *elf, struct dso_int *d)
{
	size_t i, n;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &n))
		return -ENOEXEC;
	d->nr_segs = 0;
	for (i = 0; i < n && d->nr_segs < DSO_MAX_SEGS; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		d->segs[d->nr_segs].vaddr = ph.p_vaddr;
		d->segs[d->nr_segs].offset = ph.p_offset;
		d->segs[d->nr_segs].filesz = ph.p_filesz;
		d->nr_segs++;
	}
	d->segs_loaded = true;
	return 0;
}

static bool sec_is_text(Elf *elf, size_t shstrndx, size_t idx)
{
	Elf_Scn *scn = elf_getscn(elf, idx);
	GElf_Shdr sh;
	const char *n;

	if (!scn || !gelf_getshdr(scn, &sh))
		return false;
	n = elf_strptr(elf, shstrndx, sh.sh_name);
	return n && strstr(n, "text");
}

static const char *sym_name(struct symtab *st, const char *raw)
{
	char *dm = st->no_demangle ? NULL : sym_demangle(raw);
	const char *name;

	name = arena_strdup(&st->arena, dm ? dm : raw);
	free(dm);
	return name;
}

/* Adds the functions of one symbol table section (SHT_SYMTAB or SHT_DYNSYM). */
static int add_elf_syms(struct symtab *st, Elf *elf, Elf_Scn *scn, struct symbuf *sb)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t shstrndx, i, n;
	GElf_Shdr sh;
	GElf_Sym sym;

	if (!data || !gelf_getshdr(scn, &sh) || !sh.sh_entsize || elf_getshdrstrndx(elf, &shstrndx))
		return -ENOEXEC;
	n = sh.sh_size / sh.sh_entsize;
	for (i = 0; i < n; i++) {
		int type, bind;
		const char *raw, *name;

		if (!gelf_getsym(data, (int)i, &sym) || !sym.st_name || sym.st_shndx == SHN_UNDEF)
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if (type == STT_NOTYPE) {
			if (sym.st_shndx == SHN_ABS || sym.st_shndx >= SHN_LORESERVE ||
			    !sec_is_text(elf, shstrndx, sym.st_shndx))
				continue;
		} else if (type != STT_FUNC && type != STT_GNU_IFUNC) {
			continue;
		}
		raw = elf_strptr(elf, sh.sh_link, sym.st_name);
		if (!raw || !raw[0] || raw[0] == '$')
			continue;
		name = sym_name(st, raw);
		bind = GELF_ST_BIND(sym.st_info);
		if (!name || symbuf_add(sb, sym.st_value, sym.st_value + sym.st_size, name,
					bind == STB_GLOBAL ? 1
					: bind == STB_WEAK ? 2
							   : 0))
			return -ENOMEM;
	}
	return 0;
}

/* Loads the functions of scn (may be NULL) and the PLT entries plt (may be NULL) into d. */
static int load_from_elf(struct symtab *st, struct dso_int *d, Elf *elf, Elf_Scn *scn,
			 struct symbuf *plt)
{
	struct symbuf sb = { 0 };
	int ret = scn ? add_elf_syms(st, elf, scn, &sb) : 0;

	if (ret < 0) {
		symbuf_free(&sb);
		if (plt)
			symbuf_free(plt);
		return ret;
	}
	return symbuf_finish_plt(st, d, &sb, false, plt);
}

int elf_load_memory(struct symtab *st, struct dso_int *d, const void *image, size_t size)
{
	Elf *elf;
	Elf_Scn *scn;
	int ret = -ENOENT;

	elf_version(EV_CURRENT);
	elf = elf_memory((char *)image, size);
	if (!elf)
		return -ENOEXEC;
	read_segs(elf, d);
	if (d->pub.build_id_size == 0) {
		int n = elf_build_id(elf, d->pub.build_id, sizeof(d->pub.build_id));

		if (n > 0)
			d->pub.build_id_size = (uint8_t)n;
	}
	scn = find_section(elf, SHT_SYMTAB, NULL);
	if (!scn)
		scn = find_section(elf, SHT_DYNSYM, NULL);
	if (scn)
		ret = load_from_elf(st, d, elf, scn, NULL);
	elf_end(elf);
	return ret;
}

/* The .gnu_debuglink file name of elf, or NULL. */
static const char *debuglink_of(Elf *elf)
{
	Elf_Scn *scn = find_section(elf, 0, ".gnu_debuglink");
	Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;

	if (!data || !data->d_size || !memchr(data->d_buf, '\0', data->d_size))
		return NULL;
	return data->d_buf;
}

static void add_cand(struct symtab *st, char cands[][4096], int *n, const char *path)
{
	char tmp[4096];

	snprintf(cands[(*n)++], 4096, "%s", symtab_path(st, path, tmp, sizeof(tmp)));
}

/* Fills cands with the separate debug files perf would look at, in its order: the
 * .gnu_debuglink places, the build-id cache of perf record (~/.debug), /usr/lib/debug/PATH and
 * /usr/lib/debug/.build-id/xx/rest.debug. Returns how many. */
static int debug_candidates(struct symtab *st, struct dso_int *d, Elf *elf, const char *path,
			    char cands[][4096])
{
	const char *link = debuglink_of(elf), *slash = strrchr(path, '/');
	int dirlen = slash ? (int)(slash - path) : 0, n = 0, len;
	char rel[4096], hex[41];

	if (link && link[0] && !strchr(link, '/')) {
		snprintf(rel, sizeof(rel), "%.*s/%s", dirlen, path, link);
		if (strcmp(rel, path))
			add_cand(st, cands, &n, rel);
		snprintf(rel, sizeof(rel), "%.*s/.debug/%s", dirlen, path, link);
		add_cand(st, cands, &n, rel);
		snprintf(rel, sizeof(rel), "/usr/lib/debug%.*s/%s", dirlen, path, link);
		add_cand(st, cands, &n, rel);
	}
	len = buildid_hex(d->pub.build_id, d->pub.build_id_size, hex);
	if (buildid_cache_path(st, &d->pub, "debug", cands[n], 4096))
		n++;
	if (buildid_cache_path(st, &d->pub, "elf", cands[n], 4096))
		n++;
	snprintf(rel, sizeof(rel), "/usr/lib/debug%s.debug", path);
	add_cand(st, cands, &n, rel);
	snprintf(rel, sizeof(rel), "/usr/lib/debug%s", path);
	add_cand(st, cands, &n, rel);
	if (len) {
		snprintf(rel, sizeof(rel), "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
		add_cand(st, cands, &n, rel);
	}
	return n;
}

#define MAX_CANDS 8

/* A candidate debug file is used only when its build-id matches the object's (or either is
 * unknown), as perf checks. */
static bool cand_matches(Elf *elf, const struct dso_int *d)
{
	uint8_t id[20];
	int n = elf_build_id(elf, id, sizeof(id));

	if (n <= 0 || !d->pub.build_id_size)
		return true;
	return n == d->pub.build_id_size && !memcmp(id, d->pub.build_id, n);
}

static int load_debug_file(struct symtab *st, struct dso_int *d, Elf *main_elf, const char *path,
			   struct symbuf *plt)
{
	char(*cands)[4096] = malloc(MAX_CANDS * 4096);
	int n, i, ret = -ENOENT;

	if (!cands)
		return -ENOMEM;
	n = debug_candidates(st, d, main_elf, path, cands);
	for (i = 0; i < n && ret == -ENOENT; i++) {
		struct elf_file ef;
		Elf_Scn *scn;

		if (elf_file_open(cands[i], &ef) < 0)
			continue;
		scn = find_section(ef.elf, SHT_SYMTAB, NULL);
		if (scn && cand_matches(ef.elf, d)) {
			log_debug("symbols of %s from %s", path, cands[i]);
			ret = load_from_elf(st, d, ef.elf, scn, plt);
		}
		elf_file_close(&ef);
	}
	free(cands);
	return ret;
}

/*
 * perf's dso__synthesize_plt_symbols(): one "name@plt" symbol per .rela.plt (or .rel.plt)
 * entry, laid out after the .plt header, entry size sh_entsize (16 on x86-64), named after the
 * .dynsym symbol of the relocation ("@plt" alone for IRELATIVE ones).
 */
static int add_plt_syms(struct symtab *st, Elf *elf, struct symbuf *sb)
{
	Elf_Scn *rel = find_section(elf, SHT_RELA, ".rela.plt"), *plt, *dyn;
	GElf_Shdr rsh, psh, dsh;
	Elf_Data *rdata, *ddata;
	uint64_t off, ent;
	size_t i, n;

	if (!rel)
		rel = find_section(elf, SHT_REL, ".rel.plt");
	plt = find_section(elf, 0, ".plt");
	if (!rel || !plt || !gelf_getshdr(rel, &rsh) || !gelf_getshdr(plt, &psh) || !rsh.sh_entsize)
		return 0;
	dyn = elf_getscn(elf, rsh.sh_link);
	if (!dyn || !gelf_getshdr(dyn, &dsh) || dsh.sh_type != SHT_DYNSYM)
		return 0;
	rdata = elf_getdata(rel, NULL);
	ddata = elf_getdata(dyn, NULL);
	ent = psh.sh_entsize;
	if (!rdata || !ddata || !ent)
		return 0;
	off = psh.sh_addr + ent; /* the header is one entry long */
	n = rsh.sh_size / rsh.sh_entsize;
	for (i = 0; i < n; i++, off += ent) {
		char name[512], *dm;
		const char *raw = "";
		uint64_t info;
		GElf_Rela ra;
		GElf_Rel r;
		GElf_Sym sym;

		if (rsh.sh_type == SHT_RELA ? !gelf_getrela(rdata, (int)i, &ra)
					    : !gelf_getrel(rdata, (int)i, &r))
			break;
		info = rsh.sh_type == SHT_RELA ? ra.r_info : r.r_info;
		if (gelf_getsym(ddata, (int)GELF_R_SYM(info), &sym))
			raw = elf_strptr(elf, dsh.sh_link, sym.st_name);
		dm = raw && !st->no_demangle ? sym_demangle(raw) : NULL;
		snprintf(name, sizeof(name), "%s@plt", dm ? dm : raw ? raw : "");
		free(dm);
		raw = arena_strdup(&st->arena, name);
		if (!raw || symbuf_add(sb, off, off + ent, raw, 1))
			return -ENOMEM;
	}
	return 0;
}

/*
 * Opens the object whose symbols and segments describe the recording: the file at the
 * mapped path when its build-id is the one recorded (or none was recorded), else perf
 * record's copy in its build-id cache. A file of another build-id is not used, as perf refuses it.
 */
static int open_runtime(struct symtab *st, struct dso_int *d, struct elf_file *ef)
{
	char buf[4096];
	uint8_t id[20];
	int ret, n;

	ret = elf_file_open(symtab_path(st, d->pub.long_name, buf, sizeof(buf)), ef);
	if (ret == 0) {
		n = elf_build_id(ef->elf, id, sizeof(id));
		if (n <= 0 || !d->pub.build_id_size)
			goto found;
		if (n == d->pub.build_id_size && !memcmp(id, d->pub.build_id, n))
			goto found;
		log_debug("%s: build-id differs from the recording's", d->pub.long_name);
		elf_file_close(ef);
	}
	if (!buildid_cache_path(st, &d->pub, "elf", buf, sizeof(buf)))
		return ret < 0 ? ret : -ENOENT;
	ret = elf_file_open(buf, ef);
	if (ret < 0)
		return ret;
	n = elf_build_id(ef->elf, id, sizeof(id));
	if (n != d->pub.build_id_size || memcmp(id, d->pub.build_id, n)) {
		/* perf record links the cache to the file: overwritten in place, both changed */
		log_debug("%s: the build-id cache's copy is another build too", d->pub.long_name);
		elf_file_close(ef);
		return -ENOENT;
	}
found:
	if (n > 0 && !d->pub.build_id_size) {
		memcpy(d->pub.build_id, id, n);
		d->pub.build_id_size = (uint8_t)n;
	}
	return 0;
}

int elf_load_segs(struct symtab *st, struct dso_int *d)
{
	struct elf_file ef;
	int ret = open_runtime(st, d, &ef);

	d->segs_loaded = true;
	if (ret < 0)
		return ret;
	ret = read_segs(ef.elf, d);
	elf_file_close(&ef);
	return ret;
}

int elf_load_dso(struct symtab *st, struct dso_int *d)
{
	struct symbuf plt = { 0 };
	struct elf_file ef;
	Elf_Scn *scn;
	int ret;

	ret = open_runtime(st, d, &ef);
	if (ret < 0)
		return ret;
	if (!d->segs_loaded)
		read_segs(ef.elf, d);
	/* the PLT comes from the object itself, whichever file has the other symbols */
	ret = add_plt_syms(st, ef.elf, &plt);
	if (ret == 0)
		ret = load_debug_file(st, d, ef.elf, d->pub.long_name, &plt);
	if (ret == -ENOENT) {
		scn = find_section(ef.elf, SHT_SYMTAB, NULL);
		if (!scn)
			scn = find_section(ef.elf, SHT_DYNSYM, NULL);
		ret = load_from_elf(st, d, ef.elf, scn, &plt);
	}
	symbuf_free(&plt);
	elf_file_close(&ef);
	return ret;
}
