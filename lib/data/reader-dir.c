// SPDX-License-Identifier: GPL-2.0
/*
 * reader-dir: perf.data directories (perf record --threads): DIR/data is an ordinary file
 * (header, attrs, its own data section, features) and DIR/data.0, data.1, ... hold the
 * records of each writer thread, headerless. The reader walks data's section, then each
 * data.N in numeric order; every file is mapped until close.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/base/err.h"
#include "lib/data/reader-priv.h"

struct pd_dir_file {
	const uint8_t *map;
	size_t len;
	char name[300]; /* " of data.N" */
};

static int data_n_filter(const struct dirent *d)
{
	char *end;

	if (strncmp(d->d_name, "data.", 5) || !d->d_name[5])
		return 0;
	strtoul(d->d_name + 5, &end, 10);
	return !*end;
}

static int data_n_cmp(const struct dirent **a, const struct dirent **b)
{
	unsigned long x = strtoul((*a)->d_name + 5, NULL, 10);
	unsigned long y = strtoul((*b)->d_name + 5, NULL, 10);

	return x < y ? -1 : x > y;
}

/* Maps DIR/name into f (nothing mapped for an empty file). */
static int map_one(struct perf_data *pd, int dfd, const char *name, unsigned int flags,
		   struct pd_dir_file *f)
{
	int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC), err = 0;
	struct stat st;
	void *m;

	if (fd < 0 || fstat(fd, &st))
		err = pd_err(pd, -errno, "cannot open %s: %s", name, strerror(errno));
	else if (!(flags & PD_FORCE) && st.st_uid && st.st_uid != geteuid())
		err = pd_err(pd, -EPERM,
			     "%s is not owned by current user or root (use -f to read it anyway)",
			     name);
	else if (st.st_size > 0) {
		m = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m == MAP_FAILED)
			err = pd_err(pd, -errno, "cannot map %s: %s", name, strerror(errno));
		else {
			f->map = m;
			f->len = st.st_size;
		}
	}
	snprintf(f->name, sizeof(f->name), " of %s", name);
	if (fd >= 0)
		close(fd);
	return err;
}

int pd_dir_open(struct perf_data *pd, const char *path, unsigned int flags)
{
	struct pd_priv *p = pd_priv(pd);
	struct dirent **list = NULL;
	char data[4096];
	int n, i, dfd, err;

	snprintf(data, sizeof(data), "%s/data", path);
	p->in_dir = true;
	err = pd_open_path(pd, data, flags);
	if (err)
		return err;
	if (pd->is_pipe)
		return pd_err(pd, -ERR_FORMAT, "%s is in pipe format, not a perf.data file", data);
	dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return pd_err(pd, -errno, "%s", strerror(errno));
	n = scandir(path, &list, data_n_filter, data_n_cmp);
	if (n > 0)
		p->dir_files = calloc(n, sizeof(*p->dir_files));
	for (i = 0; i < n; i++) {
		if (!err && !p->dir_files)
			err = -ENOMEM;
		if (!err)
			err = map_one(pd, dfd, list[i]->d_name, flags, &p->dir_files[i]);
		if (!err)
			p->nr_dir_files++;
		free(list[i]);
	}
	free(list);
	close(dfd);
	return n < 0 ? pd_err(pd, -errno, "cannot list %s: %s", path, strerror(errno)) : err;
}

bool pd_dir_next_file(struct pd_priv *p)
{
	struct pd_dir_file *f;

	while (p->next_dir_file < p->nr_dir_files) {
		f = &p->dir_files[p->next_dir_file++];
		if (!f->map)
			continue;
		p->cur = f->map;
		p->cur_name = f->name;
		p->pos = p->dropped = 0;
		p->end = p->data_end = f->len;
		return true;
	}
	return false;
}

void pd_dir_free(struct pd_priv *p)
{
	size_t i;

	for (i = 0; i < p->nr_dir_files; i++)
		if (p->dir_files[i].map)
			munmap((void *)p->dir_files[i].map, p->dir_files[i].len);
	free(p->dir_files);
}
