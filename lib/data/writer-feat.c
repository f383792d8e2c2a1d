// SPDX-License-Identifier: GPL-2.0
/*
 * writer-feat: the payloads of perf.data feature sections, built from the running system the
 * way perf 6.1 builds them (uname, /proc, /sys/devices/system, /sys/bus/event_source).
 * Layouts: doc/perf-data-format.md section 8.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "lib/base/vec.h"
#include "lib/data/writer.h"
#include "lib/event/pmu.h"

#define SYS_CPU "/sys/devices/system/cpu"
#define SYS_NODE "/sys/devices/system/node"

static int put_u32(struct strbuf *out, uint32_t v)
{
	return strbuf_add(out, &v, sizeof(v)) ? -ENOMEM : 0;
}

static int put_u64(struct strbuf *out, uint64_t v)
{
	return strbuf_add(out, &v, sizeof(v)) ? -ENOMEM : 0;
}

int perf_feat_put_string(struct strbuf *out, const char *s)
{
	size_t n = strlen(s) + 1,
	       len = (n + PERF_NAME_ALIGN - 1) / PERF_NAME_ALIGN * PERF_NAME_ALIGN;
	static const char zeros[PERF_NAME_ALIGN];

	if (put_u32(out, (uint32_t)len) || strbuf_add(out, s, n) || strbuf_add(out, zeros, len - n))
		return -ENOMEM;
	return 0;
}

/* First line of a small sysfs/procfs file, trailing newline removed; "" when unreadable. */
static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	buf[0] = 0;
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

static long read_long(const char *path, long dflt)
{
	char buf[64], *end;
	long v;

	read_line(path, buf, sizeof(buf));
	v = strtol(buf, &end, 0);
	return end == buf ? dflt : v;
}

static int nr_cpus_avail(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	return n > 0 ? (int)n : 1;
}

/* The value of "key : value" in /proc/cpuinfo or "Key: value kB" in a meminfo file. */
static int proc_field(const char *path, const char *key, char *val, size_t len)
{
	char line[512];
	size_t klen = strlen(key);
	FILE *f = fopen(path, "re");
	int err = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, key);

		if (!p || (p != line && strncmp(line, "Node", 4)))
			continue;
		p += klen;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != ':')
			continue;
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		snprintf(val, len, "%s", p);
		val[strcspn(val, "\n")] = 0;
		err = 0;
		break;
	}
	fclose(f);
	return err;
}

static int feat_cpudesc(struct strbuf *out)
{
	char v[256], sq[256];
	size_t i, j = 0;

	if (proc_field("/proc/cpuinfo", "model name", v, sizeof(v)) &&
	    proc_field("/proc/cpuinfo", "cpu model", v, sizeof(v)))
		snprintf(v, sizeof(v), "unknown");
	/* perf squeezes runs of blanks */
	for (i = 0; v[i] && j < sizeof(sq) - 1; i++)
		if (!(isspace((unsigned char)v[i]) && j && sq[j - 1] == ' '))
			sq[j++] = isspace((unsigned char)v[i]) ? ' ' : v[i];
	while (j && sq[j - 1] == ' ')
		j--;
	sq[j] = 0;
	return perf_feat_put_string(out, sq);
}

static int feat_cpuid(struct strbuf *out)
{
	char buf[128] = "unknown", vendor[13];
	unsigned int family, model, stepping;

	if (!cpu_id(vendor, &family, &model, &stepping))
		snprintf(buf, sizeof(buf), "%s,%u,%u,%u", vendor, family, model, stepping);
	return perf_feat_put_string(out, buf);
}

static int feat_total_mem(struct strbuf *out)
{
	char v[64];

	if (proc_field("/proc/meminfo", "MemTotal", v, sizeof(v)))
		return 1;
	return put_u64(out, strtoull(v, NULL, 10));
}

static int feat_cmdline(const struct pw_feat_info *info, struct strbuf *out)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int i, err;

	if (n <= 0)
		snprintf(exe, sizeof(exe), "%s", info->argc ? info->argv[0] : "flare");
	else
		exe[n] = 0;
	err = put_u32(out, (uint32_t)(info->argc ? info->argc : 1));
	if (!err)
		err = perf_feat_put_string(out, exe);
	for (i = 1; i < info->argc && !err; i++)
		err = perf_feat_put_string(out, info->argv[i]);
	return err;
}

