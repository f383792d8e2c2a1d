// SPDX-License-Identifier: GPL-2.0
/*
 * flare script: prints each sample of a perf.data file as `perf script` does: comm, tid, cpu,
 * time, period, event, then the ip/sym+off/dso of the sample or its call chain indented
 * below; tracepoints with their fields formatted by the event's print fmt. -F picks the
 * fields by perf's names, --ns prints nanoseconds, -D dumps the raw records.
 */
#include <errno.h>
#include <unistd.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cmds.h"
#include "cli/exit-status.h"
#include "cli/opt.h"
#include "cli/out.h"
#include "cli/read-opts.h"
#include "cli/script.h"
#include "lib/trace/tpfmt.h"
#include "lib/base/err.h"
#include "lib/base/strbuf.h"
#include "lib/data/features.h"
#include "lib/session/frame.h"
#include "lib/session/session.h"
#include "lib/sym/srcline.h"
#include "lib/unwind/unwind.h"

static const char *const script_usage[] = {
	"flare script [<options>]",
	NULL,
};

static const char *const field_names[SF_NR] = {
	[SF_COMM] = "comm", [SF_TID] = "tid",	      [SF_PID] = "pid",
	[SF_TIME] = "time", [SF_CPU] = "cpu",	      [SF_EVENT] = "event",
	[SF_IP] = "ip",	    [SF_SYM] = "sym",	      [SF_SYMOFF] = "symoff",
	[SF_DSO] = "dso",   [SF_PERIOD] = "period",   [SF_TRACE] = "trace",
	[SF_ADDR] = "addr", [SF_SRCLINE] = "srcline",
};

#define F(x) (1u << (x))

static int field_by_name(const char *s, size_t len)
{
	int i;

	for (i = 0; i < SF_NR; i++)
		if (strlen(field_names[i]) == len && !strncmp(field_names[i], s, len))
			return i;
	if (len == 7 && !strncmp(s, "evname", 6))
		return SF_EVENT;
	return -1;
}

