// SPDX-License-Identifier: GPL-2.0
/*
 * reader-sample: decoding of SAMPLE records and sample_id trailers, and the id -> attr map
 * (attr id arrays, HEADER_ATTR in pipe mode, ID_INDEX). Every read is bounds-checked against
 * the record's size; a field that overruns the record gives -ERR_FORMAT naming it.
 */
#include <errno.h>
#include <stdlib.h>
#include "lib/base/err.h"
#include "lib/data/reader-priv.h"

/* perf's id_pos (u64 index after the header in a SAMPLE) and is_pos (u64s from the end). */
static void calc_id_pos(struct pd_priv *p, uint64_t st)
{
	int idx = 0;

	if (st & PERF_SAMPLE_IDENTIFIER) {
		p->id_pos = 0;
		p->is_pos = 1;
		return;
	}
	if (!(st & PERF_SAMPLE_ID)) {
		p->id_pos = p->is_pos = -1;
		return;
	}
	idx += !!(st & PERF_SAMPLE_IP);
	idx += !!(st & PERF_SAMPLE_TID);
	idx += !!(st & PERF_SAMPLE_TIME);
	idx += !!(st & PERF_SAMPLE_ADDR);
	p->id_pos = idx;
	idx = 1;
	idx += !!(st & PERF_SAMPLE_CPU);
	idx += !!(st & PERF_SAMPLE_STREAM_ID);
	p->is_pos = idx;
}

static int index_attr_ids(struct perf_data *pd, size_t i)
{
	struct pd_priv *p = pd_priv(pd);
	size_t j;

	memset(p->id_cache, 0, sizeof(p->id_cache)); /* an id may now name another attr */
	for (j = 0; j < pd->attrs[i].nr_ids; j++)
		if (hashmap_put(&p->id2attr, pd->attrs[i].ids[j], (void *)(uintptr_t)(i + 1)))
			return -ENOMEM;
	return 0;
}

int pd_index_ids(struct perf_data *pd)
{
	size_t i;
	int err;

	for (i = 0; i < pd->nr_attrs; i++) {
		err = index_attr_ids(pd, i);
		if (err)
			return err;
	}
	if (pd->nr_attrs)
		calc_id_pos(pd_priv(pd), pd->attrs[0].attr.sample_type);
	return 0;
}

int pd_absorb_attr(struct perf_data *pd, const struct perf_event_header *ev)
{
	struct pd_priv *p = pd_priv(pd);
	const uint8_t *b = (const uint8_t *)ev + sizeof(*ev);
	size_t body = ev->size - sizeof(*ev), asz, n, i;
	char name[256];
	struct pd_attr *a;

	if (body < PERF_ATTR_SIZE_VER0)
		return pd_err(pd, -ERR_FORMAT, "attr record of %u bytes is too short", ev->size);
	asz = pd_u32(b + 4);
	if (asz == 0)
		asz = PERF_ATTR_SIZE_VER0;
	if (asz > body || (body - asz) % 8 || asz < PERF_ATTR_SIZE_VER0)
		return pd_err(pd, -ERR_FORMAT, "attr record has attr size %zu in a %u-byte record",
			      asz, ev->size);
	if (pd->nr_attrs == p->attrs_alloc) {
		size_t na = p->attrs_alloc ? p->attrs_alloc * 2 : 8;
		void *q = realloc(pd->attrs, na * sizeof(*pd->attrs));
		void *r;

		if (!q)
			return -ENOMEM;
		pd->attrs = q;
		r = realloc(p->name_src, na);
		if (!r)
			return -ENOMEM;
		p->name_src = r;
		p->attrs_alloc = na;
	}
	a = &pd->attrs[pd->nr_attrs];
	memset(a, 0, sizeof(*a));
	p->name_src[pd->nr_attrs] = NAME_DERIVED;
	memcpy(&a->attr, b, asz < sizeof(a->attr) ? asz : sizeof(a->attr));
	a->idx = pd->nr_attrs;
	n = (body - asz) / 8;
	if (n) {
		a->ids = malloc(n * 8);
		if (!a->ids)
			return -ENOMEM;
		for (i = 0; i < n; i++)
			a->ids[i] = pd_u64(b + asz + i * 8);
	}
	a->nr_ids = n;
	perf_attr_name(&a->attr, name, sizeof(name));
	a->name = strdup(name);
	if (!a->name)
		return -ENOMEM;
	pd->nr_attrs++;
	return index_attr_ids(pd, pd->nr_attrs - 1);
}

