# flare build. Out of tree: objects go to $(BUILD) (default build/).
#   make                 build/flare and the test workloads
#   make SAN=1           build-asan/flare with AddressSanitizer + UBSan
#   make WERROR=1        warnings are errors (the test command sets it)
#   make fuzz            libFuzzer harnesses (clang) in build-fuzz/
#   make compile_commands.json   (needs bear)
#   make install         PREFIX=/usr/local DESTDIR=: binary, man pages, bash completion
SAN ?= 0
ifeq ($(SAN),1)
BUILD ?= build-asan
else
BUILD ?= build
endif
CC ?= gcc
PKGS := libelf libdw libtraceevent libtracefs capstone libzstd libbpf ncursesw
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS))
PKG_LIBS := $(shell pkg-config --libs $(PKGS))

WARN := -Wall -Wextra -Wshadow -Wformat=2 -Wstrict-prototypes -Wmissing-prototypes -Wvla \
	-Wwrite-strings -Wno-unused-parameter -Wno-missing-field-initializers
CFLAGS ?= -O2 -g
CFLAGS += -std=gnu11 -D_GNU_SOURCE -I. $(WARN) $(PKG_CFLAGS) -MMD -MP
LDLIBS += $(PKG_LIBS) -lpthread -lm
# libiberty: cplus_demangle, the C++/Rust demangler perf 6.1 uses (Debian libiberty-dev)
LDLIBS += -liberty
ifeq ($(WERROR),1)
CFLAGS += -Werror
endif
ifeq ($(SAN),1)
# float-cast-overflow is not part of gcc's "undefined": asked for where the compiler has it
SAN_FLOAT := $(shell echo | $(CC) -fsanitize=float-cast-overflow -x c -c -o /dev/null - \
	2>/dev/null && echo ,float-cast-overflow)
CFLAGS += -fsanitize=address,undefined$(SAN_FLOAT) -fno-sanitize-recover=undefined$(SAN_FLOAT) \
	-fno-omit-frame-pointer
LDFLAGS += -fsanitize=address,undefined$(SAN_FLOAT)
endif
VERSION := $(shell cat VERSION 2>/dev/null || echo 0.0.0)
GITREV := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
CFLAGS += -DFLARE_VERSION='"$(VERSION)"' -DFLARE_GITREV='"$(GITREV)"'

