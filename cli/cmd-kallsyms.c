// SPDX-License-Identifier: GPL-2.0
/*
 * flare kallsyms: where kernel symbols are in the running kernel, as perf kallsyms prints it:
 * "NAME: [kernel] [kernel.kallsyms] 0xSTART-0xEND (0xSTART-0xEND)", or "NAME: not found".
 */
#include <inttypes.h>
#include <stdio.h>
#include "cli/cmds.h"
#include "cli/opt.h"
#include "cli/out.h"
#include "lib/base/err.h"
#include "lib/sym/sym.h"

static void print_symbol(struct symtab *st, const char *name)
{
	struct dso *kernel = symtab_kernel(st), *d = kernel;
	const struct symbol *sym = dso_find_symbol_by_name(st, kernel, name);
	size_t i;

	for (i = 0; !sym && (d = symtab_kernel_module_nth(st, i)); i++)
		sym = dso_find_symbol_by_name(st, d, name);
	if (!sym) {
		printf("%s: not found\n", name);
		return;
	}
	/* the kernel's symbols are at their run-time addresses: both ranges are the same */
	printf("%s: %s %s %#" PRIx64 "-%#" PRIx64 " (%#" PRIx64 "-%#" PRIx64 ")\n", sym->name,
	       d == kernel ? "[kernel]" : d->short_name, d->long_name, sym->start, sym->end,
	       sym->start, sym->end);
}

int cmd_kallsyms(int argc, char **argv)
{
	static const char *const usage[] = { "flare kallsyms [<options>] symbol_name", NULL };
	int verbose = 0;
	const struct opt opts[] = {
		OPT_COUNT('v', "verbose", &verbose,
			  "be more verbose (show counter open errors, etc)"),
		OPT_END(),
	};
	struct symtab *st;
	int i, err;

	argc = opt_parse(argc, argv, opts, usage, 0);
	if (argc < 1)
		opt_usage_exit(opts, usage, 0, 129);
	err = symtab_new("", &st);
	if (err) {
		pr_err("cannot load the kernel's symbols: %s", err_str(err));
		return 1;
	}
	if (!dso_find_symbol(st, symtab_kernel(st), 0) && !symtab_kernel(st)->has_symbols) {
		pr_err("cannot read kernel symbols from /proc/kallsyms (run as root, or set "
		       "kernel.kptr_restrict=0 and kernel.perf_event_paranoid<=1)");
		symtab_free(st);
		return 1;
	}
	for (i = 0; i < argc; i++)
		print_symbol(st, argv[i]);
	symtab_free(st);
	return 0;
}
