// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for flare flamegraph's text parsers: the input is read as perf script
 * text (fed whole and in odd-sized chunks, which must fold the same), with each folding
 * option set, and as folded stacks; the lines are laid out and written as SVG and HTML.
 * Build with `make fuzz`; run with
 *   build-fuzz/graph -max_len=8192 tests/data/flamegraph   (gunzip the *.txt.gz seeds first)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base/strbuf.h"
#include "lib/graph/collapse.h"
#include "lib/graph/diff.h"
#include "lib/graph/flame.h"
#include "lib/graph/folded.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fold(const char *s, size_t n, size_t chunk, const struct collapse_opts *o,
		 struct strbuf *out)
{
	struct collapse *c;
	size_t i;

	if (collapse_new(o, &c))
		return;
	for (i = 0; i < n; i += chunk)
		collapse_text(c, s + i, n - i < chunk ? n - i : chunk);
	collapse_text_end(c);
	stackset_print(collapse_stacks(c), out);
	collapse_free(c);
}

static void draw(const char *s, size_t n)
{
	struct fg_line *v = calloc(n / 2 + 1, sizeof(*v));
	struct strbuf out = STRBUF_INIT;
	struct flame_opts o;
	struct fg_diff d;
	struct flame f;
	size_t i = 0, nr = 0, e;

	if (!v)
		return;
	while (i < n) {
		const char *nl = memchr(s + i, '\n', n - i);

		e = nl ? (size_t)(nl - s) : n;
		if (!folded_parse_line(s + i, e - i, &v[nr]))
			nr++;
		i = e + 1;
	}
	flame_opts_default(&o);
	o.minwidth = 0;
	if (!flame_build(&f, v, nr, &o)) {
		flame_svg(&f, &o, &out);
		flame_html(&f, &o, &out);
	}
	flame_release(&f);
	if (!fg_diff_build(v, nr / 2, v + nr / 2, nr - nr / 2, true, &d)) {
		fg_diff_table(&d, 5, &out);
		fg_diff_release(&d);
	}
	strbuf_release(&out);
	free(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct collapse_opts o = { 0 };
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	const char *s = (const char *)data;

	if (size > 1 << 16)
		return 0;
	o.kernel = size & 1;
	o.jit = size & 2;
	o.addrs = size & 4;
	o.tid = size & 8;
	o.srcline = size & 16;
	fold(s, size, size + 1, &o, &a);
	fold(s, size, 1 + size % 7, &o, &b);
	if (a.len != b.len || memcmp(a.buf, b.buf, a.len))
		abort(); /* chunking must not change the folding */
	draw(a.buf, a.len);
	draw(s, size);
	strbuf_release(&a);
	strbuf_release(&b);
	return 0;
}
