// SPDX-License-Identifier: GPL-2.0
/*
 * fdpath: which path a traced process's file descriptors stand for (see fdpath.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/systrace/fdpath.h"
#include "lib/systrace/sysnames.h"

struct fd_entry {
	bool cloexec; /* closed by a successful exec */
	char path[];
};

static const char *const opens[] = { "open", "openat", "openat2", "creat", NULL };
static const char *const forks[] = { "clone", "clone3", "fork", "vfork", NULL };
static const char *const dups[] = { "dup", "dup2", "dup3", "fcntl", NULL };
static const char *const closes[] = { "close", "close_range", "execve", "execveat", NULL };

static bool named(const char *name, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(name, *list))
			return true;
	return false;
}

static uint64_t fd_key(int pid, int fd)
{
	return (uint64_t)(uint32_t)pid << 32 | (uint32_t)fd;
}

static bool all_selected(const bool *sel, int nr_sel, const char *const *list)
{
	int nr;

	for (; *list; list++) {
		nr = sysnr(*list);
		if (nr >= 0 && nr < nr_sel && !sel[nr])
			return false;
	}
	return true;
}

enum fdpath_mode fdpath_mode(const bool *sel, int nr_sel, bool failure_or_duration)
{
	static const char *const learned[] = { "openat", "close", NULL };

	if (failure_or_duration || !all_selected(sel, nr_sel, learned))
		return FDPATH_PROC;
	if (all_selected(sel, nr_sel, opens) && all_selected(sel, nr_sel, forks) &&
	    all_selected(sel, nr_sel, dups) && all_selected(sel, nr_sel, closes))
		return FDPATH_COMPLETE;
	return FDPATH_LEARNED;
}

void fdpath_init(struct fdpath *fp, bool live, enum fdpath_mode mode)
{
	memset(fp, 0, sizeof(*fp));
	fp->live = live;
	fp->mode = mode;
}

void fdpath_release(struct fdpath *fp)
{
	size_t iter = 0;
	uint64_t key;
	void *v;

	if (!fp)
		return;
	while (hashmap_next(&fp->paths, &iter, &key, &v))
		free(v);
	hashmap_release(&fp->paths);
}

/* readlink of the fd in /proc, as perf reads it: the task's own table for a thread */
static const char *proc_path(struct fdpath *fp, int pid, int tid, int fd)
{
	char link[64];
	ssize_t n;

	if (!fp->live)
		return NULL;
	if (pid == tid || tid <= 0)
		snprintf(link, sizeof(link), "/proc/%d/fd/%d", pid, fd);
	else
		snprintf(link, sizeof(link), "/proc/%d/task/%d/fd/%d", pid, tid, fd);
	n = readlink(link, fp->buf, sizeof(fp->buf) - 1);
	if (n <= 0)
		return NULL;
	fp->buf[n] = '\0';
	return fp->buf;
}

static struct fd_entry *entry(const struct fdpath *fp, int pid, int fd)
{
	void *v;

	return hashmap_get(&fp->paths, fd_key(pid, fd), &v) ? v : NULL;
}

const char *fdpath_get(struct fdpath *fp, int pid, int tid, int fd)
{
	struct fd_entry *e;
	const char *p;

	if (fd < 0 || pid <= 0)
		return NULL;
	if (fp->mode == FDPATH_PROC && (p = proc_path(fp, pid, tid, fd)))
		return p;
	if ((e = entry(fp, pid, fd)))
		return e->path;
	if (fp->mode == FDPATH_PROC || !(p = proc_path(fp, pid, tid, fd)))
		return NULL;
	if (fp->mode == FDPATH_LEARNED)
		return p;
	if (!fdpath_set(fp, pid, fd, p, strlen(p), false) && (e = entry(fp, pid, fd)))
		return e->path;
	return p;
}

int fdpath_set(struct fdpath *fp, int pid, int fd, const char *path, size_t len, bool cloexec)
{
	struct fd_entry *e;
	void **slot;

	if (fd < 0 || pid <= 0)
		return 0;
	e = malloc(sizeof(*e) + len + 1);
	slot = e ? hashmap_slot(&fp->paths, fd_key(pid, fd)) : NULL;
	if (!slot) {
		free(e);
		return -ENOMEM;
	}
	e->cloexec = cloexec;
	memcpy(e->path, path, len);
	e->path[len] = '\0';
	free(*slot);
	*slot = e;
	return 0;
}

void fdpath_forget(struct fdpath *fp, int pid, int fd)
{
	struct fd_entry *e = entry(fp, pid, fd);

	if (e) {
		hashmap_del(&fp->paths, fd_key(pid, fd));
		free(e);
	}
}

/* The keys of pid's fds within [lo, hi] and (exec) closed by an exec, in *keys (freed by the
 * caller): deleting or inserting moves slots, so callers collect first. */
static size_t pid_keys(const struct fdpath *fp, int pid, unsigned int lo, unsigned int hi,
		       bool exec, uint64_t **keys)
{
	size_t iter = 0, n = 0, cap = 0;
	uint64_t key;
	void *v;

	*keys = NULL;
	while (hashmap_next(&fp->paths, &iter, &key, &v)) {
		if ((uint32_t)(key >> 32) != (uint32_t)pid || (uint32_t)key < lo ||
		    (uint32_t)key > hi || (exec && !((struct fd_entry *)v)->cloexec))
			continue;
		if (n == cap) {
			size_t c = cap ? cap * 2 : 16;
			uint64_t *k = realloc(*keys, c * sizeof(**keys));

			if (!k)
				break;
			*keys = k;
			cap = c;
		}
		(*keys)[n++] = key;
	}
	return n;
}

