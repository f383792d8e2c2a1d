// SPDX-License-Identifier: GPL-2.0
/*
 * rawtrace: raw trace pages to the kernel's trace lines (see rawtrace.h). The line's head is
 * written as the kernel's trace_print_context() writes it, the body by libtraceevent from the
 * event's print fmt, or as the kernel writes its own events (syscalls, markers, stacks).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include <trace-seq.h>
#include "lib/base/err.h"
#include "lib/base/strbuf.h"
#include "lib/sym/sym.h"
#include "lib/trace/rawbuf.h"
#include "lib/trace/rawtrace.h"

/* The kernel's trace_entry flags (include/linux/trace_events.h, 6.13 and later). */
#define TF_IRQS_OFF 0x01
#define TF_RESCHED_LAZY 0x02
#define TF_RESCHED 0x04
#define TF_HARDIRQ 0x08
#define TF_SOFTIRQ 0x10
#define TF_PREEMPT_RESCHED 0x20
#define TF_NMI 0x40
#define TF_BH_OFF 0x80

enum kind { K_UNSEEN, K_GENERIC, K_SYS_ENTER, K_SYS_EXIT, K_PRINT, K_KSTACK, K_UNKNOWN };

struct rawtrace {
	struct tep_handle *tep;
	struct rawmerge *merge;
	struct strbuf line;
	struct trace_seq seq;
	unsigned char kinds[65536]; /* by common_type */
	bool irq_info, clock_ns;
	struct symtab *syms; /* borrowed; NULL: addresses in hex */
	rawtrace_line_fn fn;
	void *ctx;
};

int rawtrace_new(int long_size, bool big_endian, struct rawtrace **ret)
{
	struct rawtrace *rt = calloc(1, sizeof(*rt));

	if (!rt)
		return -ENOMEM;
	rt->tep = tep_alloc();
	if (!rt->tep || rawmerge_new(long_size, big_endian, &rt->merge)) {
		rawtrace_free(rt);
		return -ENOMEM;
	}
	tep_set_long_size(rt->tep, long_size);
	tep_set_file_bigendian(rt->tep, big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	rt->line = (struct strbuf)STRBUF_INIT;
	trace_seq_init(&rt->seq);
	rt->irq_info = rt->clock_ns = true;
	*ret = rt;
	return 0;
}

void rawtrace_free(struct rawtrace *rt)
{
	if (!rt)
		return;
	tep_free(rt->tep);
	rawmerge_free(rt->merge);
	if (rt->line.buf)
		strbuf_release(&rt->line);
	if (rt->seq.buffer)
		trace_seq_destroy(&rt->seq);
	free(rt);
}

void rawtrace_set_style(struct rawtrace *rt, bool irq_info, bool clock_ns)
{
	rt->irq_info = irq_info;
	rt->clock_ns = clock_ns;
}

void rawtrace_set_symtab(struct rawtrace *rt, struct symtab *st)
{
	rt->syms = st;
}

/* Whether a format text looks like one tracefs wrote: printable ASCII, and balanced brackets
 * in each field line (a print fmt may show a half-open "[a/b)"). libtraceevent 1.7's parser
 * crashes on an array field whose '[' is never closed, so such texts are refused before it
 * sees them. */
static bool format_plausible(const char *text, size_t len)
{
	bool field = false;
	int depth = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c == '\n') {
			if (depth)
				return false;
			field = len - i > 7 && !memcmp(text + i + 1, "\tfield:", 7);
			continue;
		}
		if (c != '\t' && (c < 0x20 || c > 0x7e))
			return false;
		if (field && c == '[')
			depth++;
		else if (field && c == ']' && --depth < 0)
			return false;
	}
	return !depth;
}

int rawtrace_add_format(struct rawtrace *rt, const char *sys, const char *text, size_t len)
{
	if (!format_plausible(text, len))
		return -ERR_FORMAT;
	if (!strcmp(sys, "header_page"))
		return tep_parse_header_page(rt->tep, (char *)text, (unsigned long)len,
					     tep_get_long_size(rt->tep))
			       ? -ERR_FORMAT
			       : 0;
	memset(rt->kinds, K_UNSEEN, sizeof(rt->kinds));
	return tep_parse_event(rt->tep, text, len, sys) ? -ERR_FORMAT : 0;
}

