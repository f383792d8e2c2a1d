// SPDX-License-Identifier: GPL-2.0
/*
 * synth: perf's synthesized start-up records, from /proc and /proc/kallsyms (see synth.h).
 * The shapes follow perf 6.1's synthetic-events.c: for -p and the workload a COMM per
 * thread and the MMAP2 set of the leader; for -a a FORK, a COMM and the MMAP2 set of every
 * task.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include "lib/data/format.h"
#include "lib/record/synth.h"
#include "lib/sym/sym.h"

#define REC_MAX 8192

int synth_emit(struct synth *s, void *rec, size_t body_len)
{
	struct perf_event_header *h = rec;

	body_len = (body_len + 7) & ~(size_t)7;
	memset((char *)rec + body_len, 0, s->trailer_size);
	h->size = (uint16_t)(body_len + s->trailer_size);
	if (s->hook)
		s->hook(s->hook_ctx, h);
	return perf_writer_write(s->w, rec, h->size);
}

int synth_kernel_mmap(struct synth *s)
{
	static const char name[] = "[kernel.kallsyms]_text";
	uint64_t rec[(sizeof(struct perf_event_header) + 32 + sizeof(name) + 64) / 8 + 8];
	struct perf_event_header *h = (void *)rec;
	char *p = (char *)rec + sizeof(*h);
	uint32_t pid = (uint32_t)-1, tid = 0;
	uint64_t text, etext, len;

	static const char *const names[] = { "_text", "_etext" };
	uint64_t addrs[2];

	if (kallsyms_symbol_addrs("/proc/kallsyms", names, addrs, 2))
		return 0;
	text = addrs[0];
	etext = addrs[1];
	if (!text)
		return 0; /* kptr_restrict: perf writes no map either */
	len = etext > text ? etext - text : 0;
	memset(rec, 0, sizeof(rec));
	h->type = PERF_RECORD_MMAP;
	h->misc = PERF_RECORD_MISC_KERNEL;
	memcpy(p, &pid, 4);
	memcpy(p + 4, &tid, 4);
	memcpy(p + 8, &text, 8);
	memcpy(p + 16, &len, 8);
	memcpy(p + 24, &text, 8);
	memcpy(p + 32, name, sizeof(name));
	return synth_emit(s, rec, sizeof(*h) + 32 + sizeof(name));
}

/* Name, Tgid and PPid of a task from /proc/<pid>/task/<tid>/status. */
static int task_status(pid_t pid, pid_t tid, char comm[16], pid_t *tgid, pid_t *ppid)
{
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", pid, tid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	memset(comm, 0, 16);
	*tgid = pid;
	*ppid = 0;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Name:", 5)) {
			char *v = line + 5;

			while (*v == ' ' || *v == '\t')
				v++;
			v[strcspn(v, "\n")] = 0;
			size_t n = strlen(v);

			memcpy(comm, v, n < 15 ? n : 15);
		} else if (!strncmp(line, "Tgid:", 5)) {
			*tgid = atoi(line + 5);
		} else if (!strncmp(line, "PPid:", 5)) {
			*ppid = atoi(line + 5);
		}
	}
	fclose(f);
	return 0;
}

static int emit_comm(struct synth *s, pid_t pid, pid_t tid, const char *comm)
{
	uint64_t rec[(8 + 8 + 16 + 64) / 8 + REC_MAX / 8];
	struct perf_event_header *h = (void *)rec;
	char *p = (char *)rec + 8;
	size_t n = strlen(comm) + 1;
	uint32_t v[2] = { (uint32_t)pid, (uint32_t)tid };

	memset(rec, 0, 64);
	h->type = PERF_RECORD_COMM;
	h->misc = 0;
	memcpy(p, v, 8);
	memcpy(p + 8, comm, n);
	return synth_emit(s, rec, 8 + 8 + n);
}

static int emit_fork(struct synth *s, pid_t pid, pid_t ppid, pid_t tid, pid_t ptid)
{
	uint64_t rec[(8 + 24) / 8 + 16];
	uint32_t v[4] = { (uint32_t)pid, (uint32_t)ppid, (uint32_t)tid, (uint32_t)ptid };
	struct perf_event_header *h = (void *)rec;

	memset(rec, 0, sizeof(rec));
	h->type = PERF_RECORD_FORK;
	h->misc = PERF_RECORD_MISC_FORK_EXEC; /* synthesized: readers do not clone maps */
	memcpy((char *)rec + 8, v, 16);
	/* time 0 at +24 */
	return synth_emit(s, rec, 8 + 24);
}

