// SPDX-License-Identifier: GPL-2.0
/*
 * flare sched latency: perf sched latency's table (lib/sched/latency), and beyond it the
 * delay percentiles per task (--percentiles) and a log2 histogram of every delay (--hist).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/opt.h"
#include "cli/out.h"
#include "cli/sched.h"
#include "lib/sched/latency.h"

static const char *const latency_usage[] = {
	"flare sched latency [<options>]",
	NULL,
};

struct lat_opts {
	const char *sort, *input;
	int cpu, per_pid, percentiles, hist, force;
};

struct lat_run {
	struct sched_lat lat;
	struct session *sess;
	uint64_t nr_records;		  /* every record, as perf's nr_events[0] */
	uint64_t nr_lost, nr_lost_chunks; /* from LOST records */
};

static int on_event(void *ctx, const struct sched_rec *r, const struct resolved_sample *rs)
{
	struct lat_run *lr = ctx;

	return sched_lat_event(&lr->lat, r, rs->s->time, rs->s->cpu);
}

static const char *comm_of(void *ctx, uint32_t tid)
{
	return sched_comm(ctx, tid);
}

static int parse_keys(const char *s, enum lat_key *keys, int max, char *bad, size_t badlen)
{
	static const struct {
		const char *name;
		enum lat_key k;
	} names[] = {
		{ "pid", LK_PID },	 { "avg", LK_AVG },	    { "max", LK_MAX },
		{ "switch", LK_SWITCH }, { "runtime", LK_RUNTIME },
	};
	char *dup = strdup(s), *tok, *save = NULL;
	int n = 0;
	size_t i;

	if (!dup)
		return -ENOMEM;
	for (tok = strtok_r(dup, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (!strcmp(names[i].name, tok))
				break;
		if (i == sizeof(names) / sizeof(names[0])) {
			snprintf(bad, badlen, "%s", tok);
			free(dup);
			return -EINVAL;
		}
		if (n < max)
			keys[n++] = names[i].k;
	}
	free(dup);
	return n;
}

static void print_row(struct lat_task *t, uint64_t *all_rt, uint64_t *all_cnt)
{
	char name[64], s1[32], s2[32];
	int ret;

	*all_rt += t->total_runtime;
	*all_cnt += t->nb_atoms;
	if (t->num_merged > 1)
		ret = snprintf(name, sizeof(name), "  %s:(%d) ", t->comm, t->num_merged);
	else
		ret = snprintf(name, sizeof(name), "  %s:%u ", t->comm, t->tid);
	fputs(name, stdout);
	for (; ret < 24; ret++)
		putchar(' ');
	printf("|%11.3f ms |%9" PRIu64 " | avg:%8.3f ms | max:%8.3f ms | max start: %12s s | "
	       "max end: %12s s\n",
	       (double)t->total_runtime / 1e6, t->nb_atoms,
	       (double)(t->total_lat / t->nb_atoms) / 1e6, (double)t->max_lat / 1e6,
	       sched_usec_str(s1, t->max_start), sched_usec_str(s2, t->max_end));
}

static bool shown(const struct lat_task *t)
{
	return t->nb_atoms && strcmp(t->comm, "swapper");
}

static void print_percentiles(struct lat_task **v, int n)
{
	int i;

	printf("\n -----------------------------------------------------------------------------"
	       "--------\n");
	printf("  Task                  | Switches |  p50 delay ms |  p90 delay ms |  p99 delay ms "
	       "|  max delay ms\n");
	printf(" -------------------------------------------------------------------------------"
	       "------\n");
	for (i = 0; i < n; i++) {
		char name[64];
		int ret;

		if (!shown(v[i]))
			continue;
		if (v[i]->num_merged > 1)
			ret = snprintf(name, sizeof(name), "  %s:(%d) ", v[i]->comm,
				       v[i]->num_merged);
		else
			ret = snprintf(name, sizeof(name), "  %s:%u ", v[i]->comm, v[i]->tid);
		printf("%s%*s|%9" PRIu64 " | %13.3f | %13.3f | %13.3f | %13.3f\n", name,
		       ret < 24 ? 24 - ret : 0, "", v[i]->nb_atoms,
		       (double)sched_lat_percentile(v[i], 50) / 1e6,
		       (double)sched_lat_percentile(v[i], 90) / 1e6,
		       (double)sched_lat_percentile(v[i], 99) / 1e6, (double)v[i]->max_lat / 1e6);
	}
}

/* runqlat's picture: one row per power of two of microseconds, a bar of stars */
static void print_hist(const struct sched_lat *l)
{
	uint64_t max = 0;
	int i, lo = -1, hi = -1;

	for (i = 0; i < 64; i++) {
		if (!l->hist[i])
			continue;
		if (lo < 0)
			lo = i;
		hi = i;
		if (l->hist[i] > max)
			max = l->hist[i];
	}
	printf("\n     usecs               : count     distribution\n");
	if (lo < 0)
		return;
	for (i = 0; i <= hi; i++) {
		uint64_t from = i ? 1ULL << i : 0, to = (i ? 2ULL << i : 2) - 1;
		int stars = (int)(l->hist[i] * 40 / max), s;

		printf("%10" PRIu64 " -> %-10" PRIu64 " : %-8" PRIu64 " |", from, to, l->hist[i]);
		for (s = 0; s < 40; s++)
			putchar(s < stars ? '*' : ' ');
		printf("|\n");
	}
}

static void print_bad(const struct lat_run *lr)
{
	const struct sched_lat *l = &lr->lat;
	uint64_t lost = lr->nr_lost;

	if (l->nr_unordered && l->nr_timestamps)
		printf("  INFO: %.3f%% unordered timestamps (%" PRIu64 " out of %" PRIu64 ")\n",
		       (double)l->nr_unordered / (double)l->nr_timestamps * 100.0, l->nr_unordered,
		       l->nr_timestamps);
	if (lost && lr->nr_records)
		printf("  INFO: %.3f%% lost events (%" PRIu64 " out of %" PRIu64 ", in %" PRIu64
		       " chunks)\n",
		       (double)lost / (double)lr->nr_records * 100.0, lost, lr->nr_records,
		       lr->nr_lost_chunks);
	if (l->nr_switch_bugs && l->nr_timestamps) {
		printf("  INFO: %.3f%% context switch bugs (%" PRIu64 " out of %" PRIu64 ")",
		       (double)l->nr_switch_bugs / (double)l->nr_timestamps * 100.0,
		       l->nr_switch_bugs, l->nr_timestamps);
		if (lost)
			printf(" (due to lost events?)");
		printf("\n");
	}
}

static int print_table(struct lat_run *lr, const struct lat_opts *o, const enum lat_key *keys,
		       int nr_keys)
{
	struct lat_task **v;
	uint64_t all_rt = 0, all_cnt = 0;
	int n, i;

	n = sched_lat_finish(&lr->lat, o->per_pid, keys, nr_keys, comm_of, lr->sess, &v);
	if (n < 0) {
		pr_err("out of memory");
		return 1;
	}
	printf("\n -------------------------------------------------------------------------------"
	       "------------------------------------------------------------\n");
	printf("  Task                  |   Runtime ms  | Switches | Avg delay ms    | Max delay ms"
	       "    | Max delay start           | Max delay end          |\n");
	printf(" -------------------------------------------------------------------------------"
	       "------------------------------------------------------------\n");
	for (i = 0; i < n; i++)
		if (shown(v[i]))
			print_row(v[i], &all_rt, &all_cnt);
	printf(" -----------------------------------------------------------------------------"
	       "------------------------------------\n");
	printf("  TOTAL:                |%11.3f ms |%9" PRIu64 " |\n", (double)all_rt / 1e6,
	       all_cnt);
	printf(" ---------------------------------------------------\n");
	print_bad(lr);
	printf("\n");
	if (o->percentiles)
		print_percentiles(v, n);
	if (o->hist)
		print_hist(&lr->lat);
	free(v);
	return 0;
}

static int count_other(void *ctx, const struct perf_event_header *ev, uint64_t off)
{
	struct lat_run *lr = ctx;

	lr->nr_records++;
	if (ev->type == PERF_RECORD_LOST && ev->size >= sizeof(*ev) + 16) { /* id, lost */
		uint64_t n;

		memcpy(&n, (const char *)(ev + 1) + 8, sizeof(n));
		lr->nr_lost += n;
		lr->nr_lost_chunks++;
	}
	return 0;
}

int sched_latency(int argc, char **argv, struct sched_common *c)
{
	struct lat_opts o = { .sort = "avg, max, switch, runtime", .cpu = -1 };
	const struct opt opts[] = {
		OPT_INT('C', "CPU", &o.cpu, "n", "CPU to profile on"),
		OPT_BOOL('p', "pids", &o.per_pid, "latency stats per pid instead of per comm"),
		OPT_STRING('s', "sort", &o.sort, "key[,key2...]",
			   "sort by key(s): runtime, switch, avg, max"),
		OPT_BOOL(0, "percentiles", &o.percentiles,
			 "also print p50/p90/p99/max delay per task"),
		OPT_BOOL(0, "hist", &o.hist, "also print a log2 histogram of all run-queue delays"),
		OPT_STRING('i', "input", &o.input, "file", "input file name"),
		OPT_BOOL('f', "force", &o.force, "don't complain, do it"),
		OPT_END(),
	};
	struct lat_run lr = { 0 };
	enum lat_key keys[16];
	char bad[64];
	int nr_keys, ret;

	argc = opt_parse(argc, argv, opts, latency_usage, 0);
	if (argc > 0)
		opt_usage_error(opts, latency_usage, "unexpected argument '%s'", argv[0]);
	if (o.input)
		c->input = o.input;
	c->force |= o.force;
	if (o.cpu < -1)
		opt_usage_error(opts, latency_usage, "-C %d: give a CPU number", o.cpu);
	nr_keys = parse_keys(o.sort, keys, 16, bad, sizeof(bad));
	if (nr_keys == -EINVAL)
		opt_usage_error(opts, latency_usage,
				"Unknown --sort key: `%s' (use runtime, "
				"switch, avg, max or pid)",
				bad);
	if (nr_keys < 0) {
		pr_err("out of memory");
		return 1;
	}
	sched_lat_init(&lr.lat, o.cpu, o.percentiles);
	ret = sched_replay(c, &lr.sess, on_event, count_other, &lr);
	if (!ret) {
		lr.nr_records += lr.sess->nr_samples;
		out_pager_start();
		ret = print_table(&lr, &o, keys, nr_keys);
	}
	sched_lat_free(&lr.lat);
	session_free(lr.sess);
	return ret;
}