int pd_add_id_index(struct perf_data *pd, const struct perf_event_header *ev)
{
	struct pd_priv *p = pd_priv(pd);
	const uint8_t *b = (const uint8_t *)ev + sizeof(*ev);
	uint64_t nr, i;

	if (ev->size < sizeof(*ev) + 8)
		return pd_err(pd, -ERR_FORMAT, "ID_INDEX record of %u bytes is too short",
			      ev->size);
	nr = pd_u64(b);
	if (nr > (ev->size - sizeof(*ev) - 8) / 32)
		return pd_err(pd, -ERR_FORMAT, "ID_INDEX record of %u bytes claims %llu entries",
			      ev->size, (unsigned long long)nr);
	for (i = 0; i < nr; i++) {
		struct pd_id_info *e = arena_alloc(&p->arena, sizeof(*e));

		if (!e)
			return -ENOMEM;
		memcpy(e, b + 8 + i * 32, sizeof(*e));
		if (hashmap_put(&p->id_index, e->id, e))
			return -ENOMEM;
	}
	return 0;
}

const struct pd_id_info *perf_data_id_info(struct perf_data *pd, uint64_t id)
{
	void *v;

	return hashmap_get(&pd_priv(pd)->id_index, id, &v) ? v : NULL;
}

const struct pd_attr *perf_data_attr_by_id(struct perf_data *pd, uint64_t id)
{
	struct pd_priv *p = pd_priv(pd);
	size_t c = id % (sizeof(p->id_cache) / sizeof(p->id_cache[0]));
	void *v;

	/* every sample asks: the few ids of a recording are answered from the cache */
	if (p->id_cache[c].idx && p->id_cache[c].id == id)
		return &pd->attrs[p->id_cache[c].idx - 1];
	if (!hashmap_get(&p->id2attr, id, &v))
		return NULL;
	p->id_cache[c].id = id;
	p->id_cache[c].idx = (uintptr_t)v;
	return &pd->attrs[(uintptr_t)v - 1];
}

bool perf_data_record_id(struct perf_data *pd, const struct perf_event_header *ev, uint64_t *id)
{
	struct pd_priv *p = pd_priv(pd);
	size_t n = (ev->size - sizeof(*ev)) / 8;
	const uint8_t *b = (const uint8_t *)ev + sizeof(*ev);

	*id = 0;
	if (!pd->nr_attrs || ev->type >= PERF_RECORD_USER_TYPE_START)
		return false;
	if (ev->type == PERF_RECORD_SAMPLE) {
		if (p->id_pos < 0 || (size_t)p->id_pos >= n)
			return false;
		*id = pd_u64(b + 8 * p->id_pos);
		return true;
	}
	if (!pd->attrs[0].attr.sample_id_all || p->is_pos < 0 || (size_t)p->is_pos > n)
		return false;
	*id = pd_u64((const uint8_t *)ev + ev->size - 8 * p->is_pos);
	return true;
}

const struct pd_attr *perf_data_attr_of(struct perf_data *pd, const struct perf_event_header *ev)
{
	const struct pd_attr *a;
	uint64_t id;

	if (pd->nr_attrs == 1)
		return &pd->attrs[0];
	if (!perf_data_record_id(pd, ev, &id))
		return pd->nr_attrs && ev->type < PERF_RECORD_USER_TYPE_START ? &pd->attrs[0]
									      : NULL;
	a = perf_data_attr_by_id(pd, id);
	return a;
}

/* A bounds-checked cursor over a record. */
struct cur {
	const uint8_t *p, *end;
	const char *what; /* the field that overran */
};

