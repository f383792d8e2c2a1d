// SPDX-License-Identifier: GPL-2.0
/*
 * unwind: DWARF unwinding of user stacks with libdwfl (see unwind.h).
 *
 * Each address space gets a Dwfl attached to callbacks that read the current sample: the
 * registers come from REGS_USER, memory from the STACK_USER copy. Objects are reported
 * lazily, when a frame's pc first falls in them, at the load bias the session's maps give.
 * A Dwfl whose module no longer matches the maps (exec, munmap and a new mapping there) is
 * thrown away and rebuilt. At most SPACES_MAX Dwfls are kept; the least recently used goes:
 * each holds its objects' files open, and a system-wide recording has thousands of processes
 * (under the usual limit of 1024 open files, with room for the symbol tables' own).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gelf.h>
#include <elfutils/libdwfl.h>
#include <linux/perf_event.h>
#include "lib/base/hashmap.h"
#include "lib/base/log.h"
#include "lib/sym/sym-int.h"
#include "lib/unwind/unwind.h"

#define SPACES_MAX 64
#define NR_DWARF_REGS 17

/* perf's x86_64 register numbers (PERF_REG_X86_*) of DWARF registers 0..16. */
static const uint8_t dwarf_to_perf[NR_DWARF_REGS] = {
	0,				/* rax */
	3,				/* rdx */
	2,				/* rcx */
	1,				/* rbx */
	4,				/* rsi */
	5,				/* rdi */
	6,				/* rbp */
	7,				/* rsp */
	16, 17, 18, 19, 20, 21, 22, 23, /* r8..r15 */
	8,				/* rip */
};
#define PERF_REG_SP 7
#define PERF_REG_IP 8

/* What the unwinder learnt of a dso, once. */
struct dso_info {
	char *path;	 /* the ELF file read for it; NULL: none usable */
	int debug_frame; /* its separate debug info has .debug_frame: 1, 0, -1 unknown */
};

/* What a reported module stands for: checked against the maps before it is trusted. */
struct mod_tag {
	struct dso *dso;
	struct dso_info *info;
	struct space *space; /* whose Dwfl the module is in */
	uint64_t start;
	struct mod_tag *next;
};

struct space {
	const void *key;
	Dwfl *dwfl;
	struct unwinder *u;
	uint64_t last_use;
	struct mod_tag *tags;
	bool attached;
	bool stale; /* a module disagrees with the maps: rebuild */
	/* the sample being unwound */
	const struct perf_sample *s;
	uint64_t sp;
	unwind_find_map_cb find;
	void *ctx;
	bool mem_fail, no_map, no_file;
	uint64_t *ips;
	size_t n, max;
};

struct unwinder {
	struct symtab *st;
	struct hashmap spaces; /* key pointer -> struct space */
	struct hashmap dsos;   /* dso pointer -> struct dso_info */
	uint64_t clock;
	struct unwind_stats stats;
	char *debuginfo_path;
	Dwfl_Callbacks cbs;
	/* An ELF header naming x86_64, for dwfl_attach_state(): the architecture then belongs to
	 * the Dwfl, not to a module libdwfl may drop when a report overlaps it. */
	Elf64_Ehdr arch_hdr;
	Elf *arch_elf;
};

static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			  const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name);

int unwinder_new(struct symtab *st, struct unwinder **ret)
{
	struct unwinder *u = calloc(1, sizeof(*u));

	*ret = NULL;
	if (!u)
		return -ENOMEM;
	u->st = st;
	u->cbs.find_debuginfo = find_debuginfo;
	u->cbs.debuginfo_path = &u->debuginfo_path;
	u->cbs.section_address = dwfl_offline_section_address;
	memcpy(u->arch_hdr.e_ident, ELFMAG, SELFMAG);
	u->arch_hdr.e_ident[EI_CLASS] = ELFCLASS64;
	u->arch_hdr.e_ident[EI_DATA] = ELFDATA2LSB;
	u->arch_hdr.e_ident[EI_VERSION] = EV_CURRENT;
	u->arch_hdr.e_type = ET_EXEC;
	u->arch_hdr.e_machine = EM_X86_64;
	u->arch_hdr.e_version = EV_CURRENT;
	u->arch_hdr.e_ehsize = sizeof(u->arch_hdr);
	elf_version(EV_CURRENT);
	u->arch_elf = elf_memory((char *)&u->arch_hdr, sizeof(u->arch_hdr));
	if (!u->arch_elf) {
		free(u);
		return -ENOMEM;
	}
	*ret = u;
	return 0;
}

