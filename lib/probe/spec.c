// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base/strbuf.h"
#include "lib/probe/spec.h"

static int fail(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int is_ident(const char *s)
{
	if (!*s || !(isalpha((unsigned char)*s) || *s == '_'))
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.')
			return 0;
	return 1;
}

static int parse_num(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

/* [GROUP:]EVENT= at the head of the point: perf takes it when '=' comes before ;@+% */
static int parse_event(char **pt, struct probe_spec *spec, char *err, size_t len)
{
	char *p = *pt, *eq = strpbrk(p, ";=@+%"), *colon;

	if (!eq || *eq != '=')
		return 0;
	*eq = '\0';
	colon = strchr(p, ':');
	if (colon) {
		*colon = '\0';
		if (!is_ident(p) || strchr(p, '.'))
			return fail(err, len, "'%s': a group name is letters, digits and '_'", p);
		spec->group = strdup(p);
		p = colon + 1;
	}
	if (!is_ident(p) || strchr(p, '.'))
		return fail(err, len, "'%s': an event name is letters, digits and '_'", p);
	spec->event = strdup(p);
	*pt = eq + 1;
	return 0;
}

static int parse_tail(char *p, struct probe_spec *spec, char *err, size_t len)
{
	uint64_t v;

	if (*p == '%') {
		if (strcmp(p, "%return"))
			return fail(err, len, "'%s': only %%return may follow a function", p);
		spec->is_return = 1;
	} else if (*p == '+') {
		if (parse_num(p + 1, &spec->offset))
			return fail(err, len, "'%s': the offset is a number of bytes (+16, +0x10)",
				    p);
		spec->has_offset = 1;
	} else if (*p == ':') {
		if (parse_num(p + 1, &v) || v > 1000000)
			return fail(err, len, "'%s': a line is a number counted from the function",
				    p);
		spec->line = (long)v;
	} else if (*p == ';') {
		if (!p[1])
			return fail(err, len, "';': a lazy pattern follows ';'");
		spec->lazy = strdup(p + 1);
	} else {
		return fail(err, len, "'%s': expected +OFFS, %%return, :LINE or ;PATTERN", p);
	}
	return 0;
}

static int parse_point(char *p, struct probe_spec *spec, char *err, size_t len)
{
	char *sep, *at;
	int r = parse_event(&p, spec, err, len);

	if (r)
		return r;
	if (*p == '%' || (!strncmp(p, "sdt_", 4) && strchr(p, ':') &&
			  !strpbrk(strchr(p, ':'), "0123456789+%;@"))) {
		char *name = p + (*p == '%'), *colon = strchr(name, ':');

		spec->kind = PP_SDT;
		if (colon) {
			*colon = '\0';
			spec->file = strdup(strncmp(name, "sdt_", 4) ? name : name + 4);
			name = colon + 1;
		}
		if (!is_ident(name) || strchr(name, '.'))
			return fail(err, len, "'%s': an SDT marker is %%[PROVIDER:]NAME", name);
		spec->func = strdup(name);
		return 0;
	}
	if (!strncmp(p, "0x", 2)) {
		if (parse_num(p, &spec->addr))
			return fail(err, len, "'%s': not an address", p);
		spec->kind = PP_ADDR;
		return 0;
	}
	sep = strpbrk(p, ";:");
	if (sep && !strpbrk(p, "+@%")) {
		char c = *sep;

		*sep = '\0';
		if (strchr(p, '.')) { /* SRC:ALN or SRC;PTN */
			uint64_t v;

			spec->file = strdup(p);
			if (c == ';') {
				spec->kind = PP_LAZY_FILE;
				spec->lazy = strdup(sep + 1);
				return *spec->lazy ? 0 : fail(err, len, "'%s;': no pattern", p);
			}
			if (parse_num(sep + 1, &v) || v > 100000000)
				return fail(err, len, "'%s': a source line is a number (%s:15)",
					    sep + 1, p);
			spec->kind = PP_LINE;
			spec->line = (long)v;
			return 0;
		}
		*sep = c;
	}
	spec->kind = PP_FUNC;
	sep = strpbrk(p, ";:+%");
	at = strchr(p, '@');
	if (at && (!sep || at < sep)) {
		*at = '\0';
		sep = strpbrk(at + 1, ";:+%");
		spec->file = strndup(at + 1, sep ? (size_t)(sep - at - 1) : strlen(at + 1));
		if (!*spec->file)
			return fail(err, len, "'%s@': no source file after '@'", p);
	}
	spec->func = strndup(p, sep && !at ? (size_t)(sep - p) : strlen(p));
	if (!is_ident(spec->func) && !strpbrk(spec->func, "*?["))
		return fail(err, len, "'%s': not a function name", spec->func);
	return sep ? parse_tail(sep, spec, err, len) : 0;
}

static int parse_arg(char *s, struct probe_arg *a, char *err, size_t len)
{
	char *eq = strchr(s, '='), *colon;

	if (eq && eq > s &&
	    strspn(s, "abcdefghijklmnopqrstuvwxyz"
		      "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == (size_t)(eq - s)) {
		*eq = '\0';
		a->name = strdup(s);
		s = eq + 1;
	}
	colon = strchr(s, ':');
	if (colon) {
		*colon = '\0';
		if (!colon[1])
			return fail(err, len,
				    "'%s:': a type follows ':' (u8..u64, s8..s64, "
				    "x8..x64, string)",
				    s);
		a->type = strdup(colon + 1);
	}
	if (!*s)
		return fail(err, len, "'%s': empty argument", a->name ? a->name : "");
	a->expr = strdup(s);
	return 0;
}

int probe_spec_parse(const char *text, struct probe_spec *spec, char *err, size_t errlen)
{
	char *copy = strdup(text), *tok, *save = NULL;
	int r = 0, first = 1;

	memset(spec, 0, sizeof(*spec));
	spec->line = -1;
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, " \t\n", &save); tok && !r;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		if (first) {
			r = parse_point(tok, spec, err, errlen);
			first = 0;
			continue;
		}
		struct probe_arg *n = realloc(spec->args, (spec->nr_args + 1) * sizeof(*n));

		if (!n) {
			r = -ENOMEM;
			break;
		}
		spec->args = n;
		memset(&n[spec->nr_args], 0, sizeof(*n));
		r = parse_arg(tok, &n[spec->nr_args++], err, errlen);
	}
	if (first && !r)
		r = fail(err, errlen, "empty probe definition");
	if (!r && spec->kind == PP_FUNC && spec->is_return && spec->line >= 0)
		r = fail(err, errlen, "%%return cannot be combined with a line");
	free(copy);
	if (r)
		probe_spec_release(spec);
	return r;
}

void probe_spec_release(struct probe_spec *spec)
{
	size_t i;

	if (!spec)
		return;
	for (i = 0; i < spec->nr_args; i++) {
		free(spec->args[i].name);
		free(spec->args[i].expr);
		free(spec->args[i].type);
	}
	free(spec->args);
	free(spec->group);
	free(spec->event);
	free(spec->func);
	free(spec->file);
	free(spec->lazy);
	memset(spec, 0, sizeof(*spec));
	spec->line = -1;
}

int probe_arg_needs_dwarf(const struct probe_arg *arg)
{
	const char *e = arg->expr;

	if (*e == '%' || *e == '+' || *e == '-' || *e == '@' || isdigit((unsigned char)*e))
		return 0;
	if (*e == '$')
		return !strcmp(e, "$params") || !strcmp(e, "$vars");
	return 1;
}

char *probe_spec_point_str(const struct probe_spec *spec)
{
	struct strbuf sb = STRBUF_INIT;

	switch (spec->kind) {
	case PP_ADDR:
		strbuf_addf(&sb, "0x%llx", (unsigned long long)spec->addr);
		break;
	case PP_LINE:
		strbuf_addf(&sb, "@%s:%ld", spec->file, spec->line);
		break;
	case PP_LAZY_FILE: /* perf names a pattern's probes without the pattern */
		strbuf_addf(&sb, "@%s", spec->file);
		break;
	case PP_SDT:
		strbuf_addf(&sb, "%%%s%s%s", spec->file ? "sdt_" : "", spec->file ? spec->file : "",
			    spec->file ? ":" : "");
		strbuf_adds(&sb, spec->func);
		break;
	case PP_FUNC:
		strbuf_adds(&sb, spec->func);
		if (spec->file)
			strbuf_addf(&sb, "@%s", spec->file);
		if (spec->is_return)
			strbuf_adds(&sb, "%return");
		else if (spec->has_offset)
			strbuf_addf(&sb, "+%llu", (unsigned long long)spec->offset);
		else if (spec->line >= 0)
			strbuf_addf(&sb, ":%ld", spec->line);
		break;
	}
	return strbuf_detach(&sb);
}
