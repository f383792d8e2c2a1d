// SPDX-License-Identifier: GPL-2.0
/* lib/probe: perf probe's definition syntax, the --filter expressions of -F/-V. */
#include <errno.h>
#include <stdlib.h>
#include "lib/probe/filter.h"
#include "lib/probe/spec.h"
#include "tests/unit/unit.h"

static char err[256];

TEST(spec_function_forms)
{
	struct probe_spec s;
	char *p;

	CHECK(probe_spec_parse("g:ev=func_2@t.c+16 number p->x:u16 n=%di", &s, err, sizeof(err)) ==
	      0);
	CHECK_STR(s.group, "g");
	CHECK_STR(s.event, "ev");
	CHECK_STR(s.func, "func_2");
	CHECK_STR(s.file, "t.c");
	CHECK(s.kind == PP_FUNC && s.has_offset && s.offset == 16 && !s.is_return);
	CHECK(s.nr_args == 3);
	CHECK_STR(s.args[1].expr, "p->x");
	CHECK_STR(s.args[1].type, "u16");
	CHECK_STR(s.args[2].name, "n");
	CHECK(probe_arg_needs_dwarf(&s.args[0]) && !probe_arg_needs_dwarf(&s.args[2]));
	p = probe_spec_point_str(&s);
	CHECK_STR(p, "func_2@t.c+16");
	free(p);
	probe_spec_release(&s);
	CHECK(probe_spec_parse("name_of%return +0($retval):string", &s, err, sizeof(err)) == 0);
	CHECK(s.is_return && s.nr_args == 1 && !probe_arg_needs_dwarf(&s.args[0]));
	CHECK_STR(s.args[0].expr, "+0($retval)");
	probe_spec_release(&s);
	CHECK(probe_spec_parse("func_2:5", &s, err, sizeof(err)) == 0);
	CHECK(s.kind == PP_FUNC && s.line == 5);
	probe_spec_release(&s);
}

TEST(spec_other_points)
{
	struct probe_spec s;

	CHECK(probe_spec_parse("test_25=test.c:25 number", &s, err, sizeof(err)) == 0);
	CHECK(s.kind == PP_LINE && s.line == 25);
	CHECK_STR(s.file, "test.c");
	CHECK_STR(s.event, "test_25");
	probe_spec_release(&s);
	CHECK(probe_spec_parse("0x1149", &s, err, sizeof(err)) == 0);
	CHECK(s.kind == PP_ADDR && s.addr == 0x1149);
	probe_spec_release(&s);
	CHECK(probe_spec_parse("%sdt_python:function__entry", &s, err, sizeof(err)) == 0);
	CHECK(s.kind == PP_SDT);
	CHECK_STR(s.file, "python");
	CHECK_STR(s.func, "function__entry");
	probe_spec_release(&s);
	CHECK(probe_spec_parse("sdt_libc:setjmp", &s, err, sizeof(err)) == 0);
	CHECK(s.kind == PP_SDT);
	probe_spec_release(&s);
}

TEST(spec_refusals)
{
	struct probe_spec s;

	CHECK(probe_spec_parse("", &s, err, sizeof(err)) == -EINVAL && err[0]);
	CHECK(probe_spec_parse("func%retur", &s, err, sizeof(err)) == -EINVAL &&
	      strstr(err, "%return"));
	CHECK(probe_spec_parse("func+x", &s, err, sizeof(err)) == -EINVAL && strstr(err, "+x"));
	CHECK(probe_spec_parse("t.c:abc", &s, err, sizeof(err)) == -EINVAL);
	CHECK(probe_spec_parse("func x:", &s, err, sizeof(err)) == -EINVAL && strstr(err, "type"));
	CHECK(probe_spec_parse("a-b:c=func", &s, err, sizeof(err)) == -EINVAL);
}

TEST(filters)
{
	CHECK(probe_filter_match("!_* & !*@plt", "main"));
	CHECK(!probe_filter_match("!_* & !*@plt", "_start"));
	CHECK(!probe_filter_match("!_* & !*@plt", "puts@plt"));
	CHECK(probe_filter_match("func* | main", "main"));
	CHECK(probe_filter_match("func* | main", "func_2"));
	CHECK(!probe_filter_match("func* | main", "name_of"));
	CHECK(probe_filter_match(NULL, "x"));
}

int main(void)
{
	RUN(spec_function_forms);
	RUN(spec_other_points);
	RUN(spec_refusals);
	RUN(filters);
	return unit_done();
}
