// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base/strbuf.h"
#include "lib/event/pmu.h"

/* Reads PMU_SYSFS/pmu/rel into sb with the trailing newline removed. */
static int read_attr(struct strbuf *sb, const char *pmu, const char *rel)
{
	char path[512];
	int ret;

	if (strchr(pmu, '/') || !strcmp(pmu, "..") || !strcmp(pmu, "."))
		return -ENOENT;
	snprintf(path, sizeof(path), PMU_SYSFS "/%s/%s", pmu, rel);
	ret = strbuf_read_file(sb, path);
	if (ret)
		return ret;
	while (sb->len && (sb->buf[sb->len - 1] == '\n' || sb->buf[sb->len - 1] == ' '))
		strbuf_setlen(sb, sb->len - 1);
	return 0;
}

int pmu_type(const char *pmu, uint32_t *type)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = read_attr(&sb, pmu, "type");

	if (!ret)
		*type = (uint32_t)strtoul(sb.buf, NULL, 10);
	strbuf_release(&sb);
	return ret ? -ENOENT : 0;
}

/* Deposits val into *field at the bits of one "lo-hi" or "bit" range list ("0-7,32-35"). */
static int deposit(const char *bits, uint64_t val, __u64 *field)
{
	const char *p = bits;
	char *end;
	unsigned long lo, hi, b;

	while (*p) {
		lo = strtoul(p, &end, 10);
		hi = lo;
		if (*end == '-')
			hi = strtoul(end + 1, &end, 10);
		if (end == p || hi > 63 || lo > hi)
			return -ENOENT;
		for (b = lo; b <= hi; b++) {
			*field &= ~(1ULL << b);
			*field |= (val & 1) << b;
			val >>= 1;
		}
		p = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return -ENOENT;
	}
	return val ? -ERANGE : 0;
}

int pmu_set_term(const char *pmu, const char *term, uint64_t val, struct perf_event_attr *attr)
{
	struct strbuf sb = STRBUF_INIT;
	char rel[256];
	__u64 *field = NULL;
	char *colon;
	int ret;

	if (strchr(term, '/') || !*term || term[0] == '.')
		return -ENOENT;
	snprintf(rel, sizeof(rel), "format/%s", term);
	ret = read_attr(&sb, pmu, rel);
	if (ret) {
		strbuf_release(&sb);
		return -ENOENT;
	}
	colon = strchr(sb.buf, ':');
	if (colon) {
		*colon = '\0';
		if (!strcmp(sb.buf, "config"))
			field = &attr->config;
		else if (!strcmp(sb.buf, "config1"))
			field = &attr->config1;
		else if (!strcmp(sb.buf, "config2"))
			field = &attr->config2;
	}
	ret = field ? deposit(colon + 1, val, field) : -ENOENT;
	strbuf_release(&sb);
	return ret;
}

int pmu_event_alias(const char *pmu, const char *ev, char *buf, size_t len, double *scale,
		    char *unit, size_t unit_len)
{
	struct strbuf sb = STRBUF_INIT;
	char rel[256];

	if (strchr(ev, '/') || !*ev || ev[0] == '.' || strlen(ev) > 200)
		return -ENOENT;
	snprintf(rel, sizeof(rel), "events/%s", ev);
	if (read_attr(&sb, pmu, rel)) {
		strbuf_release(&sb);
		return -ENOENT;
	}
	snprintf(buf, len, "%s", sb.buf);
	strbuf_reset(&sb);
	*scale = 1.0;
	snprintf(rel, sizeof(rel), "events/%s.scale", ev);
	if (!read_attr(&sb, pmu, rel))
		*scale = strtod(sb.buf, NULL);
	strbuf_reset(&sb);
	*unit = '\0';
	snprintf(rel, sizeof(rel), "events/%s.unit", ev);
	if (!read_attr(&sb, pmu, rel))
		snprintf(unit, unit_len, "%s", sb.buf);
	strbuf_release(&sb);
	return 0;
}

int pmu_cpumask(const char *pmu, char *buf, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = read_attr(&sb, pmu, "cpumask");

	if (!ret && (!sb.len || len <= sb.len))
		ret = -ENOENT;
	if (!ret)
		memcpy(buf, sb.buf, sb.len + 1);
	strbuf_release(&sb);
	return ret ? -ENOENT : 0;
}

static int sort_entries(const char *dir, struct dirent ***list)
{
	return scandir(dir, list, NULL, alphasort);
}

static int walk_events(const char *pmu, pmu_fn fn, void *arg)
{
	struct dirent **ents;
	char dir[512];
	int i, n, ret = 0;

	snprintf(dir, sizeof(dir), PMU_SYSFS "/%s/events", pmu);
	n = sort_entries(dir, &ents);
	for (i = 0; i < n; i++) {
		const char *nm = ents[i]->d_name;

		if (!ret && nm[0] != '.' && !strchr(nm, '.'))
			ret = fn(pmu, nm, arg);
		free(ents[i]);
	}
	if (n > 0)
		free(ents);
	return ret;
}

int pmu_for_each(pmu_fn fn, void *arg)
{
	struct dirent **ents;
	int i, n, ret = 0;

	n = sort_entries(PMU_SYSFS, &ents);
	for (i = 0; i < n; i++) {
		if (!ret && ents[i]->d_name[0] != '.') {
			ret = fn(ents[i]->d_name, NULL, arg);
			if (!ret)
				ret = walk_events(ents[i]->d_name, fn, arg);
		}
		free(ents[i]);
	}
	if (n > 0)
		free(ents);
	return ret;
}

int cpu_id(char out[13], unsigned int *family, unsigned int *model, unsigned int *stepping)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d;

	if (!__get_cpuid(0, &a, &b, &c, &d))
		return -ENOTSUP;
	memcpy(out, &b, 4);
	memcpy(out + 4, &d, 4);
	memcpy(out + 8, &c, 4);
	out[12] = 0;
	__get_cpuid(1, &a, &b, &c, &d);
	*family = (a >> 8) & 0xf;
	*model = (a >> 4) & 0xf;
	*stepping = a & 0xf;
	if (*family == 0xf)
		*family += (a >> 20) & 0xff;
	if (*family >= 0x6)
		*model += ((a >> 16) & 0xf) << 4;
	return 0;
#else
	return -ENOTSUP;
#endif
}
