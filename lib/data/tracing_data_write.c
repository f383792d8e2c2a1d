// SPDX-License-Identifier: GPL-2.0
/*
 * tracing_data_write: the TRACING_DATA payload (perf's trace-event-info.c format, version
 * 0.6) for the tracepoint events of a recording, read from tracefs: the header_page and
 * header_event formats, each recorded event's format file grouped by system, printk_formats
 * and saved_cmdlines. Layout: doc/perf-data-format.md section 8.1.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <tracefs.h>
#include "lib/base/err.h"
#include "lib/base/vec.h"
#include "lib/data/writer.h"

static int put(struct strbuf *out, const void *p, size_t len)
{
	return strbuf_add(out, p, len) ? -ENOMEM : 0;
}

/* "{u<width> size}{text}" from a tracefs file; an unreadable file gives size 0. */
static int put_file(struct strbuf *out, const char *dir, const char *rel, int width)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int err;

	if (strbuf_addf(&path, "%s/%s", dir, rel)) {
		err = -ENOMEM;
		goto out;
	}
	strbuf_read_file(&text, path.buf);
	if (width == 8) {
		uint64_t n = text.len;

		err = put(out, &n, 8);
	} else {
		uint32_t n = (uint32_t)text.len;

		err = put(out, &n, 4);
	}
	if (!err)
		err = put(out, text.buf, text.len);
out:
	strbuf_release(&path);
	strbuf_release(&text);
	return err;
}

static bool is_tp(const struct pw_event *e)
{
	return e->attr.type == PERF_TYPE_TRACEPOINT && e->tp_sys && e->tp_name;
}

/* One system: "name\0", u32 count, then {u64 size, format} per distinct event in it. */
static int put_system(struct strbuf *out, const char *dir, const char *sys,
		      const struct pw_event *evs, size_t nr)
{
	VEC(const char *) names = VEC_INIT;
	struct strbuf rel = STRBUF_INIT;
	size_t i, j;
	uint32_t n;
	int err = put(out, sys, strlen(sys) + 1);

	for (i = 0; i < nr && !err; i++) {
		if (!is_tp(&evs[i]) || strcmp(evs[i].tp_sys, sys))
			continue;
		for (j = 0; j < names.nr; j++)
			if (!strcmp(names.items[j], evs[i].tp_name))
				break;
		if (j == names.nr)
			err = vec_push(&names, evs[i].tp_name);
	}
	n = (uint32_t)names.nr;
	if (!err)
		err = put(out, &n, 4);
	for (i = 0; i < names.nr && !err; i++) {
		strbuf_reset(&rel);
		if (strbuf_addf(&rel, "events/%s/%s/format", sys, names.items[i]))
			err = -ENOMEM;
		else
			err = put_file(out, dir, rel.buf, 8);
	}
	strbuf_release(&rel);
	vec_free(&names);
	return err;
}

static int put_systems(struct strbuf *out, const char *dir, const struct pw_event *evs, size_t nr)
{
	VEC(const char *) systems = VEC_INIT;
	size_t i, j;
	uint32_t n;
	int err = 0;

	for (i = 0; i < nr && !err; i++) {
		if (!is_tp(&evs[i]) || !strcmp(evs[i].tp_sys, "ftrace"))
			continue;
		for (j = 0; j < systems.nr; j++)
			if (!strcmp(systems.items[j], evs[i].tp_sys))
				break;
		if (j == systems.nr)
			err = vec_push(&systems, evs[i].tp_sys);
	}
	n = (uint32_t)systems.nr;
	if (!err)
		err = put(out, &n, 4);
	for (i = 0; i < systems.nr && !err; i++)
		err = put_system(out, dir, systems.items[i], evs, nr);
	vec_free(&systems);
	return err;
}

int tracing_data_build(const struct pw_event *evs, size_t nr, struct strbuf *out)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	uint8_t endian = 0, lsize = sizeof(long);
	uint32_t page = (uint32_t)sysconf(_SC_PAGESIZE), zero = 0;
	const char *dir;
	size_t i;
	int err;

	for (i = 0; i < nr && !is_tp(&evs[i]); i++)
		;
	if (i == nr)
		return 1;
	dir = tracefs_tracing_dir();
	if (!dir)
		return -ERR_NO_TRACEFS;
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	endian = 1;
#endif
	err = put(out, magic, sizeof(magic));
	if (!err)
		err = put(out, "0.6", 4);
	if (!err)
		err = put(out, &endian, 1) ?: put(out, &lsize, 1) ?: put(out, &page, 4);
	if (!err)
		err = put(out, "header_page", 12) ?: put_file(out, dir, "events/header_page", 8);
	if (!err)
		err = put(out, "header_event", 13) ?: put_file(out, dir, "events/header_event", 8);
	/* ftrace's own events (function, ...): never recorded here */
	if (!err)
		err = put(out, &zero, 4);
	if (!err)
		err = put_systems(out, dir, evs, nr);
	/* kallsyms: perf leaves it empty; report resolves from /proc/kallsyms */
	if (!err)
		err = put(out, &zero, 4);
	if (!err)
		err = put_file(out, dir, "printk_formats", 4);
	if (!err)
		err = put_file(out, dir, "saved_cmdlines", 8);
	return err;
}
