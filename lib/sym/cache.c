// SPDX-License-Identifier: GPL-2.0
/*
 * cache: where perf's build-id cache keeps copies of what a recording hit, so that a file can
 * be read after the binaries or the kernel changed. The directory is $PERF_BUILDID_DIR when
 * set, else $HOME/.debug (perf's default); a reader under --symfs DIR reads DIR/.debug. Layout, as perf 6.1 writes it:
 *   <dir>/.build-id/xx/rest/{elf,debug}        an object (or its debug info) by build-id
 *   <dir>/[kernel.kallsyms]/<id>/kallsyms      the kernel's symbols (older perf: <id> itself)
 *   <dir>/<path>/<id>/elf, <dir>/[vdso]/<id>/vdso   the copies themselves, which
 *   <dir>/.build-id/xx/rest -> ../../<path>/<id>    names by build-id
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/base/strbuf.h"
#include "lib/sym/sym-int.h"

const char *buildid_cache_dir(char *buf, size_t len)
{
	const char *dir = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME");

	if (dir && dir[0])
		snprintf(buf, len, "%s", dir);
	else if (home && home[0] == '/')
		snprintf(buf, len, "%s/.debug", home);
	else
		return NULL;
	return buf;
}

int buildid_hex(const uint8_t *id, size_t n, char hex[41])
{
	size_t i;

	if (n > 20)
		n = 20;
	for (i = 0; i < n; i++)
		sprintf(hex + 2 * i, "%02x", id[i]);
	hex[2 * n] = '\0';
	return (int)(2 * n);
}

const char *symtab_cache_dir(const struct symtab *st, char *buf, size_t len)
{
	if (!st->cache_dir)
		return buildid_cache_dir(buf, len);
	snprintf(buf, len, "%s", st->cache_dir);
	return buf;
}

const char *buildid_cache_path(const struct symtab *st, const struct dso *d, const char *leaf,
			       char *buf, size_t len)
{
	char dir[4096], hex[41];

	if (!d->build_id_size || !symtab_cache_dir(st, dir, sizeof(dir)))
		return NULL;
	buildid_hex(d->build_id, d->build_id_size, hex);
	snprintf(buf, len, "%s/.build-id/%.2s/%s/%s", dir, hex, hex + 2, leaf);
	return buf;
}

/* A readable regular file (not the directory of a newer cache layout). */
static bool is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, R_OK);
}

const char *buildid_cache_kallsyms(const struct symtab *st, const struct dso *kernel, char *buf,
				   size_t len)
{
	char dir[4096], hex[41];

	if (!kernel->build_id_size || !symtab_cache_dir(st, dir, sizeof(dir)))
		return NULL;
	buildid_hex(kernel->build_id, kernel->build_id_size, hex);
	snprintf(buf, len, "%s/[kernel.kallsyms]/%s/kallsyms", dir, hex);
	if (is_file(buf))
		return buf;
	/* older perf kept the file itself under the build-id; newer ones make it a directory */
	snprintf(buf, len, "%s/[kernel.kallsyms]/%s", dir, hex);
	return is_file(buf) ? buf : NULL;
}

/* mkdir -p of path (which is modified and restored). 0 or -errno. */
static int mkdirs(char *path)
{
	char *p;

	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			*p = '/';
			return -errno;
		}
		*p = '/';
	}
	return mkdir(path, 0755) && errno != EEXIST ? -errno : 0;
}

/* Writes len bytes of buf to a new file dst (mode 0644). 0 or -errno; no partial file. */
static int write_copy(const char *dst, const void *buf, size_t len)
{
	int fd = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644), err = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	for (; len && !err; buf = (const char *)buf + n, len -= n) {
		n = write(fd, buf, len);
		if (n <= 0)
			err = n < 0 ? -errno : -EIO;
	}
	if (close(fd) && !err)
		err = -errno;
	if (err)
		unlink(dst);
	return err;
}

/* A hard link of src at dst where they share a file system, else a copy. */
static int copy_file(const char *src, const char *dst)
{
	struct strbuf sb = STRBUF_INIT;
	int err;

	if (!link(src, dst) || errno == EEXIST)
		return 0;
	err = strbuf_read_file(&sb, src);
	if (!err)
		err = write_copy(dst, sb.buf, sb.len);
	strbuf_release(&sb);
	return err;
}

/* Copies what name is into dir/leaf: /proc/kallsyms, the vdso image, or the file. */
static int cache_copy(const char *name, const char *dir, char *buf, size_t len)
{
	const void *image;
	size_t size;

	if (!strcmp(name, "[kernel.kallsyms]")) {
		struct strbuf sb = STRBUF_INIT;
		int err = strbuf_read_file(&sb, "/proc/kallsyms");

		snprintf(buf, len, "%s/kallsyms", dir);
		if (!err)
			err = write_copy(buf, sb.buf, sb.len);
		strbuf_release(&sb);
		return err;
	}
	if (!strcmp(name, "[vdso]")) {
		image = vdso_image(&size);
		snprintf(buf, len, "%s/vdso", dir);
		return image ? write_copy(buf, image, size) : -ENOENT;
	}
	snprintf(buf, len, "%s/elf", dir);
	return copy_file(name, buf);
}

int buildid_cache_add(const char *name, const uint8_t *id, size_t n)
{
	char top[4096], dir[8192], link_path[8192], target[8320], hex[41];
	uint8_t now[20];
	int err;

	if (!n || (name[0] != '/' && strcmp(name, "[kernel.kallsyms]") && strcmp(name, "[vdso]")))
		return 0;
	if (!buildid_cache_dir(top, sizeof(top)))
		return -ENOENT;
	buildid_hex(id, n, hex);
	snprintf(link_path, sizeof(link_path), "%s/.build-id/%.2s/%s", top, hex, hex + 2);
	if (!access(link_path, F_OK))
		return 0; /* cached already */
	/* only what is still the object that was recorded */
	if (buildid_of(name, now, sizeof(now)) != (int)n || memcmp(now, id, n))
		return 0;
	snprintf(dir, sizeof(dir), "%s/%s/%s", top, name[0] == '/' ? name + 1 : name, hex);
	err = mkdirs(dir);
	if (!err)
		err = cache_copy(name, dir, target, sizeof(target));
	if (err && err != -EEXIST)
		return err;
	snprintf(target, sizeof(target), "../../%s/%s", name[0] == '/' ? name + 1 : name, hex);
	*strrchr(link_path, '/') = '\0';
	err = mkdirs(link_path);
	link_path[strlen(link_path)] = '/';
	if (!err && symlink(target, link_path) && errno != EEXIST)
		err = -errno;
	return err;
}
