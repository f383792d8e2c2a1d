/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probe/events: the dynamic events in tracefs' uprobe_events and kprobe_events, read, added
 * and removed by plain writes to those files. probe_events_add() is all or none: when one line
 * is refused, the lines it wrote before are removed again. Nothing else in tracefs is touched.
 */
#ifndef FLARE_PROBE_EVENTS_H
#define FLARE_PROBE_EVENTS_H
#include <stddef.h>
#include <stdint.h>

enum probe_kind { PROBE_UPROBE, PROBE_KPROBE };

/* One line of uprobe_events / kprobe_events: "p:group/event target args" */
struct probe_def {
	enum probe_kind kind;
	int is_return;
	char *group, *event;
	char *path;	 /* uprobe: the binary */
	uint64_t offset; /* uprobe: file offset */
	char *target;	 /* kprobe: "_text+123" or "sym+off" */
	char *args;	 /* the rest of the line, "" when none */
	char *raw;	 /* the line as tracefs shows it */
};

/* Whether tracefs has the file for kind (kprobe_events is absent without
 * CONFIG_KPROBE_EVENTS). */
int probe_events_available(enum probe_kind kind);

/* Reads the probes of kind into a new array (*defs, *nr) sorted by their lines (perf's
 * order); free with probe_defs_free(). */
int probe_events_read(enum probe_kind kind, struct probe_def **defs, size_t *nr);
void probe_defs_free(struct probe_def *defs, size_t nr);

/* Whether tracefs has an event group:event of any kind (events/GROUP/EVENT exists). */
int probe_event_exists(const char *group, const char *event);

/* Writes lines[0..n) to kind's file; all or none. On failure *failed is the index of the
 * refused line and the return is -errno. */
int probe_events_add(enum probe_kind kind, char *const *lines, size_t n, size_t *failed);

/* Removes group/event of kind. 0 or -errno (-EBUSY while it is in use). */
int probe_event_remove(enum probe_kind kind, const char *group, const char *event);

#endif
