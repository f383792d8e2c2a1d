/* SPDX-License-Identifier: GPL-2.0 */
/*
 * systrace-abi: the layouts bpf/systrace.bpf.c and lib/systrace/ share: the load-time
 * configuration, the per-syscall settings user space writes, the statistics the kernel keeps
 * and the records it sends through the ring buffer. Plain fixed-size types only, so the same
 * header compiles for the BPF target and for the host.
 */
#ifndef FLARE_SYSTRACE_ABI_H
#define FLARE_SYSTRACE_ABI_H
#include <linux/types.h>

#define ST_MAX_SYSCALLS 512
#define ST_MAX_TASKS 16384
#define ST_MAX_STATS 65536
#define ST_HIST_BUCKETS 32 /* log2 buckets of microseconds: [0] < 1 us ... */
#define ST_MAX_PIECES 3	   /* strings or buffers carried by one record */
#define ST_PIECE_MAX 512   /* bytes of one string or buffer piece (a power of two) */
#define ST_DATA_MAX (ST_MAX_PIECES * ST_PIECE_MAX)

enum st_mode { ST_MODE_ALL, ST_MODE_TASKS };
enum st_task_state { ST_TASK_WAIT_EXEC = 1, ST_TASK_ACTIVE = 2 };

struct st_config {
	__u32 mode;	     /* ST_MODE_* */
	__u32 follow;	     /* tasks map grows with forks of traced tasks */
	__u32 uid;	     /* (u32)-1: any */
	__u32 lines;	     /* send records to the ring */
	__u32 enter_recs;    /* send enter records (else only exits, with their args) */
	__u32 stats;	     /* keep per (thread, syscall) statistics */
	__u32 errno_summary; /* and per errno counts */
	__u32 hist;	     /* and the latency histogram */
	__u32 failure_only;  /* only failed calls' records */
	__u32 strsize;	     /* bytes of buffers to copy (<= ST_PIECE_MAX - 1) */
	__u64 min_dur_ns;    /* only records of calls at least this long */
	__s64 execve_nr;
	__u32 fork_child_off; /* offset of child_pid in sched_process_fork's record */
	__u32 wakeup_bytes;   /* wake the reader when this much waits in the ring */
	__u64 cpu_mask[4];    /* ST_MODE_ALL: the CPUs (none set: all) */
	char comm[16];	      /* only threads of this comm (empty: any) */
};

#define ST_SC_TRACE 1	 /* the syscall is traced */
#define ST_SC_BUF_IN 2	 /* buf_arg points to len_arg bytes the call reads (write) */
#define ST_SC_BUF_OUT 4	 /* buf_arg points to bytes the call fills, ret long (read) */
#define ST_SC_NORETURN 8 /* exit, exit_group: no sys_exit follows */

struct st_sysconf {
	__u32 flags;
	__u32 str_mask; /* args that are NUL-terminated user strings */
	__u32 buf_arg;
	__u32 len_arg;
};

struct st_inflight {
	__u64 ts;
	__s64 id;
	__u64 args[6];
	__u32 refetch; /* string args the enter could not read: read at the exit */
	__u32 pad;
};

struct st_stat_key {
	__u32 tid;
	__u32 id;
};

struct st_stat {
	__u64 calls;
	__u64 errors;
	__u64 total;	    /* ns, of the timed calls */
	__u64 min, max;	    /* ns */
	__u64 sq_hi, sq_lo; /* sum of squared ns, 128 bits */
	__u64 untimed;	    /* calls whose enter was not seen (duration 0) */
	__u64 noreturn;	    /* enters of exit/exit_group, which have no exit */
	char comm[16];	    /* the thread's name when first seen, and after an exec */
};

struct st_err_key {
	__u32 tid;
	__u32 id;
	__u32 err;
	__u32 pad;
};

enum st_rec_type { ST_REC_ENTER = 1, ST_REC_EXIT = 2 };

#define ST_PIECE_STR 1	 /* a string (len counts its NUL) */
#define ST_PIECE_FAULT 2 /* the user memory could not be read */

struct st_piece {
	__u16 arg, off, len, flags;
};

struct st_rec {
	__u32 type;
	__u32 tid, pid;
	__u32 id;
	__u32 cpu;
	__u32 nstr;
	__u32 len; /* bytes used in data */
	__u32 pad;
	__u64 ts;  /* CLOCK_MONOTONIC ns */
	__u64 dur; /* exit: ns, or ~0 when the enter was not seen */
	__s64 ret;
	__u64 args[6];
	char comm[16];
	struct st_piece piece[ST_MAX_PIECES];
	__u32 pad2;
	char data[ST_DATA_MAX];
};

#endif