/* Parses -F: "f1,f2", "type:f1,f2", "+f" / "-f" to adjust the defaults. */
int script_parse_fields(const char *arg, struct script_opts *o, char *err, size_t errlen)
{
	const char *p = arg, *colon = strchr(arg, ':');
	bool first = true;

	if (colon && !strchr(colon + 1, ':') && colon < arg + strcspn(arg, ","))
		p = colon + 1; /* "sw:comm,ip": flare applies the list to every event type */
	o->fields_add = o->fields_del = o->fields = 0;
	o->fields_set = false;
	while (*p) {
		size_t len = strcspn(p, ",");
		char mod = 0;
		int f;

		if (*p == '+' || *p == '-') {
			mod = *p++;
			len--;
		}
		f = field_by_name(p, len);
		if (f < 0) {
			snprintf(err, errlen,
				 "'%.*s' in -F is not a field (fields: comm, tid, pid, "
				 "time, cpu, event, ip, sym, symoff, dso, period, trace, addr, "
				 "srcline)",
				 (int)len, p);
			return -1;
		}
		if (mod == '+')
			o->fields_add |= F(f);
		else if (mod == '-')
			o->fields_del |= F(f);
		else {
			o->fields |= F(f);
			o->fields_set = true;
		}
		if (first && mod && o->fields_set) {
			snprintf(err, errlen,
				 "-F '%s' mixes +/- fields with plain ones (use one kind)", arg);
			return -1;
		}
		first = false;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

static int opt_fields(const struct opt *opt, const char *arg, int unset)
{
	struct script_opts *o = opt->value;
	char err[256];

	if (script_parse_fields(arg, o, err, sizeof(err))) {
		pr_err("%s", err);
		return -1;
	}
	return 0;
}

/*
 * --header, --header-only, -I: the header as perf report --header-only prints it. A pipe's
 * features come in its stream, and perf prints them as they come: all with --header, those
 * alone with -I, none with --header-only (it stops before reading the stream).
 */
static int print_header(struct script_ctx *c)
{
	static const char pipe_end[] = "# ========\n#\n";
	struct strbuf sb = STRBUF_INIT;
	int err = pd_header_render(c->sess->pd, c->o->show_info, &sb);
	char *text = sb.buf, *p = strstr(sb.buf, pipe_end);

	if (err) {
		pr_err("cannot print the header of '%s': %s", c->o->input, err_str(err));
	} else {
		if (c->sess->pd->is_pipe && p && c->o->header_only)
			p[sizeof(pipe_end) - 1] = 0;
		else if (c->sess->pd->is_pipe && p && !c->o->header)
			text = p + sizeof(pipe_end) - 1;
		fputs(text, stdout);
	}
	strbuf_release(&sb);
	return err;
}

/* After the file is open: checks the filters, prints the header and the samples. */
static int script_run(struct script_ctx *c)
{
	int err;

	c->name_width = script_name_width(c->sess->pd);
	err = script_filter_setup(c);
	if (err < 0)
		return err;
	out_pager_start();
	if (c->o->header || c->o->header_only || (c->o->show_info && c->sess->pd->is_pipe)) {
		err = print_header(c);
		if (err || c->o->header_only)
			return err;
	}
	if (c->o->dump)
		err = session_process(c->sess, script_dump_sample, script_dump_record, c);
	else
		err = session_process(c->sess, script_print_sample,
				      script_show_events(c->o) ? script_on_record : NULL, c);
	if (err < 0 && err != -EINVAL)
		pr_err("cannot read '%s': %s", c->o->input,
		       c->sess->pd->err_msg[0] ? c->sess->pd->err_msg : err_str(err));
	return err;
}

int cmd_script(int argc, char **argv)
{
	struct script_opts o = {
		.input = "perf.data", .max_stack = 127, .demangle = 1, .inline_frames = 1
	};
	const struct opt opts[] = {
		OPT_STRING('i', "input", &o.input, "file", "input file name"),
		OPT_BOOL('f', "force", &o.force, "don't complain, do it"),
		OPT_CALLBACK('F', "fields", &o, "str",
			     "comma separated output fields prepend with 'type:'. +field to add "
			     "and -field to remove. Fields: comm,tid,pid,time,cpu,event,ip,sym,"
			     "symoff,dso,period,trace,addr",
			     opt_fields),
		OPT_BOOL(0, "ns", &o.ns, "use 9 decimal places when displaying time"),
		OPT_BOOL('G', "hide-call-graph", &o.hide_callchain,
			 "when printing symbols do not display call chain"),
		OPT_BOOL('D', "dump-raw-trace", &o.dump, "dump raw trace in ASCII"),
		OPT_STRING('C', "cpu", &o.cpu_list, "cpu", "list of cpus to profile"),
		OPT_STRING(0, "time", &o.time_str, "str", "Time span of interest (start,stop)"),
		OPT_STRING('S', "symbols", &o.symbols, "symbol[,symbol...]",
			   "only consider these symbols"),
		OPT_STRING(0, "comm", &o.comm, "comm[,comm...]",
			   "only display events for these comms"),
		OPT_STRING(0, "pid", &o.pid, "pid[,pid...]", "only display events for these pids"),
		OPT_STRING(0, "tid", &o.tid, "tid[,tid...]", "only display events for these tids"),
		OPT_BOOL(0, "show-task-events", &o.show_task, "Show the fork/comm/exit events"),
		OPT_BOOL(0, "show-mmap-events", &o.show_mmap, "Show the mmap events"),
		OPT_BOOL(0, "show-switch-events", &o.show_switch,
			 "Show context switch events (if recorded)"),
		OPT_STRING(0, "symfs", &o.symfs, "directory",
			   "Look for files with symbols relative to this directory"),
		OPT_STRING(0, "kallsyms", &o.kallsyms, "file", "kallsyms pathname"),
		OPT_BOOL(0, "demangle", &o.demangle, "Enable symbol demangling"),
		OPT_BOOL(0, "inline", &o.inline_frames, "Show inline function"),
		OPT_BOOL(0, "reltime", &o.reltime, "Show time stamps relative to start"),
		OPT_BOOL(0, "deltatime", &o.deltatime,
			 "Show time stamps relative to previous event"),
		OPT_INT(0, "max-stack", &o.max_stack, "n",
			"Set the maximum stack depth when parsing the callchain, anything beyond "
			"the specified depth will be ignored."),
		OPT_BOOL(0, "header", &o.header, "Show data header."),
		OPT_BOOL(0, "header-only", &o.header_only, "Show only data header."),
		OPT_BOOL('I', "show-info", &o.show_info,
			 "display extended information from perf.data file"),
		OPT_COUNT('v', "verbose", &o.verbose, "be more verbose"),
		OPT_END(),
	};
	struct script_ctx c = { .o = &o };
	struct session_opts so = { 0 };
	char errbuf[512];
	int err;

	argc = opt_parse(argc, argv, opts, script_usage, 0);
	if (argc > 0)
		opt_usage_error(opts, script_usage, "unexpected argument '%s'", argv[0]);
	out_verbose = o.verbose;
	if (o.max_stack < 0)
		opt_usage_error(opts, script_usage, "--max-stack %d: give 0 or more frames",
				o.max_stack);
	if (o.reltime && o.deltatime) {
		pr_err("--reltime and --deltatime cannot be used together (use one of them)");
		return EXIT_STATUS_PERF_ERR;
	}
	so.open_flags = o.force ? PD_FORCE : 0;
	so.symfs = o.symfs;
	so.kallsyms = o.kallsyms;
	so.no_demangle = !o.demangle;
	if (!read_opts_kallsyms_readable(o.kallsyms))
		return EXIT_STATUS_PERF_ERR;
	err = session_open(o.input, &so, &c.sess, errbuf, sizeof(errbuf));
	if (err < 0) {
		if (err == -ENOENT)
			pr_err("cannot open '%s': %s (record a profile first with 'flare record')",
			       o.input, errbuf);
		else
			pr_err("cannot read '%s': %s", o.input, errbuf);
		return EXIT_STATUS_PERF_ERR; /* a file it cannot read */
	}
	session_set_max_stack(c.sess, (unsigned int)o.max_stack, false);
	err = script_run(&c);
	if (unwind_stats_summary(session_unwind_stats(c.sess), errbuf, sizeof(errbuf)) > 0)
		pr_warn("DWARF unwinding: %s", errbuf);
	/* what was read is printed; the status is still perf's for a file that breaks off */
	if (!err && c.sess->pd->cut_short)
		err = -ERR_TRUNCATED;
	tpfmt_release(&c.tt);
	free(c.events);
	sample_filter_release(&c.filter);
	session_free(c.sess);
	/* perf's statuses: -EINVAL for a file that breaks off or is corrupt and for a --time
	 * that is no range, -1 for an option the file cannot serve (-F cpu, -C without CPUs),
	 * -ENOMEM */
	if (err == -ERR_TRUNCATED || err == -ERR_FORMAT || err == -ERANGE)
		return EXIT_STATUS_EINVAL;
	if (err == -EINVAL)
		return EXIT_STATUS_PERF_ERR;
	return err == -ENOMEM ? EXIT_STATUS_ENOMEM : err < 0 ? EXIT_STATUS_FAIL : 0;
}
