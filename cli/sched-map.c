// SPDX-License-Identifier: GPL-2.0
/*
 * flare sched map: perf sched map's picture, one line per context switch with a column per
 * CPU naming the task on it by a two-character short name (A0, B0, ...; '.' for idle), and
 * the task's full name where its short name is first given or its name changed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/opt.h"
#include "cli/out.h"
#include "cli/sched.h"
#include "lib/base/hashmap.h"

#define MAP_MAX_CPUS 4096
#define COLOR_PIDS "\033[34m" /* perf's PERF_COLOR_BLUE */
#define COLOR_CPUS "\033[31m" /* perf's PERF_COLOR_RED */
#define COLOR_RESET "\033[m"

static const char *const map_usage[] = {
	"flare sched map [<options>]",
	NULL,
};

struct map_task {
	char shortname[3];
	bool comm_changed, colored;
};

struct map_opts {
	const char *input, *cpus, *color_pids, *color_cpus;
	int compact, force;
};

struct map_run {
	const struct map_opts *o;
	struct session *sess;
	struct hashmap tasks; /* tid -> struct map_task */
	struct hashmap color_pids;
	uint32_t *curr; /* per cpu: tid + 1 of the task on it, 0: none seen */
	uint64_t *last;
	unsigned char shown[MAP_MAX_CPUS], red[MAP_MAX_CPUS], comp_seen[MAP_MAX_CPUS];
	uint32_t comp[MAP_MAX_CPUS];
	int nr_comp, max_cpu;
	char next1, next2;
	bool color;
};

static struct map_task *task_of(struct map_run *m, uint32_t tid)
{
	void **slot = hashmap_slot(&m->tasks, tid);

	if (!slot)
		return NULL;
	if (!*slot) {
		struct map_task *t = calloc(1, sizeof(*t));

		if (!t) {
			hashmap_del(&m->tasks, tid);
			return NULL;
		}
		t->colored = hashmap_get(&m->color_pids, tid, NULL);
		*slot = t;
	}
	return *slot;
}

static void put(const struct map_run *m, const char *color, const char *s)
{
	if (m->color && color)
		printf("%s%s%s", color, s, COLOR_RESET);
	else
		fputs(s, stdout);
}

static void give_shortname(struct map_run *m, struct map_task *t, const char *comm)
{
	if (!strcmp(comm, "swapper")) {
		memcpy(t->shortname, ". ", 3);
		return;
	}
	t->shortname[0] = m->next1;
	t->shortname[1] = m->next2;
	t->shortname[2] = 0;
	if (m->next1 < 'Z') {
		m->next1++;
	} else {
		m->next1 = 'A';
		m->next2 = m->next2 < '9' ? (char)(m->next2 + 1) : '0';
	}
}

static const char *comm_now(struct map_run *m, uint32_t tid, char own[16])
{
	const char *c = sched_comm(m->sess, tid);

	if (c)
		return c;
	snprintf(own, 16, ":%u", tid);
	return own;
}

static void print_columns(struct map_run *m, uint32_t this_cpu, int cpus_nr)
{
	int i;

	for (i = 0; i < cpus_nr; i++) {
		uint32_t cpu = m->o->compact ? m->comp[i] : (uint32_t)i;
		struct map_task *ct = NULL;
		char cell[8];

		if (m->o->cpus && !m->shown[cpu])
			continue;
		if (m->curr[cpu])
			ct = task_of(m, m->curr[cpu] - 1);
		put(m, cpu == this_cpu && m->red[cpu] ? COLOR_CPUS : NULL,
		    cpu == this_cpu ? "*" : " ");
		if (ct) {
			snprintf(cell, sizeof(cell), "%2s ", ct->shortname);
			put(m, ct->colored ? COLOR_PIDS : NULL, cell);
		} else {
			fputs("   ", stdout);
		}
	}
}

static int on_switch(struct map_run *m, const struct sched_rec *r, uint64_t ts, uint32_t cpu)
{
	struct map_task *t;
	bool new_name = false, new_cpu = false;
	char stamp[32], own[16], line[128];
	const char *comm;
	int cpus_nr;

	if (cpu >= MAP_MAX_CPUS)
		return -ERANGE;
	if ((int)cpu > m->max_cpu)
		m->max_cpu = (int)cpu;
	if (m->o->compact) {
		if (!m->comp_seen[cpu]) {
			m->comp_seen[cpu] = 1;
			m->comp[m->nr_comp++] = cpu;
			new_cpu = true;
		}
		cpus_nr = m->nr_comp;
	} else {
		cpus_nr = m->max_cpu;
	}
	m->last[cpu] = ts;
	t = task_of(m, r->next_pid);
	if (!t)
		return -ENOMEM;
	m->curr[cpu] = r->next_pid + 1;
	comm = comm_now(m, r->next_pid, own);
	printf("  ");
	if (!t->shortname[0]) {
		give_shortname(m, t, comm);
		new_name = true;
	}
	print_columns(m, cpu, cpus_nr);
	if (!m->o->cpus || m->shown[cpu]) {
		printf("  %12s secs ", sched_usec_str(stamp, ts));
		if (new_name || t->comm_changed || (out_verbose > 0 && r->next_pid)) {
			snprintf(line, sizeof(line), "%s => %s:%u", t->shortname, comm,
				 r->next_pid);
			put(m, t->colored ? COLOR_PIDS : NULL, line);
			t->comm_changed = false;
		}
		if (m->o->compact && new_cpu)
			printf(" (CPU %u)", cpu);
	}
	printf("\n");
	return 0;
}

