// SPDX-License-Identifier: GPL-2.0
/*
 * flare version: the version, and with --build-options the libraries this binary was built
 * with, in perf version --build-options' layout ("%22s: [ on  ]  # ...").
 */
#include <stdio.h>
#include <string.h>
#include "cli/cmds.h"
#include "cli/opt.h"

#ifndef FLARE_BUILD_LIBS
#define FLARE_BUILD_LIBS ""
#endif

/* What each library gives flare, for the comment column. */
static const struct {
	const char *lib, *what;
} lib_use[] = {
	{ "libelf", "ELF symbol tables and build-ids" },
	{ "libdw", "DWARF: unwinding, source lines, probe arguments" },
	{ "libtraceevent", "tracepoint formats and fields" },
	{ "libtracefs", "tracefs control: probes, ftrace" },
	{ "capstone", "disassembly (annotate)" },
	{ "libzstd", "record -z compression" },
	{ "libbpf", "in-kernel syscall tracing and counting" },
	{ "ncursesw", "terminal browser" },
};

static const char *use_of(const char *lib, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(lib_use) / sizeof(lib_use[0]); i++)
		if (strlen(lib_use[i].lib) == len && !strncmp(lib_use[i].lib, lib, len))
			return lib_use[i].what;
	return "";
}

/* FLARE_BUILD_LIBS is "name:version name:version ...", made by the Makefile from pkg-config. */
static void print_build_options(void)
{
	const char *p = FLARE_BUILD_LIBS;

	while (*p) {
		size_t n = strcspn(p, " "), name = strcspn(p, ":");
		char label[64];

		if (name > n)
			name = n;
		snprintf(label, sizeof(label), "%.*s", (int)name, p);
		printf("%22s: [ on  ]  # %.*s %s\n", label, (int)(n - name - (name < n)),
		       p + name + (name < n), use_of(p, name));
		p += n;
		p += strspn(p, " ");
	}
	printf("%22s: [ on  ]  # %s\n", "libiberty", "C++ and Rust demangling");
}

int cmd_version(int argc, char **argv)
{
	static const char *const usage[] = { "flare version [<options>]", NULL };
	int build_options = 0;
	const struct opt opts[] = {
		OPT_BOOL(0, "build-options", &build_options, "display the build options"),
		OPT_END(),
	};

	argc = opt_parse(argc, argv, opts, usage, 0);
	if (argc > 0)
		opt_usage_error(opts, usage, "unexpected argument '%s'", argv[0]);
	printf("flare version %s (%s)\n", FLARE_VERSION, FLARE_GITREV);
	if (build_options)
		print_build_options();
	return 0;
}