static inline bool take(struct cur *c, size_t n, const char *what, const uint8_t **at)
{
	if ((size_t)(c->end - c->p) < n) {
		c->what = what;
		return false;
	}
	*at = c->p;
	c->p += n;
	return true;
}

static inline bool u64f(struct cur *c, const char *what, uint64_t *v)
{
	const uint8_t *at;

	if (!take(c, 8, what, &at))
		return false;
	*v = pd_u64(at);
	return true;
}

static inline bool u32pair(struct cur *c, const char *what, uint32_t *a, uint32_t *b)
{
	const uint8_t *at;

	if (!take(c, 8, what, &at))
		return false;
	*a = pd_u32(at);
	*b = pd_u32(at + 4);
	return true;
}

/* An array of n u64s; n is bounded by the record so the multiplication cannot overflow. */
static bool u64arr(struct cur *c, uint64_t n, const char *what, const uint64_t **arr)
{
	const uint8_t *at;

	if (n > (size_t)(c->end - c->p) / 8) {
		c->what = what;
		return false;
	}
	at = c->p;
	c->p += n * 8;
	*arr = (const uint64_t *)at;
	return true;
}

/*
 * read_format: GROUP gives {nr; [enabled]; [running]; nr x {value; [id]; [lost]}}, a single
 * counter {value; [enabled]; [running]; [id]; [lost]}. Both are handed out as read_nr entries
 * of read_stride u64s, value first (a single counter's entry is copied into s->read_one).
 */
static bool parse_read(struct cur *c, uint64_t rf, struct perf_sample *s)
{
	uint32_t stride = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	const uint8_t *start = c->p;
	uint64_t value = 0;

	s->read_nr = 1;
	s->read_stride = stride;
	if ((rf & PERF_FORMAT_GROUP) ? !u64f(c, "read group nr", &s->read_nr)
				     : !u64f(c, "read value", &value))
		return false;
	if ((rf & PERF_FORMAT_TOTAL_TIME_ENABLED) &&
	    !u64f(c, "read time_enabled", &s->read_time_enabled))
		return false;
	if ((rf & PERF_FORMAT_TOTAL_TIME_RUNNING) &&
	    !u64f(c, "read time_running", &s->read_time_running))
		return false;
	if (rf & PERF_FORMAT_GROUP) {
		if (s->read_nr > (size_t)(c->end - c->p) / (8 * stride) ||
		    !u64arr(c, s->read_nr * stride, "read group values", &s->read_values)) {
			c->what = "read group values";
			return false;
		}
	} else {
		s->read_one[0] = value;
		if ((rf & PERF_FORMAT_ID) && !u64f(c, "read id", &s->read_one[1]))
			return false;
		if ((rf & PERF_FORMAT_LOST) && !u64f(c, "read lost", &s->read_one[stride - 1]))
			return false;
		s->read_values = s->read_one;
	}
	s->read = (const uint64_t *)start;
	return true;
}

static bool parse_regs(struct cur *c, uint64_t mask, const char *what, uint64_t *abi,
		       const uint64_t **regs)
{
	if (!u64f(c, what, abi))
		return false;
	if (*abi)
		return u64arr(c, __builtin_popcountll(mask), what, regs);
	return true;
}

static bool parse_branch(struct cur *c, const struct perf_event_attr *attr, struct perf_sample *s)
{
	const uint64_t *arr;

	if (!u64f(c, "branch stack nr", &s->branch_nr))
		return false;
	if ((attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) &&
	    !u64f(c, "branch stack hw_idx", &s->branch_hw_idx))
		return false;
	if (s->branch_nr > (size_t)(c->end - c->p) / 24 ||
	    !u64arr(c, s->branch_nr * 3, "branch stack entries", &arr)) {
		c->what = "branch stack entries";
		return false;
	}
	s->branches = (const struct perf_branch_entry *)arr;
	return true;
}

