// SPDX-License-Identifier: GPL-2.0
/*
 * vdso: symbols of [vdso]. The image is the one the running kernel maps into every process,
 * so flare reads its own copy (AT_SYSINFO_EHDR), the same bytes the profiled process ran,
 * when the recording was made on this kernel. When the recording names a different build-id,
 * perf record's cache copy (<cache>/.build-id/xx/rest/vdso, cache.c) is used if it exists.
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include "lib/base/strbuf.h"
#include "lib/sym/sym-int.h"

static int load_cached(struct symtab *st, struct dso_int *d)
{
	struct strbuf sb = STRBUF_INIT;
	char path[4096];
	int ret;

	if (!buildid_cache_path(st, &d->pub, "vdso", path, sizeof(path)))
		return -ENOENT;
	ret = strbuf_read_file(&sb, path);
	if (ret >= 0)
		ret = elf_load_memory(st, d, sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}

const void *vdso_image(size_t *size)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)getauxval(AT_SYSINFO_EHDR);

	if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64)
		return NULL;
	/* the image ends with its section headers */
	*size = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	return eh;
}

int vdso_load(struct symtab *st, struct dso_int *d)
{
	uint8_t want[20];
	uint8_t want_size = d->pub.build_id_size;
	const void *eh;
	size_t size;

	memcpy(want, d->pub.build_id, sizeof(want));
	if (want_size && load_cached(st, d) >= 0 && d->nr_syms)
		return 0;
	eh = vdso_image(&size);
	if (!eh)
		return -ENOENT;
	d->pub.build_id_size = 0;
	elf_load_memory(st, d, eh, size);
	if (want_size &&
	    (d->pub.build_id_size != want_size || memcmp(d->pub.build_id, want, want_size))) {
		/* another kernel's vdso: its symbols would be wrong */
		d->nr_syms = 0;
		d->syms = NULL;
	}
	if (want_size) {
		memcpy(d->pub.build_id, want, sizeof(want));
		d->pub.build_id_size = want_size;
	}
	return 0;
}
