// SPDX-License-Identifier: GPL-2.0
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include "lib/probe/filter.h"

/* one term: [!]glob, blanks around it ignored */
static int term_match(const char *t, size_t len, const char *name)
{
	char glob[256];
	int neg = 0;

	while (len && (*t == ' ' || *t == '\t'))
		t++, len--;
	while (len && (t[len - 1] == ' ' || t[len - 1] == '\t'))
		len--;
	if (len && *t == '!') {
		neg = 1;
		t++, len--;
		while (len && *t == ' ')
			t++, len--;
	}
	snprintf(glob, sizeof(glob), "%.*s", (int)len, t);
	return (fnmatch(glob, name, 0) == 0) != neg;
}

int probe_filter_match(const char *filter, const char *name)
{
	const char *alt = filter;

	if (!filter)
		return 1;
	while (alt) { /* OR of AND-groups */
		const char *end = strchr(alt, '|'), *t = alt;
		size_t glen = end ? (size_t)(end - alt) : strlen(alt);
		int ok = 1;

		while (ok && t < alt + glen) {
			const char *amp = memchr(t, '&', (size_t)(alt + glen - t));
			size_t tl = amp ? (size_t)(amp - t) : (size_t)(alt + glen - t);

			ok = term_match(t, tl, name);
			t += tl + (amp ? 1 : 0);
		}
		if (ok)
			return 1;
		alt = end ? end + 1 : NULL;
	}
	return 0;
}