static void space_release(struct space *sp)
{
	struct mod_tag *t, *next;

	if (sp->dwfl)
		dwfl_end(sp->dwfl);
	sp->dwfl = NULL;
	sp->attached = false;
	sp->stale = false;
	for (t = sp->tags; t; t = next) {
		next = t->next;
		free(t);
	}
	sp->tags = NULL;
}

void unwinder_free(struct unwinder *u)
{
	uint64_t k;
	void *v;
	size_t i;

	if (!u)
		return;
	for (i = 0; hashmap_next(&u->spaces, &i, &k, &v);) {
		space_release(v);
		free(v);
	}
	for (i = 0; hashmap_next(&u->dsos, &i, &k, &v);) {
		free(((struct dso_info *)v)->path);
		free(v);
	}
	hashmap_release(&u->spaces);
	hashmap_release(&u->dsos);
	elf_end(u->arch_elf);
	free(u);
}

const struct unwind_stats *unwinder_stats(const struct unwinder *u)
{
	return &u->stats;
}

const char *unwind_stop_str(enum unwind_stop why)
{
	static const char *const s[UNWIND__NR] = {
		[UNWIND_DONE] = "complete",
		[UNWIND_MAX_STACK] = "--max-stack reached",
		[UNWIND_NO_REGS] = "no user registers",
		[UNWIND_STACK_END] = "stack copy too short",
		[UNWIND_NO_MAP] = "address outside the known maps",
		[UNWIND_NO_CFI] = "no unwind info",
	};

	return why < UNWIND__NR ? s[why] : "?";
}

static bool stop_is_early(enum unwind_stop why)
{
	return why == UNWIND_STACK_END || why == UNWIND_NO_MAP || why == UNWIND_NO_CFI;
}

int unwind_stats_summary(const struct unwind_stats *st, char *buf, size_t len)
{
	uint64_t early = 0;
	size_t pos;
	int i, n;

	if (len)
		buf[0] = '\0';
	if (!st)
		return 0;
	for (i = 0; i < UNWIND__NR; i++)
		if (stop_is_early((enum unwind_stop)i))
			early += st->stops[i];
	if (!early || !len)
		return 0;
	n = snprintf(buf, len, "%llu of %llu user stacks end early:", (unsigned long long)early,
		     (unsigned long long)st->samples);
	for (i = 0; i < UNWIND__NR && n > 0 && (size_t)n < len; i++) {
		if (!stop_is_early((enum unwind_stop)i) || !st->stops[i])
			continue;
		pos = (size_t)n;
		n += snprintf(buf + pos, len - pos, "%s %llu %s",
			      pos && buf[pos - 1] == ':' ? "" : ",",
			      (unsigned long long)st->stops[i],
			      unwind_stop_str((enum unwind_stop)i));
	}
	return n;
}

/* The value of perf register r in the sample, if recorded. */
static bool sample_reg(const struct perf_sample *s, unsigned int r, uint64_t *val)
{
	uint64_t below;

	if (!(s->user_regs_mask & (1ULL << r)))
		return false;
	below = s->user_regs_mask & ((1ULL << r) - 1);
	*val = s->user_regs[__builtin_popcountll(below)];
	return true;
}

