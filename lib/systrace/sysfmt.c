// SPDX-License-Identifier: GPL-2.0
/*
 * sysfmt: syscall argument names from tracefs, and their perf-trace-style decoding (see
 * sysfmt.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "lib/base/err.h"
#include "lib/systrace/sysfmt.h"

struct flagname {
	unsigned long bit;
	const char *name;
};

static const struct flagname open_flags[] = {
	{ O_WRONLY, "WRONLY" },
	{ O_RDWR, "RDWR" },
	{ O_CREAT, "CREAT" },
	{ O_EXCL, "EXCL" },
	{ O_NOCTTY, "NOCTTY" },
	{ O_TRUNC, "TRUNC" },
	{ O_APPEND, "APPEND" },
	{ O_NONBLOCK, "NONBLOCK" },
	{ O_DSYNC, "DSYNC" },
	{ O_DIRECT, "DIRECT" },
	{ 0100000, "LARGEFILE" },
	{ O_DIRECTORY, "DIRECTORY" },
	{ O_NOFOLLOW, "NOFOLLOW" },
	{ O_NOATIME, "NOATIME" },
	{ O_CLOEXEC, "CLOEXEC" },
	{ 04000000, "SYNC" },
	{ O_PATH, "PATH" },
	{ __O_TMPFILE, "TMPFILE" },
	{ 0, NULL },
};

static const struct flagname prot_flags[] = {
	{ PROT_READ, "READ" }, { PROT_WRITE, "WRITE" },		{ PROT_EXEC, "EXEC" },
	{ 0x8, "SEM" },	       { PROT_GROWSDOWN, "GROWSDOWN" }, { PROT_GROWSUP, "GROWSUP" },
	{ 0, NULL },
};

static const struct flagname mmap_flags[] = {
	{ MAP_SHARED, "SHARED" },
	{ MAP_PRIVATE, "PRIVATE" },
	{ MAP_FIXED, "FIXED" },
	{ MAP_ANONYMOUS, "ANONYMOUS" },
	{ MAP_32BIT, "32BIT" },
	{ MAP_GROWSDOWN, "GROWSDOWN" },
	{ MAP_DENYWRITE, "DENYWRITE" },
	{ MAP_EXECUTABLE, "EXECUTABLE" },
	{ MAP_LOCKED, "LOCKED" },
	{ MAP_NORESERVE, "NORESERVE" },
	{ MAP_POPULATE, "POPULATE" },
	{ MAP_NONBLOCK, "NONBLOCK" },
	{ MAP_STACK, "STACK" },
	{ MAP_HUGETLB, "HUGETLB" },
	{ MAP_SYNC, "SYNC" },
	{ MAP_FIXED_NOREPLACE, "FIXED_NOREPLACE" },
	{ 0, NULL },
};

static const struct flagname random_flags[] = {
	{ 1, "NONBLOCK" },
	{ 2, "RANDOM" },
	{ 4, "INSECURE" },
	{ 0, NULL },
};

static const char *const resources[] = {
	"CPU",	   "FSIZE", "DATA",  "STACK",	   "CORE",     "RSS",  "NPROC",	 "NOFILE",
	"MEMLOCK", "AS",    "LOCKS", "SIGPENDING", "MSGQUEUE", "NICE", "RTPRIO", "RTTIME",
};

static const char *const whences[] = { "SET", "CUR", "END", "DATA", "HOLE" };

/* perf's names for what some syscalls return */
static const char *const hex_ret[] = { "mmap", "brk", "mremap", "shmat", NULL };
static const char *const pid_ret[] = { "clone",	 "clone3", "fork",    "vfork",
				       "getpid", "gettid", "getppid", "set_tid_address",
				       "wait4",	 "waitid", NULL };

static int in_list(const char *const *l, const char *s)
{
	for (; *l; l++)
		if (!strcmp(*l, s))
			return 1;
	return 0;
}

static int is_fd_name(const char *name)
{
	size_t n = strlen(name);

	return n >= 2 && !strcmp(name + n - 2, "fd");
}

static enum sysarg_kind classify(const char *sc, const char *type, const char *name)
{
	int ptr = strchr(type, '*') != NULL;

