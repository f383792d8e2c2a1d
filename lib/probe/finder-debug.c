// SPDX-License-Identifier: GPL-2.0
/*
 * probe/finder-debug: when a binary's debug information is missing, where it would have been
 * found (the build-id path under /usr/lib/debug, the .gnu_debuglink name) and which Debian
 * package would provide it (the binary's package from dpkg's file lists, plus -dbgsym; libc6
 * ships libc6-dbg).
 */
#include <dirent.h>
#include <elfutils/libdwelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/probe/finder-int.h"

/* The dpkg package that installed path, from /var/lib/dpkg/info/PKG[:ARCH].list */
static int dpkg_owner(const char *path, char *pkg, size_t len)
{
	DIR *d = opendir("/var/lib/dpkg/info");
	struct dirent *e;
	char line[4096], file[512];
	int found = 0;

	if (!d)
		return 0;
	while (!found && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		FILE *f;

		if (n < 6 || strcmp(e->d_name + n - 5, ".list"))
			continue;
		snprintf(file, sizeof(file), "/var/lib/dpkg/info/%s", e->d_name);
		f = fopen(file, "re");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n")] = '\0';
			if (!strcmp(line, path) ||
			    (!strncmp(path, "/usr", 4) && !strcmp(line, path + 4))) {
				size_t pl = strcspn(e->d_name, ":");

				if (pl > n - 5)
					pl = n - 5; /* "PKG.list" without an architecture */
				snprintf(pkg, len, "%.*s", (int)pl, e->d_name);
				found = 1;
				break;
			}
		}
		fclose(f);
	}
	closedir(d);
	return found;
}

void probe_bin_debug_hint(struct probe_bin *bin, const char *path, char *buf, size_t len)
{
	const void *id = NULL;
	GElf_Word crc;
	const char *link = dwelf_elf_gnu_debuglink(bin->elf, &crc);
	ssize_t n = dwelf_elf_gnu_build_id(bin->elf, &id);
	char where[600] = "", pkg[256];
	size_t used = 0;
	ssize_t i;

	if (n > 1) {
		const unsigned char *b = id;

		used = (size_t)snprintf(where, sizeof(where), "/usr/lib/debug/.build-id/%02x/",
					b[0]);
		for (i = 1; i < n && used + 3 < sizeof(where); i++)
			used += (size_t)snprintf(where + used, sizeof(where) - used, "%02x", b[i]);
		snprintf(where + used, sizeof(where) - used, ".debug");
	}
	if (dpkg_owner(path, pkg, sizeof(pkg)))
		snprintf(buf, len, "looked for %s%s%s%s; install %s%s", where[0] ? where : "",
			 link ? (where[0] ? " and " : "") : "", link ? link : "",
			 link ? " (its .gnu_debuglink)" : "", pkg,
			 !strcmp(pkg, "libc6") ? "-dbg" : "-dbgsym");
	else
		snprintf(buf, len,
			 "looked for %s%s%s%s; install the binary's debug package, or "
			 "build it with -g",
			 where[0] ? where : "", link ? (where[0] ? " and " : "") : "",
			 link ? link : "", link ? " (its .gnu_debuglink)" : "");
}