/* One line of /proc/PID/maps as an MMAP2 record (exec mappings, or all with mmap_data). */
static int emit_map_line(struct synth *s, pid_t pid, pid_t tid, const char *line)
{
	uint64_t rec[REC_MAX / 8 + 8];
	struct perf_event_header *h = (void *)rec;
	unsigned long long start, end, pgoff, ino;
	unsigned int maj, min;
	char perm[8], *p = (char *)rec + 8;
	uint32_t prot = 0, flags, u32;
	int name_at = 0;
	const char *name;
	size_t n;
	uint64_t len;

	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perm, &pgoff, &maj, &min,
		   &ino, &name_at) < 7)
		return 0;
	prot = (perm[0] == 'r' ? PROT_READ : 0) | (perm[1] == 'w' ? PROT_WRITE : 0) |
	       (perm[2] == 'x' ? PROT_EXEC : 0);
	if (!(prot & PROT_EXEC) && !s->mmap_data)
		return 0;
	flags = perm[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
	name = name_at ? line + name_at : "";
	n = strcspn(name, "\n");
	if (!n) {
		name = "//anon";
		n = 6;
	}
	if (n > REC_MAX - 128)
		n = REC_MAX - 128;
	memset(rec, 0, 80);
	h->type = PERF_RECORD_MMAP2;
	h->misc = PERF_RECORD_MISC_USER | (prot & PROT_EXEC ? 0 : PERF_RECORD_MISC_MMAP_DATA);
	u32 = (uint32_t)pid;
	memcpy(p, &u32, 4);
	u32 = (uint32_t)tid;
	memcpy(p + 4, &u32, 4);
	len = end - start;
	memcpy(p + 8, &start, 8);
	memcpy(p + 16, &len, 8);
	memcpy(p + 24, &pgoff, 8);
	memcpy(p + 32, &maj, 4);
	memcpy(p + 36, &min, 4);
	memcpy(p + 40, &ino, 8);
	/* ino_generation 0 at +48 */
	memcpy(p + 56, &prot, 4);
	memcpy(p + 60, &flags, 4);
	memcpy(p + 64, name, n);
	p[64 + n] = 0;
	return synth_emit(s, rec, 8 + 64 + n + 1);
}

static int emit_maps(struct synth *s, pid_t pid)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	int err = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (!err && getline(&line, &cap, f) > 0)
		err = emit_map_line(s, pid, pid, line);
	free(line);
	fclose(f);
	return err;
}

/* Threads of process pid, in /proc order. */
static int for_each_thread(struct synth *s, pid_t pid, int (*fn)(struct synth *, pid_t, pid_t))
{
	char path[64];
	struct dirent *de;
	int err = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return 0;
	while (!err && (de = readdir(d)))
		if (isdigit((unsigned char)de->d_name[0]))
			err = fn(s, pid, atoi(de->d_name));
	closedir(d);
	return err;
}

static int full_thread(struct synth *s, pid_t pid, pid_t tid)
{
	pid_t tgid, ppid;
	char comm[16];
	int err;

	if (task_status(pid, tid, comm, &tgid, &ppid))
		return 0;
	/* a thread's parent is its process; a process's is its parent process */
	err = emit_fork(s, tgid, tid == tgid ? ppid : tgid, tid, tid == tgid ? ppid : tgid);
	if (!err)
		err = emit_comm(s, tgid, tid, comm);
	if (!err && tid == tgid)
		err = emit_maps(s, tgid);
	return err;
}

int synth_task(struct synth *s, pid_t tid, bool full)
{
	char comm[16];
	pid_t tgid, ppid;
	int err;

	if (full)
		return for_each_thread(s, tid, full_thread);
	if (task_status(tid, tid, comm, &tgid, &ppid))
		return 0;
	err = emit_comm(s, tgid, tid, comm);
	if (!err && tid == tgid && !s->comm_only)
		err = emit_maps(s, tgid);
	return err;
}

int synth_all_tasks(struct synth *s)
{
	struct dirent *de;
	int err = 0;
	DIR *d = opendir("/proc");

	if (!d)
		return -errno;
	while (!err && (de = readdir(d)))
		if (isdigit((unsigned char)de->d_name[0]))
			err = synth_task(s, atoi(de->d_name), true);
	closedir(d);
	return err;
}

/* THREAD_MAP: u64 nr; nr x {u64 pid; char comm[16]} (perf leaves comm empty). */
int synth_thread_map(struct synth *s, const struct target *t)
{
	size_t n = target_nr_tasks(t), i, size = 16 + n * 24;
	uint64_t *rec = calloc(1, size);
	struct perf_event_header *h = (void *)rec;
	int err;

	if (!rec)
		return -ENOMEM;
	if (size > UINT16_MAX) {
		free(rec);
		return 0;
	}
	h->type = PERF_RECORD_THREAD_MAP;
	h->size = (uint16_t)size;
	rec[1] = n;
	for (i = 0; i < n; i++)
		rec[2 + i * 3] = (uint64_t)(int64_t)target_task(t, i);
	err = perf_writer_write(s->w, rec, size);
	free(rec);
	return err;
}

/* CPU_MAP: the range form {u16 type 2, u8 any_cpu, u8 pad, u16 start, u16 end} when the cpus
 * are contiguous, else the list form {u16 type 0, u16 nr, u16 cpu[nr]}. */
int synth_cpu_map(struct synth *s, const struct idlist *cpus)
{
	size_t i, size;
	uint16_t *p;
	uint64_t rec[(16 + 2 * 4096) / 8];
	struct perf_event_header *h = (void *)rec;
	bool range = cpus->nr > 0;

	if (cpus->nr > 4000)
		return 0;
	for (i = 1; i < cpus->nr; i++)
		if (cpus->ids[i] != cpus->ids[i - 1] + 1)
			range = false;
	memset(rec, 0, sizeof(rec));
	h->type = PERF_RECORD_CPU_MAP;
	p = (uint16_t *)(h + 1);
	if (range) {
		p[0] = 2;
		p[2] = (uint16_t)cpus->ids[0];
		p[3] = (uint16_t)cpus->ids[cpus->nr - 1];
		size = 16;
	} else {
		p[0] = 0;
		p[1] = (uint16_t)cpus->nr;
		for (i = 0; i < cpus->nr; i++)
			p[2 + i] = (uint16_t)cpus->ids[i];
		size = (8 + 4 + 2 * cpus->nr + 7) & ~(size_t)7;
	}
	h->size = (uint16_t)size;
	return perf_writer_write(s->w, rec, size);
}