	if (!strcmp(name, "buf") && ptr && (!strcmp(sc, "write") || !strcmp(sc, "pwrite64")))
		return SA_BUF_IN;
	if (!strcmp(name, "buf") && ptr && (!strcmp(sc, "read") || !strcmp(sc, "pread64")))
		return SA_BUF_OUT;
	if (ptr && !strncmp(type, "const char", 10) && strcmp(name, "buf") &&
	    strchr(type, '*') == strrchr(type, '*'))
		return SA_STR;
	if (ptr)
		return SA_PTR;
	if (!strcmp(name, "dfd") || !strcmp(name, "olddfd") || !strcmp(name, "newdfd") ||
	    !strcmp(name, "dirfd"))
		return SA_DFD;
	/* perf shows the path after int, unsigned int and long fds only */
	if (is_fd_name(name) &&
	    (!strcmp(type, "int") || !strcmp(type, "unsigned int") || !strcmp(type, "long")))
		return SA_FD;
	if (is_fd_name(name) && (!strcmp(type, "unsigned long") || !strcmp(type, "const int")))
		return SA_FD_NUM;
	if (!strcmp(name, "flags") && (!strcmp(sc, "open") || !strcmp(sc, "openat")))
		return SA_OPEN_FLAGS;
	if (!strcmp(name, "flags") && !strcmp(sc, "mmap"))
		return SA_MMAP_FLAGS;
	if (!strcmp(name, "flags") && !strcmp(sc, "getrandom"))
		return SA_RANDOM_FLAGS;
	if (!strcmp(name, "mode") &&
	    (!strcmp(sc, "access") || !strcmp(sc, "faccessat") || !strcmp(sc, "faccessat2")))
		return SA_ACCESS;
	if (!strcmp(name, "mode") || !strcmp(name, "umode"))
		return SA_MODE;
	if (!strcmp(name, "prot"))
		return SA_PROT;
	if (!strcmp(name, "sig"))
		return SA_SIG;
	if (!strcmp(type, "pid_t"))
		return SA_PID;
	if (!strcmp(name, "resource"))
		return SA_RESOURCE;
	if (!strcmp(name, "option") && !strcmp(sc, "arch_prctl"))
		return SA_ARCH_PRCTL;
	if (!strcmp(name, "whence") || !strcmp(name, "origin"))
		return SA_WHENCE;
	/* perf shows these as addresses and offsets */
	if (strstr(name, "addr") || !strcmp(name, "brk") || !strcmp(name, "start") ||
	    !strcmp(name, "off") || !strcmp(name, "arg2"))
		return SA_HEX;
	if (!strncmp(type, "unsigned", 8) || !strcmp(type, "size_t") || !strcmp(type, "u32") ||
	    !strcmp(type, "u64") || !strcmp(type, "umode_t"))
		return SA_UINT;
	return SA_INT;
}

/* One "field:TYPE NAME;" line into type and name; 0, or -1 for lines that are not fields. */
static int parse_field(const char *line, char *type, size_t tsz, char *name, size_t nsz)
{
	const char *p = strstr(line, "field:"), *end, *sp;
	size_t n;

	if (!p)
		return -1;
	p += 6;
	end = strchr(p, ';');
	if (!end)
		return -1;
	for (sp = end; sp > p && sp[-1] != ' ' && sp[-1] != '*'; sp--)
		;
	if (sp == p || sp == end)
		return -1;
	n = (size_t)(end - sp);
	if (n >= nsz)
		n = nsz - 1;
	memcpy(name, sp, n);
	name[n] = 0;
	n = (size_t)(sp - p);
	while (n && p[n - 1] == ' ')
		n--;
	if (n >= tsz)
		n = tsz - 1;
	memcpy(type, p, n);
	type[n] = 0;
	return 0;
}

int sysfmt_field_offset(const char *text, const char *field)
{
	const char *line = text;
	char type[64], name[32];

	while (line && *line) {
		const char *next = strchr(line, '\n'), *off;
		char buf[256];
		size_t n = next ? (size_t)(next - line) : strlen(line);
		long v;

		if (n >= sizeof(buf))
			n = sizeof(buf) - 1;
		memcpy(buf, line, n);
		buf[n] = 0;
		line = next ? next + 1 : NULL;
		if (parse_field(buf, type, sizeof(type), name, sizeof(name)) || strcmp(name, field))
			continue;
		off = strstr(buf, "offset:");
		if (!off)
			return -ERR_FORMAT;
		v = strtol(off + 7, NULL, 10);
		return v >= 0 && v < 256 ? (int)v : -ERR_FORMAT;
	}
	return -ENOENT;
}

static void sysfmt_init(const char *name, struct sysfmt *f)
{
	memset(f, 0, sizeof(*f));
	f->name = name;
	f->len_arg = -1;
	f->ret = in_list(hex_ret, name) ? SR_HEX : in_list(pid_ret, name) ? SR_PID : SR_INT;
	f->noreturn = !strcmp(name, "exit") || !strcmp(name, "exit_group");
}

