// SPDX-License-Identifier: GPL-2.0
/* evlist storage and modifiers; the spec grammar is in parse.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lib/event/evlist.h"

struct evsel *evlist_add(struct evlist *list, const struct perf_event_attr *attr, const char *name)
{
	struct evsel *arr, *e;
	char *nm = strdup(name);

	if (!nm)
		return NULL;
	arr = realloc(list->evsels, (list->nr + 1) * sizeof(*arr));
	if (!arr) {
		free(nm);
		return NULL;
	}
	list->evsels = arr;
	e = &arr[list->nr++];
	memset(e, 0, sizeof(*e));
	e->attr = *attr;
	e->attr.size = sizeof(e->attr);
	e->name = nm;
	e->group_idx = -1;
	e->scale = 1.0;
	return e;
}

void evlist_release(struct evlist *list)
{
	size_t i;

	for (i = 0; i < list->nr; i++) {
		struct evsel *e = &list->evsels[i];

		free(e->name);
		free((char *)e->pmu_name);
		free((char *)e->tp_sys);
		free((char *)e->tp_name);
	}
	free(list->evsels);
	list->evsels = NULL;
	list->nr = 0;
}

/*
 * perf's modifier rules: any of u/k/h excludes the privilege levels not named; G/H likewise
 * for guest/host; u or p without G/H also exclude the guest. p adds one to precise_ip.
 * A letter other than p given twice ("uu") is an error, as in perf.
 */
int evsel_parse_mods(const char *mods, struct perf_event_attr *attr, bool *sample_read, bool *weak)
{
	int eu = attr->exclude_user, ek = attr->exclude_kernel, eh = attr->exclude_hv;
	int eG = attr->exclude_guest, eH = attr->exclude_host;
	/* exclude_guest alone is every event's default; G or H given before set exclude_host */
	int excl = eu | ek | eh, excl_GH = eH, precise = attr->precise_ip;
	const char *p;

	for (p = mods; *p; p++) {
		if (*p != 'p' && strchr(mods, *p) != p)
			return (int)(p - mods); /* repeated: perf's "Bad modifier" */
		switch (*p) {
		case 'u':
		case 'k':
		case 'h':
			if (!excl)
				excl = eu = ek = eh = 1;
			if (!excl_GH && *p == 'u')
				eG = 1;
			if (*p == 'u')
				eu = 0;
			else if (*p == 'k')
				ek = 0;
			else
				eh = 0;
			break;
		case 'G':
		case 'H':
			if (!excl_GH)
				excl_GH = eG = eH = 1;
			if (*p == 'G')
				eG = 0;
			else
				eH = 0;
			break;
		case 'p':
			if (++precise > 3)
				return (int)(p - mods);
			if (!excl_GH) /* perf: precise requires exclude_guest */
				eG = 1;
			break;
		case 'P':
			precise = 3;
			break;
		case 'I':
			attr->exclude_idle = 1;
			break;
		case 'S':
			*sample_read = true;
			break;
		case 'D':
			attr->pinned = 1;
			break;
		case 'e':
			attr->exclusive = 1;
			break;
		case 'W':
			*weak = true;
			break;
		default:
			return (int)(p - mods);
		}
	}
	attr->exclude_user = eu;
	attr->exclude_kernel = ek;
	attr->exclude_hv = eh;
	attr->exclude_guest = eG;
	attr->exclude_host = eH;
	attr->precise_ip = precise;
	return -1;
}