static int feat_event_desc(const struct pw_feat_info *info, struct strbuf *out)
{
	size_t i;
	int err;

	err = put_u32(out, (uint32_t)info->nr_events);
	if (!err)
		err = put_u32(out, PERF_ATTR_SIZE_FILE);
	for (i = 0; i < info->nr_events && !err; i++) {
		const struct pw_event *e = &info->events[i];
		struct perf_event_attr a = e->attr;

		a.size = PERF_ATTR_SIZE_FILE;
		if (strbuf_add(out, &a, PERF_ATTR_SIZE_FILE))
			return -ENOMEM;
		err = put_u32(out, (uint32_t)e->nr_ids);
		if (!err)
			err = perf_feat_put_string(out, e->name ? e->name : "");
		if (!err && e->nr_ids && strbuf_add(out, e->ids, e->nr_ids * 8))
			err = -ENOMEM;
	}
	return err;
}

typedef VEC(char *) strvec;

static void strvec_free(strvec *v)
{
	size_t i;

	for (i = 0; i < v->nr; i++)
		free(v->items[i]);
	vec_free(v);
}

/* Adds s to v unless present. */
static int strvec_add_uniq(strvec *v, const char *s)
{
	size_t i;
	char *d;

	for (i = 0; i < v->nr; i++)
		if (!strcmp(v->items[i], s))
			return 0;
	d = strdup(s);
	if (!d || vec_push(v, d)) {
		free(d);
		return -ENOMEM;
	}
	return 0;
}

static int put_strvec(struct strbuf *out, const strvec *v)
{
	size_t i;
	int err = put_u32(out, (uint32_t)v->nr);

	for (i = 0; i < v->nr && !err; i++)
		err = perf_feat_put_string(out, v->items[i]);
	return err;
}

/* Collects the distinct values of topology/<a> (or <b> when absent) over all cpus. */
static int topo_lists(const char *a, const char *b, strvec *v)
{
	char path[256], buf[256];
	int cpu, n = nr_cpus_avail(), err = 0;

	for (cpu = 0; cpu < n && !err; cpu++) {
		snprintf(path, sizeof(path), SYS_CPU "/cpu%d/topology/%s", cpu, a);
		read_line(path, buf, sizeof(buf));
		if (!buf[0] && b) {
			snprintf(path, sizeof(path), SYS_CPU "/cpu%d/topology/%s", cpu, b);
			read_line(path, buf, sizeof(buf));
		}
		if (buf[0])
			err = strvec_add_uniq(v, buf);
	}
	return err;
}

static int cpu_topo_ids(struct strbuf *out, const char *const *files, int nfiles)
{
	char path[256];
	int cpu, i, n = nr_cpus_avail(), err = 0;

	for (cpu = 0; cpu < n && !err; cpu++)
		for (i = 0; i < nfiles && !err; i++) {
			snprintf(path, sizeof(path), SYS_CPU "/cpu%d/topology/%s", cpu, files[i]);
			err = put_u32(out, (uint32_t)read_long(path, -1));
		}
	return err;
}

static int feat_cpu_topology(struct strbuf *out)
{
	static const char *const core_sock[] = { "core_id", "physical_package_id" };
	static const char *const die[] = { "die_id" };
	strvec core = VEC_INIT, thr = VEC_INIT, dies = VEC_INIT;
	int err;

	err = topo_lists("core_siblings_list", "package_cpus_list", &core);
	if (!err)
		err = topo_lists("thread_siblings_list", "core_cpus_list", &thr);
	if (!err)
		err = topo_lists("die_cpus_list", NULL, &dies);
	if (!err)
		err = put_strvec(out, &core);
	if (!err)
		err = put_strvec(out, &thr);
	if (!err)
		err = cpu_topo_ids(out, core_sock, 2);
	if (!err && dies.nr) {
		err = put_strvec(out, &dies);
		if (!err)
			err = cpu_topo_ids(out, die, 1);
	}
	strvec_free(&core);
	strvec_free(&thr);
	strvec_free(&dies);
	return err;
}

typedef VEC(int) intvec;

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* Numbers N of the entries "<prefix>N" in dir, sorted. */
static int dir_numbers(const char *dir, const char *prefix, intvec *v)
{
	size_t plen = strlen(prefix);
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char *end;
		long n;

		if (strncmp(de->d_name, prefix, plen) || !isdigit((unsigned char)de->d_name[plen]))
			continue;
		n = strtol(de->d_name + plen, &end, 10);
		if (*end)
			continue;
		if (vec_push(v, (int)n)) {
			closedir(d);
			return -ENOMEM;
		}
	}
	closedir(d);
	qsort(v->items, v->nr, sizeof(int), cmp_int);
	return 0;
}

