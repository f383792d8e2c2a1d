/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched: what the flare sched subcommands share: the options every one takes (-i, -f, -v)
 * and the replay of a recording's sched events into a handler.
 */
#ifndef FLARE_CLI_SCHED_H
#define FLARE_CLI_SCHED_H
#include <stdbool.h>
#include "lib/sched/sched.h"
#include "lib/session/session.h"

struct sched_common {
	const char *input;
	int force, verbose;
	bool want_callchain; /* timehist -g: say when the file has no chains */
	const char *symfs, *kallsyms;
};

/* Called for each sched event in time order; rs is the sample it came from. */
typedef int (*sched_event_fn)(void *ctx, const struct sched_rec *r,
			      const struct resolved_sample *rs);
/* Called for the other records (LOST, ...), as session_process() gives them; may be NULL. */
typedef int (*sched_other_fn)(void *ctx, const struct perf_event_header *ev, uint64_t off);

/* Opens c->input, replays its sched events into fn. The session stays open in *sess for
 * names (the caller frees it with session_free(), also on error). Prints one line and returns
 * perf's exit status (255) on failure, else 0. */
int sched_replay(const struct sched_common *c, struct session **sess, sched_event_fn fn,
		 sched_other_fn other, void *ctx);

/* The name perf gives a tid at the end of a replay ("swapper" for 0, ":tid" unknown). */
const char *sched_comm(struct session *sess, uint32_t tid);

/* "sec.usec" as perf's timestamp__scnprintf_usec. */
char *sched_usec_str(char buf[32], uint64_t ns);

int sched_latency(int argc, char **argv, struct sched_common *c);
int sched_timehist(int argc, char **argv, struct sched_common *c);
int sched_map(int argc, char **argv, struct sched_common *c);
int sched_replay_cmd(int argc, char **argv, struct sched_common *c);

#endif
