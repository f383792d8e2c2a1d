// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "lib/base/err.h"
#include "lib/base/strbuf.h"
#include "lib/probe/events.h"
#include "lib/trace/tp.h"

static int events_path(enum probe_kind kind, char *buf, size_t len)
{
	const char *dir;
	int r = tp_tracefs_dir(&dir);

	if (r)
		return r;
	snprintf(buf, len, "%s/%s", dir, kind == PROBE_UPROBE ? "uprobe_events" : "kprobe_events");
	return 0;
}

int probe_events_available(enum probe_kind kind)
{
	char path[4096];

	return !events_path(kind, path, sizeof(path)) && !access(path, W_OK);
}

static int parse_line(enum probe_kind kind, char *line, struct probe_def *d)
{
	char *sp, *slash, *colon, *target;

	memset(d, 0, sizeof(*d));
	d->kind = kind;
	d->raw = strdup(line);
	if (!d->raw)
		return -ENOMEM;
	if ((line[0] != 'p' && line[0] != 'r') || line[1] != ':')
		return -ERR_FORMAT;
	d->is_return = line[0] == 'r';
	line += 2;
	sp = strchr(line, ' ');
	slash = strchr(line, '/');
	if (!sp || !slash || slash > sp)
		return -ERR_FORMAT;
	*sp = '\0';
	*slash = '\0';
	target = sp + 1;
	sp = strchr(target, ' ');
	if (sp)
		*sp = '\0';
	d->group = strdup(line);
	d->event = strdup(slash + 1);
	d->args = strdup(sp ? sp + 1 : "");
	if (kind == PROBE_UPROBE) {
		colon = strrchr(target, ':');
		if (!colon)
			return -ERR_FORMAT;
		*colon = '\0';
		d->path = strdup(target);
		d->offset = strtoull(colon + 1, NULL, 0);
		/* a reference-counter suffix "(0x...)" follows the offset for SDT probes */
	} else {
		d->target = strdup(target);
	}
	return d->group && d->event && d->args ? 0 : -ENOMEM;
}

static void def_release(struct probe_def *d)
{
	free(d->group);
	free(d->event);
	free(d->path);
	free(d->target);
	free(d->args);
	free(d->raw);
	memset(d, 0, sizeof(*d));
}

void probe_defs_free(struct probe_def *defs, size_t nr)
{
	size_t i;

	if (!defs)
		return;
	for (i = 0; i < nr; i++)
		def_release(&defs[i]);
	free(defs);
}

static int cmp_raw(const void *a, const void *b)
{
	return strcmp(((const struct probe_def *)a)->raw, ((const struct probe_def *)b)->raw);
}

int probe_events_read(enum probe_kind kind, struct probe_def **defs, size_t *nr)
{
	struct strbuf sb = STRBUF_INIT;
	char path[4096], *line, *save = NULL;
	struct probe_def *out = NULL;
	size_t n = 0;
	int r = events_path(kind, path, sizeof(path));

	*defs = NULL;
	*nr = 0;
	if (r)
		return r;
	r = strbuf_read_file(&sb, path);
	if (r == -ENOENT) {
		strbuf_release(&sb);
		return 0;
	}
	for (line = strtok_r(sb.buf, "\n", &save); line && !r; line = strtok_r(NULL, "\n", &save)) {
		struct probe_def *m = realloc(out, (n + 1) * sizeof(*m));

		if (!m) {
			r = -ENOMEM;
			break;
		}
		out = m;
		if (parse_line(kind, line, &out[n]) == 0)
			n++;
		else
			def_release(&out[n]); /* a line of a kind flare does not read */
	}
	strbuf_release(&sb);
	if (r) {
		probe_defs_free(out, n);
		return r;
	}
	if (n)
		qsort(out, n, sizeof(*out), cmp_raw);
	*defs = out;
	*nr = n;
	return 0;
}

int probe_event_exists(const char *group, const char *event)
{
	const char *dir;
	char path[4096];
	struct stat st;

	if (tp_tracefs_dir(&dir))
		return 0;
	snprintf(path, sizeof(path), "%s/events/%s/%s", dir, group, event);
	return !stat(path, &st);
}

static int write_line(const char *path, const char *line)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC), r = 0;
	size_t len = strlen(line);

	if (fd < 0)
		return -errno;
	if (write(fd, line, len) != (ssize_t)len)
		r = -errno ? -errno : -EIO;
	close(fd);
	return r;
}

int probe_event_remove(enum probe_kind kind, const char *group, const char *event)
{
	char path[4096], line[1024];
	int r = events_path(kind, path, sizeof(path)), n;

	if (r)
		return r;
	n = snprintf(line, sizeof(line), "-:%s/%s", group, event);
	if (n < 0 || (size_t)n >= sizeof(line))
		return -ENAMETOOLONG;
	return write_line(path, line);
}

/* "p:group/event ..." -> group, event */
static void line_name(const char *line, char *group, char *event, size_t len)
{
	const char *g = line + 2, *s = strchr(g, '/'), *e = s ? s + 1 : g;
	size_t el = strcspn(e, " ");

	snprintf(group, len, "%.*s", s ? (int)(s - g) : 0, g);
	snprintf(event, len, "%.*s", (int)el, e);
}

int probe_events_add(enum probe_kind kind, char *const *lines, size_t n, size_t *failed)
{
	char path[4096], g[256], e[256];
	size_t i;
	int r = events_path(kind, path, sizeof(path));

	if (r)
		return r;
	for (i = 0; i < n; i++) {
		r = write_line(path, lines[i]);
		if (r)
			break;
	}
	if (!r)
		return 0;
	*failed = i;
	while (i-- > 0) { /* all or none */
		line_name(lines[i], g, e, sizeof(g));
		probe_event_remove(kind, g, e);
	}
	return r;
}
