// SPDX-License-Identifier: GPL-2.0
/*
 * flare data convert --to-json FILE: a recording as perf data convert 6.1 writes it in JSON
 * ("linux-perf-json-version": 1, the headers, then each sample in time order with its
 * thread, cpu, call chain resolved to symbols and dsos), for scripts and tools that do not read
 * perf.data. Beyond perf 6.1, a tracepoint sample also has its fields, as strings (as later
 * perf versions write them), a field named like a sample key prefixed "tp_".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <traceevent/event-parse.h>
#include "cli/cmds.h"
#include "cli/opt.h"
#include "cli/out.h"
#include "lib/base/err.h"
#include "lib/base/outfile.h"
#include "lib/data/features.h"
#include "lib/data/tracing_data.h"
#include "lib/session/filter.h"
#include "lib/session/session.h"

struct convert_ctx {
	FILE *out;
	struct session *sess;
	struct perf_data *pd;
	uint64_t nr_samples;
	bool first;
};

/* A JSON string, escaped as RFC 8259 asks (and as perf escapes it). */
static void json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\b':
			fputs("\\b", out);
			break;
		case '\f':
			fputs("\\f", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		default:
			if (c <= 0x1f)
				fprintf(out, "\\u%04x", c);
			else
				fputc(c, out);
		}
	}
	fputc('"', out);
}

/* The comma, newline and tabs before a value at depth. */
static void json_delim(FILE *out, bool comma, int depth)
{
	if (comma)
		fputc(',', out);
	fputc('\n', out);
	while (depth-- > 0)
		fputc('\t', out);
}

static void json_key(FILE *out, bool comma, int depth, const char *key)
{
	json_delim(out, comma, depth);
	json_str(out, key);
	fputs(": ", out);
}

static void json_key_str(FILE *out, bool comma, int depth, const char *key, const char *v)
{
	json_key(out, comma, depth, key);
	json_str(out, v ? v : "");
}

static void json_key_u64(FILE *out, bool comma, int depth, const char *key, uint64_t v)
{
	json_key(out, comma, depth, key);
	fprintf(out, "%" PRIu64, v);
}

static void chain_entry(FILE *out, const struct frame *f)
{
	json_delim(out, false, 4);
	fputc('{', out);
	json_key(out, false, 5, "ip");
	fprintf(out, "\"0x%" PRIx64 "\"", f->ip);
	if (f->sym && f->sym->name[0]) {
		fputc(',', out);
		json_key_str(out, false, 5, "symbol", f->sym->name);
		if (f->dso && f->dso->short_name && f->dso->short_name[0]) {
			fputc(',', out);
			json_key_str(out, false, 5, "dso", f->dso->short_name);
		}
	}
	json_delim(out, false, 4);
	fputc('}', out);
}

/* Every entry of the recorded chain, as perf's converter walks it: the context markers switch
 * the mode (an unknown one is skipped, where report drops the chain), each address resolved in
 * the sample's thread. */
static void raw_chain(struct convert_ctx *c, const struct resolved_sample *rs)
{
	uint8_t mode = PERF_RECORD_MISC_USER;
	bool first = true;
	struct frame f;
	uint64_t i;

	for (i = 0; i < rs->s->nr_callchain; i++) {
		uint64_t ip = rs->s->callchain[i];

		if (ip >= PERF_CONTEXT_MAX) {
			uint8_t m = chain_marker_mode(ip);

			if (m)
				mode = m;
			continue;
		}
		if (!first)
			fputc(',', c->out);
		first = false;
		session_resolve_ip(c->sess, rs->thread, mode, ip, &f);
		chain_entry(c->out, &f);
	}
}

static void trace_fields(struct convert_ctx *c, const struct resolved_sample *rs)
{
	struct tep_handle *tep = perf_data_tep(c->pd);
	struct tep_record rec = { .data = (void *)rs->s->raw, .size = (int)rs->s->raw_size };
	struct tep_event *ev = tep ? tep_find_event_by_record(tep, &rec) : NULL;
	struct tep_format_field **fields = ev ? tep_event_fields(ev) : NULL;
	int i;

	for (i = 0; fields && fields[i]; i++) {
		static const char *const taken[] = { "timestamp", "pid",  "tid",
						     "cpu",	  "comm", "callchain" };
		char key[256];
		struct trace_seq s;
		size_t k;

		/* a field named like a sample key (sched_process_exec's pid) is tp_pid, so that
		 * no key is written twice */
		snprintf(key, sizeof(key), "%s", fields[i]->name);
		for (k = 0; k < sizeof(taken) / sizeof(taken[0]); k++)
			if (!strcmp(key, taken[k]))
				snprintf(key, sizeof(key), "tp_%s", fields[i]->name);
		trace_seq_init(&s);
		tep_print_field(&s, rec.data, fields[i]);
		trace_seq_terminate(&s);
		json_key_str(c->out, true, 3, key, s.buffer);
		trace_seq_destroy(&s);
	}
	free(fields);
}

