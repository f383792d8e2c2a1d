// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for what reads perf.data past the reader (reader.c fuzzes the reader
 * alone): each input the reader opens is replayed by the session (threads, maps, symbols,
 * call chains), then read by the commands as users run them: report --stdio (with children
 * and --sort trace), report --stats and --tasks, script (with -D and the tracepoint text),
 * flamegraph and trace -i (the raw_syscalls samples replayed into lines and -S tables).
 * Their output goes to /dev/null. Symbols come from an empty --symfs and --kallsyms, so no file
 * of this machine is read. Seeds as for reader.c:
 *   tests/fuzz/seed-reader.sh /tmp/seeds && build-fuzz/session -max_len=65536 CORPUS /tmp/seeds
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "cli/cmds.h"
#include "lib/data/reader.h"
#include "lib/session/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char root[128], ksyms[192];
static volatile uint64_t fuzz_sink;

static void cleanup(void)
{
	unlink(ksyms);
	rmdir(root);
}

static int setup(void)
{
	const char *tmp = getenv("TMPDIR");
	int fd;

	if (root[0])
		return 0;
	snprintf(root, sizeof(root), "%s/flare-fuzz-session.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(root))
		return -1;
	snprintf(ksyms, sizeof(ksyms), "%s/kallsyms", root);
	fd = open(ksyms, O_CREAT | O_WRONLY, 0600);
	if (fd >= 0)
		close(fd);
	atexit(cleanup);
	/* the commands print to stdout: keep it out of the fuzzer's log */
	fd = open("/dev/null", O_WRONLY);
	if (fd >= 0) {
		fflush(stdout);
		dup2(fd, 1);
		close(fd);
	}
	return 0;
}

static int on_sample(void *ctx, const struct resolved_sample *rs)
{
	uint64_t *sum = ctx;
	size_t i;

	for (i = 0; i < rs->nr_frames; i++)
		*sum += rs->frames[i].addr + (rs->frames[i].sym != NULL);
	*sum += rs->thread ? rs->thread->tid : 0;
	return 0;
}

static int on_other(void *ctx, const struct perf_event_header *ev, uint64_t off)
{
	*(uint64_t *)ctx += ev->type + off;
	return 0;
}

static void replay(const char *path)
{
	struct session_opts so = { .symfs = root, .kallsyms = ksyms };
	struct session *sess;
	char err[256];
	uint64_t sum = 0;

	if (session_open(path, &so, &sess, err, sizeof(err)))
		return;
	session_process(sess, on_sample, on_other, &sum);
	session_free(sess);
	fuzz_sink = sum;
}

#define RUN(cmd, ...)                                                                              \
	do {                                                                                       \
		char *argv_[] = { __VA_ARGS__, NULL };                                             \
		cmd((int)(sizeof(argv_) / sizeof(argv_[0])) - 1, argv_);                           \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_data *pd;
	char path[64], err[256];
	int fd;

	if (setup())
		return 0;
	/* only what the reader accepts goes further */
	if (perf_data_open_mem(data, size, "fuzz", &pd, err, sizeof(err)))
		return 0;
	perf_data_close(pd);
	fd = memfd_create("flare-fuzz", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		replay(path);
		RUN(cmd_report, "report", "-f", "-i", path, "--stdio", "--symfs", root,
		    "--kallsyms", ksyms);
		RUN(cmd_report, "report", "-f", "-i", path, "--stdio", "--sort", "trace,comm",
		    "--no-children", "--call-graph=caller", "--symfs", root, "--kallsyms", ksyms);
		RUN(cmd_report, "report", "-f", "-i", path, "--stats");
		RUN(cmd_report, "report", "-f", "-i", path, "--tasks");
		RUN(cmd_script, "script", "-f", "-i", path, "--symfs", root, "--kallsyms", ksyms);
		RUN(cmd_script, "script", "-f", "-D", "-i", path, "--symfs", root, "--kallsyms",
		    ksyms);
		RUN(cmd_flamegraph, "flamegraph", "-f", "-i", path, "--folded");
		RUN(cmd_trace, "trace", "-f", "-i", path, "-S", "--errno-summary", "--hist");
	}
	close(fd);
	return 0;
}