int sysfmt_parse(const char *name, const char *text, struct sysfmt *f)
{
	const char *line = text;
	char type[64], aname[32];
	int seen = 0;

	sysfmt_init(name, f);
	while (line && *line) {
		const char *next = strchr(line, '\n');
		char buf[256];
		size_t n = next ? (size_t)(next - line) : strlen(line);

		if (n >= sizeof(buf))
			n = sizeof(buf) - 1;
		memcpy(buf, line, n);
		buf[n] = 0;
		line = next ? next + 1 : NULL;
		if (parse_field(buf, type, sizeof(type), aname, sizeof(aname)))
			continue;
		seen = 1;
		if (!strncmp(aname, "common_", 7) || !strcmp(aname, "__syscall_nr"))
			continue;
		if (f->nr_args >= 6)
			return -ERR_FORMAT;
		snprintf(f->args[f->nr_args].name, sizeof(f->args[0].name), "%s", aname);
		f->args[f->nr_args].kind = classify(name, type, aname);
		if (!strcmp(aname, "count") || !strcmp(aname, "len"))
			f->len_arg = f->nr_args;
		f->nr_args++;
	}
	return seen ? 0 : -ERR_FORMAT;
}

int sysfmt_load(const char *tracefs, const char *name, struct sysfmt *f)
{
	static const char *const prefixes[] = { "", "new" };
	char path[512];
	size_t i;

	for (i = 0; i < 2; i++) {
		struct strbuf sb = STRBUF_INIT;
		int err;

		snprintf(path, sizeof(path), "%s/events/syscalls/sys_enter_%s%s/format", tracefs,
			 prefixes[i], name);
		if (strbuf_read_file(&sb, path) < 0) {
			strbuf_release(&sb);
			continue;
		}
		err = sysfmt_parse(name, sb.buf, f);
		strbuf_release(&sb);
		return err;
	}
	sysfmt_init(name, f);
	return 0;
}

void sysfmt_bpf_conf(const struct sysfmt *f, struct st_sysconf *sc)
{
	int i;

	memset(sc, 0, sizeof(*sc));
	sc->flags = ST_SC_TRACE | (f->noreturn ? ST_SC_NORETURN : 0);
	for (i = 0; i < f->nr_args; i++) {
		if (f->args[i].kind == SA_STR)
			sc->str_mask |= 1u << i;
		if ((f->args[i].kind == SA_BUF_IN || f->args[i].kind == SA_BUF_OUT) &&
		    f->len_arg >= 0) {
			sc->flags |= f->args[i].kind == SA_BUF_IN ? ST_SC_BUF_IN : ST_SC_BUF_OUT;
			sc->buf_arg = i;
			sc->len_arg = f->len_arg;
		}
	}
}

static int add_flags(struct strbuf *sb, const struct flagname *t, unsigned long v)
{
	int first = 1, err = 0;

	for (; t->name && v; t++) {
		if ((v & t->bit) != t->bit)
			continue;
		err |= strbuf_addf(sb, "%s%s", first ? "" : "|", t->name);
		v &= ~t->bit;
		first = 0;
	}
	if (v)
		err |= strbuf_addf(sb, "%s%#lx", first ? "" : "|", v);
	return err;
}

int sysfmt_quote(struct strbuf *sb, const char *s, size_t len, int truncated)
{
	int err = strbuf_addch(sb, '"');
	size_t i;

	for (i = 0; i < len && !err; i++) {
		unsigned char c = (unsigned char)s[i];
		int next_digit = i + 1 < len && s[i + 1] >= '0' && s[i + 1] <= '7';

		switch (c) {
		case '\n':
			err = strbuf_adds(sb, "\\n");
			break;
		case '\t':
			err = strbuf_adds(sb, "\\t");
			break;
		case '\r':
			err = strbuf_adds(sb, "\\r");
			break;
		case '\v':
			err = strbuf_adds(sb, "\\v");
			break;
		case '\f':
			err = strbuf_adds(sb, "\\f");
			break;
		case '"':
			err = strbuf_adds(sb, "\\\"");
			break;
		case '\\':
			err = strbuf_adds(sb, "\\\\");
			break;
		default:
			if (c >= 0x20 && c < 0x7f)
				err = strbuf_addch(sb, (char)c);
			else if (next_digit)
				err = strbuf_addf(sb, "\\%03o", c);
			else
				err = strbuf_addf(sb, "\\%o", c);
		}
	}
	if (!err)
		err = strbuf_addch(sb, '"');
	if (!err && truncated)
		err = strbuf_adds(sb, "...");
	return err;
}