static bool parse_stack(struct cur *c, struct perf_sample *s)
{
	const uint8_t *at;

	if (!u64f(c, "user stack size", &s->user_stack_alloc))
		return false;
	if (!s->user_stack_alloc)
		return true;
	if (s->user_stack_alloc % 8 || !take(c, s->user_stack_alloc, "user stack", &at)) {
		c->what = "user stack";
		return false;
	}
	s->user_stack = at;
	if (!u64f(c, "user stack dyn_size", &s->user_stack_size))
		return false;
	if (s->user_stack_size > s->user_stack_alloc) {
		c->what = "user stack dyn_size";
		return false;
	}
	return true;
}

static bool parse_raw(struct cur *c, struct perf_sample *s)
{
	const uint8_t *at;

	if (!take(c, 4, "raw size", &at))
		return false;
	s->raw_size = pd_u32(at);
	if (!take(c, s->raw_size, "raw data", &at))
		return false;
	s->raw = at;
	if ((uintptr_t)c->p & 7) {
		c->what = "raw data (size leaves the sample misaligned)";
		return false;
	}
	return true;
}

/* The fields after PERIOD, in the kernel's order. */
static bool parse_tail(struct cur *c, const struct perf_event_attr *attr, uint64_t st,
		       struct perf_sample *s)
{
	if ((st & PERF_SAMPLE_READ) && !parse_read(c, attr->read_format, s))
		return false;
	if ((st & PERF_SAMPLE_CALLCHAIN) &&
	    (!u64f(c, "callchain nr", &s->nr_callchain) ||
	     !u64arr(c, s->nr_callchain, "callchain", &s->callchain)))
		return false;
	if ((st & PERF_SAMPLE_RAW) && !parse_raw(c, s))
		return false;
	if ((st & PERF_SAMPLE_BRANCH_STACK) && !parse_branch(c, attr, s))
		return false;
	if (st & PERF_SAMPLE_REGS_USER) {
		s->user_regs_mask = attr->sample_regs_user;
		if (!parse_regs(c, attr->sample_regs_user, "user regs", &s->user_abi,
				&s->user_regs))
			return false;
	}
	if ((st & PERF_SAMPLE_STACK_USER) && !parse_stack(c, s))
		return false;
	if ((st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) &&
	    !u64f(c, "weight", &s->weight))
		return false;
	if ((st & PERF_SAMPLE_DATA_SRC) && !u64f(c, "data_src", &s->data_src))
		return false;
	if ((st & PERF_SAMPLE_TRANSACTION) && !u64f(c, "transaction", &s->transaction))
		return false;
	if (st & PERF_SAMPLE_REGS_INTR) {
		s->intr_regs_mask = attr->sample_regs_intr;
		if (!parse_regs(c, attr->sample_regs_intr, "intr regs", &s->intr_abi,
				&s->intr_regs))
			return false;
	}
	if ((st & PERF_SAMPLE_PHYS_ADDR) && !u64f(c, "phys_addr", &s->phys_addr))
		return false;
	if ((st & PERF_SAMPLE_CGROUP) && !u64f(c, "cgroup", &s->cgroup))
		return false;
	if ((st & PERF_SAMPLE_DATA_PAGE_SIZE) && !u64f(c, "data_page_size", &s->data_page_size))
		return false;
	if ((st & PERF_SAMPLE_CODE_PAGE_SIZE) && !u64f(c, "code_page_size", &s->code_page_size))
		return false;
	if (st & PERF_SAMPLE_AUX) {
		const uint8_t *at;

		if (!u64f(c, "aux size", &s->aux_size) || !take(c, s->aux_size, "aux data", &at))
			return false;
		s->aux = at;
	}
	return true;
}

