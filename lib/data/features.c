// SPDX-License-Identifier: GPL-2.0
/*
 * features: decoding of the feature payloads into struct pd_features. Payloads are packed
 * (unaligned) and every count and length is checked against the payload size.
 */
#include <errno.h>
#include <stdlib.h>
#include "lib/base/err.h"
#include "lib/base/log.h"
#include "lib/data/features.h"
#include "lib/data/reader-priv.h"

int pd_desc_iter_init(struct pd_desc_iter *it, const void *payload, size_t size)
{
	memset(it, 0, sizeof(*it));
	if (size < 8)
		return -ERR_FORMAT;
	it->p = (const uint8_t *)payload + 8;
	it->end = (const uint8_t *)payload + size;
	it->nr = pd_u32(payload);
	it->attr_size = pd_u32((const uint8_t *)payload + 4);
	if (it->attr_size < PERF_ATTR_SIZE_VER0 || it->attr_size > 4096)
		return -ERR_FORMAT;
	return 0;
}

int pd_desc_iter_next(struct pd_desc_iter *it, struct pd_desc_event *e)
{
	size_t left = it->end - it->p, n;
	uint32_t len;

	if (it->i >= it->nr)
		return 0;
	memset(e, 0, sizeof(*e));
	if (left < (size_t)it->attr_size + 8)
		return -ERR_FORMAT;
	n = it->attr_size < sizeof(e->attr) ? it->attr_size : sizeof(e->attr);
	memcpy(&e->attr, it->p, n);
	it->p += it->attr_size;
	e->nr_ids = pd_u32(it->p);
	len = pd_u32(it->p + 4);
	it->p += 8;
	left = it->end - it->p;
	if (len == 0 || len > left || !memchr(it->p, 0, len))
		return -ERR_FORMAT;
	e->name = (const char *)it->p;
	it->p += len;
	left -= len;
	if (e->nr_ids > left / 8)
		return -ERR_FORMAT;
	e->ids = it->p;
	it->p += (size_t)e->nr_ids * 8;
	it->i++;
	return 1;
}
