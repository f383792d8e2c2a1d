// SPDX-License-Identifier: GPL-2.0
/*
 * features-render: struct pd_features as the text `perf report --header-only [-I]` prints
 * (perf 6.1's perf_header__fprintf and the print_* functions of header.c), into a strbuf.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "lib/base/strbuf.h"
#include "lib/data/features.h"
#include "lib/data/reader.h"

struct bit_name {
	uint64_t bit;
	const char *name;
};

/* In perf's order (perf_event_attr_fprintf.c), which is not bit order. */
static const struct bit_name sample_bits[] = {
	{ PERF_SAMPLE_IP, "IP" },
	{ PERF_SAMPLE_TID, "TID" },
	{ PERF_SAMPLE_TIME, "TIME" },
	{ PERF_SAMPLE_ADDR, "ADDR" },
	{ PERF_SAMPLE_READ, "READ" },
	{ PERF_SAMPLE_CALLCHAIN, "CALLCHAIN" },
	{ PERF_SAMPLE_ID, "ID" },
	{ PERF_SAMPLE_CPU, "CPU" },
	{ PERF_SAMPLE_PERIOD, "PERIOD" },
	{ PERF_SAMPLE_STREAM_ID, "STREAM_ID" },
	{ PERF_SAMPLE_RAW, "RAW" },
	{ PERF_SAMPLE_BRANCH_STACK, "BRANCH_STACK" },
	{ PERF_SAMPLE_REGS_USER, "REGS_USER" },
	{ PERF_SAMPLE_STACK_USER, "STACK_USER" },
	{ PERF_SAMPLE_IDENTIFIER, "IDENTIFIER" },
	{ PERF_SAMPLE_REGS_INTR, "REGS_INTR" },
	{ PERF_SAMPLE_DATA_SRC, "DATA_SRC" },
	{ PERF_SAMPLE_WEIGHT, "WEIGHT" },
	{ PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR" },
	{ PERF_SAMPLE_AUX, "AUX" },
	{ PERF_SAMPLE_CGROUP, "CGROUP" },
	{ PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE" },
	{ PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE" },
	{ PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT" },
	{ 0, NULL },
};

static const struct bit_name read_bits[] = {
	{ PERF_FORMAT_TOTAL_TIME_ENABLED, "TOTAL_TIME_ENABLED" },
	{ PERF_FORMAT_TOTAL_TIME_RUNNING, "TOTAL_TIME_RUNNING" },
	{ PERF_FORMAT_ID, "ID" },
	{ PERF_FORMAT_GROUP, "GROUP" },
	{ PERF_FORMAT_LOST, "LOST" },
	{ 0, NULL },
};

static const struct bit_name branch_bits[] = {
	{ PERF_SAMPLE_BRANCH_USER, "USER" },
	{ PERF_SAMPLE_BRANCH_KERNEL, "KERNEL" },
	{ PERF_SAMPLE_BRANCH_HV, "HV" },
	{ PERF_SAMPLE_BRANCH_ANY, "ANY" },
	{ PERF_SAMPLE_BRANCH_ANY_CALL, "ANY_CALL" },
	{ PERF_SAMPLE_BRANCH_ANY_RETURN, "ANY_RETURN" },
	{ PERF_SAMPLE_BRANCH_IND_CALL, "IND_CALL" },
	{ PERF_SAMPLE_BRANCH_ABORT_TX, "ABORT_TX" },
	{ PERF_SAMPLE_BRANCH_IN_TX, "IN_TX" },
	{ PERF_SAMPLE_BRANCH_NO_TX, "NO_TX" },
	{ PERF_SAMPLE_BRANCH_COND, "COND" },
	{ PERF_SAMPLE_BRANCH_CALL_STACK, "CALL_STACK" },
	{ PERF_SAMPLE_BRANCH_IND_JUMP, "IND_JUMP" },
	{ PERF_SAMPLE_BRANCH_CALL, "CALL" },
	{ PERF_SAMPLE_BRANCH_NO_FLAGS, "NO_FLAGS" },
	{ PERF_SAMPLE_BRANCH_NO_CYCLES, "NO_CYCLES" },
	{ PERF_SAMPLE_BRANCH_TYPE_SAVE, "TYPE_SAVE" },
	{ PERF_SAMPLE_BRANCH_HW_INDEX, "HW_INDEX" },
	{ 0, NULL },
};

static int add_bits(struct strbuf *sb, const char *eq, const char *field, uint64_t v,
		    const struct bit_name *b)
{
	bool first = true;
	int err = 0;

	if (!v)
		return 0;
	err |= strbuf_addf(sb, ", %s%s", field, eq);
	for (; b->name; b++) {
		if (!(v & b->bit))
			continue;
		err |= strbuf_addf(sb, "%s%s", first ? "" : "|", b->name);
		first = false;
	}
	return err;
}

static int add_u(struct strbuf *sb, const char *eq, const char *field, uint64_t v)
{
	return v ? strbuf_addf(sb, ", %s%s%" PRIu64, field, eq, v) : 0;
}

static int add_x(struct strbuf *sb, const char *eq, const char *field, uint64_t v)
{
	return v ? strbuf_addf(sb, ", %s%s%#" PRIx64, field, eq, v) : 0;
}

int pd_attr_render(const struct perf_event_attr *a, struct strbuf *sb)
{
	return pd_attr_render_as(a, " = ", sb);
}

int pd_attr_render_as(const struct perf_event_attr *a, const char *eq, struct strbuf *sb)
{
	int err = 0;

	err |= add_u(sb, eq, "type", a->type);
	err |= add_u(sb, eq, "size", a->size);
	err |= add_x(sb, eq, "config", a->config);
	err |= add_u(sb, eq, "{ sample_period, sample_freq }", a->sample_period);
	err |= add_bits(sb, eq, "sample_type", a->sample_type, sample_bits);
	err |= add_bits(sb, eq, "read_format", a->read_format, read_bits);
#define F(name) (err |= add_u(sb, eq, #name, a->name))
	F(disabled);
	F(inherit);
	F(pinned);
	F(exclusive);
	F(exclude_user);
	F(exclude_kernel);
	F(exclude_hv);
	F(exclude_idle);
	F(mmap);
	F(comm);
	F(freq);
	F(inherit_stat);
	F(enable_on_exec);
	F(task);
	F(watermark);
	F(precise_ip);
	F(mmap_data);
	F(sample_id_all);
	F(exclude_host);
	F(exclude_guest);
	F(exclude_callchain_kernel);
	F(exclude_callchain_user);
	F(mmap2);
	F(comm_exec);
	F(use_clockid);
	F(context_switch);
	F(write_backward);
	F(namespaces);
	F(ksymbol);
	F(bpf_event);
	F(aux_output);
	F(cgroup);
	F(text_poke);
	F(build_id);
	F(inherit_thread);
	F(remove_on_exec);
	F(sigtrap);
	err |= add_u(sb, eq, "{ wakeup_events, wakeup_watermark }", a->wakeup_events);
	F(bp_type);
	err |= add_x(sb, eq, "{ bp_addr, config1 }", a->bp_addr);
	err |= add_x(sb, eq, "{ bp_len, config2 }", a->bp_len);
	err |= add_bits(sb, eq, "branch_sample_type", a->branch_sample_type, branch_bits);
	err |= add_x(sb, eq, "sample_regs_user", a->sample_regs_user);
	F(sample_stack_user);
	if (a->clockid)
		err |= strbuf_addf(sb, ", clockid%s%d", eq, a->clockid);
	err |= add_x(sb, eq, "sample_regs_intr", a->sample_regs_intr);
	F(aux_watermark);
	F(sample_max_stack);
	F(aux_sample_size);
	F(sig_data);
#undef F
	return err ? -ENOMEM : 0;
}

static int render_events(struct perf_data *pd, const struct pd_features *f, struct strbuf *sb)
{
	uint32_t i, j;
	int err = 0;

	for (i = 0; i < f->nr_events; i++) {
		const struct pd_feat_event *e = &f->events[i];

		err |= strbuf_addf(sb, "# event : name = %s, ", e->name);
		if (e->nr_ids) {
			err |= strbuf_adds(sb, ", id = {");
			for (j = 0; j < e->nr_ids; j++)
				err |= strbuf_addf(sb, "%s %" PRIu64, j ? "," : "", e->ids[j]);
			err |= strbuf_adds(sb, " }");
		}
		err |= pd_attr_render(&e->attr, sb);
		err |= strbuf_addch(sb, '\n');
	}
	return err;
}

static int render_topology(const struct pd_features *f, struct strbuf *sb)
{
	uint32_t i;
	int err = 0;

	for (i = 0; i < f->nr_core_siblings; i++)
		err |= strbuf_addf(sb, "# sibling sockets : %s\n", f->core_siblings[i]);
	for (i = 0; i < f->nr_die_siblings; i++)
		err |= strbuf_addf(sb, "# sibling dies    : %s\n", f->die_siblings[i]);
	for (i = 0; i < f->nr_thread_siblings; i++)
		err |= strbuf_addf(sb, "# sibling threads : %s\n", f->thread_siblings[i]);
	if (!f->cpus)
		return err |
		       strbuf_addf(sb, "# Core ID%s and Socket ID information is not available\n",
				   f->nr_die_siblings ? ", Die ID" : "");
	for (i = 0; i < f->nr_cpus; i++) {
		if (f->nr_die_siblings)
			err |= strbuf_addf(sb, "# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n", i,
					   (int)f->cpus[i].core_id, (int)f->cpus[i].die_id,
					   (int)f->cpus[i].socket_id);
		else
			err |= strbuf_addf(sb, "# CPU %u: Core ID %d, Socket ID %d\n", i,
					   (int)f->cpus[i].core_id, (int)f->cpus[i].socket_id);
	}
	return err;
}

static int render_numa_cache(int feat, const struct pd_features *f, struct strbuf *sb)
{
	uint32_t i;
	int err = 0;

	if (feat == FEAT_NUMA_TOPOLOGY) {
		for (i = 0; i < f->nr_numa; i++) {
			err |= strbuf_addf(sb,
					   "# node%u meminfo  : total = %" PRIu64
					   " kB, free = %" PRIu64 " kB\n",
					   f->numa[i].node, f->numa[i].mem_total,
					   f->numa[i].mem_free);
			err |= strbuf_addf(sb, "# node%u cpu list : %s\n", f->numa[i].node,
					   f->numa[i].cpus);
		}
		return err;
	}
	err |= strbuf_adds(sb, "# CPU cache info:\n");
	for (i = 0; i < f->nr_caches; i++)
		err |= strbuf_addf(sb, "#  L%d %-15s %8s [%s]\n", (int)f->caches[i].level,
				   f->caches[i].type, f->caches[i].size, f->caches[i].map);
	return err;
}

static int render_mem(const struct pd_features *f, struct strbuf *sb)
{
	static const char units[] = "BKMG";
	uint32_t i;
	int err;

	err = strbuf_addf(sb, "# memory nodes (nr %u, block size %#" PRIx64 "):\n", f->nr_mem_nodes,
			  f->mem_block_size);
	for (i = 0; i < f->nr_mem_nodes; i++) {
		uint64_t n = f->mem_nodes[i].size * f->mem_block_size;
		int u = 0;

		while (n / 1024 > 1 && u < 3) {
			n /= 1024;
			u++;
		}
		err |= strbuf_addf(sb, "#  %3" PRIu64 " [%" PRIu64 "%c]: %s\n",
				   f->mem_nodes[i].node, n, units[u], f->mem_nodes[i].blocks);
	}
	return err;
}

static int render_groups(struct perf_data *pd, const struct pd_features *f, struct strbuf *sb)
{
	uint32_t i, j;
	int err = 0;

	for (i = 0; i < f->nr_groups; i++) {
		const struct pd_feat_group *g = &f->groups[i];

		if (g->nr_members < 2 || g->leader_idx >= pd->nr_attrs)
			continue;
		err |= strbuf_addf(sb, "# group: %s{",
				   strcmp(g->name, "{anon_group}") ? g->name : "");
		for (j = 0; j < g->nr_members && g->leader_idx + j < pd->nr_attrs; j++)
			err |= strbuf_addf(sb, "%s%s", j ? "," : "",
					   pd->attrs[g->leader_idx + j].name);
		err |= strbuf_adds(sb, "}\n");
	}
	return err;
}

static int render_simple(int feat, const struct pd_features *f, struct strbuf *sb)
{
	uint32_t i;
	int err = 0;

	switch (feat) {
	case FEAT_HOSTNAME:
		return strbuf_addf(sb, "# hostname : %s\n", f->hostname);
	case FEAT_OSRELEASE:
		return strbuf_addf(sb, "# os release : %s\n", f->osrelease);
	case FEAT_VERSION:
		return strbuf_addf(sb, "# perf version : %s\n", f->version);
	case FEAT_ARCH:
		return strbuf_addf(sb, "# arch : %s\n", f->arch);
	case FEAT_CPUDESC:
		return strbuf_addf(sb, "# cpudesc : %s\n", f->cpudesc);
	case FEAT_CPUID:
		return strbuf_addf(sb, "# cpuid : %s\n", f->cpuid);
	case FEAT_NRCPUS:
		return strbuf_addf(sb, "# nrcpus online : %u\n# nrcpus avail : %u\n",
				   f->nr_cpus_online, f->nr_cpus_avail);
	case FEAT_TOTAL_MEM:
		return strbuf_addf(sb, "# total memory : %" PRIu64 " kB\n", f->total_mem);
	case FEAT_CMDLINE:
		err |= strbuf_adds(sb, "# cmdline : ");
		for (i = 0; i < f->nr_cmdline; i++)
			err |= strbuf_addf(sb, "%s ", f->cmdline[i]);
		return err | strbuf_addch(sb, '\n');
	case FEAT_PMU_MAPPINGS:
		err |= strbuf_adds(sb, "# pmu mappings: ");
		for (i = 0; i < f->nr_pmus; i++)
			err |= strbuf_addf(sb, "%s%s = %u", i ? ", " : "", f->pmus[i].name,
					   f->pmus[i].type);
		err |= strbuf_addch(sb, '\n');
		if (!f->nr_pmus)
			err |= strbuf_adds(sb, "# pmu mappings: unable to read\n");
		return err;
	case FEAT_BRANCH_STACK:
		return strbuf_adds(sb, "# contains samples with branch stack\n");
	case FEAT_AUXTRACE:
		return strbuf_adds(sb, "# contains AUX area data (e.g. instruction trace)\n");
	case FEAT_STAT:
		return strbuf_adds(sb, "# contains stat data\n");
	case FEAT_SAMPLE_TIME:
		return strbuf_addf(sb,
				   "# time of first sample : %" PRIu64 ".%06" PRIu64 "\n"
				   "# time of last sample : %" PRIu64 ".%06" PRIu64 "\n"
				   "# sample duration : %10.3f ms\n",
				   f->first_sample_time / 1000000000,
				   f->first_sample_time % 1000000000 / 1000,
				   f->last_sample_time / 1000000000,
				   f->last_sample_time % 1000000000 / 1000,
				   (double)(f->last_sample_time - f->first_sample_time) / 1e6);
	case FEAT_CLOCKID:
		return strbuf_addf(sb, "# clockid frequency: %" PRIu64 " MHz\n",
				   f->clockid_res_ns * 1000);
	case FEAT_DIR_FORMAT:
		return strbuf_addf(sb, "# directory data version : %" PRIu64 "\n", f->dir_format);
	case FEAT_COMPRESSED:
		return strbuf_addf(sb, "# compressed : %s, level = %u, ratio = %u\n",
				   f->comp_type == 1 ? "Zstd" : "Unknown", f->comp_level,
				   f->comp_ratio);
	}
	return 0;
}

static bool full_only(int feat)
{
	return feat == FEAT_CPU_TOPOLOGY || feat == FEAT_NUMA_TOPOLOGY || feat == FEAT_CACHE ||
	       feat == FEAT_MEM_TOPOLOGY || feat == FEAT_HYBRID_TOPOLOGY;
}

static int render_feature(struct perf_data *pd, int feat, const struct pd_features *f, bool full,
			  struct strbuf *sb)
{
	if (full_only(feat) && !full)
		return strbuf_addf(sb, "# %s info available, use -I to display\n",
				   pd_feature_name(feat));
	switch (feat) {
	case FEAT_EVENT_DESC:
		return render_events(pd, f, sb);
	case FEAT_CPU_TOPOLOGY:
		return render_topology(f, sb);
	case FEAT_NUMA_TOPOLOGY:
	case FEAT_CACHE:
		return render_numa_cache(feat, f, sb);
	case FEAT_MEM_TOPOLOGY:
		return render_mem(f, sb);
	case FEAT_GROUP_DESC:
		return render_groups(pd, f, sb);
	}
	return render_simple(feat, f, sb);
}

int pd_features_render(struct perf_data *pd, const struct pd_features *f, bool full,
		       struct strbuf *sb)
{
	time_t mt = perf_data_mtime(pd);
	int feat, err = 0;
	char tbuf[64];

	err |= strbuf_adds(sb, "# ========\n");
	if (mt && ctime_r(&mt, tbuf))
		err |= strbuf_addf(sb, "# captured on    : %s", tbuf);
	err |= strbuf_adds(sb, "# header version : 1\n");
	err |= strbuf_addf(sb, "# data offset    : %" PRIu64 "\n",
			   pd->is_pipe ? 0 : pd->data_offset);
	err |= strbuf_addf(sb, "# data size      : %" PRIu64 "\n", pd->is_pipe ? 0 : pd->data_size);
	err |= strbuf_addf(sb, "# feat offset    : %" PRIu64 "\n",
			   pd->is_pipe ? 0 : pd->data_offset + pd->data_size);
	if (pd->is_pipe)
		err |= strbuf_adds(sb, "# ========\n#\n");
	for (feat = 1; feat < FEAT_LAST; feat++)
		if (perf_data_has_feature(pd, feat))
			err |= render_feature(pd, feat, f, full, sb);
	if (pd->is_pipe)
		return err ? -ENOMEM : 0;
	err |= strbuf_adds(sb, "# missing features: ");
	for (feat = 1; feat < FEAT_LAST; feat++)
		if (!(pd->header.features[feat / 64] & (1ULL << (feat % 64))))
			err |= strbuf_addf(sb, "%s ", pd_feature_name(feat));
	err |= strbuf_adds(sb, "\n# ========\n");
	return err ? -ENOMEM : 0;
}

int pd_header_render(struct perf_data *pd, bool full, struct strbuf *sb)
{
	struct pd_features *f = NULL;
	int err;

	err = pd_features_read(pd, &f);
	if (!err)
		err = pd_features_render(pd, f, full, sb);
	if (!err && !pd->is_pipe && strbuf_adds(sb, "#\n"))
		err = -ENOMEM;
	pd_features_free(f);
	return err;
}
