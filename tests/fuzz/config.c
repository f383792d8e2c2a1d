// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the perfconfig parser (lib/base/config.c): every input is parsed as a
 * ~/.perfconfig. What parses is rendered, parsed again and must give the same items (the
 * writer's output is the reader's input); what does not parse says why. Build with
 * `make fuzz`; run with build-fuzz/config -max_len=4096
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config a = { 0 }, b = { 0 };
	char err[256] = "", name[1024];
	char *text;
	size_t i;
	int r;

	r = config_parse(&a, (const char *)data, size, err, sizeof(err));
	if (r < 0) {
		if (r == -EINVAL && !err[0])
			abort();
		config_free(&a);
		return 0;
	}
	text = config_render(&a);
	if (!text)
		abort();
	if (config_parse(&b, text, strlen(text), err, sizeof(err)))
		abort();
	for (i = 0; i < a.nr; i++) {
		snprintf(name, sizeof(name), "%s.%s", a.items[i].section, a.items[i].key);
		const char *va = config_get(&a, name), *vb = config_get(&b, name);

		/* what is written reads back the same */
		if (!va || !vb || strcmp(va, vb))
			abort();
	}
	free(text);
	config_free(&a);
	config_free(&b);
	return 0;
}
