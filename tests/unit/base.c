// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdint.h>
#include "tests/unit/unit.h"
#include "lib/base/arena.h"
#include "lib/base/editdist.h"
#include "lib/base/err.h"
#include "lib/base/hashmap.h"
#include "lib/base/strbuf.h"
#include "lib/base/vec.h"

TEST(strbuf_basic)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	CHECK_STR(sb.buf, "");
	CHECK(strbuf_adds(&sb, "ab") == 0);
	CHECK(strbuf_addf(&sb, "%d-%s", 42, "x") == 0);
	CHECK_STR(sb.buf, "ab42-x");
	for (i = 0; i < 1000; i++)
		CHECK(strbuf_addch(&sb, 'z') == 0);
	CHECK(sb.len == 1006);
	strbuf_setlen(&sb, 2);
	CHECK_STR(sb.buf, "ab");
	strbuf_release(&sb);
	CHECK(sb.len == 0);
}

TEST(hashmap_basic)
{
	struct hashmap m = HASHMAP_INIT;
	uint64_t k;
	void *v;
	size_t it = 0, n = 0;

	for (k = 0; k < 1000; k++)
		CHECK(hashmap_put(&m, k * 7, (void *)(uintptr_t)(k + 1)) == 0);
	CHECK(m.nr == 1000);
	CHECK(hashmap_get(&m, 7 * 500, &v) && (uintptr_t)v == 501);
	CHECK(!hashmap_get(&m, 3, NULL));
	for (k = 0; k < 1000; k += 2)
		CHECK(hashmap_del(&m, k * 7));
	CHECK(m.nr == 500);
	for (k = 1; k < 1000; k += 2)
		CHECK(hashmap_get(&m, k * 7, &v) && (uintptr_t)v == k + 1);
	while (hashmap_next(&m, &it, &k, &v))
		n++;
	CHECK(n == 500);
	hashmap_release(&m);
}

TEST(arena_basic)
{
	struct arena a = ARENA_INIT;
	char *s = arena_strdup(&a, "hello");
	void *big = arena_alloc(&a, 1 << 20);
	char *t = arena_strdup(&a, "world");

	CHECK(s && big && t);
	CHECK_STR(s, "hello");
	CHECK_STR(t, "world");
	CHECK(((uintptr_t)t & 15) == 0);
	arena_release(&a);
}

TEST(vec_basic)
{
	VEC(int) v = VEC_INIT;
	int i;

	for (i = 0; i < 100; i++)
		CHECK(vec_push(&v, i) == 0);
	CHECK(v.nr == 100 && v.items[99] == 99);
	vec_free(&v);
}

TEST(err_names)
{
	CHECK_STR(err_str(-ENOENT), "No such file or directory");
	CHECK_STR(err_str(-ERR_FORMAT), "malformed data");
}

TEST(edit_distance_basic)
{
	char long_name[EDIT_DISTANCE_MAX_LEN + 2];

	CHECK(edit_distance("report", "report") == 0);
	CHECK(edit_distance("reprot", "report") == 2); /* a swap is two edits */
	CHECK(edit_distance("cpu-clokc", "cpu-clock") == 2);
	CHECK(edit_distance("", "stat") == 4);
	CHECK(edit_distance("sta", "stat") == 1);
	memset(long_name, 'a', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	CHECK(edit_distance(long_name, "a") == SIZE_MAX);
	long_name[EDIT_DISTANCE_MAX_LEN] = '\0';
	CHECK(edit_distance(long_name, "") == EDIT_DISTANCE_MAX_LEN);
}

int main(void)
{
	RUN(strbuf_basic);
	RUN(hashmap_basic);
	RUN(arena_basic);
	RUN(vec_basic);
	RUN(err_names);
	RUN(edit_distance_basic);
	return unit_done();
}
