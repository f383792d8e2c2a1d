// SPDX-License-Identifier: GPL-2.0
/*
 * color: flamegraph.pl's palettes (hot, mem, io, and the multi palettes that pick a hue by
 * the kind of frame: kernel _[k], JIT _[j], inlined _[i], C++, Java, JS, Perl), and the
 * consistent palette file of --cp.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/base/arena.h"
#include "lib/base/hashmap.h"
#include "lib/base/strbuf.h"
#include "lib/base/vec.h"
#include "lib/graph/flame.h"

/* flamegraph.pl's namehash(): early characters weigh more; a "mod`" prefix is cut. */
static double namehash(const char *s, size_t len, bool rev)
{
	double vector = 0, weight = 1, max = 1;
	const char *tick = rev || len < 2 ? NULL : memchr(s + 1, '`', len - 1);
	size_t i;
	int mod = 10;

	if (tick) {
		/* s/.(.*?)`// : the module prefix goes */
		len -= (size_t)(tick - s) + 1;
		s = tick + 1;
	}
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)(rev ? s[len - 1 - i] : s[i]);
		int v = c % mod;

		vector += (v / (double)(mod++ - 1)) * weight;
		max += weight;
		weight *= 0.70;
		if (mod > 12)
			break;
	}
	return 1 - vector / max;
}

/* A stable value in [0,1) from the name: the same function gets the same color in every
 * graph, without a palette file. */
static double name_value(const char *s, size_t len)
{
	uint64_t h = hash_u64(hash_bytes(s, len));

	return (double)(h >> 11) / 9007199254740992.0;
}

static bool ends_with(const char *s, size_t len, const char *suf)
{
	size_t n = strlen(suf);

	return len >= n && !memcmp(s + len - n, suf, n);
}

static bool contains(const char *s, size_t len, const char *what)
{
	return memmem(s, len, what, strlen(what)) != NULL;
}

static bool java_prefix(const char *s, size_t len)
{
	static const char *const pre[] = { "java/", "javax/", "jdk/", "net/", "org/",
					   "com/",  "io/",    "sun/", NULL };
	size_t i;

	if (len && s[0] == 'L' && java_prefix(s + 1, len - 1))
		return true;
	for (i = 0; pre[i]; i++)
		if (len >= strlen(pre[i]) && !memcmp(s, pre[i], strlen(pre[i])))
			return true;
	return false;
}

/* The multi palettes choose a flat palette by the kind of frame. */
static const char *pick_kind(const char *type, const char *s, size_t len)
{
	if (!strcmp(type, "java")) {
		if (ends_with(s, len, "_[j]"))
			return "green";
		if (ends_with(s, len, "_[i]"))
			return "aqua";
		if (java_prefix(s, len) || contains(s, len, ":::"))
			return "green";
		if (contains(s, len, "::"))
			return "yellow";
		return ends_with(s, len, "_[k]") ? "orange" : "red";
	}
	if (!strcmp(type, "perl")) {
		if (contains(s, len, "::"))
			return "yellow";
		if (contains(s, len, "Perl") || contains(s, len, ".pl"))
			return "green";
		return ends_with(s, len, "_[k]") ? "orange" : "red";
	}
	if (!strcmp(type, "js")) {
		const char *sl = memchr(s, '/', len);

		if (ends_with(s, len, "_[j]"))
			return sl ? "green" : "aqua";
		if (contains(s, len, "::"))
			return "yellow";
		if (sl && contains(sl, len - (size_t)(sl - s), ".js"))
			return "green";
		if (memchr(s, ':', len))
			return "aqua";
		if (len == 1 && s[0] == ' ')
			return "green";
		return contains(s, len, "_[k]") ? "orange" : "red";
	}
	if (!strcmp(type, "kinds")) {
		/* flare's default for stacks it folds: the kind of frame picks the hue */
		if (ends_with(s, len, "_[k]"))
			return "orange";
		if (ends_with(s, len, "_[j]"))
			return "green";
		if (ends_with(s, len, "_[i]"))
			return "aqua";
		return contains(s, len, "::") ? "yellow" : "red";
	}
	if (!strcmp(type, "wakeup"))
		return "aqua";
	if (!strcmp(type, "chain"))
		return contains(s, len, "_[w]") ? "aqua" : "blue";
	return type;
}

