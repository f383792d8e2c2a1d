// SPDX-License-Identifier: GPL-2.0
/*
 * config: a small reader and writer of perf's ini-style configuration files.
 */
#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "lib/base/config.h"
#include "lib/base/strbuf.h"

static char *dup_lower(const char *s, size_t n)
{
	char *d = malloc(n + 1);
	size_t i;

	if (!d)
		return NULL;
	for (i = 0; i < n; i++)
		d[i] = (char)tolower((unsigned char)s[i]);
	d[n] = 0;
	return d;
}

static int add_item(struct config *cfg, const char *sec, size_t sl, const char *key, size_t kl,
		    const char *val, size_t vl)
{
	struct config_item *it;

	if (cfg->nr == cfg->alloc) {
		size_t n = cfg->alloc ? 2 * cfg->alloc : 16;
		struct config_item *p = realloc(cfg->items, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		cfg->items = p;
		cfg->alloc = n;
	}
	it = &cfg->items[cfg->nr];
	it->section = dup_lower(sec, sl);
	it->key = dup_lower(key, kl);
	it->value = strndup(val, vl);
	if (!it->section || !it->key || !it->value) {
		free(it->section);
		free(it->key);
		free(it->value);
		return -ENOMEM;
	}
	cfg->nr++;
	return 0;
}

static bool is_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '-' || c == '_' || c == '.';
}

/* Trims spaces at both ends of [*s, *e). */
static void trim(const char **s, const char **e)
{
	while (*s < *e && isspace((unsigned char)**s))
		(*s)++;
	while (*e > *s && isspace((unsigned char)(*e)[-1]))
		(*e)--;
}

/* A value: a comment ends it outside quotes, quotes are removed. */
static int value_of(const char *s, const char *e, struct strbuf *out)
{
	bool quoted = false;
	size_t keep = 0; /* what quotes protect from the trim of trailing spaces */

	trim(&s, &e);
	for (; s < e; s++) {
		if (*s == '"') {
			quoted = !quoted;
			keep = out->len;
			continue;
		}
		if (!quoted && (*s == '#' || *s == ';'))
			break;
		if (*s == '\\' && s + 1 < e && (s[1] == '"' || s[1] == '\\'))
			s++;
		if (strbuf_addch(out, *s))
			return -ENOMEM;
	}
	if (quoted)
		return -EINVAL;
	while (out->len > keep && isspace((unsigned char)out->buf[out->len - 1]))
		strbuf_setlen(out, out->len - 1);
	return 0;
}

static int parse_line(struct config *cfg, const char *s, const char *e, struct strbuf *section,
		      char *errbuf, size_t errlen, int lineno)
{
	struct strbuf val = STRBUF_INIT;
	const char *k, *ke;
	int err;

	trim(&s, &e);
	if (s == e || *s == '#' || *s == ';')
		return 0;
	if (*s == '[') {
		const char *close = memchr(s, ']', (size_t)(e - s));

		if (!close || close == s + 1) {
			snprintf(errbuf, errlen, "line %d: a section is written [name]", lineno);
			return -EINVAL;
		}
		for (k = s + 1; k < close; k++)
			if (!is_name_char(*k)) {
				snprintf(errbuf, errlen,
					 "line %d: bad character '%c' in a section "
					 "name",
					 lineno, *k);
				return -EINVAL;
			}
		strbuf_reset(section);
		return strbuf_add(section, s + 1, (size_t)(close - s - 1));
	}
	if (!section->len) {
		snprintf(errbuf, errlen, "line %d: a key before any [section]", lineno);
		return -EINVAL;
	}
	/* a key has no dot: "section.key" splits at its last one */
	for (k = s; k < e && is_name_char(*k) && *k != '.'; k++)
		;
	ke = k;
	while (k < e && isspace((unsigned char)*k))
		k++;
	if (ke == s || (k < e && *k != '=')) {
		snprintf(errbuf, errlen, "line %d: expected 'name = value'", lineno);
		return -EINVAL;
	}
	/* a key alone means true, as in git */
	err = k < e ? value_of(k + 1, e, &val) : strbuf_adds(&val, "true");
	if (err == -EINVAL)
		snprintf(errbuf, errlen, "line %d: a quote is not closed", lineno);
	if (!err)
		err = add_item(cfg, section->buf, section->len, s, (size_t)(ke - s), val.buf,
			       val.len);
	strbuf_release(&val);
	return err;
}

int config_parse(struct config *cfg, const char *text, size_t len, char *errbuf, size_t errlen)
{
	struct strbuf section = STRBUF_INIT;
	const char *p = text, *end = text + len;
	int lineno = 0, err = 0;

	while (p < end && !err) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		lineno++;
		if (memchr(p, '\0', (size_t)(le - p))) {
			snprintf(errbuf, errlen, "line %d: a NUL byte (not a text file)", lineno);
			err = -EINVAL;
			break;
		}
		err = parse_line(cfg, p, le, &section, errbuf, errlen, lineno);
		p = nl ? nl + 1 : end;
	}
	strbuf_release(&section);
	return err;
}

