// SPDX-License-Identifier: GPL-2.0
/* Unit tests for lib/systrace: the syscall table and -e lists, tracefs formats, decoding. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include "tests/unit/unit.h"
#include "lib/systrace/sysfmt.h"
#include "lib/systrace/sysnames.h"

static const char openat_fmt[] =
	"name: sys_enter_openat\nID: 700\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int dfd;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:const char * filename;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:int flags;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:umode_t mode;\toffset:40;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"dfd: 0x%08lx\", ((unsigned long)(REC->dfd))\n";

TEST(names_and_numbers)
{
	CHECK_STR(sysname(0), "read");
	CHECK_STR(sysname(257), "openat");
	CHECK(sysnr("getppid") == 110);
	CHECK(sysnr("newstat") == sysnr("stat"));
	CHECK(sysnr("nosuch") == -ENOENT);
	CHECK(sysname(-1) == NULL && sysname(SYSNAMES_MAX) == NULL);
}

TEST(expr_lists)
{
	bool sel[SYSNAMES_MAX];
	const char *bad = NULL, *near[4];
	size_t n, i;
	int found = 0;

	CHECK(sysnames_select("open*,close", sel, &bad) == 0);
	CHECK(sel[2] && sel[257] && sel[3] && !sel[0]);
	CHECK(sysnames_select("!read,write", sel, &bad) == 0);
	CHECK(!sel[0] && !sel[1] && sel[3] && sel[257]);
	CHECK(sysnames_select("read,getppd", sel, &bad) == -ENOENT);
	CHECK_STR(bad, "getppd");
	CHECK(sysnames_select("zz*", sel, &bad) == -ENOENT);
	n = sysnames_closest("getppd", near, 4);
	for (i = 0; i < n; i++)
		found |= !strcmp(near[i], "getppid");
	CHECK(found);
}

TEST(format_parse)
{
	struct sysfmt f;
	struct st_sysconf sc;

	CHECK(sysfmt_parse("openat", openat_fmt, &f) == 0);
	CHECK(f.nr_args == 4);
	CHECK_STR(f.args[1].name, "filename");
	CHECK(f.args[0].kind == SA_DFD && f.args[1].kind == SA_STR);
	CHECK(f.args[2].kind == SA_OPEN_FLAGS && f.args[3].kind == SA_MODE);
	sysfmt_bpf_conf(&f, &sc);
	CHECK(sc.str_mask == 2 && (sc.flags & ST_SC_TRACE));
	CHECK(sysfmt_field_offset(openat_fmt, "flags") == 32);
	CHECK(sysfmt_field_offset(openat_fmt, "nosuch") == -ENOENT);
	CHECK(sysfmt_parse("openat", "garbage\n", &f) < 0);
}

TEST(decode_openat)
{
	static struct st_rec r;
	struct strbuf sb = STRBUF_INIT;
	struct sysfmt f;
	const char path[] = "/etc/a\tb";

	CHECK(sysfmt_parse("openat", openat_fmt, &f) == 0);
	r.args[0] = (uint64_t)(int64_t)AT_FDCWD;
	r.args[1] = 0x1000;
	r.args[2] = O_RDONLY | O_CLOEXEC;
	r.args[3] = 0777;	/* no O_CREAT: not shown */
	r.nstr = 1;
	r.piece[0].arg = 1;
	r.piece[0].len = sizeof(path);
	r.piece[0].flags = ST_PIECE_STR;
	memcpy(r.data, path, sizeof(path));
	CHECK(sysfmt_args(&sb, &f, &r, NULL, NULL, NULL) == 0);
	CHECK_STR(sb.buf, "openat(dfd: CWD, filename: \"/etc/a\\tb\", flags: RDONLY|CLOEXEC");
	strbuf_reset(&sb);
	CHECK(sysfmt_ret(&sb, &f, -ENOENT, NULL, NULL) == 0);
	CHECK_STR(sb.buf, "-1 ENOENT (No such file or directory)");
	strbuf_release(&sb);
}

TEST(quote_as_strace)
{
	struct strbuf sb = STRBUF_INIT;

	sysfmt_quote(&sb, "a\n\0017\001x\"", 7, 1);
	CHECK_STR(sb.buf, "\"a\\n\\0017\\1x\\\"\"...");
	strbuf_release(&sb);
}

int main(void)
{
	RUN(names_and_numbers);
	RUN(expr_lists);
	RUN(format_parse);
	RUN(decode_openat);
	RUN(quote_as_strace);
	return unit_done();
}