LIB_SRCS := $(sort $(wildcard lib/*/*.c))
CLI_SRCS := $(sort $(wildcard cli/*.c))
UNIT_SRCS := $(sort $(wildcard tests/unit/*.c))
WL_SRCS := $(sort $(wildcard tests/workloads/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/%.o)
UNIT_BINS := $(UNIT_SRCS:%.c=$(BUILD)/%)
WL_BINS := $(WL_SRCS:tests/workloads/%.c=$(BUILD)/workloads/%)

all: $(BUILD)/flare $(UNIT_BINS) $(WL_BINS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

# flare version --build-options: each library and the version it was built against
BUILD_LIBS := $(foreach p,$(PKGS),$(p):$(shell pkg-config --modversion $(p)))
$(BUILD)/cli/cmd-version.o: CFLAGS += -DFLARE_BUILD_LIBS='"$(BUILD_LIBS)"'

$(BUILD)/libflare.a: $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/flare: $(CLI_OBJS) $(BUILD)/libflare.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/unit/%: tests/unit/%.c $(BUILD)/libflare.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libflare.a $(LDLIBS)

# the option parser's unit test links the cli/ objects it tests (opt, and out for the name
# usages print)
$(BUILD)/tests/unit/opt: tests/unit/opt.c $(BUILD)/cli/opt.o $(BUILD)/cli/out.o $(BUILD)/libflare.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/cli/opt.o $(BUILD)/cli/out.o $(BUILD)/libflare.a \
		$(LDLIBS)

# Workloads are the programs we profile: frame pointers everywhere, leaf frames kept,
# modest optimisation so the call tree in the source is the call tree in the binary.
WL_CFLAGS := -D_GNU_SOURCE -O1 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fno-inline \
	-fno-optimize-sibling-calls
$(BUILD)/workloads/%: tests/workloads/%.c
	@mkdir -p $(dir $@)
	$(CC) $(WL_CFLAGS) -o $@ $< -lpthread -lm

# probe_target has a second compilation unit (a static function of the same name in each)
$(BUILD)/workloads/probe_target: tests/workloads/probe_target.c tests/workloads/probe/cu2.c
	@mkdir -p $(dir $@)
	$(CC) $(WL_CFLAGS) -o $@ $^ -lpthread -lm
# flare trace's BPF program: compiled for the BPF target (raw tracepoint context, no
# vmlinux.h), wrapped by bpftool into a skeleton header that embeds the object in flare.
# The x86_64 syscall table is generated from the installed uapi header.
BPF_ARCH_INC := /usr/include/$(shell $(CC) -dumpmachine)
GEN_HDRS := $(BUILD)/bpf/systrace.skel.h $(BUILD)/gen/syscalls.h
CFLAGS += -I$(BUILD)/bpf -I$(BUILD)/gen
$(BUILD)/bpf/%.bpf.o: bpf/%.bpf.c lib/systrace/systrace-abi.h
	@mkdir -p $(dir $@)
	clang -g -O2 -target bpf -D__TARGET_ARCH_x86 -I. -I$(BPF_ARCH_INC) -c -o $@ $<
$(BUILD)/bpf/%.skel.h: $(BUILD)/bpf/%.bpf.o
	bpftool gen skeleton $< name $*_bpf > $@.tmp && mv $@.tmp $@
$(BUILD)/gen/syscalls.h: $(BPF_ARCH_INC)/asm/unistd_64.h
	@mkdir -p $(dir $@)
	awk '/^#define __NR_[a-z0-9_]+ [0-9]+$$/ { sub("__NR_", "", $$2); \
		printf "\t{ %s, \"%s\" },\n", $$3, $$2 }' $< > $@.tmp && mv $@.tmp $@
$(BUILD)/lib/systrace/systrace.o $(BUILD)/lib/systrace/sysnames.o: $(GEN_HDRS)

FUZZ_SRCS := $(sort $(wildcard tests/fuzz/*.c))
# libFuzzer harnesses (clang): the library and the CLI (less main.c, whose main libFuzzer
# replaces) are compiled once into build-fuzz/obj and linked into each harness.
FUZZ_CFLAGS := -std=gnu11 -D_GNU_SOURCE -I. -I$(BUILD)/bpf -I$(BUILD)/gen -g -O1 -fsanitize=fuzzer-no-link,address,undefined \
	-fno-sanitize-recover=undefined $(PKG_CFLAGS) -DFLARE_VERSION='"$(VERSION)"' \
	-DFLARE_GITREV='"$(GITREV)"'
FUZZ_OBJS := $(LIB_SRCS:%.c=build-fuzz/obj/%.o) \
	$(filter-out build-fuzz/obj/cli/main.o,$(CLI_SRCS:%.c=build-fuzz/obj/%.o))
FUZZ_BINS := $(FUZZ_SRCS:tests/fuzz/%.c=build-fuzz/%)
build-fuzz/obj/%.o: %.c $(GEN_HDRS)
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<
build-fuzz/libflare-fuzz.a: $(FUZZ_OBJS)
	@rm -f $@
	ar rcs $@ $^
build-fuzz/%: tests/fuzz/%.c build-fuzz/libflare-fuzz.a
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer -MMD -MP -o $@ $< build-fuzz/libflare-fuzz.a $(LDLIBS)
fuzz: $(FUZZ_BINS)

# Each harness on its corpus (tests/fuzz/corpus-NAME, plus seeds made here) for FUZZ_TIME
# seconds: `make fuzz-long FUZZ_TIME=600`. The short smoke run is tests/cli/fuzz-smoke.sh.
FUZZ_TIME ?= 300
fuzz-long: fuzz
	tests/fuzz/run.sh $(FUZZ_TIME) $(FUZZ_BINS)

# make install [PREFIX=/usr/local] [DESTDIR=]: the binary, a man page per subcommand and the
# bash completion.
PREFIX ?= /usr/local
install: $(BUILD)/flare
	install -D -m 755 $(BUILD)/flare $(DESTDIR)$(PREFIX)/bin/flare
	install -d $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 doc/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -D -m 644 scripts/completion.bash \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/flare

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/flare $(DESTDIR)$(PREFIX)/share/bash-completion/completions/flare
	for f in doc/*.1; do rm -f $(DESTDIR)$(PREFIX)/share/man/man1/$$(basename $$f); done

compile_commands.json:
	$(MAKE) clean && bear -- $(MAKE)

clean:
	rm -rf build build-asan build-fuzz

.PHONY: all fuzz fuzz-long clean compile_commands.json install uninstall
-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d) $(wildcard build-fuzz/obj/*/*/*.d build-fuzz/*.d)