bool unwind_sample_has_stack(const struct perf_sample *s)
{
	uint64_t v;

	return s->user_regs && s->user_abi == PERF_SAMPLE_REGS_ABI_64 && s->user_stack &&
	       s->user_stack_size && sample_reg(s, PERF_REG_IP, &v) &&
	       sample_reg(s, PERF_REG_SP, &v);
}

/* ---- the object files ---- */

/* The file whose CFI describes dso as recorded: the mapped path when its build-id matches
 * the recording's (or either is unknown), else perf's build-id cache copy. Looked up once
 * per dso; NULL only without memory. */
static struct dso_info *dso_info(struct unwinder *u, struct dso *dso)
{
	char buf[4096];
	const char *res;
	struct dso_info *info;
	void **slot = hashmap_slot(&u->dsos, (uint64_t)(uintptr_t)dso);

	if (!slot)
		return NULL;
	if (*slot)
		return *slot;
	info = calloc(1, sizeof(*info));
	if (!info)
		return NULL;
	info->debug_frame = -1;
	res = dso_elf_path(u->st, dso, buf, sizeof(buf));
	if (res && !(info->path = strdup(res))) {
		free(info);
		return NULL;
	}
	*slot = info;
	return info;
}

static bool at_entry_point(struct space *sp);

static bool elf_fd_has_section(int fd, const char *want)
{
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	Elf_Scn *scn = NULL;
	bool found = false;
	size_t shstrndx;
	GElf_Shdr sh;
	const char *name;

	if (elf && !elf_getshdrstrndx(elf, &shstrndx)) {
		while (!found && (scn = elf_nextscn(elf, scn))) {
			if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
				continue;
			name = elf_strptr(elf, shstrndx, sh.sh_name);
			found = name && !strcmp(name, want);
		}
	}
	elf_end(elf);
	return found;
}

/*
 * libdwfl asks for separate debug info (by build-id, .gnu_debuglink) when a pc of the module
 * has no .eh_frame entry, for its .debug_frame. It is looked for unless the pc is a thread's
 * first frame (ld.so's _start has no CFI) or the object's debug file turned out to have no
 * .debug_frame (distributions' debug files carry none): libdwfl would otherwise open, and
 * decompress the DWARF of, libc's or ld.so's debug file in every process, for nothing.
 */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			  const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	struct mod_tag *tag = *userdata;
	int fd;

	if (tag && tag->info && tag->info->debug_frame == 0)
		return -1;
	if (tag && tag->space && tag->space->s && at_entry_point(tag->space))
		return -1;
	fd = dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
					  debuglink_crc, debuginfo_file_name);
	if (fd < 0 || !tag || !tag->info || tag->info->debug_frame == 1)
		return fd;
	tag->info->debug_frame = elf_fd_has_section(fd, ".debug_frame");
	if (tag->info->debug_frame)
		return fd;
	close(fd);
	free(*debuginfo_file_name);
	*debuginfo_file_name = NULL;
	return -1;
}

/* Makes sure the object mapped at pc is reported and still the one the maps say. */
static void report_module(struct space *sp, uint64_t pc)
{
	Dwfl_Module *mod = dwfl_addrmodule(sp->dwfl, pc);
	struct unwind_map m;
	struct dso_info *info;
	struct mod_tag *tag;
	void **ud;
	uint64_t bias;

	if (!sp->find(sp->ctx, pc, &m) || !m.dso) {
		sp->no_map = true;
		return;
	}
	if (mod) {
		dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL);
		tag = *ud;
		if (!tag || tag->dso != m.dso)
			sp->stale = true;
		return;
	}
	if (m.dso->kind != DSO_USER) {
		sp->no_file = true;
		return;
	}
	info = dso_info(sp->u, m.dso);
	if (!info || !info->path) {
		sp->no_file = true;
		return;
	}
	tag = calloc(1, sizeof(*tag));
	if (!tag)
		return;
	bias = m.start - dso_map_ip(sp->u->st, m.dso, m.start, m.pgoff, m.start);
	dwfl_report_begin_add(sp->dwfl);
	mod = dwfl_report_elf(sp->dwfl, m.dso->long_name, info->path, -1, bias, true);
	dwfl_report_end(sp->dwfl, NULL, NULL);
	if (!mod) {
		log_debug("unwind: %s: %s", info->path, dwfl_errmsg(-1));
		sp->no_file = true;
		free(tag);
		return;
	}
	tag->dso = m.dso;
	tag->info = info;
	tag->space = sp;
	tag->start = m.start;
	tag->next = sp->tags;
	sp->tags = tag;
	dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL);
	*ud = tag;
}

