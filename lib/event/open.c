// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "lib/base/err.h"
#include "lib/event/open.h"
#include "lib/event/pmu.h"

int event_open(const struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
	       unsigned long flags)
{
	long fd = syscall(SYS_perf_event_open, attr, pid, cpu, group_fd,
			  flags ? flags : PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : (int)fd;
}

void evfds_close(struct evfds *f)
{
	size_t i;

	if (!f->fd)
		return;
	for (i = 0; i < f->nr_tasks * f->nr_cpus; i++)
		if (f->fd[i] >= 0)
			close(f->fd[i]);
	free(f->fd);
	f->fd = NULL;
}

int evfds_open(struct evfds *f, const struct perf_event_attr *attr, const struct target *t,
	       const struct evfds *leader)
{
	size_t ti, ci, n, opened = 0;
	int fd, gfd, err = 0;

	f->nr_tasks = target_nr_tasks(t);
	f->nr_cpus = target_nr_cpus(t);
	n = f->nr_tasks * f->nr_cpus;
	f->fd = malloc(n * sizeof(*f->fd));
	if (!f->fd)
		return -ENOMEM;
	for (ti = 0; ti < n; ti++)
		f->fd[ti] = -1;
	for (ti = 0; ti < f->nr_tasks; ti++) {
		for (ci = 0; ci < f->nr_cpus; ci++) {
			size_t k = ti * f->nr_cpus + ci;

			gfd = leader ? leader->fd[k] : -1;
			if (leader && gfd < 0)
				continue;
			fd = event_open(attr, target_task(t, ti), target_cpu(t, ci), gfd, 0);
			if (fd == -ESRCH && t->tasks.nr > 1) {
				err = fd; /* a thread that is gone: skip unless all are */
				continue;
			}
			if (fd < 0) {
				evfds_close(f);
				return fd;
			}
			f->fd[k] = fd;
			opened++;
		}
	}
	if (!opened) {
		evfds_close(f);
		return err ? err : -ESRCH;
	}
	return 0;
}

int evfds_read(const struct evfds *f, size_t k, struct counts *c)
{
	uint64_t buf[3];
	ssize_t n;

	memset(c, 0, sizeof(*c));
	if (f->fd[k] < 0)
		return 0;
	n = read(f->fd[k], buf, sizeof(buf));
	if (n < 0)
		return -errno;
	if (n != (ssize_t)sizeof(buf))
		return -EIO;
	c->val = buf[0];
	c->ena = buf[1];
	c->run = buf[2];
	return 0;
}

int evfds_enable(const struct evfds *f, int enable)
{
	size_t k;
	int ret = 0;

	for (k = 0; f->fd && k < f->nr_tasks * f->nr_cpus; k++) {
		if (f->fd[k] < 0)
			continue;
		if (ioctl(f->fd[k], enable ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0) &&
		    !ret)
			ret = -errno;
	}
	return ret;
}

int evfds_set_filter(const struct evfds *f, const char *filter)
{
	size_t k;

	for (k = 0; f->fd && k < f->nr_tasks * f->nr_cpus; k++)
		if (f->fd[k] >= 0 && ioctl(f->fd[k], PERF_EVENT_IOC_SET_FILTER, filter))
			return -errno;
	return 0;
}

int have_hw_pmu(void)
{
	static int cached = -1;
	DIR *d;
	struct dirent *e;

	if (cached >= 0)
		return cached;
	cached = 0;
	d = opendir(PMU_SYSFS);
	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (!strcmp(e->d_name, "cpu") || !strncmp(e->d_name, "cpu_", 4) ||
		    !strncmp(e->d_name, "armv", 4))
			cached = 1;
	closedir(d);
	return cached;
}

static int is_hw(const struct perf_event_attr *attr)
{
	return attr->type == PERF_TYPE_HARDWARE || attr->type == PERF_TYPE_HW_CACHE ||
	       attr->type == PERF_TYPE_RAW;
}

static int paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = 2;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 2;
		fclose(f);
	}
	return v;
}

const char *event_open_reason(const struct perf_event_attr *attr, int err, char *buf, size_t len)
{
	if ((err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV || err == -EINVAL) &&
	    is_hw(attr) && !have_hw_pmu())
		return "no hardware PMU: this is a VM guest";
	switch (err) {
	case -EACCES:
	case -EPERM:
		snprintf(buf, len,
			 "not permitted: perf_event_paranoid is %d (run as root, or "
			 "sysctl kernel.perf_event_paranoid=-1)",
			 paranoid());
		return buf;
	case -EMFILE:
		return "too many open files (raise it with ulimit -n)";
	case -ESRCH:
		return "no such process: it exited before flare could attach";
	case -EBUSY:
		return "the counter is in use by another tool";
	case -ENOSPC:
		return "no free hardware breakpoint slot";
	case -EOPNOTSUPP:
		if (attr->precise_ip)
			return "precise sampling (:p) is not supported here (drop the p modifier)";
		if (attr->sample_period && attr->type == PERF_TYPE_SOFTWARE)
			return "this event cannot be sampled";
		return "not supported by this kernel or CPU";
	case -ENOENT:
	case -ENODEV:
		if (attr->type == PERF_TYPE_TRACEPOINT)
			return "the tracepoint is gone";
		return "this kernel or CPU does not have the event";
	case -EINVAL:
		if (attr->type == PERF_TYPE_BREAKPOINT)
			return "bad breakpoint address or length";
		return "invalid event settings for this kernel";
	default:
		snprintf(buf, len, "%s", err_str(err));
		return buf;
	}
}

int event_probe(const struct perf_event_attr *attr)
{
	struct perf_event_attr a = *attr;
	int fd;

	a.disabled = 1;
	a.size = sizeof(a);
	fd = event_open(&a, 0, -1, -1, 0);
	if (fd == -EINVAL || fd == -EOPNOTSUPP)
		fd = event_open(&a, -1, 0, -1, 0);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return fd;
}