static bool parse_head(struct cur *c, uint64_t st, struct perf_sample *s)
{
	uint32_t res;

	if ((st & PERF_SAMPLE_IDENTIFIER) && !u64f(c, "identifier", &s->id))
		return false;
	if ((st & PERF_SAMPLE_IP) && !u64f(c, "ip", &s->ip))
		return false;
	if ((st & PERF_SAMPLE_TID) && !u32pair(c, "pid/tid", &s->pid, &s->tid))
		return false;
	if ((st & PERF_SAMPLE_TIME) && !u64f(c, "time", &s->time))
		return false;
	if ((st & PERF_SAMPLE_ADDR) && !u64f(c, "addr", &s->addr))
		return false;
	if ((st & PERF_SAMPLE_ID) && !u64f(c, "id", &s->id))
		return false;
	if ((st & PERF_SAMPLE_STREAM_ID) && !u64f(c, "stream_id", &s->stream_id))
		return false;
	if ((st & PERF_SAMPLE_CPU) && !u32pair(c, "cpu", &s->cpu, &res))
		return false;
	if ((st & PERF_SAMPLE_PERIOD) && !u64f(c, "period", &s->period))
		return false;
	return true;
}

int perf_data_parse_sample(struct perf_data *pd, const struct perf_event_header *ev,
			   struct perf_sample *s)
{
	const struct pd_attr *a = perf_data_attr_of(pd, ev);
	struct cur c = { (const uint8_t *)ev + sizeof(*ev), (const uint8_t *)ev + ev->size, NULL };
	uint64_t st;

	memset(s, 0, sizeof(*s));
	s->branch_hw_idx = -1ULL;
	if (ev->type != PERF_RECORD_SAMPLE || ev->size < sizeof(*ev))
		return pd_err(pd, -EINVAL, "not a sample record");
	if (!a) {
		uint64_t id = 0;

		perf_data_record_id(pd, ev, &id);
		return pd_err(pd, -ERR_FORMAT, "sample has id %llu, which no event of the file has",
			      (unsigned long long)id);
	}
	st = a->attr.sample_type;
	s->attr = a;
	s->cpumode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	s->exact_ip = ev->misc & PERF_RECORD_MISC_EXACT_IP;
	if (!parse_head(&c, st, s) || !parse_tail(&c, &a->attr, st, s))
		return pd_err(pd, -ERR_FORMAT,
			      "sample of %u bytes (sample_type 0x%llx) ends inside its %s field",
			      ev->size, (unsigned long long)st, c.what);
	if (!(st & PERF_SAMPLE_PERIOD))
		s->period = a->attr.sample_period;
	return 0;
}

/* The sample_id trailer's fields, read backwards from the record's end. */
static const struct {
	uint64_t bit;
	const char *what;
} trailer[] = {
	{ PERF_SAMPLE_IDENTIFIER, "identifier" },
	{ PERF_SAMPLE_CPU, "cpu" },
	{ PERF_SAMPLE_STREAM_ID, "stream_id" },
	{ PERF_SAMPLE_ID, "id" },
	{ PERF_SAMPLE_TIME, "time" },
	{ PERF_SAMPLE_TID, "pid/tid" },
};

int perf_data_parse_id(struct perf_data *pd, const struct perf_event_header *ev,
		       struct perf_sample_id *sid)
{
	const struct pd_attr *a = perf_data_attr_of(pd, ev);
	const uint8_t *p = (const uint8_t *)ev + ev->size;
	const uint8_t *start = (const uint8_t *)ev + sizeof(*ev);
	uint64_t v[6] = { 0 }, st;
	size_t i;

	memset(sid, 0, sizeof(*sid));
	if (!a || !a->attr.sample_id_all || ev->type == PERF_RECORD_SAMPLE ||
	    ev->type >= PERF_RECORD_USER_TYPE_START)
		return 0;
	st = a->attr.sample_type;
	for (i = 0; i < 6; i++) {
		if (!(st & trailer[i].bit))
			continue;
		if (p - start < 8)
			return pd_err(
				pd, -ERR_FORMAT,
				"record of type %u and %u bytes is too short for its %s trailer "
				"field",
				ev->type, ev->size, trailer[i].what);
		p -= 8;
		v[i] = pd_u64(p);
	}
	sid->id = (st & PERF_SAMPLE_IDENTIFIER) ? v[0] : v[3];
	sid->cpu = (uint32_t)v[1];
	sid->stream_id = v[2];
	sid->time = v[4];
	sid->pid = (uint32_t)v[5];
	sid->tid = (uint32_t)(v[5] >> 32);
	return 0;
}
