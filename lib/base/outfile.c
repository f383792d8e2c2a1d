// SPDX-License-Identifier: GPL-2.0
/*
 * outfile: writing a file the user named (see outfile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/base/outfile.h"

static void release(struct outfile *f)
{
	free(f->path);
	free(f->tmp);
	free(f->old);
	f->path = f->tmp = f->old = NULL;
	f->fd = -1;
}

static mode_t with_umask(mode_t mode)
{
	mode_t mask = umask(0);

	umask(mask);
	return mode & ~mask;
}

/* Not a regular file: written where it is. */
static int open_in_place(struct outfile *f, const char *path)
{
	f->fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (f->fd < 0)
		return -errno;
	f->in_place = true;
	f->seekable = lseek(f->fd, 0, SEEK_CUR) >= 0;
	return 0;
}

/* path.old, as perf keeps the previous perf.data. */
static int backup(struct outfile *f)
{
	struct stat st;

	if (stat(f->path, &st) || !S_ISREG(st.st_mode) || !st.st_size)
		return 0;
	if (asprintf(&f->old, "%s.old", f->path) < 0) {
		f->old = NULL;
		return -ENOMEM;
	}
	if (rename(f->path, f->old)) {
		int err = -errno;

		free(f->old);
		f->old = NULL;
		return err;
	}
	return 0;
}

static int open_tmp(struct outfile *f, mode_t mode)
{
	const char *slash = strrchr(f->path, '/');
	int dirlen = slash ? (int)(slash - f->path + 1) : 0;

	if (asprintf(&f->tmp, "%.*s.%s.flare-tmp.XXXXXX", dirlen, f->path,
		     slash ? slash + 1 : f->path) < 0) {
		f->tmp = NULL;
		return -ENOMEM;
	}
	f->fd = mkostemp(f->tmp, O_CLOEXEC);
	if (f->fd < 0) {
		free(f->tmp);
		f->tmp = NULL;
		return -errno;
	}
	if (fchmod(f->fd, with_umask(mode))) {
		int err = -errno;

		outfile_abort(f);
		return err;
	}
	return 0;
}

int outfile_open(struct outfile *f, const char *path, mode_t mode, unsigned int flags)
{
	char real[PATH_MAX];
	struct stat st;
	int err;

	memset(f, 0, sizeof(*f));
	f->fd = -1;
	/* a symlink to a regular file: the file is replaced, not the link */
	f->path = strdup(realpath(path, real) ? real : path);
	if (!f->path)
		return -ENOMEM;
	if (!stat(f->path, &st) && !S_ISREG(st.st_mode)) {
		err = open_in_place(f, f->path);
		goto out;
	}
	f->seekable = true;
	err = flags & OUTFILE_BACKUP ? backup(f) : 0;
	if (err)
		goto out;
	if (!(flags & OUTFILE_SALVAGE)) {
		err = open_tmp(f, mode);
		goto out;
	}
	f->fd = open(f->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (f->fd < 0)
		err = -errno;
	else
		f->created = true;
out:
	if (err)
		outfile_abort(f);
	return err;
}

int outfile_write(struct outfile *f, const void *p, size_t len)
{
	const char *c = p;

	while (len) {
		ssize_t n = write(f->fd, c, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		c += n;
		len -= (size_t)n;
	}
	return 0;
}

int outfile_commit(struct outfile *f)
{
	int err = 0;

	if (f->fd >= 0 && close(f->fd))
		err = -errno;
	f->fd = -1;
	if (!err && f->tmp && rename(f->tmp, f->path))
		err = -errno;
	if (err) {
		outfile_abort(f);
		return err;
	}
	release(f);
	return 0;
}

void outfile_abort(struct outfile *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	if (f->tmp)
		unlink(f->tmp);
	if (f->created && f->path)
		unlink(f->path);
	if (f->old && f->path)
		rename(f->old, f->path);
	f->created = false;
	release(f);
}
