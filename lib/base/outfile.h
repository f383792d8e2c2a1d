/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outfile: the one way flare writes a file the user names (every -o: record, flamegraph,
 * stat, ...). It decides from what the name is:
 *
 *  - a regular file, or a name that does not exist yet: written under a hidden temporary
 *    name in the same directory (".NAME.flare-tmp.XXXXXX") and renamed onto NAME by
 *    outfile_commit(), so no reader ever sees half a file and a failure leaves the old
 *    file as it was. A symlink to a regular file is followed: its target is replaced, the
 *    link stays.
 *  - with OUTFILE_SALVAGE (record): a regular file is written under its own name from the
 *    start instead, so that a writer killed outright (SIGKILL) leaves what it wrote where
 *    the user looks, as perf does; outfile_abort() removes it again.
 *  - with OUTFILE_BACKUP (record): an existing non-empty regular NAME is first renamed to
 *    "NAME.old" (perf's perf.data -> perf.data.old); outfile_abort() puts it back.
 *  - anything else (a character or block device such as /dev/null, a FIFO, a socket, a
 *    terminal, or a symlink to one of them such as /dev/stdout): opened and written in
 *    place, never replaced, renamed over or chmod'ed. f->seekable says whether it can be
 *    written at offsets (a FIFO cannot).
 *
 * A created file gets mode & ~umask (0666 for ordinary output, 0600 for perf.data as perf).
 * The outfile owns its fd and names; outfile_commit() or outfile_abort() releases them.
 * It never prints; functions return 0 or -errno.
 */
#ifndef FLARE_BASE_OUTFILE_H
#define FLARE_BASE_OUTFILE_H
#include <stdbool.h>
#include <sys/types.h>

enum {
	OUTFILE_SALVAGE = 1 << 0, /* a regular file is written under its own name */
	OUTFILE_BACKUP = 1 << 1,  /* an existing regular file becomes NAME.old */
};

struct outfile {
	int fd;	       /* -1 when closed */
	char *path;    /* the file written (a symlink to a regular file resolved) */
	char *tmp;     /* the temporary name, or NULL */
	char *old;     /* NAME.old made by OUTFILE_BACKUP, or NULL */
	bool in_place; /* not a regular file: written where it is */
	bool created;  /* NAME was created by us (salvage mode) */
	bool seekable; /* pwrite/lseek work on fd */
};

#define OUTFILE_INIT                                                                               \
	{                                                                                          \
		.fd = -1                                                                           \
	}

/* Opens path for writing as described above. 0 or -errno (f is then released). */
int outfile_open(struct outfile *f, const char *path, mode_t mode, unsigned int flags);
/* Writes all of p to the fd. 0 or -errno. */
int outfile_write(struct outfile *f, const void *p, size_t len);
/* Closes the fd (a failed close is a failed write) and moves the temporary file into
 * place. 0 or -errno (then as outfile_abort()). */
int outfile_commit(struct outfile *f);
/* Closes the fd and removes what outfile_open() created (the temporary file, or the
 * salvage file with NAME.old put back). Accepts an outfile never opened if set to
 * OUTFILE_INIT, and one already committed. */
void outfile_abort(struct outfile *f);

#endif
