// SPDX-License-Identifier: GPL-2.0
/*
 * tfs: tracefs changes that are always put back (see tfs.h for the contract).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <tracefs.h>
#include "lib/base/err.h"
#include "lib/base/log.h"
#include "lib/base/strbuf.h"
#include "lib/trace/tfs.h"
#include "lib/trace/tp.h"

#define TFS_MAX_SAVED 16

struct tfs_saved {
	char *file;
	char *old;
	bool changed; /* our write succeeded: put old back at close */
};

struct tfs {
	char name[32];
	char state[sizeof(TFS_STATE_DIR) + 32];
	const char *dir;
	struct tracefs_instance *inst;
	struct tfs_saved saved[TFS_MAX_SAVED];
	size_t nr_saved;
};

/* Writes val to path (truncating unless append). 0 or -errno. */
static int file_write(const char *path, const char *val, bool append)
{
	size_t len = strlen(val);
	int fd, err = 0;
	ssize_t n;

	fd = open(path, O_WRONLY | O_CLOEXEC | (append ? O_APPEND : O_TRUNC));
	if (fd < 0)
		return -errno;
	n = write(fd, val, len);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	close(fd);
	return err;
}

/* The value a tracefs file shows, as it must be written back: the bracketed choice of a
 * list ("local [global] ..."), else the one line. -EINVAL for several lines. */
static int restore_value(const char *path, char **ret)
{
	struct strbuf sb = STRBUF_INIT;
	char *s, *l, *r;
	int err;

	err = strbuf_read_file(&sb, path);
	if (err < 0) {
		strbuf_release(&sb);
		return err;
	}
	s = sb.buf;
	l = strchr(s, '[');
	r = l ? strchr(l, ']') : NULL;
	if (l && r) {
		*r = '\0';
		s = l + 1;
	} else {
		while (sb.len && sb.buf[sb.len - 1] == '\n')
			sb.buf[--sb.len] = '\0';
		if (strchr(s, '\n')) {
			strbuf_release(&sb);
			return -EINVAL;
		}
	}
	*ret = strdup(s);
	strbuf_release(&sb);
	return *ret ? 0 : -ENOMEM;
}

/* Journals "set FILE VALUE". */
static int state_append(struct tfs *t, const char *file, const char *value)
{
	char line[512];
	int n = snprintf(line, sizeof(line), "set %s %s\n", file, value);

	if (n < 0 || (size_t)n >= sizeof(line))
		return -ENAMETOOLONG;
	return file_write(t->state, line, true);
}

/* The start time of pid (field 22 of /proc/PID/stat), 0 when it is gone. */
static unsigned long long proc_start(pid_t pid)
{
	unsigned long long start = 0;
	char path[64], buf[1024], *p;
	ssize_t n;
	int fd, i;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	p = strrchr(buf, ')'); /* the comm may hold spaces */
	for (i = 2; p && i < 22; i++)
		p = strchr(p + 1, ' ');
	if (p)
		start = strtoull(p + 1, NULL, 10);
	return start;
}