static int feat_numa_topology(struct strbuf *out)
{
	intvec nodes = VEC_INIT;
	char path[256], v[256];
	size_t i;
	int err;

	err = dir_numbers(SYS_NODE, "node", &nodes);
	if (err)
		return 1;
	err = put_u32(out, (uint32_t)nodes.nr);
	for (i = 0; i < nodes.nr && !err; i++) {
		uint64_t total = 0, fr = 0;

		snprintf(path, sizeof(path), SYS_NODE "/node%d/meminfo", nodes.items[i]);
		if (!proc_field(path, "MemTotal", v, sizeof(v)))
			total = strtoull(v, NULL, 10);
		if (!proc_field(path, "MemFree", v, sizeof(v)))
			fr = strtoull(v, NULL, 10);
		snprintf(path, sizeof(path), SYS_NODE "/node%d/cpulist", nodes.items[i]);
		read_line(path, v, sizeof(v));
		err = put_u32(out, (uint32_t)nodes.items[i]);
		if (!err)
			err = put_u64(out, total);
		if (!err)
			err = put_u64(out, fr);
		if (!err)
			err = perf_feat_put_string(out, v);
	}
	vec_free(&nodes);
	return err;
}

static int feat_mem_topology(struct strbuf *out)
{
	intvec nodes = VEC_INIT, blocks = VEC_INIT;
	char path[256], v[64];
	uint64_t bsize;
	size_t i, j;
	int err;

	read_line("/sys/devices/system/memory/block_size_bytes", v, sizeof(v));
	bsize = strtoull(v, NULL, 16);
	if (!bsize || dir_numbers(SYS_NODE, "node", &nodes))
		return 1;
	err = put_u64(out, 1);
	if (!err)
		err = put_u64(out, bsize);
	if (!err)
		err = put_u64(out, nodes.nr);
	for (i = 0; i < nodes.nr && !err; i++) {
		uint64_t nbits, *map;

		blocks.nr = 0;
		snprintf(path, sizeof(path), SYS_NODE "/node%d", nodes.items[i]);
		err = dir_numbers(path, "memory", &blocks);
		if (err)
			break;
		nbits = blocks.nr ? (uint64_t)blocks.items[blocks.nr - 1] + 1 : 0;
		map = calloc(nbits / 64 + 1, 8);
		if (!map) {
			err = -ENOMEM;
			break;
		}
		for (j = 0; j < blocks.nr; j++)
			map[blocks.items[j] / 64] |= 1ULL << (blocks.items[j] % 64);
		err = put_u64(out, (uint64_t)nodes.items[i]);
		if (!err)
			err = put_u64(out, nbits);
		if (!err)
			err = put_u64(out, nbits);
		if (!err && strbuf_add(out, map, (nbits + 63) / 64 * 8))
			err = -ENOMEM;
		free(map);
	}
	vec_free(&nodes);
	vec_free(&blocks);
	return err;
}

static int feat_pmu_mappings(struct strbuf *out)
{
	const char *dir = "/sys/bus/event_source/devices";
	struct strbuf body = STRBUF_INIT;
	struct dirent *de;
	uint32_t nr = 0;
	char path[512];
	int err = 0;
	DIR *d = opendir(dir);

	if (!d)
		return 1;
	while ((de = readdir(d)) && !err) {
		long type;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/type", dir, de->d_name);
		type = read_long(path, -1);
		if (type < 0)
			continue;
		err = put_u32(&body, (uint32_t)type);
		if (!err)
			err = perf_feat_put_string(&body, de->d_name);
		nr++;
	}
	closedir(d);
	if (!err)
		err = put_u32(out, nr);
	if (!err && strbuf_add(out, body.buf, body.len))
		err = -ENOMEM;
	strbuf_release(&body);
	return err;
}

struct cache_level {
	uint32_t level, line, sets, ways;
	char type[32], size[32], map[128];
};

static int cmp_cache(const void *a, const void *b)
{
	const struct cache_level *x = a, *y = b;

	return (int)x->level - (int)y->level;
}

/* Reads cpuN/cache/indexM into c; false when there is no such index. */
static bool cache_read(int cpu, int idx, struct cache_level *c)
{
	char base[128], path[192];

	snprintf(base, sizeof(base), SYS_CPU "/cpu%d/cache/index%d", cpu, idx);
	if (access(base, F_OK))
		return false;
#define CR(f, name) (snprintf(path, sizeof(path), "%s/" name, base), read_long(path, 0))
	c->level = (uint32_t)CR(level, "level");
	c->line = (uint32_t)CR(line, "coherency_line_size");
	c->sets = (uint32_t)CR(sets, "number_of_sets");
	c->ways = (uint32_t)CR(ways, "ways_of_associativity");
#undef CR
	snprintf(path, sizeof(path), "%s/type", base);
	read_line(path, c->type, sizeof(c->type));
	snprintf(path, sizeof(path), "%s/size", base);
	read_line(path, c->size, sizeof(c->size));
	snprintf(path, sizeof(path), "%s/shared_cpu_list", base);
	read_line(path, c->map, sizeof(c->map));
	return true;
}

