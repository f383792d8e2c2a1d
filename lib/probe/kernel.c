// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "lib/probe/kernel.h"

int probe_kallsyms_offset(const char *path, const char *name, uint64_t *off)
{
	FILE *f = fopen(path ? path : "/proc/kallsyms", "re");
	char line[512], sym[256], type;
	uint64_t addr, text = 0, found = 0;
	int have = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f) && (!text || !have)) {
		if (sscanf(line, "%" SCNx64 " %c %255s", &addr, &type, sym) != 3 ||
		    strchr(line, '['))
			continue;
		if (!text && !strcmp(sym, "_text"))
			text = addr;
		if (!have && (type == 't' || type == 'T' || type == 'W') && !strcmp(sym, name)) {
			found = addr;
			have = 1;
		}
	}
	fclose(f);
	if (!have)
		return -ENOENT;
	if (!text || !found)
		return -EPERM;
	*off = found - text;
	return 0;
}
