// SPDX-License-Identifier: GPL-2.0
/*
 * folded: the set of collapsed stacks and the folded-text line parser.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base/err.h"
#include "lib/graph/folded.h"

void stackset_init(struct stackset *s, bool keep_seq)
{
	memset(s, 0, sizeof(*s));
	s->keep_seq = keep_seq;
}

void stackset_release(struct stackset *s)
{
	if (!s)
		return;
	arena_release(&s->arena);
	hashmap_release(&s->map);
	vec_free(&s->ents);
	vec_free(&s->seq);
	s->total = 0;
}

/* 8 bytes at a time: stacks are long and hashed once per sample. */
static uint64_t stack_hash(const char *s, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ len, w;

	while (len >= 8) {
		memcpy(&w, s, 8);
		h = (h ^ (w * 0xff51afd7ed558ccdULL)) * 0xc4ceb9fe1a85ec53ULL;
		h ^= h >> 29;
		s += 8;
		len -= 8;
	}
	w = 0;
	memcpy(&w, s, len);
	h = (h ^ (w * 0xff51afd7ed558ccdULL)) * 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 32);
}

static struct stack_ent *stackset_find(struct stackset *s, const char *stack, size_t len,
				       void ***slot)
{
	struct stack_ent *e;

	*slot = hashmap_slot(&s->map, stack_hash(stack, len));
	if (!*slot)
		return NULL;
	for (e = **slot; e; e = e->next)
		if (e->len == len && !memcmp(e->stack, stack, len))
			return e;
	return NULL;
}

static int stackset_seq_add(struct stackset *s, struct stack_ent *e, uint64_t count)
{
	struct stack_seq it = { e, count };

	if (s->seq.nr && s->seq.items[s->seq.nr - 1].ent == e) {
		s->seq.items[s->seq.nr - 1].count += count;
		return 0;
	}
	return vec_push(&s->seq, it);
}

int stackset_add_to(struct stackset *s, struct stack_ent *e, uint64_t count)
{
	e->count += count;
	s->total += count;
	if (s->keep_seq)
		return stackset_seq_add(s, e, count);
	return 0;
}

int stackset_add(struct stackset *s, const char *stack, size_t len, uint64_t count)
{
	struct stack_ent *e;

	return stackset_add_ent(s, stack, len, count, &e);
}

int stackset_add_ent(struct stackset *s, const char *stack, size_t len, uint64_t count,
		     struct stack_ent **ret)
{
	struct stack_ent *e;
	void **slot;

	*ret = NULL;
	e = stackset_find(s, stack, len, &slot);
	if (!slot)
		return -ENOMEM;
	if (!e) {
		if (vec_reserve(&s->ents, 1))
			return -ENOMEM;
		e = arena_zalloc(&s->arena, sizeof(*e));
		if (!e)
			return -ENOMEM;
		e->stack = arena_strndup(&s->arena, stack, len);
		if (!e->stack)
			return -ENOMEM;
		e->len = len;
		e->next = *slot;
		*slot = e;
		s->ents.items[s->ents.nr++] = e;
	}
	*ret = e;
	return stackset_add_to(s, e, count);
}

static int ent_cmp(const void *a, const void *b)
{
	const struct stack_ent *x = *(const struct stack_ent *const *)a;
	const struct stack_ent *y = *(const struct stack_ent *const *)b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->stack, y->stack, n);

	if (c)
		return c;
	return x->len < y->len ? -1 : x->len > y->len;
}

struct stack_ent **stackset_sorted(const struct stackset *s)
{
	struct stack_ent **v;

	if (!s->ents.nr)
		return NULL;
	v = malloc(s->ents.nr * sizeof(*v));
	if (!v)
		return NULL;
	memcpy(v, s->ents.items, s->ents.nr * sizeof(*v));
	qsort(v, s->ents.nr, sizeof(*v), ent_cmp);
	return v;
}

int stackset_print(const struct stackset *s, struct strbuf *out)
{
	struct stack_ent **v;
	size_t i;
	int err = 0;

	if (!s->ents.nr)
		return 0;
	v = stackset_sorted(s);
	if (!v)
		return -ENOMEM;
	for (i = 0; i < s->ents.nr && !err; i++) {
		err = strbuf_add(out, v[i]->stack, v[i]->len);
		if (!err)
			err = strbuf_addf(out, " %llu\n", (unsigned long long)v[i]->count);
	}
	free(v);
	return err;
}