void rawtrace_add_cmdlines(struct rawtrace *rt, const char *text, size_t len)
{
	char *dup = strndup(text, len), *save = NULL, *l;

	for (l = dup ? strtok_r(dup, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
		char *end;
		long pid = strtol(l, &end, 10);

		if (end != l && *end == ' ' && end[1] && pid > 0 && pid < (1L << 30))
			tep_override_comm(rt->tep, end + 1, (int)pid);
	}
	free(dup);
}

int rawtrace_add_page(struct rawtrace *rt, int cpu, const void *page, size_t size)
{
	return rawmerge_add(rt->merge, cpu, page, size);
}

static enum kind kind_of(struct rawtrace *rt, struct tep_event *e)
{
	if (!e)
		return K_UNKNOWN;
	if (!strcmp(e->system, "syscalls") && !strncmp(e->name, "sys_enter_", 10))
		return K_SYS_ENTER;
	if (!strcmp(e->system, "syscalls") && !strncmp(e->name, "sys_exit_", 9))
		return K_SYS_EXIT;
	if (!strcmp(e->system, "ftrace") && !strcmp(e->name, "print"))
		return K_PRINT;
	if (!strcmp(e->system, "ftrace") && !strcmp(e->name, "kernel_stack"))
		return K_KSTACK;
	return K_GENERIC;
}

/* "d.h1." as the kernel's trace_print_lat_fmt() writes it. */
static void lat_flags(struct strbuf *sb, unsigned int flags, unsigned int preempt)
{
	static const char resched[8] = { '.', 'l', 'n', 'b', 'p', 'L', 'N', 'B' };
	unsigned int r = (flags & TF_RESCHED_LAZY ? 1 : 0) | (flags & TF_RESCHED ? 2 : 0) |
			 (flags & TF_PREEMPT_RESCHED ? 4 : 0);
	bool nmi = flags & TF_NMI, hard = flags & TF_HARDIRQ, soft = flags & TF_SOFTIRQ;
	bool bh = flags & TF_BH_OFF, off = flags & TF_IRQS_OFF;

	strbuf_addch(sb, off && bh ? 'D' : off ? 'd' : bh ? 'b' : '.');
	strbuf_addch(sb, resched[r]);
	strbuf_addch(sb, nmi && hard	? 'Z'
			 : nmi		? 'z'
			 : hard && soft ? 'H'
			 : hard		? 'h'
			 : soft		? 's'
					: '.');
	if (preempt & 0xf)
		strbuf_addf(sb, "%x", preempt & 0xf);
	else
		strbuf_addch(sb, '.');
	if (preempt & 0xf0)
		strbuf_addf(sb, "%x", preempt >> 4);
	else
		strbuf_addch(sb, '.');
}

static void head(struct rawtrace *rt, const struct rawevent *ev, int pid)
{
	const unsigned char *d = ev->data;

	strbuf_addf(&rt->line, "%16s-%-7d [%03d] ", tep_data_comm_from_pid(rt->tep, pid), pid,
		    ev->cpu);
	if (rt->irq_info)
		lat_flags(&rt->line, d[2], d[3]);
	if (rt->clock_ns) {
		unsigned long long us = (ev->ts + 500) / 1000;

		strbuf_addf(&rt->line, " %5llu.%06llu: ", us / 1000000, us % 1000000);
	} else {
		strbuf_addf(&rt->line, " %12llu: ", ev->ts);
	}
}

/* A kernel address as the kernel's seq_print_ip_sym() names it without offsets. */
static void add_sym(struct rawtrace *rt, unsigned long long addr)
{
	const struct symbol *sym = NULL;
	struct dso *dso = NULL;

	if (!addr) {
		strbuf_addch(&rt->line, '0');
		return;
	}
	if (rt->syms) {
		dso = symtab_kernel_module(rt->syms, addr);
		if (!dso)
			dso = symtab_kernel(rt->syms);
		sym = dso ? dso_find_symbol(rt->syms, dso, addr) : NULL;
	}
	if (!sym)
		strbuf_addf(&rt->line, "0x%llx", addr);
	else if (dso->kind == DSO_KMODULE)
		strbuf_addf(&rt->line, "%s %s", sym->name, dso->short_name);
	else
		strbuf_adds(&rt->line, sym->name);
}

static unsigned long long field_val(struct tep_format_field *f, void *data, int size)
{
	unsigned long long v = 0;

	if (f->offset >= 0 && f->size > 0 && f->size <= 8 && f->offset + f->size <= size)
		tep_read_number_field(f, data, &v);
	return v;
}

static void body_syscall(struct rawtrace *rt, struct tep_event *e, const struct rawevent *ev,
			 bool enter)
{
	struct tep_format_field *f;
	bool first = true;

	strbuf_addf(&rt->line, "sys_%s", e->name + (enter ? 10 : 9));
	if (!enter) {
		f = tep_find_field(e, "ret");
		strbuf_addf(&rt->line, " -> %#llx\n", f ? field_val(f, ev->data, ev->size) : 0);
		return;
	}
	strbuf_addch(&rt->line, '(');
	for (f = e->format.fields; f; f = f->next) {
		if (!strcmp(f->name, "__syscall_nr"))
			continue;
		strbuf_addf(&rt->line, "%s%s: %#llx", first ? "" : ", ", f->name,
			    field_val(f, ev->data, ev->size));
		first = false;
	}
	strbuf_adds(&rt->line, ")\n");
}

static void body_print(struct rawtrace *rt, struct tep_event *e, const struct rawevent *ev)
{
	struct tep_format_field *ip = tep_find_field(e, "ip"), *buf = tep_find_field(e, "buf");
	const char *s;
	size_t n;

	add_sym(rt, ip ? field_val(ip, ev->data, ev->size) : 0);
	strbuf_adds(&rt->line, ": ");
	if (buf && buf->offset >= 0 && buf->offset < ev->size) {
		s = (const char *)ev->data + buf->offset;
		n = strnlen(s, (size_t)(ev->size - buf->offset));
		strbuf_add(&rt->line, s, n);
	}
	if (!rt->line.len || rt->line.buf[rt->line.len - 1] != '\n')
		strbuf_addch(&rt->line, '\n');
}

static void body_stack(struct rawtrace *rt, struct tep_event *e, const struct rawevent *ev)
{
	struct tep_format_field *caller = tep_find_field(e, "caller");
	int ls = tep_get_long_size(rt->tep), off;

	strbuf_adds(&rt->line, "<stack trace>\n");
	if (!caller)
		return;
	for (off = (int)caller->offset; off + ls <= ev->size; off += ls) {
		unsigned long long a = 0;

		memcpy(&a, (char *)ev->data + off, (size_t)ls);
		if (a == (ls == 8 ? ~0ULL : 0xffffffffULL))
			break;
		strbuf_adds(&rt->line, " => ");
		add_sym(rt, a);
		strbuf_addch(&rt->line, '\n');
	}
}

static void body_generic(struct rawtrace *rt, struct tep_event *e, const struct rawevent *ev)
{
	struct tep_record rec = { 0 };

	rec.ts = ev->ts;
	rec.cpu = ev->cpu;
	rec.size = ev->size;
	rec.data = ev->data;
	trace_seq_reset(&rt->seq);
	tep_print_event(rt->tep, &rt->seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&rt->seq);
	strbuf_addf(&rt->line, "%s: ", e->name);
	strbuf_add(&rt->line, rt->seq.buffer, rt->seq.len);
	strbuf_addch(&rt->line, '\n');
}

static int one_event(void *ctx, const struct rawevent *ev)
{
	struct rawtrace *rt = ctx;
	const unsigned char *d = ev->data;
	struct tep_event *e;
	unsigned int type;
	int pid;

	strbuf_reset(&rt->line);
	if (ev->missed > 0)
		strbuf_addf(&rt->line, "CPU:%d [LOST %lld EVENTS]\n", ev->cpu, ev->missed);
	else if (ev->missed < 0)
		strbuf_addf(&rt->line, "CPU:%d [LOST EVENTS]\n", ev->cpu);
	if (ev->size < 8)
		goto out; /* no common fields: padding, or not an event */
	type = d[0] | (unsigned int)d[1] << 8;
	if (tep_is_file_bigendian(rt->tep))
		type = d[1] | (unsigned int)d[0] << 8;
	memcpy(&pid, d + 4, sizeof(pid));
	e = tep_find_event(rt->tep, (int)type);
	if (rt->kinds[type] == K_UNSEEN)
		rt->kinds[type] = (unsigned char)kind_of(rt, e);
	head(rt, ev, pid);
	switch (rt->kinds[type]) {
	case K_SYS_ENTER:
		body_syscall(rt, e, ev, true);
		break;
	case K_SYS_EXIT:
		body_syscall(rt, e, ev, false);
		break;
	case K_PRINT:
		body_print(rt, e, ev);
		break;
	case K_KSTACK:
		body_stack(rt, e, ev);
		break;
	case K_GENERIC:
		body_generic(rt, e, ev);
		break;
	default:
		strbuf_addf(&rt->line, "[UNKNOWN EVENT %u]\n", type);
	}
out:
	return rt->line.len ? rt->fn(rt->ctx, rt->line.buf, rt->line.len) : 0;
}

int rawtrace_flush(struct rawtrace *rt, rawtrace_line_fn fn, void *ctx)
{
	rt->fn = fn;
	rt->ctx = ctx;
	return rawmerge_run(rt->merge, one_event, rt);
}
