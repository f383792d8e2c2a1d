// SPDX-License-Identifier: GPL-2.0
/*
 * stat: the counting engine (see stat.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/stat/stat.h"
#include "lib/base/err.h"
#include "lib/event/pmu.h"

/* Running mean and variance (Welford), as perf's stats. */
void welford_add(struct welford *w, double v)
{
	double d = v - w->mean;

	w->n++;
	w->mean += d / w->n;
	w->m2 += d * (v - w->mean);
}

double welford_stddev(const struct welford *w)
{
	if (w->n < 2)
		return 0;
	return sqrt(w->m2 / (w->n - 1) / w->n);
}

double welford_noise_pct(const struct welford *w)
{
	return w->mean ? 100.0 * welford_stddev(w) / w->mean : 0;
}

static void stat_attr(struct perf_event_attr *a, const struct evsel *e,
		      const struct stat_run_opts *o)
{
	bool leader = e->group_idx < 0 || e->is_leader;

	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	a->inherit = !o->no_inherit;
	a->disabled = leader;
	/* counting starts at the workload's exec unless -D delays it or we count CPUs */
	a->enable_on_exec = leader && o->workload && !o->target->system_wide && !o->delay_ms;
	a->sample_period = 0;
	a->freq = 0;
}

/* errnos that mean "this kernel cannot count it": shown as <not supported>, as perf does */
static bool unsupported_errno(int err)
{
	return err == -EINVAL || err == -ENOSYS || err == -ENOENT || err == -EOPNOTSUPP ||
	       err == -ENXIO || err == -ENODEV;
}

int stat_open(struct stat_state *s, const struct stat_run_opts *o, char *msg, size_t len)
{
	size_t i;
	int r;

	for (i = 0; i < s->nr_ctrs; i++) {
		struct stat_ctr *c = &s->ctrs[i];
		struct perf_event_attr a = c->ev->attr;
		const struct evfds *leader = NULL;
		char why[sizeof(c->reason)];

		c->err = 0;
		if (c->ev->tool)
			continue; /* measured by flare, see read_tool() */
		if (c->ev->group_idx >= 0 && !c->ev->is_leader) {
			struct stat_ctr *l = &s->ctrs[c->ev->group_idx];

			if (l->err) {
				c->err = l->err;
				snprintf(c->reason, sizeof(c->reason),
					 "its group leader '%s' could not be opened", l->ev->name);
				continue;
			}
			leader = &l->fds;
		}
		stat_attr(&a, c->ev, o);
		r = evfds_open(&c->fds, &a, o->target, leader);
		if (!r && o->filters && o->filters[i]) {
			r = evfds_set_filter(&c->fds, o->filters[i]);
			if (r) {
				snprintf(msg, len,
					 "cannot set filter '%s' on '%s': %s (check the "
					 "field names in the event's format file under tracefs)",
					 o->filters[i], c->ev->name, err_str(r));
				stat_close(s);
				return r;
			}
		}
		if (!r)
			continue;
		c->err = r;
		snprintf(c->reason, sizeof(c->reason), "%s",
			 event_open_reason(&a, r, why, sizeof(why)));
		if (!o->target->system_wide && c->ev->pmu_name &&
		    !pmu_cpumask(c->ev->pmu_name, why, sizeof(why)))
			snprintf(
				c->reason, sizeof(c->reason),
				"PMU '%.32s' counts CPUs, not tasks (count it with -a or -C %.32s)",
				c->ev->pmu_name, why);
		if (!unsupported_errno(r)) {
			snprintf(msg, len, "cannot open event '%s': %s", c->ev->name, c->reason);
			stat_close(s);
			return r;
		}
	}
	return 0;
}

void stat_close(struct stat_state *s)
{
	size_t i;

	for (i = 0; i < s->nr_ctrs; i++) {
		evfds_close(&s->ctrs[i].fds);
		free(s->ctrs[i].prev);
		s->ctrs[i].prev = NULL;
	}
}

int stat_enable(struct stat_state *s, int enable)
{
	size_t i;
	int r = 0;

	for (i = 0; i < s->nr_ctrs; i++) {
		const struct evsel *e = s->ctrs[i].ev;

		if (!s->ctrs[i].err && (e->group_idx < 0 || e->is_leader) && !r)
			r = evfds_enable(&s->ctrs[i].fds, enable);
	}
	return r;
}

/* A tool event's value in nanoseconds, in the first unit: what the run's clock and the
 * workload's rusage say. Zero (shown as <not counted>) for a time that did not pass. */
static void read_tool(struct stat_state *s, size_t ci)
{
	struct stat_val *v = stat_val_at(s, 0, ci);
	double ns = s->ctrs[ci].ev->tool == EV_TOOL_DURATION ? s->wall_ns
		    : s->ctrs[ci].ev->tool == EV_TOOL_USER   ? s->user_s * 1e9
							     : s->sys_s * 1e9;

	v->val = ns;
	v->ena = v->run = (uint64_t)ns;
}

