// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/base/strbuf.h"
#include "lib/base/vec.h"
#include "lib/event/target.h"

int idlist_add(struct idlist *l, int v)
{
	size_t i;

	/* ranges come in ascending order: appending is the common case */
	if (l->nr && l->ids[l->nr - 1] >= v)
		for (i = 0; i < l->nr; i++)
			if (l->ids[i] == v)
				return 0;
	if (vec_reserve_((void **)&l->ids, &l->alloc, l->nr + 1, sizeof(*l->ids)))
		return -ENOMEM;
	/* keep sorted: insertion */
	for (i = l->nr; i > 0 && l->ids[i - 1] > v; i--)
		l->ids[i] = l->ids[i - 1];
	l->ids[i] = v;
	l->nr++;
	return 0;
}

void idlist_release(struct idlist *l)
{
	free(l->ids);
	l->ids = NULL;
	l->nr = l->alloc = 0;
}

static int parse_num(const char *s, const char **end, long *v)
{
	char *e;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*v = strtol(s, &e, 10);
	if (errno || *v > 4194304)
		return -EINVAL;
	*end = e;
	return 0;
}

int idlist_parse(const char *s, struct idlist *out, int *bad_pos)
{
	const char *p = s, *e;
	long lo, hi, v;
	int r;

	*bad_pos = 0;
	if (!*p)
		return -EINVAL;
	while (*p) {
		if (parse_num(p, &e, &lo))
			goto bad;
		hi = lo;
		if (*e == '-') {
			p = e + 1;
			if (parse_num(p, &e, &hi) || hi < lo || hi - lo > 65536)
				goto bad;
		}
		for (v = lo; v <= hi; v++) {
			r = idlist_add(out, (int)v);
			if (r)
				return r;
		}
		p = e;
		if (*p == ',') {
			p++;
			if (!*p)
				goto bad;
		} else if (*p) {
			goto bad;
		}
	}
	return 0;
bad:
	*bad_pos = (int)(p - s);
	return -EINVAL;
}

int cpus_online(struct idlist *out)
{
	struct strbuf sb = STRBUF_INIT;
	int r, bad;

	r = strbuf_read_file(&sb, "/sys/devices/system/cpu/online");
	if (!r) {
		while (sb.len && sb.buf[sb.len - 1] == '\n')
			strbuf_setlen(&sb, sb.len - 1);
		r = idlist_parse(sb.buf, out, &bad);
	}
	if (r) {
		long n = sysconf(_SC_NPROCESSORS_ONLN), i;

		for (i = 0, r = 0; i < n && !r; i++)
			r = idlist_add(out, (int)i);
	}
	strbuf_release(&sb);
	return r;
}

/* Adds the threads of pid (all of /proc/pid/task) to l; -ESRCH when pid does not exist. */
static int add_threads(struct idlist *l, int pid)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int r = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return -ESRCH;
	while (!r && (d = readdir(dir)))
		if (d->d_name[0] >= '0' && d->d_name[0] <= '9')
			r = idlist_add(l, atoi(d->d_name));
	closedir(dir);
	return r;
}

static int add_tasks(struct target *t, const char *s, int *bad, bool threads)
{
	struct idlist ids = { 0 };
	char path[64];
	size_t i;
	int r;

	r = idlist_parse(s, &ids, bad);
	for (i = 0; !r && i < ids.nr; i++) {
		snprintf(path, sizeof(path), "/proc/%d", ids.ids[i]);
		if (ids.ids[i] <= 0 || access(path, F_OK)) {
			*bad = ids.ids[i];
			r = -ESRCH;
			break;
		}
		if (threads) {
			r = add_threads(&t->tasks, ids.ids[i]);
			if (!r)
				r = idlist_add(&t->pids, ids.ids[i]);
		} else {
			r = idlist_add(&t->tasks, ids.ids[i]);
		}
		if (r == -ESRCH)
			*bad = ids.ids[i];
	}
	idlist_release(&ids);
	return r;
}

int target_add_pids(struct target *t, const char *s, int *bad)
{
	return add_tasks(t, s, bad, true);
}

int target_add_tids(struct target *t, const char *s, int *bad)
{
	t->per_thread = true;
	return add_tasks(t, s, bad, false);
}

int target_set_cpus(struct target *t, const char *s, int *bad)
{
	struct idlist want = { 0 }, online = { 0 };
	size_t i, j;
	int r;

	r = idlist_parse(s, &want, bad);
	if (!r)
		r = cpus_online(&online);
	for (i = 0; !r && i < want.nr; i++) {
		for (j = 0; j < online.nr && online.ids[j] != want.ids[i]; j++)
			;
		if (j == online.nr) {
			*bad = want.ids[i];
			r = -ENODEV;
		}
	}
	idlist_release(&online);
	if (r) {
		idlist_release(&want);
		return r;
	}
	idlist_release(&t->cpus);
	t->cpus = want;
	t->system_wide = true;
	return 0;
}

int target_set_all_cpus(struct target *t)
{
	idlist_release(&t->cpus);
	t->system_wide = true;
	return cpus_online(&t->cpus);
}

int target_set_workload(struct target *t, pid_t pid)
{
	return idlist_add(&t->tasks, pid);
}

size_t target_nr_tasks(const struct target *t)
{
	return t->tasks.nr ? t->tasks.nr : 1;
}

size_t target_nr_cpus(const struct target *t)
{
	return t->cpus.nr ? t->cpus.nr : 1;
}

int target_task(const struct target *t, size_t i)
{
	return t->tasks.nr ? t->tasks.ids[i] : -1;
}

int target_cpu(const struct target *t, size_t i)
{
	return t->cpus.nr ? t->cpus.ids[i] : -1;
}

void target_release(struct target *t)
{
	idlist_release(&t->tasks);
	idlist_release(&t->cpus);
	idlist_release(&t->pids);
}

static int topo_read(int cpu, const char *what)
{
	char path[128];
	FILE *f;
	int v = 0;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, what);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%d", &v) != 1 || v < 0)
		v = 0;
	fclose(f);
	return v;
}

void cpu_topology(int cpu, int *socket, int *die, int *core)
{
	*socket = topo_read(cpu, "physical_package_id");
	*die = topo_read(cpu, "die_id");
	*core = topo_read(cpu, "core_id");
}

int cpu_node(int cpu)
{
	char path[96];
	struct dirent *d;
	DIR *dir;
	int node = 0;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((d = readdir(dir)))
		if (!strncmp(d->d_name, "node", 4) && d->d_name[4] >= '0' && d->d_name[4] <= '9')
			node = atoi(d->d_name + 4);
	closedir(dir);
	return node;
}

int target_add_all_threads(struct target *t)
{
	struct dirent *d;
	DIR *dir = opendir("/proc");
	int r = 0;

	if (!dir)
		return -errno;
	while (!r && (d = readdir(dir))) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		r = add_threads(&t->tasks, atoi(d->d_name));
		if (r == -ESRCH)
			r = 0; /* exited meanwhile */
	}
	closedir(dir);
	return r;
}
