// SPDX-License-Identifier: GPL-2.0
/*
 * sysnames: the syscall table and the -e syscall list (see sysnames.h).
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base/editdist.h"
#include "lib/systrace/sysnames.h"

struct sysent {
	int nr;
	const char *name;
};

static const struct sysent table[] = {
#include "syscalls.h"
};

#define NR_TABLE (sizeof(table) / sizeof(table[0]))

/* names perf trace and strace users type for the kernel's */
static const struct {
	const char *alias, *name;
} aliases[] = {
	{ "stat", "newstat" },	 { "fstat", "newfstat" }, { "lstat", "newlstat" },
	{ "uname", "newuname" }, { "pread", "pread64" },  { "pwrite", "pwrite64" },
};

const char *sysname(int nr)
{
	static const char *by_nr[SYSNAMES_MAX];
	static int ready;
	size_t i;

	if (!ready) {
		for (i = 0; i < NR_TABLE; i++)
			if (table[i].nr >= 0 && table[i].nr < SYSNAMES_MAX)
				by_nr[table[i].nr] = table[i].name;
		ready = 1;
	}
	if (nr < 0 || nr >= SYSNAMES_MAX)
		return NULL;
	return by_nr[nr];
}

int sysnr(const char *name)
{
	size_t i;

	for (i = 0; i < NR_TABLE; i++)
		if (!strcmp(table[i].name, name))
			return table[i].nr;
	for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcmp(aliases[i].alias, name) || !strcmp(aliases[i].name, name)) {
			const char *kname = aliases[i].alias;
			size_t j;

			/* the uapi table uses the short name ("stat"); accept the kernel's */
			for (j = 0; j < NR_TABLE; j++)
				if (!strcmp(table[j].name, kname))
					return table[j].nr;
		}
	return -ENOENT;
}

static int select_one(const char *name, bool *sel)
{
	int nr, hits = 0;
	size_t i;

	if (!strpbrk(name, "*?[")) {
		nr = sysnr(name);
		if (nr < 0 || nr >= SYSNAMES_MAX)
			return -ENOENT;
		sel[nr] = true;
		return 0;
	}
	for (i = 0; i < NR_TABLE; i++)
		if (!fnmatch(name, table[i].name, 0) && table[i].nr < SYSNAMES_MAX) {
			sel[table[i].nr] = true;
			hits++;
		}
	return hits ? 0 : -ENOENT;
}

int sysnames_select(const char *list, bool *sel, const char **bad)
{
	static char badname[64];
	char *copy, *tok, *save = NULL;
	bool negate = false;
	int i, err = 0;

	if (!list || !*list) {
		for (i = 0; i < SYSNAMES_MAX; i++)
			sel[i] = sysname(i) != NULL;
		return 0;
	}
	if (*list == '!') {
		negate = true;
		list++;
	}
	copy = strdup(list);
	if (!copy)
		return -ENOMEM;
	memset(sel, 0, SYSNAMES_MAX * sizeof(*sel));
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (select_one(tok, sel)) {
			strncpy(badname, tok, sizeof(badname) - 1);
			*bad = badname;
			err = -ENOENT;
			break;
		}
	}
	free(copy);
	if (!err && negate)
		for (i = 0; i < SYSNAMES_MAX; i++)
			sel[i] = !sel[i] && sysname(i);
	return err;
}

size_t sysnames_closest(const char *name, const char **out, size_t max)
{
	size_t i, n = 0, d, limit = strlen(name) / 2 + 1;

	if (limit > 3)
		limit = 3;
	for (d = 0; d <= limit && n < max; d++)
		for (i = 0; i < NR_TABLE && n < max; i++)
			if (edit_distance(name, table[i].name) == d)
				out[n++] = table[i].name;
	return n;
}
