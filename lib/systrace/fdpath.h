/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fdpath: the path each file descriptor of a traced process stands for, shown after fd
 * arguments as perf trace shows it ("fd: 3</etc/passwd>").
 *
 * How far the table is trusted depends on what the trace sees (enum fdpath_mode):
 * FDPATH_COMPLETE, every call that changes a process's descriptors (open*, close*, dup*,
 * fcntl, exec, fork/clone) unfiltered: the table is the truth. Paths come from the file names
 * open calls succeed with, follow dup and fork, are dropped at close and (close-on-exec ones)
 * at exec, and the targets' descriptors from before the trace are read from /proc when it
 * starts; an fd still unknown is read from /proc once. FDPATH_LEARNED, openat and close
 * seen: what the opens said, else /proc at each lookup. FDPATH_PROC: /proc at each lookup, as perf
 * trace does, and what opens said only when /proc cannot tell (the process is gone, or the
 * trace is replayed).
 * Keys are (process, fd): threads share them. A struct fdpath owns its copies of the paths;
 * fdpath_release() frees them. Nothing here prints.
 */
#ifndef FLARE_SYSTRACE_FDPATH_H
#define FLARE_SYSTRACE_FDPATH_H
#include <stdbool.h>
#include "lib/base/hashmap.h"
#include "lib/systrace/sysfmt.h"

enum fdpath_mode { FDPATH_PROC, FDPATH_LEARNED, FDPATH_COMPLETE };

struct fdpath {
	struct hashmap paths; /* pid << 32 | fd -> struct fd_entry * */
	bool live;	      /* the processes run now: /proc tells about them */
	enum fdpath_mode mode;
	char buf[4096]; /* what /proc said last */
};

/* How much of the descriptors' changes tracing the syscalls in sel[nr] sees
 * (failure_or_duration: only some of their records are). */
enum fdpath_mode fdpath_mode(const bool *sel, int nr_sel, bool failure_or_duration);
void fdpath_init(struct fdpath *fp, bool live, enum fdpath_mode mode);
void fdpath_release(struct fdpath *fp);
/* The path of fd in process pid (thread tid), or NULL; valid until the next call. */
const char *fdpath_get(struct fdpath *fp, int pid, int tid, int fd);
/* fd of process pid now stands for path (copied); cloexec: an exec closes it. 0 or -ENOMEM. */
int fdpath_set(struct fdpath *fp, int pid, int fd, const char *path, size_t len, bool cloexec);
void fdpath_forget(struct fdpath *fp, int pid, int fd);
/* A FDPATH_COMPLETE table learns every fd process pid has open now from /proc (a target, before
 * tracing); at_exec: pid is about to exec, only the fds that survive it. 0 or -errno. */
int fdpath_snapshot(struct fdpath *fp, int pid, bool at_exec);
/* Learns from a finished syscall (f with its enter record, NULL if unseen, and exit
 * record). Call after the exit's line is printed: close shows the path it drops. */
void fdpath_note_exit(struct fdpath *fp, const struct sysfmt *f, const struct st_rec *enter,
		      const struct st_rec *exit);

#endif
