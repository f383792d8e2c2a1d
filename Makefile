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
PKGS := libelf libdw libtraceevent libtracefs capstone libzstd
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
CFLAGS += -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
LDFLAGS += -fsanitize=address,undefined
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

# Workloads are the programs we profile: frame pointers everywhere, leaf frames kept,
# modest optimisation so the call tree in the source is the call tree in the binary.
WL_CFLAGS := -D_GNU_SOURCE -O1 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fno-inline \
	-fno-optimize-sibling-calls
$(BUILD)/workloads/%: tests/workloads/%.c
	@mkdir -p $(dir $@)
	$(CC) $(WL_CFLAGS) -o $@ $< -lpthread -lm

FUZZ_SRCS := $(sort $(wildcard tests/fuzz/*.c))
fuzz:
	@mkdir -p build-fuzz
	for f in $(FUZZ_SRCS); do \
		n=$$(basename $$f .c); \
		clang -std=gnu11 -D_GNU_SOURCE -I. -g -O1 -fsanitize=fuzzer,address,undefined \
			$(PKG_CFLAGS) -DFLARE_VERSION='"$(VERSION)"' -DFLARE_GITREV='"$(GITREV)"' \
			-o build-fuzz/$$n $$f $(LIB_SRCS) $(LDLIBS) || exit 1; \
	done

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

.PHONY: all fuzz clean compile_commands.json install uninstall
-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d)
