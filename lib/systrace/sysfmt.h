/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sysfmt: what a syscall's arguments are called and what they hold, from the kernel's
 * syscalls:sys_enter_<name> tracepoint format in tracefs, and how each is shown: perf trace's
 * names (dfd: CWD, flags: RDONLY|CLOEXEC, prot: READ|WRITE, sig: TERM, errno names) with the
 * strings and buffers the BPF side copied shown as strace quotes them. A struct sysfmt is
 * plain data owned by its caller; nothing here allocates what outlives a call except
 * sysfmt_load's table entries, freed by sysfmt_table_free.
 */
#ifndef FLARE_SYSTRACE_SYSFMT_H
#define FLARE_SYSTRACE_SYSFMT_H
#include <stddef.h>
#include <stdint.h>
#include "lib/base/strbuf.h"
#include "lib/systrace/systrace-abi.h"

enum sysarg_kind {
	SA_INT,
	SA_UINT,
	SA_HEX,
	SA_PTR,
	SA_STR,
	SA_BUF_IN,
	SA_BUF_OUT,
	SA_FD,
	SA_DFD,
	SA_FD_NUM, /* an fd perf shows without its path (typed unsigned long: mmap, writev) */
	SA_OPEN_FLAGS,
	SA_MODE,
	SA_ACCESS,
	SA_PROT,
	SA_MMAP_FLAGS,
	SA_SIG,
	SA_PID,
	SA_RESOURCE,
	SA_ARCH_PRCTL,
	SA_RANDOM_FLAGS,
	SA_WHENCE,
};

enum sysret_kind { SR_INT, SR_HEX, SR_PID };

struct sysarg {
	char name[32];
	enum sysarg_kind kind;
};

struct sysfmt {
	const char *name; /* the syscall's name (static) */
	int nr_args;
	struct sysarg args[6];
	enum sysret_kind ret;
	int len_arg; /* the count of a buffer argument, or -1 */
	int noreturn;
};

/* Parses a tracefs format text of syscall name into f. 0 or -ERR_FORMAT. */
int sysfmt_parse(const char *name, const char *text, struct sysfmt *f);
/* The offset of field in a tracefs format text ("field:pid_t child_pid;\toffset:20;"), or
 * -ENOENT / -ERR_FORMAT. */
int sysfmt_field_offset(const char *text, const char *field);
/* Reads tracefs's events/syscalls/sys_enter_<name>/format (or its "new" form) into f; a
 * syscall without a format gets no arguments. 0 or -errno. */
int sysfmt_load(const char *tracefs, const char *name, struct sysfmt *f);
/* The BPF side's settings for f: which args are strings, which buffer to copy. */
void sysfmt_bpf_conf(const struct sysfmt *f, struct st_sysconf *sc);

/* What the caller knows beyond the records, asked while formatting; any may be NULL. */
struct sysfmt_hooks {
	/* The name of thread tid for pid arguments and returns ("28297 (sh)"); NULL: unknown. */
	const char *(*comm)(void *ctx, int tid);
	/* The path fd stands for in the process of record r, shown as "3</etc/passwd>";
	 * NULL: unknown. The string needs to live only until the next call. */
	const char *(*fd_path)(void *ctx, const struct st_rec *r, int fd);
	void *ctx;
};

/* Appends "name(arg: value, ...": the enter record's args with the pieces of both records.
 * h may be NULL. */
int sysfmt_args(struct strbuf *sb, const struct sysfmt *f, const struct st_rec *enter,
		const struct st_rec *exit, const struct sysfmt_hooks *h);
/* Appends the return value: "3", "-1 ENOENT (No such file or directory)", "0x7f...". */
int sysfmt_ret(struct strbuf *sb, const struct sysfmt *f, int64_t ret,
	       const struct sysfmt_hooks *h);
/* The complete string argument i carried by either record (enter's first), its length
 * without the NUL in *len; NULL when neither carries it whole. */
const char *sysfmt_arg_str(const struct sysfmt *f, const struct st_rec *enter,
			   const struct st_rec *exit, int i, size_t *len);
/* Appends len bytes quoted as strace does ("a\nb\0"), with "..." after when truncated. */
int sysfmt_quote(struct strbuf *sb, const char *s, size_t len, int truncated);

#endif