static const struct st_piece *find_piece(const struct st_rec *r, int arg)
{
	uint32_t i;

	for (i = 0; r && i < r->nstr && i < ST_MAX_PIECES; i++)
		if (r->piece[i].arg == arg && !(r->piece[i].flags & ST_PIECE_FAULT) &&
		    r->piece[i].off + r->piece[i].len <= ST_DATA_MAX)
			return &r->piece[i];
	return NULL;
}

const char *sysfmt_arg_str(const struct sysfmt *f, const struct st_rec *enter,
			   const struct st_rec *exit, int i, size_t *len)
{
	const struct st_rec *r = enter;
	const struct st_piece *p = find_piece(enter, i);
	const char *s;

	if (i < 0 || i >= f->nr_args || f->args[i].kind != SA_STR)
		return NULL;
	if (!p) {
		p = find_piece(exit, i);
		r = exit;
	}
	if (!p || !(p->flags & ST_PIECE_STR) || !p->len || p->len >= ST_PIECE_MAX)
		return NULL;
	s = r->data + p->off;
	if (memchr(s, '\0', p->len) != s + p->len - 1)
		return NULL;
	*len = p->len - 1u;
	return s;
}

static int add_pid(struct strbuf *sb, long v, const struct sysfmt_hooks *h)
{
	const char *c = h && h->comm && v > 0 ? h->comm(h->ctx, (int)v) : NULL;

	return c ? strbuf_addf(sb, "%ld (%s)", v, c) : strbuf_addf(sb, "%ld", v);
}

/* perf's file name arguments: "...name" or "...path..." */
static int is_filename(const char *name)
{
	size_t n = strlen(name);

	return (n >= 4 && !strcmp(name + n - 4, "name")) || strstr(name, "path");
}

/* "3</etc/passwd>" when the caller knows the path, else "3", as perf trace */
static int add_fd(struct strbuf *sb, int fd, const struct st_rec *r, const struct sysfmt_hooks *h)
{
	const char *path = h && h->fd_path && fd >= 0 ? h->fd_path(h->ctx, r, fd) : NULL;

	return path ? strbuf_addf(sb, "%d<%s>", fd, path) : strbuf_addf(sb, "%d", fd);
}

