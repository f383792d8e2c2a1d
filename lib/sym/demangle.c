// SPDX-License-Identifier: GPL-2.0
/*
 * demangle: C++ (Itanium ABI) and Rust (legacy and v0) names through libiberty's
 * cplus_demangle(), the demangler perf 6.1 is built with, called with the options perf uses
 * (none: no parameter lists, no Rust hashes). So "_ZN2ns1WIlE4spinEl" prints as
 * "ns::W<long>::spin" and "_RNvMNtCs...5inner...4spin" as "<r::inner::S<u32>>::spin".
 */
#include <stdlib.h>
#include <libiberty/demangle.h>
#include "lib/sym/sym-int.h"

char *sym_demangle(const char *name)
{
	/* Itanium C++ and legacy Rust start with _Z, Rust v0 with _R: skip everything else */
	if (name[0] != '_' || (name[1] != 'Z' && name[1] != 'R'))
		return NULL;
	return cplus_demangle(name, DMGL_NO_OPTS);
}