/* Perl's \s on bytes: blank, \t, \n, \v, \f, \r. */
static inline bool is_ws(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* The last "\s\d+(\.\d*)?" at the end of line[0..len): returns the index of the blank, or
 * -1; the number is parsed into *val. */
static long last_count(const char *line, size_t len, double *val)
{
	size_t i = len, j;
	char *end;

	while (i > 0 && !is_ws(line[i - 1]))
		i--;
	if (i == 0 || i == len)
		return -1;
	j = i;
	if (line[j] < '0' || line[j] > '9')
		return -1;
	while (j < len && line[j] >= '0' && line[j] <= '9')
		j++;
	if (j < len && line[j] == '.')
		for (j++; j < len && line[j] >= '0' && line[j] <= '9'; j++)
			;
	if (j != len)
		return -1;
	*val = strtod(line + i, &end);
	return (long)i - 1;
}

int folded_parse_line(const char *line, size_t len, struct fg_line *out)
{
	double a, b;
	long p, q;

	p = last_count(line, len, &b);
	if (p < 0)
		return -ERR_FORMAT;
	out->stack = line;
	q = last_count(line, (size_t)p, &a);
	if (q >= 0) {
		out->len = (size_t)q;
		out->c1 = a;
		out->c2 = b;
		out->has2 = true;
	} else {
		out->len = (size_t)p;
		out->c1 = b;
		out->c2 = 0;
		out->has2 = false;
	}
	return 0;
}

int fg_line_cmp(const void *a, const void *b)
{
	const struct fg_line *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->stack, y->stack, n);

	if (c)
		return c;
	if (x->len == y->len)
		return 0;
	/* the shorter line continues with the blank before its count */
	if (x->len < y->len)
		return (unsigned char)' ' < (unsigned char)y->stack[n]
			       ? -1
			       : (unsigned char)' ' > (unsigned char)y->stack[n];
	return (unsigned char)x->stack[n] < (unsigned char)' '
		       ? -1
		       : (unsigned char)x->stack[n] > (unsigned char)' ';
}

/* Whether a kernel or JIT mark ("_[k]", "_[j]") ending a frame starts at s[i]. */
static bool mark_at(const char *s, size_t len, size_t i)
{
	return i + 4 <= len && s[i] == '_' && s[i + 1] == '[' &&
	       (s[i + 2] == 'k' || s[i + 2] == 'j') && s[i + 3] == ']' &&
	       (i + 4 == len || s[i + 4] == ';');
}

/* A line and the stack it is ordered by (the line's, less the marks). */
struct ukey {
	struct fg_line key, line;
};

static int ukey_cmp(const void *a, const void *b)
{
	return fg_line_cmp(&(*(struct ukey *const *)a)->key, &(*(struct ukey *const *)b)->key);
}

int fg_lines_sort_unmarked(struct fg_line *lines, size_t n)
{
	size_t total = 1, i, j;
	struct ukey *k, **v;
	char *buf, *p;

	for (i = 0; i < n; i++)
		total += lines[i].len;
	k = malloc(n * sizeof(*k) + 1);
	v = malloc(n * sizeof(*v) + 1); /* sorted as pointers: no element copies */
	buf = malloc(total);
	if (!k || !v || !buf) {
		free(k);
		free(v);
		free(buf);
		return -ENOMEM;
	}
	/* the keys stripped once: comparisons are then memcmp()s */
	for (i = 0, p = buf; i < n; i++) {
		const char *s = lines[i].stack;

		k[i].line = lines[i];
		k[i].key = (struct fg_line){ .stack = p };
		for (j = 0; j < lines[i].len;)
			if (mark_at(s, lines[i].len, j))
				j += 4;
			else
				*p++ = s[j++];
		k[i].key.len = (size_t)(p - k[i].key.stack);
		v[i] = &k[i];
	}
	qsort(v, n, sizeof(*v), ukey_cmp);
	for (i = 0; i < n; i++)
		lines[i] = v[i]->line;
	free(k);
	free(v);
	free(buf);
	return 0;
}
