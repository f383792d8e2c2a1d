// SPDX-License-Identifier: GPL-2.0
/*
 * flare sched: perf sched's record, latency, map, timehist and script over a recording of
 * the scheduler's tracepoints (lib/sched), on files flare or perf recorded.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cmds.h"
#include "cli/opt.h"
#include "cli/out.h"
#include "cli/sched.h"
#include "lib/base/err.h"
#include "lib/trace/tp.h"

static const char *const sched_usage[] = {
	"flare sched [<options>] {record|latency|map|replay|script|timehist}",
	NULL,
};

struct replay_ctx {
	struct session *sess;
	struct sched_decoder dec;
	sched_event_fn fn;
	sched_other_fn other;
	void *ctx;
};

static int on_sample(void *ctx, const struct resolved_sample *rs)
{
	struct replay_ctx *rc = ctx;
	struct sched_rec r;

	if (!sched_decode(&rc->dec, rc->sess->pd, rs->s, &r))
		return 0;
	return rc->fn(rc->ctx, &r, rs);
}

static int on_other(void *ctx, const struct perf_event_header *ev, uint64_t off)
{
	struct replay_ctx *rc = ctx;

	return rc->other(rc->ctx, ev, off);
}

/* Whether the recording's events sample call chains (perf sched record -g). */
static bool sched_has_callchain(const struct perf_data *pd)
{
	size_t i;

	for (i = 0; i < pd->nr_attrs; i++)
		if (pd->attrs[i].attr.sample_type & PERF_SAMPLE_CALLCHAIN)
			return true;
	return false;
}

int sched_replay(const struct sched_common *c, struct session **sess, sched_event_fn fn,
		 sched_other_fn other, void *ctx)
{
	struct session_opts so = { 0 };
	struct replay_ctx rc = { .fn = fn, .other = other, .ctx = ctx };
	char errbuf[512];
	int err;

	so.open_flags = c->force ? PD_FORCE : 0;
	/* names come from the tracepoints' fields; timehist -g names its chains' kernel
	 * addresses itself (session_kernel_addr) */
	so.no_callchain = so.no_resolve = true;
	so.symfs = c->symfs;
	so.kallsyms = c->kallsyms;
	*sess = NULL;
	err = session_open(c->input, &so, sess, errbuf, sizeof(errbuf));
	if (err < 0) {
		if (err == -ENOENT)
			pr_err("cannot open '%s': %s (record one with 'flare sched record')",
			       c->input, errbuf);
		else
			pr_err("cannot read '%s': %s", c->input, errbuf);
		return 255;
	}
	rc.sess = *sess;
	err = sched_decoder_init(&rc.dec, rc.sess->pd);
	if (err == -ENOMEM) {
		pr_err("out of memory");
		return 255;
	}
	if (err || !rc.dec.has_switch) {
		pr_err("'%s' has no sched:sched_switch events (record them with 'flare sched "
		       "record')",
		       c->input);
		sched_decoder_release(&rc.dec);
		return 255;
	}
	if (c->want_callchain && !sched_has_callchain(rc.sess->pd))
		fprintf(stderr, "Samples do not have callchains.\n"); /* as perf says */
	err = session_process(rc.sess, on_sample, other ? on_other : NULL, &rc);
	sched_decoder_release(&rc.dec);
	if (err < 0) {
		pr_err("cannot read '%s': %s", c->input,
		       rc.sess->pd->err_msg[0] ? rc.sess->pd->err_msg : err_str(err));
		return 255;
	}
	return 0;
}

const char *sched_comm(struct session *sess, uint32_t tid)
{
	const struct thread *t;

	if (!tid)
		return "swapper";
	t = session_thread(sess, tid);
	if (!t)
		return NULL;
	/* a thread forked by one perf never saw a COMM of keeps its own ":tid" in perf, where
	 * the replay hands down the parent's placeholder */
	if (t->comm[0] == ':') {
		char own[16];

		snprintf(own, sizeof(own), ":%u", tid);
		if (strcmp(own, t->comm))
			return NULL;
	}
	return t->comm;
}

char *sched_usec_str(char buf[32], uint64_t ns)
{
	snprintf(buf, 32, "%" PRIu64 ".%06" PRIu64, ns / (uint64_t)1000000000,
		 ns % (uint64_t)1000000000 / 1000);
	return buf;
}