static int on_sample(void *ctx, const struct resolved_sample *rs)
{
	struct convert_ctx *c = ctx;
	FILE *out = c->out;

	c->nr_samples++;
	if (!c->first)
		fputc(',', out);
	c->first = false;
	json_delim(out, false, 2);
	fputc('{', out);
	json_key(out, false, 3, "timestamp");
	fprintf(out, "%" PRIi64, (int64_t)rs->s->time);
	json_key(out, true, 3, "pid");
	fprintf(out, "%i", (int)rs->thread->pid);
	json_key(out, true, 3, "tid");
	fprintf(out, "%i", (int)rs->thread->tid);
	if (rs->attr && (rs->attr->attr.sample_type & PERF_SAMPLE_CPU)) {
		json_key(out, true, 3, "cpu");
		fprintf(out, "%i", (int)rs->s->cpu);
	}
	json_key_str(out, true, 3, "comm", rs->thread->comm);
	json_key(out, true, 3, "callchain");
	fputc('[', out);
	if (rs->s->callchain)
		raw_chain(c, rs);
	else
		chain_entry(out, &rs->frames[0]);
	json_delim(out, false, 3);
	fputc(']', out);
	if (rs->s->raw && rs->s->raw_size)
		trace_fields(c, rs);
	json_delim(out, false, 2);
	fputc('}', out);
	return ferror(out) ? -EIO : 0;
}

static void headers(struct convert_ctx *c, const char *input)
{
	struct perf_data *pd = c->pd;
	struct pd_features *f = NULL;
	FILE *out = c->out;
	struct stat st;
	uint32_t i;

	json_key_u64(out, false, 2, "header-version", pd->is_pipe ? 0 : 1);
	if (!pd->is_pipe && !stat(input, &st)) {
		char buf[64];
		time_t t = st.st_mtime;

		strftime(buf, sizeof(buf), "%FT%TZ", gmtime(&t));
		json_key_str(out, true, 2, "captured-on", buf);
	}
	json_key_u64(out, true, 2, "data-offset", pd->data_offset);
	json_key_u64(out, true, 2, "data-size", pd->data_size);
	json_key_u64(out, true, 2, "feat-offset",
		     pd->is_pipe ? 0 : pd->data_offset + pd->data_size);
	if (pd_features_read(pd, &f))
		f = NULL;
	json_key_str(out, true, 2, "hostname", f ? f->hostname : NULL);
	json_key_str(out, true, 2, "os-release", f ? f->osrelease : NULL);
	json_key_str(out, true, 2, "arch", f ? f->arch : NULL);
	json_key_str(out, true, 2, "cpu-desc", f ? f->cpudesc : NULL);
	json_key_str(out, true, 2, "cpuid", f ? f->cpuid : NULL);
	json_key_u64(out, true, 2, "nrcpus-online", f ? f->nr_cpus_online : 0);
	json_key_u64(out, true, 2, "nrcpus-avail", f ? f->nr_cpus_avail : 0);
	if (f && f->has_clock_data) {
		json_key_u64(out, true, 2, "clockid", f->clock_data_clockid);
		json_key_u64(out, true, 2, "clock-time", f->clock_clockid_ns);
		json_key_u64(out, true, 2, "real-time", f->clock_tod_ns);
	}
	json_key_str(out, true, 2, "perf-version", f ? f->version : NULL);
	json_key(out, true, 2, "cmdline");
	fputc('[', out);
	for (i = 0; f && i < f->nr_cmdline; i++) {
		json_delim(out, i != 0, 3);
		json_str(out, f->cmdline[i]);
	}
	json_delim(out, false, 2);
	fputc(']', out);
	pd_features_free(f);
}

/* Opens the output through the one -o helper (a regular file appears whole or not at all, a
 * device or FIFO is written in place); an existing file is refused without --force, as
 * perf refuses it. */
static FILE *open_output(struct outfile *of, const char *path, bool force)
{
	struct stat st;
	FILE *f;
	int err, fd;

	if (!force && !lstat(path, &st) && S_ISREG(st.st_mode)) {
		pr_err("'%s' exists already (use --force to overwrite it)", path);
		return NULL;
	}
	err = outfile_open(of, path, 0666, 0);
	if (err) {
		pr_err("cannot create '%s': %s", path, err_str(err));
		return NULL;
	}
	fd = dup(of->fd);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		pr_err("cannot write '%s': %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		outfile_abort(of);
	}
	return f;
}