static int on_event(void *ctx, const struct sched_rec *r, const struct resolved_sample *rs)
{
	return r->kind == SEV_SWITCH ? on_switch(ctx, r, rs->s->time, rs->s->cpu) : 0;
}

static int on_other(void *ctx, const struct perf_event_header *ev, uint64_t off)
{
	struct map_run *m = ctx;

	/* the name is shown again after a COMM: perf marks the thread of the record's
	 * sample_id (the exec'ing task; thread 0 for the ones record synthesized) */
	if (ev->type == PERF_RECORD_COMM) {
		struct perf_sample_id sid;
		struct map_task *t;

		if (perf_data_parse_id(m->sess->pd, ev, &sid) < 0)
			return 0;
		t = task_of(m, sid.tid);
		if (!t)
			return -ENOMEM;
		t->comm_changed = true;
	}
	return 0;
}

/* "0,2-3" into set (entries below MAP_MAX_CPUS); false when it is no such list */
static bool parse_list(const char *s, unsigned char *set, size_t n, struct hashmap *pids)
{
	char *dup = strdup(s), *tok, *save = NULL, *end;
	bool ok = dup != NULL;

	for (tok = ok ? strtok_r(dup, ",", &save) : NULL; tok && ok;
	     tok = strtok_r(NULL, ",", &save)) {
		unsigned long a = strtoul(tok, &end, 10), b = a;

		if (end == tok) {
			ok = false;
			break;
		}
		if (*end == '-')
			b = strtoul(end + 1, &end, 10);
		if (*end || b < a || (set && b >= n) || (pids && b - a > 1000000)) {
			ok = false;
			break;
		}
		for (; a <= b; a++) {
			if (set)
				set[a] = 1;
			else if (hashmap_put(pids, a, NULL))
				ok = false;
		}
	}
	free(dup);
	return ok;
}

int sched_map(int argc, char **argv, struct sched_common *c)
{
	struct map_opts o = { 0 };
	const struct opt opts[] = {
		OPT_STRING(0, "color-cpus", &o.color_cpus, "cpus", "highlight given CPUs in map"),
		OPT_STRING(0, "color-pids", &o.color_pids, "pids", "highlight given pids in map"),
		OPT_BOOL(0, "compact", &o.compact, "map output in compact mode"),
		OPT_STRING(0, "cpus", &o.cpus, "cpus", "display given CPUs in map"),
		OPT_STRING('i', "input", &o.input, "file", "input file name"),
		OPT_BOOL('f', "force", &o.force, "don't complain, do it"),
		OPT_END(),
	};
	struct map_run m = { .o = &o, .next1 = 'A', .next2 = '0' };
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	int ret;

	argc = opt_parse(argc, argv, opts, map_usage, 0);
	if (argc > 0)
		opt_usage_error(opts, map_usage, "unexpected argument '%s'", argv[0]);
	if (o.input)
		c->input = o.input;
	c->force |= o.force;
	if (o.cpus && !parse_list(o.cpus, m.shown, MAP_MAX_CPUS, NULL))
		opt_usage_error(opts, map_usage, "--cpus %s: give CPUs as 0,2-3", o.cpus);
	if (o.color_cpus && !parse_list(o.color_cpus, m.red, MAP_MAX_CPUS, NULL))
		opt_usage_error(opts, map_usage, "--color-cpus %s: give CPUs as 0,2-3",
				o.color_cpus);
	if (o.color_pids && !parse_list(o.color_pids, NULL, 0, &m.color_pids))
		opt_usage_error(opts, map_usage, "--color-pids %s: give pids as 10,20-30",
				o.color_pids);
	/* perf's columns: as many as the machine reading the file has CPUs */
	m.max_cpu = ncpu > 0 && ncpu < MAP_MAX_CPUS ? (int)ncpu : 1;
	m.curr = calloc(MAP_MAX_CPUS, sizeof(*m.curr));
	m.last = calloc(MAP_MAX_CPUS, sizeof(*m.last));
	m.color = isatty(STDOUT_FILENO);
	if (!m.curr || !m.last) {
		pr_err("out of memory");
		ret = 1;
		goto out;
	}
	out_pager_start();
	ret = sched_replay(c, &m.sess, on_event, on_other, &m);
out : {
	size_t i = 0;
	uint64_t k;
	void *v;

	while (hashmap_next(&m.tasks, &i, &k, &v))
		free(v);
}
	hashmap_release(&m.tasks);
	hashmap_release(&m.color_pids);
	free(m.curr);
	free(m.last);
	session_free(m.sess);
	return ret;
}
