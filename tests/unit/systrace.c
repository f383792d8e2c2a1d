// SPDX-License-Identifier: GPL-2.0
/* Unit tests for lib/systrace: the syscall table and -e lists, tracefs formats, decoding. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include "tests/unit/unit.h"
#include "lib/systrace/fdpath.h"
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
	r.args[3] = 0777; /* no O_CREAT: not shown */
	r.nstr = 1;
	r.piece[0].arg = 1;
	r.piece[0].len = sizeof(path);
	r.piece[0].flags = ST_PIECE_STR;
	memcpy(r.data, path, sizeof(path));
	CHECK(sysfmt_args(&sb, &f, &r, NULL, NULL) == 0);
	CHECK_STR(sb.buf, "openat(dfd: CWD, filename: \"/etc/a\\tb\", flags: RDONLY|CLOEXEC");
	strbuf_reset(&sb);
	CHECK(sysfmt_ret(&sb, &f, -ENOENT, NULL) == 0);
	CHECK_STR(sb.buf, "-1 ENOENT (No such file or directory)");
	strbuf_release(&sb);
}

static const char close_fmt[] = "name: sys_enter_close\nID: 1\nformat:\n"
				"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
				"\tfield:unsigned int fd;\toffset:16;\tsize:8;\tsigned:0;\n\n"
				"print fmt: \"fd: 0x%08lx\", ((unsigned long)(REC->fd))\n";

static const char dup2_fmt[] = "name: sys_enter_dup2\nID: 2\nformat:\n"
			       "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
			       "\tfield:unsigned int oldfd;\toffset:16;\tsize:8;\tsigned:0;\n"
			       "\tfield:unsigned int newfd;\toffset:24;\tsize:8;\tsigned:0;\n\n"
			       "print fmt: \"oldfd: 0x%08lx\", ((unsigned long)(REC->oldfd))\n";

static const char *fd_hook(void *ctx, const struct st_rec *r, int fd)
{
	return fdpath_get(ctx, (int)r->pid, (int)r->tid, fd);
}

/* one finished call of process 100: its exit record (args and ret) with an optional string */
static void call(struct fdpath *fp, const struct sysfmt *f, uint64_t a0, uint64_t a1, uint64_t a2,
		 int64_t ret, const char *str)
{
	static struct st_rec r;

	memset(&r, 0, sizeof(r));
	r.pid = r.tid = 100;
	r.args[0] = a0;
	r.args[1] = a1;
	r.args[2] = a2;
	r.ret = ret;
	if (str) {
		r.nstr = 1;
		r.piece[0].arg = 1;
		r.piece[0].len = (uint16_t)(strlen(str) + 1);
		r.piece[0].flags = ST_PIECE_STR;
		memcpy(r.data, str, strlen(str) + 1);
	}
	fdpath_note_exit(fp, f, NULL, &r);
}

TEST(fd_paths)
{
	struct sysfmt op, cl, dp;
	struct fdpath fp;
	struct sysfmt_hooks h = { .fd_path = fd_hook, .ctx = &fp };
	struct strbuf sb = STRBUF_INIT;
	static struct st_rec r;
	bool sel[SYSNAMES_MAX];

	CHECK(sysfmt_parse("openat", openat_fmt, &op) == 0);
	CHECK(sysfmt_parse("close", close_fmt, &cl) == 0);
	CHECK(sysfmt_parse("dup2", dup2_fmt, &dp) == 0);
	CHECK(cl.args[0].kind == SA_FD && dp.args[1].kind == SA_FD);
	memset(sel, 1, sizeof(sel));
	CHECK(fdpath_mode(sel, SYSNAMES_MAX, false) == FDPATH_COMPLETE);
	CHECK(fdpath_mode(sel, SYSNAMES_MAX, true) == FDPATH_PROC);
	sel[sysnr("dup2")] = false;
	CHECK(fdpath_mode(sel, SYSNAMES_MAX, false) == FDPATH_LEARNED);
	sel[sysnr("close")] = false;
	CHECK(fdpath_mode(sel, SYSNAMES_MAX, false) == FDPATH_PROC);

	/* replayed (no /proc): only what the calls said */
	fdpath_init(&fp, false, FDPATH_COMPLETE);
	call(&fp, &op, (uint64_t)AT_FDCWD, 0x1000, O_RDONLY | O_CLOEXEC, 3, "/etc/a");
	call(&fp, &op, (uint64_t)AT_FDCWD, 0x1000, O_RDONLY, 4, "/etc/b");
	call(&fp, &op, (uint64_t)AT_FDCWD, 0x1000, O_RDONLY, -2, "/etc/c"); /* ENOENT */
	CHECK_STR(fdpath_get(&fp, 100, 100, 3), "/etc/a");
	CHECK(fdpath_get(&fp, 101, 101, 3) == NULL);
	r.pid = r.tid = 100;
	r.args[0] = 3;
	CHECK(sysfmt_args(&sb, &cl, &r, NULL, &h) == 0);
	CHECK_STR(sb.buf, "close(fd: 3</etc/a>");
	strbuf_reset(&sb);
	r.args[0] = 0; /* perf leaves out fd 0 */
	CHECK(sysfmt_args(&sb, &cl, &r, NULL, &h) == 0);
	CHECK_STR(sb.buf, "close(");
	call(&fp, &dp, 4, 9, 0, 9, NULL);
	CHECK_STR(fdpath_get(&fp, 100, 100, 9), "/etc/b");
	call(&fp, &cl, 4, 0, 0, 0, NULL);
	CHECK(fdpath_get(&fp, 100, 100, 4) == NULL);
	fdpath_note_exit(&fp, &(struct sysfmt){ .name = "fork" }, NULL,
			 &(struct st_rec){ .pid = 100, .tid = 100, .ret = 200 });
	CHECK_STR(fdpath_get(&fp, 200, 200, 9), "/etc/b");
	fdpath_note_exit(&fp, &(struct sysfmt){ .name = "execve" }, NULL,
			 &(struct st_rec){ .pid = 100, .tid = 100, .ret = 0 });
	CHECK(fdpath_get(&fp, 100, 100, 3) == NULL); /* O_CLOEXEC */
	CHECK_STR(fdpath_get(&fp, 100, 100, 9), "/etc/b");
	CHECK_STR(fdpath_get(&fp, 200, 200, 3), "/etc/a");
	fdpath_release(&fp);
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
	RUN(fd_paths);
	return unit_done();
}
