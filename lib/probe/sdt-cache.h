/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probe/sdt-cache: the SDT events perf's build-id cache holds. perf buildid-cache --add (and
 * perf record) write each object's SDT markers into <cache>/<name>/<build-id>/probes as
 * "%sdt_PROVIDER:NAME=NAME" lines followed by their definitions; perf list shows them as
 * sdt_PROVIDER:NAME [SDT event]. flare buildid-cache --add writes them alike. Nothing here
 * prints.
 */
#ifndef FLARE_PROBE_SDT_CACHE_H
#define FLARE_PROBE_SDT_CACHE_H

struct sdt_cached {
	char *group, *event; /* "sdt_python", "function__entry" */
	char *hex;	     /* the build-id of the object that has it */
	char *name;	     /* the object's path as cached */
};

/* Every cached SDT event whose group matches glob group_glob and event matches event_glob
 * (NULL: any), sorted as perf sorts them (by "group:event@build-id"), a repeat of the same
 * string dropped. *out is freed with sdt_cached_free(). Returns the count or -errno. */
int sdt_cache_list(const char *group_glob, const char *event_glob, struct sdt_cached **out);
void sdt_cached_free(struct sdt_cached *v, int nr);

/* Writes dir/probes as perf buildid-cache --add does for the object at path (dir is its
 * cache directory): each SDT marker as "%sdt_PROVIDER:NAME=NAME" followed by its uprobe
 * definitions; an object without markers gets an empty file. 0 or -errno. */
int sdt_cache_write(const char *path, const char *dir);

#endif