static int feat_cache(struct strbuf *out)
{
	VEC(struct cache_level) caches = VEC_INIT;
	struct cache_level c;
	int cpu, idx, n = nr_cpus_avail(), err = 0;
	size_t i;

	for (cpu = 0; cpu < n && !err; cpu++)
		for (idx = 0; cache_read(cpu, idx, &c) && !err; idx++) {
			for (i = 0; i < caches.nr; i++)
				if (!memcmp(&caches.items[i], &c, sizeof(c)))
					break;
			if (i == caches.nr)
				err = vec_push(&caches, c);
		}
	if (err || !caches.nr) {
		vec_free(&caches);
		return err ? err : 1;
	}
	/* stable by level: insertion order within a level */
	for (i = 1; i < caches.nr; i++) {
		size_t j = i;

		c = caches.items[i];
		while (j && cmp_cache(&caches.items[j - 1], &c) > 0) {
			caches.items[j] = caches.items[j - 1];
			j--;
		}
		caches.items[j] = c;
	}
	err = put_u32(out, 1);
	if (!err)
		err = put_u32(out, (uint32_t)caches.nr);
	for (i = 0; i < caches.nr && !err; i++) {
		struct cache_level *l = &caches.items[i];

		err = put_u32(out, l->level) || put_u32(out, l->line) || put_u32(out, l->sets) ||
				      put_u32(out, l->ways)
			      ? -ENOMEM
			      : 0;
		if (!err)
			err = perf_feat_put_string(out, l->type);
		if (!err)
			err = perf_feat_put_string(out, l->size);
		if (!err)
			err = perf_feat_put_string(out, l->map);
	}
	vec_free(&caches);
	return err;
}

/* BUILD_ID entries: {header (misc 0x8000 | cpumode, size), s32 pid -1, id[20], u8 size,
 * 3 pad, filename padded to 64}. */
static int feat_build_id(const struct pw_feat_info *info, struct strbuf *out)
{
	size_t i;

	if (info->no_buildid)
		return 1;
	for (i = 0; i < info->nr_buildids; i++) {
		const struct pw_buildid *b = &info->buildids[i];
		size_t n = strlen(b->filename) + 1;
		size_t len = (n + PERF_NAME_ALIGN - 1) / PERF_NAME_ALIGN * PERF_NAME_ALIGN;
		struct {
			struct perf_event_header h;
			int32_t pid;
			uint8_t id[20];
			uint8_t size, pad[3];
		} __attribute__((packed)) e = { 0 };
		static const char zeros[PERF_NAME_ALIGN];

		e.h.misc = PERF_RECORD_MISC_BUILD_ID_SIZE | b->cpumode;
		e.h.size = (uint16_t)(sizeof(e) + len);
		e.pid = -1;
		memcpy(e.id, b->id, sizeof(e.id));
		e.size = b->size;
		if (strbuf_add(out, &e, sizeof(e)) || strbuf_add(out, b->filename, n) ||
		    strbuf_add(out, zeros, len - n))
			return -ENOMEM;
	}
	return 0;
}

static int feat_uname(int feat, struct strbuf *out)
{
	struct utsname u;

	if (uname(&u))
		return -errno;
	switch (feat) {
	case FEAT_HOSTNAME:
		return perf_feat_put_string(out, u.nodename);
	case FEAT_OSRELEASE:
		return perf_feat_put_string(out, u.release);
	default:
		return perf_feat_put_string(out, u.machine);
	}
}

/* CLOCK_DATA (with -k): {u32 version 1, u32 clockid, u64 wall-clock ns, u64 clockid ns}
 * read at the same moment, so that report can convert sample times to wall-clock time. */
static int feat_clock_data(const struct pw_feat_info *info, struct strbuf *out)
{
	struct timespec tod, clk;

	if (!info->use_clockid)
		return 1;
	if (clock_gettime(CLOCK_REALTIME, &tod) || clock_gettime(info->clockid, &clk))
		return -errno;
	return put_u32(out, 1) ?: put_u32(out, (uint32_t)info->clockid) ?:
	       put_u64(out, (uint64_t)tod.tv_sec * 1000000000ULL + (uint64_t)tod.tv_nsec) ?:
	       put_u64(out, (uint64_t)clk.tv_sec * 1000000000ULL + (uint64_t)clk.tv_nsec);
}