/* ---- record ---- */

static bool tp_exists(const char *spec)
{
	char sys[64], name[128];
	const char *colon = strchr(spec, ':');
	uint64_t id;

	if (!colon || (size_t)(colon - spec) >= sizeof(sys) || strlen(colon + 1) >= sizeof(name))
		return false;
	memcpy(sys, spec, (size_t)(colon - spec));
	sys[colon - spec] = 0;
	strcpy(name, colon + 1);
	return tp_id(sys, name, &id) == 0;
}

/* perf sched record: record -a -m 1024 -c 1 and the sched events, then the user's options */
static int sched_record(int argc, char **argv)
{
	static const char *const stat_evs[] = {
		"sched:sched_stat_wait",
		"sched:sched_stat_sleep",
		"sched:sched_stat_iowait",
	};
	const char **args;
	int n = 0, i, ret;
	bool schedstat = true;

	args = calloc((size_t)argc + 32, sizeof(*args));
	if (!args) {
		pr_err("out of memory");
		return 1;
	}
	args[n++] = "record";
	args[n++] = "-a";
	args[n++] = "-m";
	args[n++] = "1024";
	args[n++] = "-c";
	args[n++] = "1";
	for (i = 0; sched_record_events[i]; i++) {
		args[n++] = "-e";
		args[n++] = sched_record_events[i];
	}
	for (i = 0; i < 3; i++)
		schedstat &= tp_exists(stat_evs[i]);
	for (i = 0; schedstat && i < 3; i++) {
		args[n++] = "-e";
		args[n++] = stat_evs[i];
	}
	args[n++] = "-e";
	args[n++] = tp_exists("sched:sched_waking") ? "sched:sched_waking" : "sched:sched_wakeup";
	for (i = 1; i < argc; i++)
		args[n++] = argv[i];
	args[n] = NULL;
	ret = cmd_record(n, (char **)args);
	free(args);
	return ret;
}

/* ---- script: the sched recording through flare script ---- */

static int sched_script(int argc, char **argv, const struct sched_common *c)
{
	const char **args = calloc((size_t)argc + 8, sizeof(*args));
	int n = 0, i, ret;

	if (!args) {
		pr_err("out of memory");
		return 1;
	}
	args[n++] = "script";
	if (c->input) {
		args[n++] = "-i";
		args[n++] = c->input;
	}
	if (c->force)
		args[n++] = "-f";
	for (i = 1; i < argc; i++)
		args[n++] = argv[i];
	args[n] = NULL;
	ret = cmd_script(n, (char **)args);
	free(args);
	return ret;
}

static bool is_cmd(const char *arg, const char *name, size_t min)
{
	size_t n = strlen(arg);

	return n >= min && n <= strlen(name) && !strncmp(arg, name, n);
}

int cmd_sched(int argc, char **argv)
{
	struct sched_common c = { .input = "perf.data" };
	const char *input = NULL;
	const struct opt opts[] = {
		OPT_STRING('i', "input", &input, "file", "input file name"),
		OPT_COUNT('v', "verbose", &c.verbose, "be more verbose (show symbol address, etc)"),
		OPT_BOOL('f', "force", &c.force, "don't complain, do it"),
		OPT_END(),
	};

	argc = opt_parse(argc, argv, opts, sched_usage, OPT_STOP_AT_NON_OPTION);
	if (argc < 1)
		opt_usage_exit(opts, sched_usage, 0, 129);
	if (input)
		c.input = input;
	out_verbose = c.verbose;
	/* argv[0] is the subcommand now: the sub-parsers take it as their name */
	if (is_cmd(argv[0], "record", 3))
		return sched_record(argc, argv);
	if (is_cmd(argv[0], "latency", 3))
		return sched_latency(argc, argv, &c);
	if (!strcmp(argv[0], "map"))
		return sched_map(argc, argv, &c);
	if (is_cmd(argv[0], "replay", 3))
		return sched_replay_cmd(argc, argv, &c);
	if (is_cmd(argv[0], "timehist", 4))
		return sched_timehist(argc, argv, &c);
	if (!strcmp(argv[0], "script"))
		return sched_script(argc, argv, input ? &c : &(struct sched_common){ 0 });
	opt_usage_error(opts, sched_usage,
			"unknown sched subcommand '%s' (use record, latency, "
			"map, replay, script or timehist)",
			argv[0]);
}
