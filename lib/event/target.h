/* SPDX-License-Identifier: GPL-2.0 */
/*
 * target: what to count or sample. Tasks (-p PID[,PID], -t TID[,TID], or the workload's pid)
 * times CPUs (-a: every online CPU, -C 0-1,3). A target with no tasks counts every task on
 * its CPUs (pid -1); a target with no CPUs follows its tasks on any CPU (cpu -1). The
 * perf_event_open calls are the cross product: target_task(t, i) x target_cpu(t, j).
 * A target owns its arrays; target_release() frees them. Nothing here prints.
 */
#ifndef FLARE_EVENT_TARGET_H
#define FLARE_EVENT_TARGET_H
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct idlist {
	int *ids;
	size_t nr;
	size_t alloc;
};

struct target {
	struct idlist tasks; /* thread ids to open per task; empty = all tasks */
	struct idlist cpus;  /* cpus; empty = any cpu */
	struct idlist pids;  /* -p as given (processes), for messages */
	bool system_wide;    /* -a or -C */
	bool per_thread;     /* tasks are single threads (-t): no inherit by default */
};

/* Parses a list of numbers with optional ranges ("0-1,3") into out (appended, sorted,
 * duplicates removed). 0, or -EINVAL with *bad_pos the offset of the bad character. */
int idlist_parse(const char *s, struct idlist *out, int *bad_pos);
void idlist_release(struct idlist *l);
/* Appends v unless present; 0 or -ENOMEM. */
int idlist_add(struct idlist *l, int v);

/* The online CPUs (/sys/devices/system/cpu/online) into out. 0 or -errno. */
int cpus_online(struct idlist *out);

/* -p: each PID must exist; all its threads become tasks. 0, -EINVAL (syntax, *bad = offset)
 * or -ESRCH (*bad = the missing pid). */
int target_add_pids(struct target *t, const char *s, int *bad);
/* -t: each TID must exist. Same returns as target_add_pids. */
int target_add_tids(struct target *t, const char *s, int *bad);
/* -C: each CPU must be online. -EINVAL (syntax, *bad = offset) or -ENODEV (*bad = cpu). */
int target_set_cpus(struct target *t, const char *s, int *bad);
/* -a: every online CPU. */
int target_set_all_cpus(struct target *t);
/* The workload: one task, followed into its children with inherit. */
int target_set_workload(struct target *t, pid_t pid);

size_t target_nr_tasks(const struct target *t);	   /* >= 1 (pid -1 counts as one) */
size_t target_nr_cpus(const struct target *t);	   /* >= 1 (cpu -1 counts as one) */
int target_task(const struct target *t, size_t i); /* a tid, or -1 */
int target_cpu(const struct target *t, size_t i);  /* a cpu, or -1 */

void target_release(struct target *t);

/* The socket (physical package), die and core of cpu from sysfs; 0s when unknown. */
void cpu_topology(int cpu, int *socket, int *die, int *core);
/* The NUMA node of cpu (0 when unknown). */
int cpu_node(int cpu);
/* Every thread of every process in /proc becomes a task (perf's --per-thread -a). */
int target_add_all_threads(struct target *t);

#endif
