// SPDX-License-Identifier: GPL-2.0
/*
 * report-tasks: `report --tasks`, the recording's threads as a tree of parent and children,
 * as perf 6.1 prints it. The threads are those COMM, FORK and EXIT records name (samples
 * add none), each under the thread its FORK came from. Roots and children come in the
 * order perf walks its thread table (by tid modulo 256, then tid): each thread not yet
 * placed is linked under its parent, the parent under its own, up to a thread of no known
 * parent, which becomes a root.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "cli/exit-status.h"
#include "cli/out.h"
#include "cli/report.h"
#include "lib/base/err.h"
#include "lib/base/hashmap.h"
#include "lib/session/session.h"

struct task {
	const struct thread *t;
	struct task *parent, *first_child, *last_child;
	struct task *next; /* the next child of the parent, or the next root */
	bool placed;
};

/* perf keeps threads in 256 trees chosen by tid, each in tid order, and walks them so */
static int perf_table_order(const void *a, const void *b)
{
	const struct task *x = a, *y = b;
	uint32_t bx = x->t->tid & 255, by = y->t->tid & 255;

	if (bx != by)
		return bx < by ? -1 : 1;
	if ((int32_t)x->t->tid != (int32_t)y->t->tid)
		return (int32_t)x->t->tid < (int32_t)y->t->tid ? -1 : 1;
	return 0;
}

static void add_child(struct task *parent, struct task *child)
{
	if (parent->last_child)
		parent->last_child->next = child;
	else
		parent->first_child = child;
	parent->last_child = child;
	child->parent = parent;
}

/* Places t under its parent and the parent under its own; returns the root the walk
 * reached when it was not placed before (NULL when it was), or -ENOENT when a parent is
 * missing from the table. */
static int place(struct hashmap *by_tid, struct task *t, struct task **root)
{
	struct task *parent;
	void *v;

	for (;;) {
		if (t->placed) {
			*root = NULL;
			return 0;
		}
		t->placed = true;
		if (t->t->ppid == -1) {
			*root = t;
			return 0;
		}
		if (!hashmap_get(by_tid, (uint32_t)t->t->ppid, &v))
			return -ENOENT;
		parent = v;
		add_child(parent, t);
		t = parent;
	}
}

/* Depth first, children in the order they were linked; a loop, as a chain of forks can be
 * as deep as the file is long. */
static void print_tree(FILE *out, const struct task *root)
{
	const struct task *t = root;
	int level = 0;

	for (;;) {
		fprintf(out, "  %8d %8d %8d |%*s%s\n", (int)t->t->pid, (int)t->t->tid,
			(int)t->t->ppid, level, "", t->t->comm);
		if (t->first_child) {
			t = t->first_child;
			level++;
			continue;
		}
		while (t != root && !t->next) {
			t = t->parent;
			level--;
		}
		if (t == root)
			return;
		t = t->next;
	}
}

static int print_tasks(FILE *out, struct task *tasks, size_t nr)
{
	struct task *roots = NULL, *last = NULL, *root;
	struct hashmap by_tid = { 0 };
	int err = 0;
	size_t i;

	qsort(tasks, nr, sizeof(*tasks), perf_table_order);
	for (i = 0; i < nr && !err; i++)
		err = hashmap_put(&by_tid, tasks[i].t->tid, &tasks[i]);
	for (i = 0; i < nr && !err; i++) {
		err = place(&by_tid, &tasks[i], &root);
		if (err || !root)
			continue;
		if (last)
			last->next = root;
		else
			roots = root;
		last = root;
	}
	hashmap_release(&by_tid);
	if (err)
		return err;
	fprintf(out, "# %8s %8s %8s  %s\n", "pid", "tid", "ppid", "comm");
	for (root = roots; root; root = root->next)
		print_tree(out, root);
	return 0;
}

int report_tasks(const struct report_opts *o)
{
	struct session_opts so = { .open_flags = o->force ? PD_FORCE : 0,
				   .no_resolve = true,
				   .threads_only = true };
	const struct thread **threads = NULL;
	struct session *sess;
	struct task *tasks = NULL;
	size_t nr = 0, i;
	char errbuf[512];
	int err;

	err = session_open(o->input, &so, &sess, errbuf, sizeof(errbuf));
	if (err < 0) {
		pr_err("cannot read '%s': %s", o->input, errbuf);
		return EXIT_STATUS_PERF_ERR;
	}
	err = session_process(sess, NULL, NULL, NULL);
	if (err < 0) {
		pr_err("cannot read '%s': %s", o->input,
		       sess->pd->err_msg[0] ? sess->pd->err_msg : err_str(err));
		goto out;
	}
	err = session_threads(sess, &threads, &nr);
	if (!err && nr && !(tasks = calloc(nr, sizeof(*tasks))))
		err = -ENOMEM;
	for (i = 0; !err && i < nr; i++)
		tasks[i].t = threads[i];
	if (!err)
		err = print_tasks(stdout, tasks, nr);
	if (err == -ENOENT)
		pr_err("'%s': a thread's parent is not among the recorded threads: cannot draw "
		       "the task tree",
		       o->input);
	else if (err)
		pr_err("report --tasks on '%s' failed: %s", o->input, err_str(err));
out:
	free(tasks);
	free(threads);
	session_free(sess);
	return err ? 1 : 0;
}