/* Reads every fd of counter c, adding (delta since the last read when delta) into units. */
static int read_ctr(struct stat_state *s, size_t ci, bool delta)
{
	struct stat_ctr *c = &s->ctrs[ci];
	size_t n = c->fds.nr_tasks * c->fds.nr_cpus, k;
	struct counts cur;
	int r;

	if (delta && !c->prev) {
		c->prev = calloc(n, sizeof(*c->prev));
		if (!c->prev)
			return -ENOMEM;
	}
	for (k = 0; k < n; k++) {
		size_t ui = s->unit_of[s->by_task ? k / c->fds.nr_cpus : k % c->fds.nr_cpus];
		struct stat_val *v = stat_val_at(s, ui, ci);

		r = evfds_read(&c->fds, k, &cur);
		if (r)
			return r;
		if (delta) {
			struct counts now = cur;

			cur.val -= c->prev[k].val;
			cur.ena -= c->prev[k].ena;
			cur.run -= c->prev[k].run;
			c->prev[k] = now;
		}
		v->val += (double)cur.val;
		v->ena += cur.ena;
		v->run += cur.run;
	}
	return 0;
}

int stat_read(struct stat_state *s, bool delta, bool accumulate)
{
	size_t u, i;
	int r;

	for (u = 0; u < s->nr_units; u++) {
		for (i = 0; i < s->nr_ctrs; i++) {
			struct stat_val *v = stat_val_at(s, u, i);

			v->val = 0;
			v->ena = v->run = 0;
		}
	}
	for (i = 0; i < s->nr_ctrs; i++) {
		if (s->ctrs[i].err)
			continue;
		if (s->ctrs[i].ev->tool) {
			read_tool(s, i);
			continue;
		}
		r = read_ctr(s, i, delta);
		if (r)
			return r;
	}
	for (u = 0; u < s->nr_units; u++) {
		for (i = 0; i < s->nr_ctrs; i++) {
			struct stat_val *v = stat_val_at(s, u, i);

			/* multiplexed: scale to the whole time it was enabled */
			if (v->run && v->run < v->ena && !s->no_scale)
				v->val = v->val * (double)v->ena / (double)v->run;
			if (accumulate)
				welford_add(&v->w, v->val);
		}
	}
	return 0;
}

/* Whether cpu belongs in unit x under the aggregation mode. */
static bool same_unit(enum stat_aggr aggr, const struct stat_unit *x, const struct stat_unit *y)
{
	switch (aggr) {
	case AGGR_CORE:
		return x->socket == y->socket && x->die == y->die && x->core == y->core;
	case AGGR_DIE:
		return x->socket == y->socket && x->die == y->die;
	case AGGR_SOCKET:
		return x->socket == y->socket;
	case AGGR_NODE:
		return x->node == y->node;
	default:
		return false;
	}
}

/* --per-thread: one unit per task, named by its comm. */
static int thread_units(struct stat_state *s, const struct stat_run_opts *o)
{
	size_t nt = target_nr_tasks(o->target), ti;

	s->by_task = true;
	s->unit_of = calloc(nt, sizeof(*s->unit_of));
	s->units = calloc(nt, sizeof(*s->units));
	if (!s->unit_of || !s->units)
		return -ENOMEM;
	for (ti = 0; ti < nt; ti++) {
		struct stat_unit *u = &s->units[ti];
		char path[64];
		FILE *f;

		u->tid = target_task(o->target, ti);
		u->nr = 1;
		snprintf(path, sizeof(path), "/proc/%d/comm", u->tid);
		f = fopen(path, "r");
		if (!f || !fgets(u->comm, sizeof(u->comm), f))
			snprintf(u->comm, sizeof(u->comm), "<unknown>");
		u->comm[strcspn(u->comm, "\n")] = '\0';
		if (f)
			fclose(f);
		s->unit_of[ti] = ti;
	}
	s->nr_units = nt;
	return 0;
}

int stat_units(struct stat_state *s, const struct stat_run_opts *o)
{
	size_t nc = target_nr_cpus(o->target), ci, u;
	int r;

	if (o->aggr == AGGR_THREAD)
		r = thread_units(s, o);
	else
		r = (s->unit_of = calloc(nc, sizeof(*s->unit_of))) &&
				    (s->units = calloc(nc, sizeof(*s->units)))
			    ? 0
			    : -ENOMEM;
	if (r)
		return r;
	for (ci = 0; ci < nc && o->aggr != AGGR_THREAD; ci++) {
		struct stat_unit y = { .cpu = target_cpu(o->target, ci) };

		if (o->aggr == AGGR_GLOBAL || y.cpu < 0) {
			s->nr_units = 1;
			s->units[0].nr++;
			continue;
		}
		cpu_topology(y.cpu, &y.socket, &y.die, &y.core);
		y.node = cpu_node(y.cpu);
		for (u = 0; u < s->nr_units && !same_unit(o->aggr, &s->units[u], &y); u++)
			;
		if (u == s->nr_units)
			s->units[s->nr_units++] = y;
		s->units[u].nr++;
		s->unit_of[ci] = u;
	}
	s->vals = calloc(s->nr_units * s->nr_ctrs + 1, sizeof(*s->vals));
	return s->vals ? 0 : -ENOMEM;
}

void stat_state_release(struct stat_state *s)
{
	stat_close(s);
	free(s->ctrs);
	free(s->units);
	free(s->unit_of);
	free(s->vals);
	free(s->run_ns);
	memset(s, 0, sizeof(*s));
}