static int convert_json(const char *input, const char *output, bool force)
{
	struct session_opts so = { .open_flags = force ? PD_FORCE : 0 };
	struct convert_ctx c = { .first = true };
	struct outfile of = OUTFILE_INIT;
	struct session *sess;
	char err[256];
	long size;
	int ret;

	ret = session_open(input, &so, &sess, err, sizeof(err));
	if (ret < 0) {
		pr_err("cannot read '%s': %s (name the recording with -i)", input, err);
		return 255;
	}
	c.out = open_output(&of, output, force);
	if (!c.out) {
		session_free(sess);
		return 1;
	}
	c.pd = sess->pd;
	c.sess = sess;
	fputc('{', c.out);
	json_delim(c.out, false, 1);
	fputs("\"linux-perf-json-version\": 1", c.out);
	json_delim(c.out, true, 1);
	fputs("\"headers\": {", c.out);
	headers(&c, input);
	json_delim(c.out, false, 1);
	fputc('}', c.out);
	json_delim(c.out, true, 1);
	fputs("\"samples\": [", c.out);
	ret = session_process(sess, on_sample, NULL, &c);
	json_delim(c.out, false, 1);
	fputc(']', c.out);
	json_delim(c.out, false, 0);
	fputs("}\n", c.out);
	size = ftell(c.out);
	if (ret < 0)
		pr_err("cannot read '%s' past %" PRIu64 " samples: %s", input, c.nr_samples,
		       sess->pd->err_msg);
	if (fclose(c.out) && ret >= 0) {
		ret = -errno;
		pr_err("cannot write '%s': %s", output, err_str(ret));
	}
	session_free(sess);
	if (ret >= 0) {
		ret = outfile_commit(&of);
		if (ret)
			pr_err("cannot write '%s': %s", output, err_str(ret));
	}
	if (ret < 0) {
		outfile_abort(&of); /* no half-written file */
		return 1;
	}
	fprintf(stderr, "[ %s data convert: Converted '%s' into JSON data '%s' ]\n", out_progname,
		input, output);
	fprintf(stderr, "[ %s data convert: Converted and wrote %.3f MB (%" PRIu64 " samples) ]\n",
		out_progname, size / 1024.0 / 1024.0, c.nr_samples);
	return 0;
}

static int data_convert(int argc, char **argv)
{
	static const char *const usage[] = { "flare data convert [<options>]", NULL };
	const char *input = "perf.data", *json = NULL, *ctf = NULL;
	int force = 0, verbose = 0, all = 0, tod = 0;
	const struct opt opts[] = {
		OPT_COUNT('v', "verbose", &verbose, "be more verbose"),
		OPT_STRING('i', "input", &input, "file", "input file name"),
		OPT_STRING(0, "to-json", &json, "file", "Convert to JSON format"),
		OPT_STRING(0, "to-ctf", &ctf, "dir", "Convert to CTF format"),
		OPT_BOOL(0, "all", &all, "Convert all events"),
		OPT_BOOL(0, "tod", &tod, "Convert time to wall clock time"),
		OPT_BOOL('f', "force", &force, "don't complain, do it"),
		OPT_END(),
	};

	argc = opt_parse(argc, argv, opts, usage, 0);
	if (argc > 0)
		opt_usage_error(opts, usage, "unexpected argument '%s'", argv[0]);
	if (ctf) {
		pr_err("--to-ctf: flare writes no CTF (it needs libbabeltrace); --to-json FILE "
		       "converts to JSON");
		return 1;
	}
	if (!json)
		opt_usage_error(opts, usage, "name the output: --to-json FILE");
	if (all || tod) {
		pr_err("--%s is not supported for JSON output, as in perf", all ? "all" : "tod");
		return 1;
	}
	return convert_json(input, json, force);
}

int cmd_data(int argc, char **argv)
{
	static const char *const usage[] = { "flare data [<common options>] <command> [<options>]",
					     NULL };
	const struct opt opts[] = { OPT_END() };

	argc = opt_parse(argc, argv, opts, usage, OPT_STOP_AT_NON_OPTION);
	if (argc < 1)
		opt_usage_error(opts, usage, "name a command: convert");
	if (!strcmp(argv[0], "convert"))
		return data_convert(argc, argv);
	opt_usage_error(opts, usage, "unknown command '%s' (flare data has: convert)", argv[0]);
}
