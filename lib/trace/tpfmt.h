/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tpfmt: one way to print a tracepoint's fields. A tracepoint's RAW bytes go through its
 * event's print fmt (libtraceevent, the tep a recording's tracing data made), as perf script's
 * trace field, perf report's "Trace output" and the sched/trace commands show them. Kernel
 * addresses printed with %pS/%ps/%pF/%pf are named from the recording's kernel maps (its
 * kallsyms), as perf names them: "ext4_dirty_inode+0x34".
 *
 * The text lives in the struct until the next call or tpfmt_release(). The struct owns
 * nothing but its buffer; the tep and the session are borrowed.
 */
#ifndef FLARE_TRACE_TPFMT_H
#define FLARE_TRACE_TPFMT_H
#include <stddef.h>
#include <stdint.h>
#include "lib/base/strbuf.h"

struct tep_handle;
struct session;
struct perf_sample;

struct tpfmt {
	struct strbuf text;
	struct tep_handle *named; /* the tep whose function resolver was set */
};

#define TPFMT_INIT                                                                                 \
	{                                                                                          \
		STRBUF_INIT, NULL                                                                  \
	}

/* The fields of raw (size bytes of one tracepoint record) formatted by the print fmt of its
 * event in tep; "" when tep is NULL, raw is empty or its event is unknown. */
const char *tpfmt_format(struct tpfmt *f, struct tep_handle *tep, const void *raw, size_t size,
			 uint64_t ts, int cpu);

/* The same for a sample of sess, with kernel addresses named through sess's kernel maps. */
const char *tpfmt_sample(struct tpfmt *f, struct session *sess, const struct perf_sample *s);

/* Makes tep name kernel addresses (%pS and friends) through sess's kernel maps; sess must
 * outlive every use of tep (it does when tep is the one of sess's own file). */
void tpfmt_name_kernel(struct tep_handle *tep, struct session *sess);

void tpfmt_release(struct tpfmt *f);

#endif