int config_load(struct config *cfg, const char *path, char *errbuf, size_t errlen)
{
	struct strbuf sb = STRBUF_INIT;
	int err = strbuf_read_file(&sb, path);

	if (err == -ENOENT)
		return 0;
	if (err) {
		snprintf(errbuf, errlen, "%s", strerror(-err));
		return err;
	}
	err = config_parse(cfg, sb.buf, sb.len, errbuf, errlen);
	strbuf_release(&sb);
	return err;
}

/* Splits "section.key" at its last dot. */
static int split_name(const char *name, size_t *sl)
{
	const char *dot = strrchr(name, '.');

	if (!dot || dot == name || !dot[1])
		return -EINVAL;
	*sl = (size_t)(dot - name);
	return 0;
}

static bool item_is(const struct config_item *it, const char *name, size_t sl)
{
	return strlen(it->section) == sl && !strncasecmp(it->section, name, sl) &&
	       !strcasecmp(it->key, name + sl + 1);
}

const char *config_get(const struct config *cfg, const char *name)
{
	size_t sl, i;

	if (split_name(name, &sl))
		return NULL;
	for (i = cfg->nr; i-- > 0;)
		if (item_is(&cfg->items[i], name, sl))
			return cfg->items[i].value;
	return NULL;
}

int config_set(struct config *cfg, const char *name, const char *value)
{
	size_t sl, i, w = 0;
	bool done = false;

	if (split_name(name, &sl) || strchr(value, '\n'))
		return -EINVAL;
	for (i = 0; name[i]; i++)
		if (!is_name_char(name[i]))
			return -EINVAL;
	for (i = 0; i < cfg->nr; i++) {
		struct config_item *it = &cfg->items[i];

		if (!item_is(it, name, sl)) {
			cfg->items[w++] = *it;
			continue;
		}
		if (done) { /* only one value stays */
			free(it->section);
			free(it->key);
			free(it->value);
			continue;
		}
		free(it->value);
		it->value = strdup(value);
		if (!it->value)
			return -ENOMEM;
		cfg->items[w++] = *it;
		done = true;
	}
	cfg->nr = w;
	if (done)
		return 0;
	return add_item(cfg, name, sl, name + sl + 1, strlen(name + sl + 1), value, strlen(value));
}

/* A value as written: bare, or quoted with \" and \\ when it holds what the reader would
 * take for a quote, an escape or a comment, or begins or ends with a space. */
static int add_value(struct strbuf *sb, const char *v)
{
	size_t n = strlen(v);
	int err = 0;

	if (!strpbrk(v, "\"\\#;") &&
	    !(n && (isspace((unsigned char)v[0]) || isspace((unsigned char)v[n - 1]))))
		return strbuf_adds(sb, v);
	err |= strbuf_addch(sb, '"');
	for (; *v; v++) {
		if (*v == '"' || *v == '\\')
			err |= strbuf_addch(sb, '\\');
		err |= strbuf_addch(sb, *v);
	}
	return err | strbuf_addch(sb, '"');
}

char *config_render(const struct config *cfg)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, j, k;
	int err = strbuf_adds(&sb, "# this file is auto-generated.\n");

	for (i = 0; i < cfg->nr && !err; i++) {
		for (k = 0; k < i; k++) /* a section is written where it first appears */
			if (!strcmp(cfg->items[k].section, cfg->items[i].section))
				break;
		if (k < i)
			continue;
		err |= strbuf_addf(&sb, "[%s]\n", cfg->items[i].section);
		for (j = i; j < cfg->nr; j++)
			if (!strcmp(cfg->items[j].section, cfg->items[i].section))
				err |= strbuf_addf(&sb, "\t%s = ", cfg->items[j].key) |
				       add_value(&sb, cfg->items[j].value) |
				       strbuf_addch(&sb, '\n');
	}
	if (err) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}

int config_bool(const char *v, bool *out)
{
	static const char *const yes[] = { "true", "yes", "on", "1" };
	static const char *const no[] = { "false", "no", "off", "0" };
	size_t i;

	for (i = 0; v && i < 4; i++) {
		if (!strcasecmp(v, yes[i]) || !strcasecmp(v, no[i])) {
			*out = !strcasecmp(v, yes[i]);
			return 0;
		}
	}
	return -EINVAL;
}

void config_free(struct config *cfg)
{
	size_t i;

	if (!cfg)
		return;
	for (i = 0; i < cfg->nr; i++) {
		free(cfg->items[i].section);
		free(cfg->items[i].key);
		free(cfg->items[i].value);
	}
	free(cfg->items);
	cfg->items = NULL;
	cfg->nr = cfg->alloc = 0;
}

const char *config_system_path(void)
{
	const char *p = getenv("PERF_CONFIG_SYSTEM"); /* for tests: perf's is fixed */

	return p && *p ? p : "/etc/perfconfig";
}

const char *config_user_path(char *buf, size_t len)
{
	const char *home = getenv("HOME");

	if (!home || !*home)
		return NULL;
	snprintf(buf, len, "%s/.perfconfig", home);
	return buf;
}

int config_load_default(struct config *cfg, char *errbuf, size_t errlen)
{
	char path[4096];
	const char *user = config_user_path(path, sizeof(path));
	int err = config_load(cfg, config_system_path(), errbuf, errlen);

	if (!err && user)
		err = config_load(cfg, user, errbuf, errlen);
	return err;
}