/* The value of one argument; the piece it came with, if any, from either record. */
static int add_arg(struct strbuf *sb, const struct sysfmt *f, int i, const struct st_rec *en,
		   const struct st_rec *ex, const struct sysfmt_hooks *h)
{
	const struct st_rec *src = en ? en : ex;
	unsigned long v = (unsigned long)src->args[i];
	const struct st_piece *p = find_piece(en, i);
	const struct st_rec *pr = en;
	long sv = (long)v;

	if (!p) {
		p = find_piece(ex, i);
		pr = ex;
	}
	switch (f->args[i].kind) {
	case SA_STR:
		if (p && p->flags & ST_PIECE_STR)
			return sysfmt_quote(sb, pr->data + p->off, p->len ? p->len - 1u : 0,
					    p->len >= ST_PIECE_MAX);
		/* perf shows a file name it could not read as an int: the low 32 bits */
		if (is_filename(f->args[i].name))
			return strbuf_addf(sb, "%#x", (unsigned int)v);
		return strbuf_addf(sb, "%#lx", v);
	case SA_BUF_IN:
	case SA_BUF_OUT:
		if (p && !(p->flags & ST_PIECE_FAULT)) {
			long n = f->len_arg >= 0 ? (long)src->args[f->len_arg] : 0;

			if (f->args[i].kind == SA_BUF_OUT && ex)
				n = ex->ret;
			return sysfmt_quote(sb, pr->data + p->off, p->len, n > (long)p->len);
		}
		return strbuf_addf(sb, "%#lx", v);
	case SA_DFD:
		if ((int)v == AT_FDCWD)
			return strbuf_adds(sb, "CWD");
		return add_fd(sb, (int)v, src, h);
	case SA_FD:
		return add_fd(sb, (int)v, src, h);
	case SA_FD_NUM:
		return strbuf_addf(sb, "%d", (int)v);
	case SA_OPEN_FLAGS:
		if (!(v & O_ACCMODE) && strbuf_adds(sb, v ? "RDONLY|" : "RDONLY"))
			return -ENOMEM;
		return add_flags(sb, open_flags, v);
	case SA_MMAP_FLAGS:
		return add_flags(sb, mmap_flags, v);
	case SA_PROT:
		return v ? add_flags(sb, prot_flags, v) : strbuf_adds(sb, "NONE");
	case SA_RANDOM_FLAGS:
		return add_flags(sb, random_flags, v);
	case SA_ACCESS:
		if (!v)
			return strbuf_adds(sb, "F");
		return strbuf_addf(sb, "%s%s%s", v & R_OK ? "R" : "", v & W_OK ? "W" : "",
				   v & X_OK ? "X" : "");
	case SA_MODE:
		return strbuf_addf(sb, "%#lo", v);
	case SA_SIG: {
		const char *s = (int)v > 0 && (int)v < NSIG ? sigabbrev_np((int)v) : NULL;

		return s ? strbuf_adds(sb, s) : strbuf_addf(sb, "%d", (int)v);
	}
	case SA_PID:
		return add_pid(sb, (int)v, h);
	case SA_RESOURCE:
		if (v < sizeof(resources) / sizeof(resources[0]))
			return strbuf_adds(sb, resources[v]);
		return strbuf_addf(sb, "%lu", v);
	case SA_ARCH_PRCTL: {
		static const char *const codes[] = { "SET_GS", "SET_FS", "GET_FS", "GET_GS" };

		if (v >= 0x1001 && v <= 0x1004)
			return strbuf_adds(sb, codes[v - 0x1001]);
		return strbuf_addf(sb, "%#lx", v);
	}
	case SA_WHENCE:
		if (v < sizeof(whences) / sizeof(whences[0]))
			return strbuf_adds(sb, whences[v]);
		return strbuf_addf(sb, "%lu", v);
	case SA_PTR:
	case SA_HEX:
		return strbuf_addf(sb, "%#lx", v);
	case SA_UINT:
		return strbuf_addf(sb, "%lu", v);
	case SA_INT:
		return strbuf_addf(sb, "%ld", sv);
	}
	return 0;
}

/* perf leaves out zero arguments (fd 0 too), and mmap's fd of an anonymous mapping */
static int arg_hidden(const struct sysfmt *f, int i, const struct st_rec *src)
{
	enum sysarg_kind k = f->args[i].kind;
	unsigned long v = (unsigned long)src->args[i];
	int j;

	if ((k == SA_FD || k == SA_FD_NUM) && !strcmp(f->name, "mmap")) {
		for (j = 0; j < f->nr_args; j++)
			if (f->args[j].kind == SA_MMAP_FLAGS && src->args[j] & MAP_ANONYMOUS)
				return 1;
		return v == 0;
	}
	if (k == SA_MODE) {
		/* open's mode means something only when the call may create a file */
		for (j = 0; j < f->nr_args; j++)
			if (f->args[j].kind == SA_OPEN_FLAGS)
				return !(src->args[j] & (O_CREAT | 020000000));
	}
	/* perf names these values even when zero */
	if (k == SA_ACCESS || k == SA_PROT || k == SA_OPEN_FLAGS || k == SA_WHENCE ||
	    k == SA_RESOURCE)
		return 0;
	return v == 0;
}

int sysfmt_args(struct strbuf *sb, const struct sysfmt *f, const struct st_rec *enter,
		const struct st_rec *exit, const struct sysfmt_hooks *h)
{
	const struct st_rec *src = enter ? enter : exit;
	int i, first = 1, err = strbuf_addf(sb, "%s(", f->name);

	for (i = 0; i < f->nr_args && !err && src; i++) {
		if (arg_hidden(f, i, src))
			continue;
		err = strbuf_addf(sb, "%s%s: ", first ? "" : ", ", f->args[i].name);
		if (!err)
			err = add_arg(sb, f, i, enter, exit, h);
		first = 0;
	}
	return err;
}

int sysfmt_ret(struct strbuf *sb, const struct sysfmt *f, int64_t ret, const struct sysfmt_hooks *h)
{
	if (ret < 0 && ret > -4096) {
		const char *name = strerrorname_np((int)-ret);

		return strbuf_addf(sb, "-1 %s (%s)", name ? name : "E?", strerror((int)-ret));
	}
	if (f->ret == SR_HEX)
		return strbuf_addf(sb, "%#llx", (unsigned long long)ret);
	if (f->ret == SR_PID)
		return add_pid(sb, (long)ret, h);
	return strbuf_addf(sb, "%lld", (long long)ret);
}