/* ---- libdwfl's view of the sample ---- */

static pid_t cb_next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct space *sp = arg;

	if (*thread_argp)
		return 0;
	*thread_argp = sp;
	return sp->s->tid > 0 ? (pid_t)sp->s->tid : 1;
}

static bool cb_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct space *sp = arg;
	uint64_t size = sp->s->user_stack_size;

	if (addr >= sp->sp && addr - sp->sp <= size && size - (addr - sp->sp) >= 8) {
		memcpy(result, (const uint8_t *)sp->s->user_stack + (addr - sp->sp), 8);
		return true;
	}
	if (addr >= sp->sp)
		sp->mem_fail = true; /* beyond the copy: the stack was truncated */
	return false;
}

static bool cb_set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct space *sp = arg;
	Dwarf_Word v;
	int i;

	for (i = 0; i < NR_DWARF_REGS; i++)
		if (sample_reg(sp->s, dwarf_to_perf[i], &v) &&
		    !dwfl_thread_state_registers(thread, i, 1, &v))
			return false;
	return true;
}

static const Dwfl_Thread_Callbacks thread_cbs = {
	.next_thread = cb_next_thread,
	.memory_read = cb_memory_read,
	.set_initial_registers = cb_set_initial_registers,
};

static int cb_frame(Dwfl_Frame *state, void *arg)
{
	struct space *sp = arg;
	Dwarf_Addr pc;
	bool act;

	if (!dwfl_frame_pc(state, &pc, &act) || !pc)
		return DWARF_CB_ABORT;
	report_module(sp, pc);
	if (sp->stale)
		return DWARF_CB_ABORT;
	/* a caller's pc is its return address: perf names the call instruction, one before */
	sp->ips[sp->n++] = act ? pc : pc - 1;
	return sp->n < sp->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

/* ---- address spaces ---- */

static void evict_oldest(struct unwinder *u)
{
	struct space *old = NULL;
	uint64_t k;
	void *v;
	size_t i;

	for (i = 0; hashmap_next(&u->spaces, &i, &k, &v);)
		if (!old || ((struct space *)v)->last_use < old->last_use)
			old = v;
	if (!old)
		return;
	hashmap_del(&u->spaces, (uint64_t)(uintptr_t)old->key);
	space_release(old);
	free(old);
}

static struct space *space_get(struct unwinder *u, const void *key)
{
	void *v;
	struct space *sp;

	if (hashmap_get(&u->spaces, (uint64_t)(uintptr_t)key, &v))
		sp = v;
	else {
		if (u->spaces.nr >= SPACES_MAX)
			evict_oldest(u);
		sp = calloc(1, sizeof(*sp));
		if (!sp || hashmap_put(&u->spaces, (uint64_t)(uintptr_t)key, sp)) {
			free(sp);
			return NULL;
		}
		sp->key = key;
		sp->u = u;
	}
	sp->last_use = ++u->clock;
	if (!sp->dwfl)
		sp->dwfl = dwfl_begin(&u->cbs);
	return sp->dwfl ? sp : NULL;
}

/* The last frame is a thread's first (ld.so's _start has no CFI saying so), by the
 * session's symbols: libdwfl's would read the separate debug info of each object again. */
static bool at_entry_point(struct space *sp)
{
	static const char *const entries[] = { "_start",  "_dl_start_user", "__clone3",	   "clone3",
					       "__clone", "clone",	    "thread_start" };
	uint64_t pc = sp->n ? sp->ips[sp->n - 1] : 0;
	const struct symbol *sym = NULL;
	struct unwind_map m;
	size_t i;

	if (pc && sp->find(sp->ctx, pc, &m) && m.dso)
		sym = dso_find_symbol(sp->u->st, m.dso,
				      dso_map_ip(sp->u->st, m.dso, m.start, m.pgoff, pc));
	for (i = 0; sym && i < sizeof(entries) / sizeof(entries[0]); i++)
		if (!strcmp(sym->name, entries[i]))
			return true;
	return false;
}

/* One attempt; false when the Dwfl turned out stale and must be rebuilt. */
static bool unwind_once(struct space *sp, uint64_t ip, enum unwind_stop *why)
{
	int ret;

	sp->n = 0;
	sp->mem_fail = sp->no_map = sp->no_file = false;
	report_module(sp, ip);
	if (sp->stale)
		return false;
	if (!sp->attached) {
		if (!sp->tags) {
			*why = sp->no_map ? UNWIND_NO_MAP : UNWIND_NO_CFI;
			return true;
		}
		if (!dwfl_attach_state(sp->dwfl, sp->u->arch_elf, 1, &thread_cbs, sp)) {
			log_debug("unwind: attach: %s", dwfl_errmsg(-1));
			*why = UNWIND_NO_CFI;
			return true;
		}
		sp->attached = true;
	}
	ret = dwfl_getthread_frames(sp->dwfl, sp->s->tid > 0 ? (pid_t)sp->s->tid : 1, cb_frame, sp);
	if (sp->stale)
		return false;
	/* libdwfl ends a chain quietly when a return address cannot be read */
	if (sp->n >= sp->max)
		*why = UNWIND_MAX_STACK;
	else if (sp->mem_fail)
		*why = UNWIND_STACK_END;
	else if (ret == 0 || ret == DWARF_CB_ABORT || at_entry_point(sp))
		*why = UNWIND_DONE;
	else if (sp->mem_fail)
		*why = UNWIND_STACK_END;
	else if (sp->no_map)
		*why = UNWIND_NO_MAP;
	else
		*why = UNWIND_NO_CFI;
	return true;
}

size_t unwind_user(struct unwinder *u, const void *space, unwind_find_map_cb find, void *ctx,
		   const struct perf_sample *s, uint64_t *ips, size_t max, enum unwind_stop *why)
{
	enum unwind_stop stop = UNWIND_NO_REGS;
	struct space *sp;
	uint64_t ip = 0;
	int tries;

	if (!unwind_sample_has_stack(s) || !max) {
		if (why)
			*why = stop;
		return 0;
	}
	u->stats.samples++;
	stop = UNWIND_NO_CFI;
	sample_reg(s, PERF_REG_IP, &ip);
	sp = space_get(u, space);
	if (!sp) {
		ips[0] = ip;
		u->stats.stops[UNWIND_NO_CFI]++;
		if (why)
			*why = UNWIND_NO_CFI;
		return 1;
	}
	sp->s = s;
	sample_reg(s, PERF_REG_SP, &sp->sp);
	sp->find = find;
	sp->ctx = ctx;
	sp->ips = ips;
	sp->max = max;
	for (tries = 0; tries < 2; tries++) {
		if (unwind_once(sp, ip, &stop))
			break;
		space_release(sp);
		sp->dwfl = dwfl_begin(&u->cbs);
		if (!sp->dwfl) {
			sp->n = 0;
			stop = UNWIND_NO_CFI;
			break;
		}
	}
	if (!sp->n) {
		ips[0] = ip; /* the ip of the registers at least, as perf */
		sp->n = 1;
	}
	sp->s = NULL;
	u->stats.stops[stop]++;
	if (why)
		*why = stop;
	return sp->n;
}
