// SPDX-License-Identifier: GPL-2.0
/*
 * writer: perf.data output, file and pipe format. See writer.h for the contract and
 * doc/perf-data-format.md for the layout.
 */
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/base/log.h"
#include "lib/base/outfile.h"
#include "lib/data/writer.h"

#define WBUF_SIZE (1 << 20)

struct pw_event_copy {
	struct perf_event_attr attr;
	char *name;
	uint64_t *ids;
	size_t nr_ids;
};

struct perf_writer {
	int fd;
	bool pipe;
	bool finished;
	struct outfile out; /* the file format's file (fd is out.fd then) */
	char *buf;
	size_t len;
	uint64_t data_offset; /* file offset of the data section */
	uint64_t data_size;   /* bytes of records written (buffered included) */
	struct pw_event_copy *evs;
	size_t nr_evs;
	struct strbuf feats[FEAT_LAST];
	uint64_t feat_set[4];
};

static int write_all(int fd, const void *p, size_t len)
{
	const char *c = p;

	while (len) {
		ssize_t n = write(fd, c, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		c += n;
		len -= (size_t)n;
	}
	return 0;
}

static int pwrite_all(int fd, const void *p, size_t len, uint64_t off)
{
	const char *c = p;

	while (len) {
		ssize_t n = pwrite(fd, c, len, (off_t)off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		c += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

static int flush_buf(struct perf_writer *w)
{
	int err;

	if (!w->len)
		return 0;
	err = write_all(w->fd, w->buf, w->len);
	w->len = 0;
	return err;
}

static int open_path_fd(const char *path, int fd, struct perf_writer **ret);

int perf_writer_open(const char *path, struct perf_writer **ret)
{
	return open_path_fd(path, STDOUT_FILENO, ret);
}

int perf_writer_open_pipe_fd(int fd, struct perf_writer **ret)
{
	return open_path_fd("-", fd, ret);
}

static int open_path_fd(const char *path, int pipe_fd, struct perf_writer **ret)
{
	struct perf_writer *w;
	int err, i;

	*ret = NULL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->fd = -1;
	w->out.fd = -1;
	for (i = 0; i < FEAT_LAST; i++)
		w->feats[i] = (struct strbuf)STRBUF_INIT;
	w->buf = malloc(WBUF_SIZE);
	if (!w->buf) {
		err = -ENOMEM;
		goto out_free;
	}
	if (strcmp(path, "-")) {
		/* written under its own name from the start: a killed recording stays readable
		 * (perf_writer_sync()); the previous file becomes NAME.old */
		err = outfile_open(&w->out, path, 0600, OUTFILE_SALVAGE | OUTFILE_BACKUP);
		if (err)
			goto out_free;
		w->fd = w->out.fd;
		/* a FIFO or a terminal cannot take the file format: the stream goes there */
		w->pipe = !w->out.seekable;
	} else {
		w->pipe = true;
		w->fd = pipe_fd;
	}
	if (w->pipe) {
		struct perf_pipe_file_header ph = { PERF_MAGIC2, sizeof(ph) };

		err = write_all(w->fd, &ph, sizeof(ph));
		if (err)
			goto out_free;
	}
	*ret = w;
	return 0;
out_free:
	perf_writer_free(w);
	return err;
}

bool perf_writer_path_is_pipe(const char *path)
{
	struct stat st;
	bool pipe = false;
	int fd;

	if (!strcmp(path, "-"))
		return true;
	if (stat(path, &st))
		return false;
	if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))
		return true;
	if (!S_ISCHR(st.st_mode))
		return false;
	fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd >= 0) {
		pipe = lseek(fd, 0, SEEK_CUR) < 0;
		close(fd);
	}
	return pipe;
}

bool perf_writer_is_pipe(const struct perf_writer *w)
{
	return w->pipe;
}

bool perf_writer_in_place(const struct perf_writer *w)
{
	return !w->pipe && w->out.in_place;
}

static int copy_events(struct perf_writer *w, const struct pw_event *evs, size_t nr)
{
	size_t i;

	w->evs = calloc(nr ? nr : 1, sizeof(*w->evs));
	if (!w->evs)
		return -ENOMEM;
	w->nr_evs = nr;
	for (i = 0; i < nr; i++) {
		struct pw_event_copy *c = &w->evs[i];

		c->attr = evs[i].attr;
		c->attr.size = PERF_ATTR_SIZE_FILE;
		c->name = strdup(evs[i].name ? evs[i].name : "");
		c->ids = calloc(evs[i].nr_ids ? evs[i].nr_ids : 1, sizeof(uint64_t));
		if (!c->name || !c->ids)
			return -ENOMEM;
		if (evs[i].nr_ids)
			memcpy(c->ids, evs[i].ids, evs[i].nr_ids * sizeof(uint64_t));
		c->nr_ids = evs[i].nr_ids;
	}
	return 0;
}

/* Pipe mode: one HEADER_ATTR per event (attr, then its ids), as perf's
 * perf_event__synthesize_attr; long id lists are split over several records. */
static int write_header_attrs(struct perf_writer *w)
{
	size_t i, done, n, max = (UINT16_MAX - 8 - PERF_ATTR_SIZE_FILE) / 8;
	char rec[UINT16_MAX];
	struct perf_event_header *h = (void *)rec;
	int err;

	for (i = 0; i < w->nr_evs; i++) {
		done = 0;
		do {
			n = w->evs[i].nr_ids - done;
			if (n > max)
				n = max;
			h->type = PERF_RECORD_HEADER_ATTR;
			h->misc = 0;
			h->size = (uint16_t)(8 + PERF_ATTR_SIZE_FILE + n * 8);
			memcpy(rec + 8, &w->evs[i].attr, PERF_ATTR_SIZE_FILE);
			memcpy(rec + 8 + PERF_ATTR_SIZE_FILE, w->evs[i].ids + done, n * 8);
			err = perf_writer_write(w, rec, h->size);
			if (err)
				return err;
			done += n;
		} while (done < w->evs[i].nr_ids);
	}
	return 0;
}

/* The ids, the attrs and the header at the start of the file; with_features once the
 * feature section is written. */
static int write_head(struct perf_writer *w, bool with_features)
{
	struct perf_file_header fh = { 0 };
	uint64_t off = sizeof(fh), attr_off;
	size_t i;
	int err;

	for (i = 0; i < w->nr_evs; i++)
		off += w->evs[i].nr_ids * 8;
	attr_off = off;
	off = sizeof(fh);
	for (i = 0; i < w->nr_evs; i++) {
		struct perf_file_section ids = { off, w->evs[i].nr_ids * 8 };
		uint64_t at = attr_off + i * (PERF_ATTR_SIZE_FILE + sizeof(ids));

		err = pwrite_all(w->fd, w->evs[i].ids, ids.size, off);
		if (!err)
			err = pwrite_all(w->fd, &w->evs[i].attr, PERF_ATTR_SIZE_FILE, at);
		if (!err)
			err = pwrite_all(w->fd, &ids, sizeof(ids), at + PERF_ATTR_SIZE_FILE);
		if (err)
			return err;
		off += ids.size;
	}
	fh.magic = PERF_MAGIC2;
	fh.size = sizeof(fh);
	fh.attr_size = PERF_ATTR_SIZE_FILE + sizeof(struct perf_file_section);
	fh.attrs.offset = attr_off;
	fh.attrs.size = w->nr_evs * fh.attr_size;
	fh.data.offset = w->data_offset;
	fh.data.size = w->data_size;
	if (with_features)
		memcpy(fh.features, w->feat_set, sizeof(fh.features));
	return pwrite_all(w->fd, &fh, sizeof(fh), 0);
}

int perf_writer_set_events(struct perf_writer *w, const struct pw_event *evs, size_t nr)
{
	uint64_t nr_ids = 0;
	size_t i;
	int err;

	if (w->evs)
		return -EINVAL;
	err = copy_events(w, evs, nr);
	if (err)
		return err;
	if (w->pipe)
		return write_header_attrs(w);
	for (i = 0; i < nr; i++)
		nr_ids += evs[i].nr_ids;
	w->data_offset = sizeof(struct perf_file_header) + nr_ids * 8 +
			 nr * (PERF_ATTR_SIZE_FILE + sizeof(struct perf_file_section));
	if (lseek(w->fd, (off_t)w->data_offset, SEEK_SET) < 0)
		return -errno;
	/* the ids, attrs and a header without features now: see perf_writer_sync() */
	return write_head(w, false);
}

int perf_writer_sync(struct perf_writer *w)
{
	uint64_t size;
	int err = flush_buf(w);

	if (err || w->pipe || !w->evs)
		return err;
	size = w->data_size;
	return pwrite_all(w->fd, &size, sizeof(size), offsetof(struct perf_file_header, data.size));
}

int perf_writer_write(struct perf_writer *w, const void *buf, size_t len)
{
	int err;

	w->data_size += len;
	if (w->len + len > WBUF_SIZE || (len >= WBUF_SIZE / 16 && w->len)) {
		err = flush_buf(w);
		if (err)
			return err;
		if (len >= WBUF_SIZE / 16)
			return write_all(w->fd, buf, len);
	}
	memcpy(w->buf + w->len, buf, len);
	w->len += len;
	return 0;
}

uint64_t perf_writer_data_size(const struct perf_writer *w)
{
	return w->data_size;
}

int perf_writer_add_feature(struct perf_writer *w, int feat, const void *payload, size_t len)
{
	struct strbuf *sb;

	if (feat <= 0 || feat > FEAT_LAST)
		return -EINVAL;
	if (w->pipe) {
		struct {
			struct perf_event_header h;
			uint64_t feat_id;
		} rec = { { PERF_RECORD_HEADER_FEATURE, 0, 0 }, (uint64_t)feat };
		int err;

		/* perf 6.1 does not pad these to 8 bytes; neither do we */
		if (sizeof(rec) + len > UINT16_MAX)
			return -E2BIG;
		rec.h.size = (uint16_t)(sizeof(rec) + len);
		err = perf_writer_write(w, &rec, sizeof(rec));
		if (!err && len)
			err = perf_writer_write(w, payload, len);
		return err;
	}
	if (feat == FEAT_LAST)
		return -EINVAL;
	sb = &w->feats[feat];
	strbuf_reset(sb);
	if (strbuf_add(sb, payload, len))
		return -ENOMEM;
	w->feat_set[feat / 64] |= 1ULL << (feat % 64);
	return 0;
}

int perf_writer_end_features(struct perf_writer *w)
{
	if (!w->pipe)
		return 0;
	return perf_writer_add_feature(w, FEAT_LAST, NULL, 0);
}

int perf_writer_tracing_data(struct perf_writer *w, const void *payload, size_t len)
{
	struct {
		struct perf_event_header h;
		uint32_t size;
		uint32_t pad;
	} rec = { { PERF_RECORD_HEADER_TRACING_DATA, 0, 16 }, 0, 0 };
	size_t aligned = (len + 7) & ~(size_t)7;
	static const char zeros[8];
	int err;

	if (!w->pipe)
		return perf_writer_add_feature(w, FEAT_TRACING_DATA, payload, len);
	rec.size = (uint32_t)aligned;
	err = perf_writer_write(w, &rec, sizeof(rec));
	if (!err)
		err = perf_writer_write(w, payload, len);
	if (!err && aligned > len)
		err = perf_writer_write(w, zeros, aligned - len);
	/* the blob is not a record: keep it out of the record byte count */
	return err;
}

/* The feature index and payloads, after the data section. */
static int write_features(struct perf_writer *w, uint64_t off)
{
	struct perf_file_section idx[FEAT_LAST];
	size_t n = 0, i;
	uint64_t pos;
	int f, err;

	for (f = 1; f < FEAT_LAST; f++)
		if (w->feat_set[f / 64] & (1ULL << (f % 64)))
			n++;
	pos = off + n * sizeof(idx[0]);
	for (f = 1, i = 0; f < FEAT_LAST; f++) {
		if (!(w->feat_set[f / 64] & (1ULL << (f % 64))))
			continue;
		idx[i].offset = pos;
		idx[i].size = w->feats[f].len;
		err = pwrite_all(w->fd, w->feats[f].buf, w->feats[f].len, pos);
		if (err)
			return err;
		pos += w->feats[f].len;
		i++;
	}
	return pwrite_all(w->fd, idx, n * sizeof(idx[0]), off);
}

int perf_writer_finish(struct perf_writer *w)
{
	int err;

	err = flush_buf(w);
	if (!err && w->pipe && w->out.fd >= 0)
		err = outfile_commit(&w->out);
	if (err || w->pipe) {
		w->fd = w->out.fd >= 0 ? -1 : w->fd;
		w->finished = !err;
		return err;
	}
	if (!w->evs)
		return -EINVAL;
	err = write_features(w, w->data_offset + w->data_size);
	if (!err)
		err = write_head(w, true);
	if (!err)
		err = outfile_commit(&w->out);
	w->fd = -1;
	w->finished = !err;
	return err;
}

void perf_writer_free(struct perf_writer *w)
{
	size_t i;

	if (!w)
		return;
	outfile_abort(&w->out);
	for (i = 0; i < w->nr_evs; i++) {
		free(w->evs[i].name);
		free(w->evs[i].ids);
	}
	free(w->evs);
	for (i = 0; i < FEAT_LAST; i++)
		strbuf_release(&w->feats[i]);
	free(w->buf);
	free(w);
}