int tfs_open(struct tfs **ret)
{
	struct tfs *t;
	char line[128];
	int err;

	tfs_recover(NULL, NULL); /* a stale file of a reused pid must not be overwritten */
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	err = tp_tracefs_dir(&t->dir);
	if (err)
		goto out_free;
	snprintf(t->name, sizeof(t->name), "flare_%d", (int)getpid());
	snprintf(t->state, sizeof(t->state), "%s/tfs-%d.state", TFS_STATE_DIR, (int)getpid());
	if (mkdir(TFS_STATE_DIR, 0700) && errno != EEXIST) {
		err = -errno;
		goto out_free;
	}
	/* the record comes first, so a kill between the two still finds the instance */
	snprintf(line, sizeof(line), "owner %d %llu\ninstance %s\n", (int)getpid(),
		 proc_start(getpid()), t->name);
	err = file_write(t->state, "", false);
	if (err == -ENOENT) {
		int fd = open(t->state, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

		err = fd < 0 ? -errno : 0;
		if (fd >= 0)
			close(fd);
	}
	if (!err)
		err = file_write(t->state, line, true);
	if (err)
		goto out_free;
	t->inst = tracefs_instance_create(t->name);
	if (!t->inst) {
		err = errno ? -errno : -ENOMEM;
		goto out_state;
	}
	if (!tracefs_instance_is_new(t->inst)) {
		/* not ours: leave it alone */
		tracefs_instance_free(t->inst);
		t->inst = NULL;
		err = -EEXIST;
		goto out_state;
	}
	*ret = t;
	return 0;
out_state:
	unlink(t->state);
out_free:
	free(t);
	return err;
}

const char *tfs_name(const struct tfs *t)
{
	return t->name;
}

struct tracefs_instance *tfs_instance(const struct tfs *t)
{
	return t->inst;
}

char *tfs_path(const struct tfs *t, bool top, const char *file)
{
	char *p;

	if (top) {
		if (asprintf(&p, "%s/%s", t->dir, file) < 0)
			return NULL;
		return p;
	}
	return tracefs_instance_get_file(t->inst, file);
}

static int inst_write(struct tfs *t, const char *file, const char *val, bool append)
{
	char *path = tfs_path(t, false, file);
	int err;

	if (!path)
		return -ENOMEM;
	err = file_write(path, val, append);
	tracefs_put_tracing_file(path);
	return err;
}

int tfs_set(struct tfs *t, const char *file, const char *val)
{
	return inst_write(t, file, val, false);
}

static struct tfs_saved *saved_find(struct tfs *t, const char *file)
{
	size_t i;

	for (i = 0; i < t->nr_saved; i++)
		if (!strcmp(t->saved[i].file, file))
			return &t->saved[i];
	return NULL;
}

int tfs_set_top(struct tfs *t, const char *file, const char *val)
{
	struct tfs_saved *s = saved_find(t, file);
	char *path = tfs_path(t, true, file), *old = NULL;
	int err;

	if (!path)
		return -ENOMEM;
	if (!s) {
		err = t->nr_saved < TFS_MAX_SAVED ? restore_value(path, &old) : -ENOSPC;
		if (!err)
			err = state_append(t, file, old);
		if (!err) {
			s = &t->saved[t->nr_saved];
			s->file = strdup(file);
			s->old = old;
			s->changed = false;
			if (!s->file) {
				err = -ENOMEM;
				free(old);
			} else {
				t->nr_saved++;
			}
		} else {
			free(old);
		}
		if (err) {
			free(path);
			return err;
		}
	}
	err = file_write(path, val, false);
	if (!err)
		s->changed = true;
	free(path);
	return err;
}

struct ev_write {
	struct tfs *t;
	const char *file, *val;
	int err;
};

static int ev_write_one(const char *sys, const char *name, void *arg)
{
	struct ev_write *w = arg;
	char file[512];
	int err;

	snprintf(file, sizeof(file), "events/%s/%s/%s", sys, name, w->file);
	err = inst_write(w->t, file, w->val, !strcmp(w->file, "trigger"));
	if (err && !w->err)
		w->err = err;
	return 0;
}

int tfs_event_write(struct tfs *t, const char *sys, const char *name, const char *file,
		    const char *val)
{
	struct ev_write w = { t, file, val, 0 };
	int n = tp_for_each(sys, name, 0, ev_write_one, &w);

	if (n < 0)
		return n;
	if (n == 0)
		return -ENOENT;
	return w.err;
}

int tfs_event_enable(struct tfs *t, const char *sys, const char *name)
{
	return tfs_event_write(t, sys, name, "enable", "1");
}

/* Removes an instance: stops it first, so that nothing is recorded while it goes. */
static int instance_remove(const char *dir, const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/instances/%s/tracing_on", dir, name);
	if (access(path, F_OK))
		return 0;
	file_write(path, "0", false);
	snprintf(path, sizeof(path), "%s/instances/%s", dir, name);
	return rmdir(path) ? -errno : 0;
}

int tfs_close(struct tfs *t)
{
	int err = 0, e;
	size_t i;

	if (!t)
		return 0;
	if (t->inst) {
		e = instance_remove(t->dir, t->name);
		if (e && !err)
			err = e;
		tracefs_instance_free(t->inst);
	}
	for (i = t->nr_saved; i-- > 0;) {
		struct tfs_saved *s = &t->saved[i];

		if (s->changed) {
			char *path = tfs_path(t, true, s->file);

			e = path ? file_write(path, s->old, false) : -ENOMEM;
			if (e && !err)
				err = e;
			free(path);
		}
		free(s->file);
		free(s->old);
	}
	/* a state file left behind would be replayed by the next command: only when clean */
	if (!err)
		unlink(t->state);
	free(t);
	return err;
}

static bool name_ok(const char *s)
{
	if (!*s || *s == '/' || strstr(s, ".."))
		return false;
	for (; *s; s++)
		if (!(*s == '_' || *s == '-' || *s == '/' || *s == '.' ||
		      (*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') ||
		      (*s >= 'A' && *s <= 'Z')))
			return false;
	return true;
}

static int parse_line(char *line, tfs_rec_fn fn, void *ctx)
{
	struct tfs_rec rec = { 0 };
	char *sp = strchr(line, ' '), *end;

	if (!sp)
		return -ERR_FORMAT;
	*sp++ = '\0';
	if (!strcmp(line, "owner")) {
		long pid = strtol(sp, &end, 10);

		if (end == sp || *end != ' ' || pid <= 0 || pid > 0x3fffffff)
			return -ERR_FORMAT;
		rec.kind = TFS_REC_OWNER;
		rec.pid = (pid_t)pid;
		sp = end + 1;
		rec.start = strtoull(sp, &end, 10);
		if (end == sp || *end)
			return -ERR_FORMAT;
	} else if (!strcmp(line, "instance")) {
		rec.kind = TFS_REC_INSTANCE;
		rec.name = sp;
		if (!name_ok(sp) || strchr(sp, '/'))
			return -ERR_FORMAT;
	} else if (!strcmp(line, "set")) {
		char *v = strchr(sp, ' ');

		if (!v)
			return -ERR_FORMAT;
		*v++ = '\0';
		rec.kind = TFS_REC_SET;
		rec.name = sp;
		rec.value = v;
		if (!name_ok(sp))
			return -ERR_FORMAT;
	} else {
		return -ERR_FORMAT;
	}
	return fn(ctx, &rec);
}

int tfs_state_parse(char *buf, size_t len, tfs_rec_fn fn, void *ctx)
{
	size_t i = 0;
	int err;

	while (i < len) {
		char *line = buf + i, *nl = memchr(line, '\n', len - i);

		if (!nl)
			return -ERR_FORMAT; /* a record is only complete with its newline */
		*nl = '\0';
		if (memchr(line, '\0', (size_t)(nl - line)))
			return -ERR_FORMAT;
		i = (size_t)(nl - buf) + 1;
		err = parse_line(line, fn, ctx);
		if (err)
			return err;
	}
	return 0;
}

struct recover {
	const char *dir;
	pid_t pid;
	bool alive;
	struct strbuf what;
	int err;
};

static int recover_rec(void *ctx, const struct tfs_rec *rec)
{
	struct recover *r = ctx;
	char path[4096];
	int err = 0;

	switch (rec->kind) {
	case TFS_REC_OWNER:
		r->pid = rec->pid;
		r->alive = proc_start(rec->pid) == rec->start && rec->start;
		if (r->alive)
			return 1; /* still running: its changes are its own */
		return 0;
	case TFS_REC_INSTANCE:
		if (!r->pid)
			return -ERR_FORMAT;
		snprintf(path, sizeof(path), "%s/instances/%s", r->dir, rec->name);
		if (access(path, F_OK))
			return 0;
		err = instance_remove(r->dir, rec->name);
		strbuf_addf(&r->what, "%sremoved instance %s", r->what.len ? ", " : "", rec->name);
		break;
	case TFS_REC_SET:
		if (!r->pid)
			return -ERR_FORMAT;
		snprintf(path, sizeof(path), "%s/%s", r->dir, rec->name);
		err = file_write(path, rec->value, false);
		strbuf_addf(&r->what, "%sput back %s (%s)", r->what.len ? ", " : "", rec->name,
			    rec->value);
		break;
	}
	if (err && !r->err)
		r->err = err;
	return 0;
}

static int recover_file(const char *dir, const char *path, tfs_note_fn note, void *ctx)
{
	struct recover r = { .dir = dir, .what = STRBUF_INIT };
	struct strbuf sb = STRBUF_INIT;
	int err;

	err = strbuf_read_file(&sb, path);
	if (err >= 0)
		err = tfs_state_parse(sb.buf, sb.len, recover_rec, &r);
	strbuf_release(&sb);
	if (err == 1 || r.alive) {
		strbuf_release(&r.what);
		return 0;
	}
	if (err < 0 && err != -ERR_FORMAT) {
		strbuf_release(&r.what);
		return err;
	}
	if (err == -ERR_FORMAT)
		log_warn("%s is not a flare state file: removed", path);
	else if (note)
		note(ctx, r.pid, r.what.len ? r.what.buf : "nothing left to put back");
	else
		log_warn("tracefs put back as flare (pid %d, killed) had found it: %s", (int)r.pid,
			 r.what.len ? r.what.buf : "nothing left to put back");
	if (!r.err)
		unlink(path);
	err = r.err;
	strbuf_release(&r.what);
	return err < 0 ? err : 1;
}

int tfs_recover(tfs_note_fn note, void *ctx)
{
	static bool done;
	const char *dir;
	struct dirent *de;
	char path[512];
	int n = 0, err;
	DIR *d;

	if (done)
		return 0;
	done = true;
	d = opendir(TFS_STATE_DIR);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	err = tp_tracefs_dir(&dir);
	while (!err && (de = readdir(d))) {
		int r;

		if (strncmp(de->d_name, "tfs-", 4) || !strstr(de->d_name, ".state"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", TFS_STATE_DIR, de->d_name);
		r = recover_file(dir, path, note, ctx);
		if (r < 0)
			err = r;
		else
			n += r;
	}
	closedir(d);
	return err ? err : n;
}