int perf_feat_build(int feat, const struct pw_feat_info *info, struct strbuf *out)
{
	switch (feat) {
	case FEAT_TRACING_DATA:
		return tracing_data_build(info->events, info->nr_events, out);
	case FEAT_BUILD_ID:
		return feat_build_id(info, out);
	case FEAT_HOSTNAME:
	case FEAT_OSRELEASE:
	case FEAT_ARCH:
		return feat_uname(feat, out);
	case FEAT_VERSION:
		return perf_feat_put_string(out, FLARE_VERSION);
	case FEAT_NRCPUS:
		return put_u32(out, (uint32_t)nr_cpus_avail())
			       ?: put_u32(out, (uint32_t)sysconf(_SC_NPROCESSORS_ONLN));
	case FEAT_CPUDESC:
		return feat_cpudesc(out);
	case FEAT_CPUID:
		return feat_cpuid(out);
	case FEAT_TOTAL_MEM:
		return feat_total_mem(out);
	case FEAT_CMDLINE:
		return feat_cmdline(info, out);
	case FEAT_EVENT_DESC:
		return feat_event_desc(info, out);
	case FEAT_CPU_TOPOLOGY:
		return feat_cpu_topology(out);
	case FEAT_NUMA_TOPOLOGY:
		return feat_numa_topology(out);
	case FEAT_PMU_MAPPINGS:
		return feat_pmu_mappings(out);
	case FEAT_CACHE:
		return feat_cache(out);
	case FEAT_SAMPLE_TIME:
		return put_u64(out, info->first_sample) ?: put_u64(out, info->last_sample);
	case FEAT_MEM_TOPOLOGY:
		return feat_mem_topology(out);
	case FEAT_CLOCKID:
		if (!info->use_clockid)
			return 1;
		{
			struct timespec ts;
			uint64_t res = 0;

			if (!clock_getres(info->clockid, &ts))
				res = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
			return put_u64(out, res);
		}
	case FEAT_CLOCK_DATA:
		return feat_clock_data(info, out);
	case FEAT_COMPRESSED:
		if (!info->comp_level)
			return 1;
		/* version 0, type 1 (zstd), level, ratio, mmap_len: as perf 6.1 */
		return put_u32(out, 0) || put_u32(out, 1) || put_u32(out, info->comp_level) ||
				       put_u32(out, info->comp_ratio) ||
				       put_u32(out, info->comp_mmap_len)
			       ? -ENOMEM
			       : 0;
	case FEAT_BPF_PROG_INFO:
	case FEAT_BPF_BTF:
	case FEAT_PMU_CAPS:
		/* perf 6.1: a count of 0 when no BPF program was seen / no PMU caps */
		return put_u32(out, 0);
	default:
		return 1;
	}
}

/* perf 6.1's set for a recording, in bit order. */
static const int std_feats[] = {
	FEAT_TRACING_DATA, FEAT_BUILD_ID,      FEAT_HOSTNAME,	  FEAT_OSRELEASE,
	FEAT_VERSION,	   FEAT_ARCH,	       FEAT_NRCPUS,	  FEAT_CPUDESC,
	FEAT_CPUID,	   FEAT_TOTAL_MEM,     FEAT_CMDLINE,	  FEAT_EVENT_DESC,
	FEAT_CPU_TOPOLOGY, FEAT_NUMA_TOPOLOGY, FEAT_PMU_MAPPINGS, FEAT_CACHE,
	FEAT_SAMPLE_TIME,  FEAT_MEM_TOPOLOGY,  FEAT_CLOCKID,	  FEAT_BPF_PROG_INFO,
	FEAT_BPF_BTF,	   FEAT_COMPRESSED,    FEAT_CLOCK_DATA,	  FEAT_PMU_CAPS,
};

int perf_writer_add_std_features(struct perf_writer *w, const struct pw_feat_info *info)
{
	struct strbuf sb = STRBUF_INIT;
	bool pipe = perf_writer_is_pipe(w);
	size_t i;
	int err = 0;

	for (i = 0; i < sizeof(std_feats) / sizeof(std_feats[0]) && !err; i++) {
		int f = std_feats[i];

		if (pipe && (f == FEAT_TRACING_DATA || f == FEAT_BUILD_ID || f == FEAT_CACHE))
			continue;
		strbuf_reset(&sb);
		err = perf_feat_build(f, info, &sb);
		if (err == 1) {
			err = 0;
			continue;
		}
		if (!err)
			err = perf_writer_add_feature(w, f, sb.buf, sb.len);
	}
	strbuf_release(&sb);
	if (!err && pipe)
		err = perf_writer_end_features(w);
	return err;
}
