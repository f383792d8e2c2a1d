/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tfs: changing tracefs and putting it back. A struct tfs is one command's set of changes:
 * a tracefs instance of its own (instances/flare_<pid>), where events, filters, triggers,
 * buffer size, clock, cpumask and options can be set without disturbing anyone, plus a
 * journal of the top-level files it had to change (tracing_thresh, current_tracer, ...),
 * each saved before its first write.
 *
 * The journal is also a state file, /run/flare/tfs-<pid>.state (/run: tracefs does not
 * survive a reboot, so neither should the record of what was changed in it). It is written
 * before each change, so that when the command is killed (SIGKILL) the next flare command
 * that uses tracefs calls tfs_recover(), which puts back what the dead process changed and
 * removes its instance. tfs_close() puts everything back and removes the state file.
 *
 * Nothing here prints; errors are -errno or -ERR_NO_TRACEFS.
 */
#ifndef FLARE_TRACE_TFS_H
#define FLARE_TRACE_TFS_H
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct tfs;
struct tracefs_instance;

#define TFS_STATE_DIR "/run/flare"

/* Creates the instance flare_<pid> and the state file. *ret is freed by tfs_close(). */
int tfs_open(struct tfs **ret);
/* The instance's name (flare_<pid>) and its libtracefs handle. */
const char *tfs_name(const struct tfs *t);
struct tracefs_instance *tfs_instance(const struct tfs *t);
/* The path of file inside the instance (top false) or at top level (top true); free() it. */
char *tfs_path(const struct tfs *t, bool top, const char *file);

/* Writes val to file in the instance. 0 or -errno (the kernel's refusal: -EPERM, -EINVAL). */
int tfs_set(struct tfs *t, const char *file, const char *val);
/* Writes val to the top-level file after journalling its current value. 0, -errno; when the
 * current value cannot be read (-EPERM...), nothing is written. */
int tfs_set_top(struct tfs *t, const char *file, const char *val);
/* Enables the event sys:name in the instance (globs allowed in both). 0 or -ENOENT. */
int tfs_event_enable(struct tfs *t, const char *sys, const char *name);
/* Appends to events/sys/name/<file> (file is "filter" or "trigger"), for every event the
 * globs match. 0, -ENOENT when none does, or the kernel's -errno. */
int tfs_event_write(struct tfs *t, const char *sys, const char *name, const char *file,
		    const char *val);

/* Puts back every top-level file, removes the instance and the state file, frees t.
 * Accepts NULL. 0 or the first -errno met (all steps are still tried). */
int tfs_close(struct tfs *t);

/* Told about each dead process whose changes tfs_recover() put back: its pid and a line
 * saying what was done ("removed instance flare_12, put back tracing_thresh"). */
typedef void (*tfs_note_fn)(void *ctx, pid_t pid, const char *what);
/* Restores tracefs after flare processes that died without tfs_close(). Once per process;
 * later calls return 0 at once. With note NULL, each is told through log_warn(). tp.c calls
 * it when it first finds tracefs, so every command that uses tracefs cleans up. Returns the number of dead processes cleaned up, or -errno. */
int tfs_recover(tfs_note_fn note, void *ctx);

/* One parsed state-file line. */
enum tfs_rec_kind { TFS_REC_OWNER, TFS_REC_INSTANCE, TFS_REC_SET };
struct tfs_rec {
	enum tfs_rec_kind kind;
	pid_t pid;		  /* OWNER */
	unsigned long long start; /* OWNER: the owner's start time (/proc/PID/stat field 22) */
	const char *name;	  /* INSTANCE: name; SET: file */
	const char *value;	  /* SET: the value to put back */
};
typedef int (*tfs_rec_fn)(void *ctx, const struct tfs_rec *rec);
/* Parses a state file held in buf (modified in place; it need not end in NUL, len bytes).
 * Calls fn for each record; a non-zero return stops and is returned. -ERR_FORMAT on a line
 * that is not a record, or a file name that would leave tracefs ("..", "/"). */
int tfs_state_parse(char *buf, size_t len, tfs_rec_fn fn, void *ctx);

#endif
