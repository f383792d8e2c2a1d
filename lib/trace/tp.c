// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <tracefs.h>
#include "lib/base/err.h"
#include "lib/base/log.h"
#include "lib/base/strbuf.h"
#include "lib/trace/tfs.h"
#include "lib/trace/tp.h"

/* libtracefs hands back a fresh copy of the path on every call: ask once per process. */
static const char *tracefs_path;

int tp_tracefs_dir(const char **dir)
{
	const char *path = NULL;
	char events[4096];
	struct stat st;

	if (!tracefs_path) {
		/* 1: was mounted; 0: was not (and is now, if it could be); < 0: error */
		int m = tracefs_tracing_dir_is_mounted(true, &path);

		if (m == 0) {
			free((char *)path);
			path = NULL;
			m = tracefs_tracing_dir_is_mounted(false, &path);
		}
		if (m <= 0 || !path) {
			free((char *)path);
			log_debug("tracefs is not mounted and could not be mounted");
			return -ERR_NO_TRACEFS;
		}
		/* a mount listed in /proc/mounts may be hidden by another one on top */
		snprintf(events, sizeof(events), "%s/events", path);
		if (stat(events, &st) || !S_ISDIR(st.st_mode)) {
			log_debug("tracefs at %s has no events directory", path);
			free((char *)path);
			return -ERR_NO_TRACEFS;
		}
		tracefs_path = path;
		/* a flare killed while it had tracefs changed: put tracefs back first */
		tfs_recover(NULL, NULL);
	}
	*dir = tracefs_path;
	return 0;
}

int tp_is_glob(const char *s)
{
	return s && strpbrk(s, "*?[") != NULL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Systems in the order of their "sys:" prefixes, as perf list sorts "sys:name" strings
 * ("fib6:..." before "fib:...", since '6' sorts before ':'). */
static int cmp_sys(const void *a, const void *b)
{
	const unsigned char *x = *(const unsigned char *const *)a;
	const unsigned char *y = *(const unsigned char *const *)b;

	for (; *x && *x == *y; x++, y++)
		;
	return (*x ? *x : ':') - (*y ? *y : ':');
}

static size_t list_len(char **l)
{
	size_t n = 0;

	while (l && l[n])
		n++;
	return n;
}

static bool match(const char *glob, const char *s)
{
	return !glob || !fnmatch(glob, s, 0);
}

/* Only events with an id can be opened (ftrace's internal events have none). */
static bool has_id(const char *dir, const char *sys, const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/events/%s/%s/id", dir, sys, name);
	return access(path, F_OK) == 0;
}

/* Visits the events of one system; returns the count or fn's non-zero stop value as < 0. */
static int walk_system(const char *dir, const char *sys, const char *name_glob, int flags, tp_fn fn,
		       void *arg, int *stop)
{
	char **evs;
	size_t i, n;
	int count = 0;

	if (name_glob && !tp_is_glob(name_glob)) {
		uint64_t id;

		if (tp_id(sys, name_glob, &id))
			return 0;
		*stop = fn(sys, name_glob, arg);
		return 1;
	}
	evs = tracefs_system_events(dir, sys);
	n = list_len(evs);
	if (n && (flags & TP_SORTED))
		qsort(evs, n, sizeof(*evs), cmp_str);
	for (i = 0; i < n && !*stop; i++) {
		if (!match(name_glob, evs[i]) || !has_id(dir, sys, evs[i]))
			continue;
		count++;
		*stop = fn(sys, evs[i], arg);
	}
	tracefs_list_free(evs);
	return count;
}

int tp_for_each(const char *sys_glob, const char *name_glob, int flags, tp_fn fn, void *arg)
{
	const char *dir, **sorted; /* sorted when TP_SORTED asks */
	char **systems;
	size_t i, n;
	int ret, count = 0, stop = 0, has_ftrace = 0;

	ret = tp_tracefs_dir(&dir);
	if (ret)
		return ret;
	if (sys_glob && !tp_is_glob(sys_glob)) {
		count = walk_system(dir, sys_glob, name_glob, flags, fn, arg, &stop);
		return stop ? stop : count;
	}
	systems = tracefs_event_systems(dir);
	if (!systems)
		return -ENOMEM;
	n = list_len(systems);
	/* libtracefs leaves out "ftrace", whose function and print events perf lists */
	sorted = calloc(n + 2, sizeof(*sorted));
	if (!sorted) {
		tracefs_list_free(systems);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		sorted[i] = systems[i];
		has_ftrace |= !strcmp(systems[i], "ftrace");
	}
	if (!has_ftrace)
		sorted[n++] = "ftrace";
	if (flags & TP_SORTED)
		qsort(sorted, n, sizeof(*sorted), cmp_sys);
	for (i = 0; i < n && !stop; i++) {
		if (!match(sys_glob, sorted[i]))
			continue;
		count += walk_system(dir, sorted[i], name_glob, flags, fn, arg, &stop);
	}
	free(sorted);
	tracefs_list_free(systems);
	return stop ? stop : count;
}

int tp_id(const char *sys, const char *name, uint64_t *id)
{
	struct strbuf sb = STRBUF_INIT;
	const char *dir;
	char path[4096], *end;
	int ret;

	ret = tp_tracefs_dir(&dir);
	if (ret)
		return ret;
	if (strchr(sys, '/') || strchr(name, '/') || !strcmp(sys, "..") || !strcmp(name, ".."))
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", dir, sys, name);
	if (strbuf_read_file(&sb, path)) {
		strbuf_release(&sb);
		return -ENOENT;
	}
	errno = 0;
	*id = strtoull(sb.buf, &end, 10);
	ret = (end == sb.buf || errno) ? -ENOENT : 0;
	strbuf_release(&sb);
	return ret;
}