void fg_color(const char *type, bool hash, const char *s, size_t len, char buf[32])
{
	double v1, v2, v3;
	int r = 0, g = 0, b = 0;

	if (hash) {
		v1 = namehash(s, len, false);
		v2 = v3 = namehash(s, len, true);
	} else {
		v1 = v2 = v3 = name_value(s, len);
	}
	if (!strcmp(type, "hot")) {
		r = 205 + (int)(50 * v3), g = (int)(230 * v1), b = (int)(55 * v2);
	} else if (!strcmp(type, "mem")) {
		r = 0, g = 190 + (int)(50 * v2), b = (int)(210 * v1);
	} else if (!strcmp(type, "io")) {
		r = g = 80 + (int)(60 * v1), b = 190 + (int)(55 * v2);
	} else {
		type = pick_kind(type, s, len);
		if (!strcmp(type, "red"))
			r = 200 + (int)(55 * v1), g = b = 50 + (int)(80 * v1);
		else if (!strcmp(type, "green"))
			g = 200 + (int)(55 * v1), r = b = 50 + (int)(60 * v1);
		else if (!strcmp(type, "blue"))
			b = 205 + (int)(50 * v1), r = g = 80 + (int)(60 * v1);
		else if (!strcmp(type, "yellow"))
			r = g = 175 + (int)(55 * v1), b = 50 + (int)(20 * v1);
		else if (!strcmp(type, "purple"))
			r = b = 190 + (int)(65 * v1), g = 80 + (int)(60 * v1);
		else if (!strcmp(type, "aqua"))
			r = 50 + (int)(60 * v1), g = b = 165 + (int)(55 * v1);
		else if (!strcmp(type, "orange"))
			r = 190 + (int)(65 * v1), g = 90 + (int)(65 * v1), b = 0;
	}
	snprintf(buf, 32, "rgb(%d,%d,%d)", r, g, b);
}

struct pal_ent {
	const char *name;
	const char *color;
	struct pal_ent *next;
};

struct palette {
	struct arena arena;
	struct hashmap map; /* hash of the name -> chain of pal_ent */
	VEC(struct pal_ent *) all;
};

static struct pal_ent *pal_find(struct palette *p, const char *name, size_t len, void ***slot)
{
	struct pal_ent *e;

	*slot = hashmap_slot(&p->map, hash_bytes(name, len));
	if (!*slot)
		return NULL;
	for (e = **slot; e; e = e->next)
		if (strlen(e->name) == len && !memcmp(e->name, name, len))
			return e;
	return NULL;
}

static const char *pal_put(struct palette *p, const char *name, size_t len, const char *color)
{
	void **slot;
	struct pal_ent *e = pal_find(p, name, len, &slot);

	if (!slot)
		return NULL;
	if (!e) {
		if (vec_reserve(&p->all, 1))
			return NULL;
		e = arena_zalloc(&p->arena, sizeof(*e));
		if (!e || !(e->name = arena_strndup(&p->arena, name, len)))
			return NULL;
		e->next = *slot;
		*slot = e;
		p->all.items[p->all.nr++] = e;
	}
	e->color = arena_strdup(&p->arena, color);
	return e->color;
}

/* A palette is a few names per function drawn: far less than this. */
#define PALETTE_MAX ((size_t)256 << 20)

/* palette.map is a regular file in the current directory: a symlink there is not followed
 * (it could point anywhere --cp would then overwrite), nor is a FIFO waited on. */
static int pal_open(const char *path, int flags)
{
	int fd = open(path, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
	struct stat st;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	return fd;
}

int palette_load(const char *path, struct palette **ret)
{
	struct palette *p = calloc(1, sizeof(*p));
	struct strbuf text = STRBUF_INIT;
	char *line, *nl, *sep;
	int fd, err = 0;

	*ret = NULL;
	if (!p)
		return -ENOMEM;
	fd = pal_open(path, O_RDONLY);
	if (fd >= 0) {
		close(fd);
		err = strbuf_read_text(&text, path, PALETTE_MAX);
	} else if (fd != -ENOENT) {
		err = fd;
	}
	for (line = text.buf; !err && *line; line = nl) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = 0;
		else
			nl = line + strlen(line);
		sep = strstr(line, "->");
		if (sep && !pal_put(p, line, (size_t)(sep - line), sep + 2))
			err = -ENOMEM;
	}
	strbuf_release(&text);
	if (err) {
		palette_free(p);
		return err;
	}
	*ret = p;
	return 0;
}

const char *palette_color(struct palette *p, const char *name, size_t len, const char *fresh)
{
	void **slot;
	struct pal_ent *e = pal_find(p, name, len, &slot);

	return e ? e->color : pal_put(p, name, len, fresh);
}

static int pal_cmp(const void *a, const void *b)
{
	return strcmp((*(struct pal_ent *const *)a)->name, (*(struct pal_ent *const *)b)->name);
}

int palette_save(struct palette *p, const char *path)
{
	int fd = pal_open(path, O_WRONLY | O_CREAT);
	FILE *f;
	size_t i;
	int err = 0;

	if (fd < 0)
		return fd;
	f = ftruncate(fd, 0) ? NULL : fdopen(fd, "w");
	if (!f) {
		err = -errno;
		close(fd);
		return err;
	}
	qsort(p->all.items, p->all.nr, sizeof(*p->all.items), pal_cmp);
	for (i = 0; i < p->all.nr; i++)
		fprintf(f, "%s->%s\n", p->all.items[i]->name, p->all.items[i]->color);
	if (ferror(f))
		err = -EIO;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

void palette_free(struct palette *p)
{
	if (!p)
		return;
	arena_release(&p->arena);
	hashmap_release(&p->map);
	vec_free(&p->all);
	free(p);
}
