// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph-pipe: folding on the batcher's thread (see flamegraph-pipe.h). A sample is one
 * record: what folding reads of it, then of each frame its dso, symbol and addr; the worker
 * makes a resolved_sample of it again and hands it to consume().
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "cli/flamegraph-pipe.h"
#include "lib/base/batcher.h"
#include "lib/base/vec.h"

struct item {
	const struct pd_attr *attr;
	const char *comm;
	uint32_t pid, tid, cpu;
	bool discarded;
	uint64_t time, period;
	size_t nr_frames;
};

/* What folding reads of a frame: half a struct frame to copy and to hand across CPUs. */
struct pframe {
	struct dso *dso;
	const struct symbol *sym;
	uint64_t addr;
};

struct fg_pipe {
	fg_consume_fn consume;
	void *ctx;
	struct batcher *b;
	VEC(struct frame) scratch; /* the worker's: a sample's frames made whole */
};

static int consume_item(void *ctx, void *rec, size_t len)
{
	struct fg_pipe *p = ctx;
	const struct item *it = rec;
	const struct pframe *pf = (const struct pframe *)(it + 1);
	struct perf_sample s = { .pid = it->pid,
				 .tid = it->tid,
				 .time = it->time,
				 .cpu = it->cpu,
				 .period = it->period };
	struct thread t = { .pid = it->pid, .tid = it->tid, .comm = it->comm };
	struct resolved_sample rs = { .s = &s,
				      .attr = it->attr,
				      .thread = &t,
				      .nr_frames = it->nr_frames,
				      .chain_discarded = it->discarded };
	size_t j;

	(void)len;
	p->scratch.nr = 0;
	if (vec_reserve(&p->scratch, it->nr_frames))
		return -ENOMEM;
	for (j = 0; j < it->nr_frames; j++)
		p->scratch.items[j] = (struct frame){ .dso = pf[j].dso,
						      .sym = pf[j].sym,
						      .addr = pf[j].addr };
	rs.frames = p->scratch.items;
	return p->consume(p->ctx, &rs);
}

int fg_pipe_new(fg_consume_fn consume, void *ctx, struct fg_pipe **ret)
{
	struct fg_pipe *p = calloc(1, sizeof(*p));
	int err;

	*ret = NULL;
	if (!p)
		return -ENOMEM;
	p->consume = consume;
	p->ctx = ctx;
	err = batcher_new(consume_item, p, &p->b);
	if (err) {
		free(p);
		return err;
	}
	*ret = p;
	return 0;
}

int fg_pipe_add(struct fg_pipe *p, const struct resolved_sample *rs)
{
	size_t i, nf = rs->chain_discarded ? 0 : rs->nr_frames;
	struct pframe *pf;
	struct item *it;
	int err;

	err = batcher_reserve(p->b, sizeof(*it) + nf * sizeof(*pf), (void **)&it);
	if (err)
		return err;
	*it = (struct item){ .attr = rs->attr,
			     .pid = rs->s->pid,
			     .tid = rs->s->tid,
			     .cpu = rs->s->cpu,
			     .time = rs->s->time,
			     .period = rs->s->period,
			     .nr_frames = nf,
			     .discarded = rs->chain_discarded };
	it->comm = rs->thread ? rs->thread->comm : NULL;
	pf = (struct pframe *)(it + 1);
	for (i = 0; i < nf; i++)
		pf[i] = (struct pframe){ .dso = rs->frames[i].dso,
					 .sym = rs->frames[i].sym,
					 .addr = rs->frames[i].addr };
	return 0;
}

int fg_pipe_finish(struct fg_pipe *p)
{
	return batcher_finish(p->b);
}

void fg_pipe_free(struct fg_pipe *p)
{
	if (!p)
		return;
	batcher_free(p->b);
	vec_free(&p->scratch);
	free(p);
}