static void forget_fds(struct fdpath *fp, int pid, unsigned int lo, unsigned int hi, bool exec)
{
	uint64_t *keys;
	size_t n = pid_keys(fp, pid, lo, hi, exec, &keys), i;

	for (i = 0; i < n; i++)
		fdpath_forget(fp, pid, (int)(uint32_t)keys[i]);
	free(keys);
}

/* newfd of process pid (child: of another process) is a copy of oldfd of process pid. The
 * entry of oldfd stays where it is while newfd's is added: slots move, entries do not. */
static void copy_fd(struct fdpath *fp, int pid, int oldfd, int child, int newfd, bool cloexec)
{
	struct fd_entry *e;

	if (child == pid && oldfd == newfd)
		return;
	e = entry(fp, pid, oldfd);
	if (e)
		fdpath_set(fp, child, newfd, e->path, strlen(e->path), cloexec);
	else if (child == pid)
		fdpath_forget(fp, child, newfd);
}

/* A forked child's table: the parent's, except what the child has learned already. */
static void inherit(struct fdpath *fp, int parent, int child)
{
	uint64_t *keys;
	size_t n = pid_keys(fp, parent, 0, ~0u, false, &keys), i;

	for (i = 0; i < n; i++) {
		int fd = (int)(uint32_t)keys[i];
		struct fd_entry *e = entry(fp, parent, fd);

		if (e && !entry(fp, child, fd))
			copy_fd(fp, parent, fd, child, fd, e->cloexec);
	}
	free(keys);
}

int fdpath_snapshot(struct fdpath *fp, int pid, bool at_exec)
{
	char dir[64], info[96], line[128];
	struct dirent *de;
	const char *p;
	DIR *d;

	if (fp->mode != FDPATH_COMPLETE || !fp->live)
		return 0;
	snprintf(dir, sizeof(dir), "/proc/%d/fd", pid);
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		unsigned long flags = 0;
		int fd = atoi(de->d_name);
		FILE *f;

		if (de->d_name[0] < '0' || de->d_name[0] > '9' ||
		    !(p = proc_path(fp, pid, pid, fd)))
			continue;
		snprintf(info, sizeof(info), "/proc/%d/fdinfo/%d", pid, fd);
		f = fopen(info, "re");
		while (f && fgets(line, sizeof(line), f))
			if (sscanf(line, "flags: %lo", &flags) == 1)
				break;
		if (f)
			fclose(f);
		if (!at_exec || !(flags & O_CLOEXEC))
			fdpath_set(fp, pid, fd, p, strlen(p), flags & O_CLOEXEC);
	}
	closedir(d);
	return 0;
}

/* O_CLOEXEC in the flags of open and openat (openat2's are in a struct not carried) */
static bool open_cloexec(const struct sysfmt *f, const struct st_rec *r)
{
	int i;

	for (i = 0; i < f->nr_args; i++)
		if (f->args[i].kind == SA_OPEN_FLAGS)
			return r->args[i] & O_CLOEXEC;
	return false;
}

static void note_open(struct fdpath *fp, const struct sysfmt *f, const struct st_rec *enter,
		      const struct st_rec *exit)
{
	const struct st_rec *src = enter ? enter : exit;
	const char *name = NULL;
	size_t len = 0;
	int i;

	for (i = 0; i < f->nr_args && !name; i++)
		if (!strcmp(f->args[i].name, "filename") || !strcmp(f->args[i].name, "pathname"))
			name = sysfmt_arg_str(f, enter, exit, i, &len);
	if (name && len)
		fdpath_set(fp, (int)exit->pid, (int)exit->ret, name, len, open_cloexec(f, src));
	else
		fdpath_forget(fp, (int)exit->pid, (int)exit->ret);
}

void fdpath_note_exit(struct fdpath *fp, const struct sysfmt *f, const struct st_rec *enter,
		      const struct st_rec *exit)
{
	const struct st_rec *src = enter ? enter : exit;
	int pid = (int)exit->pid, ret = (int)exit->ret;
	const char *n = f->name;

	if (!n || exit->ret < 0 || (enter && enter->id != exit->id))
		return;
	if (named(n, opens)) {
		note_open(fp, f, enter, exit);
	} else if (!strcmp(n, "close")) {
		fdpath_forget(fp, pid, (int)src->args[0]);
	} else if (!strcmp(n, "close_range")) {
		forget_fds(fp, pid, (unsigned int)src->args[0], (unsigned int)src->args[1], false);
	} else if (!strcmp(n, "execve") || !strcmp(n, "execveat")) {
		forget_fds(fp, pid, 0, ~0u, true);
	} else if (named(n, forks) && ret > 0) {
		if (strcmp(n, "clone") || !(src->args[0] & CLONE_THREAD))
			inherit(fp, pid, ret);
	} else if (!strcmp(n, "fcntl")) {
		if (src->args[1] == F_DUPFD || src->args[1] == F_DUPFD_CLOEXEC)
			copy_fd(fp, pid, (int)src->args[0], pid, ret,
				src->args[1] == F_DUPFD_CLOEXEC);
	} else if (named(n, dups)) {
		copy_fd(fp, pid, (int)src->args[0], pid, ret,
			!strcmp(n, "dup3") && (src->args[2] & O_CLOEXEC));
	}
}
