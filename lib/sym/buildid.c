// SPDX-License-Identifier: GPL-2.0
/*
 * buildid: GNU build-ids as perf record names them in the BUILD_ID feature: of ELF files
 * (elf.c's opener and note reader), of the kernel (/sys/kernel/notes) and of the vdso (this
 * process's image, which is the one every process maps).
 */
#include <errno.h>
#include <string.h>
#include "lib/base/strbuf.h"
#include "lib/sym/sym-int.h"

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

static int vdso_build_id(uint8_t *out, size_t outlen)
{
	size_t size;
	const void *image = vdso_image(&size);
	int ret = -ENOENT;
	Elf *elf;

	if (!image)
		return -ENOENT;
	elf_version(EV_CURRENT);
	elf = elf_memory((char *)image, size);
	if (elf) {
		ret = elf_build_id(elf, out, outlen);
		elf_end(elf);
	}
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
	return elf_read_build_id(filename, out, outlen);
}
