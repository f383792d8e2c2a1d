/* SPDX-License-Identifier: GPL-2.0 */
/*
 * config: perf's configuration files (/etc/perfconfig, then ~/.perfconfig; git's ini syntax:
 * "[section]" lines, "key = value" lines, '#' and ';' comments, optional double quotes), read
 * into an ordered list of section.key=value items, edited, and written back in the layout perf
 * config writes. A config owns its items and strings; config_free() releases them.
 */
#ifndef FLARE_BASE_CONFIG_H
#define FLARE_BASE_CONFIG_H
#include <stdbool.h>
#include <stddef.h>

struct config_item {
	char *section, *key, *value; /* section and key lowercased, as git and perf do */
};

struct config {
	struct config_item *items;
	size_t nr, alloc;
};

/* Parses len bytes of text and appends its items to cfg (a later file's items come after,
 * and win on lookup). 0, or -EINVAL with errbuf naming the line and what is wrong, -ENOMEM. */
int config_parse(struct config *cfg, const char *text, size_t len, char *errbuf, size_t errlen);
/* config_parse() of a file; a missing file is no error (0, nothing added). */
int config_load(struct config *cfg, const char *path, char *errbuf, size_t errlen);
/* The value of "section.key" (the last one set), or NULL. */
const char *config_get(const struct config *cfg, const char *name);
/* Sets "section.key" to value (replacing every earlier value). 0, -EINVAL for a name without
 * a section or key or with other than letters, digits, '-', '_' and '.', or a value with a
 * newline; -ENOMEM. */
int config_set(struct config *cfg, const char *name, const char *value);
/* perf's text of cfg: "# this file is auto-generated." then each section and its keys, in
 * the order they first appear. The caller frees the result. NULL on -ENOMEM. */
char *config_render(const struct config *cfg);
void config_free(struct config *cfg);
/* A boolean as git and perf read one: true/yes/on/1, false/no/off/0. 0 or -EINVAL. */
int config_bool(const char *v, bool *out);

/* perf's two files: /etc/perfconfig, and $HOME/.perfconfig (NULL without HOME). */
const char *config_system_path(void);
const char *config_user_path(char *buf, size_t len);
/* Both files, system first, into cfg. 0 or < 0 with errbuf said. */
int config_load_default(struct config *cfg, char *errbuf, size_t errlen);

#endif
