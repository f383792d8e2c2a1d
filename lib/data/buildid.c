// SPDX-License-Identifier: GPL-2.0
/*
 * buildid: GNU build-ids for the BUILD_ID feature: of ELF files (libelf notes), of the kernel
 * (/sys/kernel/notes) and of the vdso (this process's image, which is the one every process
 * maps).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/base/strbuf.h"
#include "lib/data/writer.h"

#define NT_GNU_BUILD_ID_ 3

int buildid_from_notes(const void *notes, size_t len, uint8_t *out, size_t outlen)
{
	const uint8_t *p = notes, *end = p + len;

	while (p + 12 <= end) {
		uint32_t namesz, descsz, type;
		size_t nlen, dlen;

		memcpy(&namesz, p, 4);
		memcpy(&descsz, p + 4, 4);
		memcpy(&type, p + 8, 4);
		nlen = (namesz + 3) & ~3u;
		dlen = (descsz + 3) & ~3u;
		if ((size_t)(end - p) - 12 < nlen || (size_t)(end - p) - 12 - nlen < dlen)
			break;
		if (type == NT_GNU_BUILD_ID_ && namesz == 4 && !memcmp(p + 12, "GNU", 4) &&
		    descsz && descsz <= outlen) {
			memcpy(out, p + 12 + nlen, descsz);
			return (int)descsz;
		}
		p += 12 + nlen + dlen;
	}
	return -ENOENT;
}

static int elf_build_id(Elf *elf, uint8_t *out, size_t outlen)
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

static int file_build_id(const char *path, uint8_t *out, size_t outlen)
{
	int fd, ret = -ENOENT;
	Elf *elf;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf) {
		ret = elf_build_id(elf, out, outlen);
		elf_end(elf);
	}
	close(fd);
	return ret;
}

static int vdso_build_id(uint8_t *out, size_t outlen)
{
	unsigned long start = 0, end = 0;
	char line[512];
	int ret = -ENOENT;
	FILE *f = fopen("/proc/self/maps", "re");
	Elf *elf;
	void *copy;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "[vdso]") && sscanf(line, "%lx-%lx", &start, &end) == 2)
			break;
	fclose(f);
	if (end <= start)
		return -ENOENT;
	/* a private copy: libelf wants a buffer it may treat as its own */
	copy = malloc(end - start);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, (void *)start, end - start);
	elf_version(EV_CURRENT);
	elf = elf_memory(copy, end - start);
	if (elf) {
		ret = elf_build_id(elf, out, outlen);
		elf_end(elf);
	}
	free(copy);
	return ret;
}

int buildid_of(const char *filename, uint8_t *out, size_t outlen)
{
	if (!strcmp(filename, "[kernel.kallsyms]")) {
		struct strbuf sb = STRBUF_INIT;
		int ret = strbuf_read_file(&sb, "/sys/kernel/notes");

		if (!ret)
			ret = buildid_from_notes(sb.buf, sb.len, out, outlen);
		strbuf_release(&sb);
		return ret;
	}
	if (!strcmp(filename, "[vdso]"))
		return vdso_build_id(out, outlen);
	if (filename[0] != '/')
		return -ENOENT;
	return file_build_id(filename, out, outlen);
}
