# SPDX-License-Identifier: GPL-2.0-only
# exitscope build.
#
# Two kinds of C live in this tree:
#   host code  - everything that runs in the exitscope process (kvm layer,
#                guest-runtime host side, suites, map, results, cli);
#   guest code - files named *_guest.c and *.S: they run inside the test VM,
#                so they are built freestanding, general-registers-only,
#                without stack protector, red zone or sanitizers.
# Both are linked into one non-PIE executable: the guest sees the same image
# at the same virtual addresses (see guest/vm.c).

# gcc unless CC was given (command line or environment): make's built-in
# default "cc" does not count, so `CC ?= gcc` alone would never apply.
ifeq ($(origin CC),default)
CC        := gcc
endif
PREFIX    ?= /usr/local
SANITIZE  ?=
V         ?=

PKG_CFLAGS := $(shell pkg-config --cflags jansson 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs jansson 2>/dev/null || echo -ljansson)
# jansson is the one library: without it, say what to install (not "jansson.h:
# No such file" from the first file that includes it).
HAVE_JANSSON := $(shell { pkg-config --exists jansson || printf '\043include <jansson.h>\n' | \
		  $(CC) $(CFLAGS) -E -x c - ; } >/dev/null 2>&1 && echo y)
ifeq ($(HAVE_JANSSON),)
ifneq ($(filter-out clean uninstall,$(or $(MAKECMDGOALS),all)),)
$(error jansson is not installed (Debian libjansson-dev): run scripts/install-deps as root)
endif
endif

IS_CLANG  := $(findstring clang,$(shell $(CC) --version 2>/dev/null | head -1))
# Messages are cut to fit their buffers on purpose; gcc's truncation
# warning would make every bounded snprintf an error.
WARN      := -Wall -Wextra -Werror -Wno-unused-parameter $(if $(IS_CLANG),,-Wno-format-truncation) \
             -Wshadow -Wmissing-prototypes -Wstrict-prototypes
COMMON    := -std=gnu11 -g -O2 -fno-pie -fno-pic $(WARN) -I. -D_GNU_SOURCE
HOST_CFLAGS  := $(COMMON) -fno-omit-frame-pointer $(PKG_CFLAGS) $(CFLAGS)
GUEST_CFLAGS := $(COMMON) -ffreestanding -fno-builtin -mgeneral-regs-only \
                -mno-red-zone -fno-stack-protector -fno-asynchronous-unwind-tables \
                -fno-jump-tables -fcf-protection=branch -fno-omit-frame-pointer \
                -fno-tree-loop-distribute-patterns
LDFLAGS_ALL  := -no-pie -pthread $(LDFLAGS)
LIBS         := $(PKG_LIBS) -lm -lrt

ifeq ($(SANITIZE),1)
# Host code only: guest code runs in the VM where no sanitizer runtime exists.
HOST_CFLAGS  += -fsanitize=address,undefined -fno-sanitize-recover=undefined
LDFLAGS_ALL  += -fsanitize=address,undefined
BUILD        := build-san
else
BUILD        := build
endif

# Clang warns about -fno-tree-loop-distribute-patterns; it has no such pass.
ifneq ($(IS_CLANG),)
GUEST_CFLAGS := $(filter-out -fno-tree-loop-distribute-patterns,$(GUEST_CFLAGS))
endif

LIB_DIRS   := base kvm stats guest host harness probes suites map results compare report export method profile expect
LIB_HOST   := $(filter-out %_guest.c,$(wildcard $(addsuffix /*.c,$(LIB_DIRS))))
LIB_GUEST  := $(wildcard $(addsuffix /*_guest.c,$(LIB_DIRS))) $(wildcard $(addsuffix /*.S,$(LIB_DIRS)))
CLI_SRC    := $(wildcard cli/*.c)
TEST_SRC   := $(wildcard tests/*.c)

LIB_HOST_OBJ  := $(patsubst %.c,$(BUILD)/%.o,$(LIB_HOST))
LIB_GUEST_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(patsubst %.S,$(BUILD)/%.o,$(LIB_GUEST)))
CLI_OBJ       := $(patsubst %.c,$(BUILD)/%.o,$(CLI_SRC))
TEST_BIN      := $(patsubst tests/%.c,$(BUILD)/tests/%,$(filter tests/test_%.c,$(TEST_SRC)))
# Test helpers: tests/X.c with a header tests/X.h (run_cmd, fixture, ...).
TEST_HELPERS  := $(basename $(notdir $(filter $(patsubst %.h,%.c,$(wildcard tests/*.h)),$(TEST_SRC))))
# A test links the helpers whose headers it includes, nothing else.
test_helper_obj = $(patsubst %,$(BUILD)/tests/%.o,$(filter $(TEST_HELPERS),\
	$(shell sed -n 's|^\#include "tests/\([A-Za-z0-9_]*\)\.h".*|\1|p' tests/$(1).c)))

LIBA   := $(BUILD)/libexitscope.a
GUESTO := $(BUILD)/guest-image.o
EXE    := $(if $(filter 1,$(SANITIZE)),$(BUILD)/exitscope,exitscope)

Q := $(if $(V),,@)

# Keep every object: test helpers are otherwise deleted as intermediates.
.SECONDARY:

.PHONY: all build-clang check check-uapi check-all check-fuzz-corpus check-layers check-width clean install run fuzz check-vmx check-svm check-lanes tests
.PHONY: man uninstall check-deb
all: $(EXE)

# Guest objects are linked into one relocatable object first; anything it
# still needs from outside (memset from libc, a host function) would crash
# the guest, so an undefined symbol is a build error.
$(GUESTO): $(LIB_GUEST_OBJ)
	$(Q)ld -r -o $@ $^
	$(Q)undef=$$(nm -u $@ | awk '{print $$2}' | grep -v -E "^__(start|stop)_guest_ex_table$$"); \
	if [ -n "$$undef" ]; then echo "guest code references symbols outside the guest image: $$undef" >&2; rm -f $@; exit 1; fi

$(LIBA): $(LIB_HOST_OBJ) $(GUESTO)
	$(Q)rm -f $@ && ar rcs $@ $^

$(EXE): $(CLI_OBJ) $(LIBA)
	@echo "  LD      $@"
	$(Q)$(CC) $(HOST_CFLAGS) -o $@ $(CLI_OBJ) -Wl,--whole-archive $(LIBA) -Wl,--no-whole-archive $(LDFLAGS_ALL) $(LIBS)

$(BUILD)/%_guest.o: %_guest.c
	@mkdir -p $(dir $@)
	@echo "  CC [G]  $<"
	$(Q)$(CC) $(GUEST_CFLAGS) -MMD -c -o $@ $<

$(BUILD)/%.o: %.S
	@mkdir -p $(dir $@)
	@echo "  AS [G]  $<"
	$(Q)$(CC) $(GUEST_CFLAGS) -MMD -c -o $@ $<

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(HOST_CFLAGS) -MMD -c -o $@ $<

# Guest code used only by tests (tests/*_guest.c, built like all guest code)
# has no header: each test that runs it says so here.
$(BUILD)/tests/test_latency: $(BUILD)/tests/lat_guest.o
$(BUILD)/tests/test_runtime: $(BUILD)/tests/tg_guest.o
# A test that includes its unit's source (cli/opts.c) is rebuilt with it.
$(BUILD)/tests/test_opts: cli/opts.c cli/opts.h

.SECONDEXPANSION:
$(BUILD)/tests/%: tests/%.c $$(call test_helper_obj,$$*) $(LIBA)
	@mkdir -p $(dir $@)
	@echo "  CC [T]  $<"
	$(Q)$(CC) $(HOST_CFLAGS) -o $@ $< $(filter %.o,$^) -Wl,--whole-archive $(LIBA) -Wl,--no-whole-archive $(LDFLAGS_ALL) $(LIBS)

tests: $(TEST_BIN) $(EXE) man

# The tests find the binary under test through EXITSCOPE.
check: tests check-layers check-uapi check-width
	@command -v prove >/dev/null || { echo "prove is not installed (Debian perl): run scripts/install-deps --test as root" >&2; exit 1; }
	EXITSCOPE=$(CURDIR)/$(EXE) BUILD=$(BUILD) prove -f $(TEST_BIN)

# Everything CI runs: the tests, the tests again under ASan+UBSan (host
# code), the real VMX/SVM lanes in emulated PCs, a kernel history walked and
# bisected there, the CET lane, and the seed kernel A/Bs there.
check-all:
	@echo "check-all: step 1/12: make check ($$(date +%T))"
	$(MAKE) check
	@echo "check-all: step 2/12: make build-clang ($$(date +%T))"
	$(MAKE) build-clang
	@echo "check-all: step 3/12: make check SANITIZE=1 ($$(date +%T))"
	$(MAKE) check SANITIZE=1
	@echo "check-all: step 4/12: make check-fuzz-corpus ($$(date +%T))"
	$(MAKE) check-fuzz-corpus
	@echo "check-all: step 5/12: make check-deb ($$(date +%T))"
	$(MAKE) check-deb
	@echo "check-all: step 6/12: make check-lanes ($$(date +%T))"
	$(MAKE) check-lanes
	@echo "check-all: step 7/12: make check-walk ($$(date +%T))"
	$(MAKE) check-walk
	@echo "check-all: step 8/12: make check-kernels ($$(date +%T))"
	$(MAKE) check-kernels
	@echo "check-all: step 9/12: make check-lane-cet ($$(date +%T))"
	$(MAKE) check-lane-cet
	@echo "check-all: step 10/12: make check-lane-profile ($$(date +%T))"
	$(MAKE) check-lane-profile
	@echo "check-all: step 11/12: make check-matrix ($$(date +%T))"
	$(MAKE) check-matrix
	@echo "check-all: step 12/12: make check-ab ($$(date +%T))"
	$(MAKE) check-ab
	@echo "check-all: all 12 steps passed ($$(date +%T))"

# The users of the 6.18 uapi names kvm/abi.h falls back on also build against
# a copy of the 6.18 definitions (tests/uapi-6.18/, searched first); check.c
# fails unless that copy really was the one included.
UAPI_USERS := $(shell grep -lE 'KVM_X86_REG_|KVM_REG_GUEST_SSP|(CP|HV|VC|SX)_VECTOR' $(LIB_HOST) $(CLI_SRC) $(TEST_SRC))
check-uapi:
	$(Q)echo "  UAPI    $(UAPI_USERS)"; for f in tests/uapi-6.18/check.c $(UAPI_USERS); do \
		$(CC) -Itests/uapi-6.18 $(HOST_CFLAGS) -fsyntax-only $$f || exit 1; done

# Includes point down the layers drawn in docs/hacking.md (scripts/check-layers);
# the last lines prove the checker fails on an include that points up (also
# out of base/, which every folder may include) and on a base name used in
# two folders.
# Inside a folder no two files may use each other (scripts/check-cycles, on
# the built objects).
check-layers: $(LIBA)
	$(Q)scripts/check-layers
	$(Q)scripts/check-cycles $(BUILD)
	$(Q)t=$$(mktemp -d) && echo 'int b(void); int a(void) { return b(); }' > $$t/a.c && \
	echo 'int a(void); int b(void) { return a(); }' > $$t/b.c && $(CC) -c -o $$t/a.o $$t/a.c && $(CC) -c -o $$t/b.o $$t/b.c && \
	if scripts/check-cycles $$t 2>/dev/null; then echo "check-cycles: missed a.o <-> b.o" >&2; rm -rf $$t; exit 1; fi; rm -rf $$t
	$(Q)t=$$(mktemp -d) && mkdir -p $$t/kvm $$t/probes && echo '#include "probes/probes.h"' > $$t/kvm/bad.c && \
	if scripts/check-layers $$t 2>/dev/null; then echo "check-layers: missed kvm/ -> probes/" >&2; rm -rf $$t; exit 1; fi; rm -rf $$t
	$(Q)t=$$(mktemp -d) && mkdir -p $$t/base $$t/kvm && echo '#include "kvm/kvm.h"' > $$t/base/bad.c && \
	if scripts/check-layers $$t 2>/dev/null; then echo "check-layers: missed base/ -> kvm/" >&2; rm -rf $$t; exit 1; fi; rm -rf $$t
	$(Q)t=$$(mktemp -d) && mkdir -p $$t/kvm $$t/stats && touch $$t/kvm/dup.h $$t/stats/dup.h && \
	if scripts/check-layers $$t 2>/dev/null; then echo "check-layers: missed kvm/dup.h beside stats/dup.h" >&2; rm -rf $$t; exit 1; fi; rm -rf $$t

# No line of C that holds a string literal (a '"') passes 100 columns, a tab
# counting to the next multiple of 8 and a UTF-8 character as one: split the
# literal (adjacent literals concatenate) or the arguments instead. WIDTH_DIRS
# are every folder of the library and the CLI. The last line proves it fails
# on a long one.
WIDTH_DIRS  := base kvm guest harness host probes suites map method stats compare report \
	       export profile expect results cli
WIDTH_FILES := $(wildcard $(addsuffix /*.[ch],$(WIDTH_DIRS)))
WIDTH_AWK   := index($$0, "\"") { s = $$0; gsub(/[\200-\277]/, "", s); c = 0; \
	for (i = 1; i <= length(s); i++) c = substr(s, i, 1) == "\t" ? c - c % 8 + 8 : c + 1; \
	if (c > 100) { print FILENAME ":" FNR ": " c " columns, more than 100" > "/dev/stderr"; \
	bad = 1 } } END { exit bad }
check-width:
	$(Q)LC_ALL=C awk '$(WIDTH_AWK)' $(WIDTH_FILES)
	$(Q)t=$$(mktemp -d) && printf '\t\t\t\t\t\t\t\t\t\t\t\t"%s"\n' 0123456789 > $$t/long.c && \
	if LC_ALL=C awk '$(WIDTH_AWK)' $$t/long.c 2>/dev/null; then \
		echo "check-width: missed a 108-column line" >&2; rm -rf $$t; exit 1; fi; rm -rf $$t

# The whole tree, tests included, must also build warning-free with clang.
build-clang:
	@command -v clang >/dev/null || { echo "clang is not installed: run scripts/install-deps --test as root" >&2; exit 1; }
	$(MAKE) CC=clang BUILD=build-clang EXE=build-clang/exitscope tests

run: $(EXE)
	./$(EXE) run --json exitscope-run.json

# Man pages: man/*.scd (scdoc) -> $(BUILD)/man/*.1; man/tidy.awk removes what
# mandoc -Tlint or groff -ww would warn about in scdoc's output, turns
# hyphenation off and keeps EXAMPLES unfilled (tests/test_man.c checks both).
MAN_SRC   := $(wildcard man/*.scd)
MAN_PAGES := $(patsubst man/%.scd,$(BUILD)/man/%,$(MAN_SRC))

man: $(MAN_PAGES)

$(BUILD)/man/%: man/%.scd man/tidy.awk
	@mkdir -p $(dir $@)
	@echo "  SCDOC   $<"
	@command -v scdoc >/dev/null || { echo "scdoc is not installed (the man pages): run scripts/install-deps --test as root" >&2; exit 1; }
	$(Q)scdoc < $< | awk -f man/tidy.awk > $@.tmp && mv $@.tmp $@

# make install [PREFIX=/usr/local] [DESTDIR=]: the binary, the man pages
# (gzip -9n: no name or time stamp), the bash completion, and the documents
# the pages and reports cite (README.md, docs/*.md and the JSON Schemas in
# docs/, under $(DOCDIR) as in the tree: docs/method.md is
# $(DOCDIR)/docs/method.md); make uninstall removes exactly those files
# (tests/test_install.c lists what lands).
BINDIR      = $(PREFIX)/bin
MAN1DIR     = $(PREFIX)/share/man/man1
BASHCOMPDIR = $(PREFIX)/share/bash-completion/completions
DOCDIR      = $(PREFIX)/share/doc/exitscope
DOC_FILES  := $(wildcard docs/*.md docs/*.json)
INSTALLED   = $(DESTDIR)$(BINDIR)/exitscope $(DESTDIR)$(BASHCOMPDIR)/exitscope \
              $(patsubst $(BUILD)/man/%,$(DESTDIR)$(MAN1DIR)/%.gz,$(MAN_PAGES)) \
              $(DESTDIR)$(DOCDIR)/README.md $(addprefix $(DESTDIR)$(DOCDIR)/,$(DOC_FILES))

install: $(EXE) man
	install -D -m 0755 $(EXE) $(DESTDIR)$(BINDIR)/exitscope
	install -d -m 0755 $(DESTDIR)$(MAN1DIR)
	for p in $(MAN_PAGES); do \
		gzip -9n -c $$p > $(DESTDIR)$(MAN1DIR)/$${p##*/}.gz && \
		chmod 0644 $(DESTDIR)$(MAN1DIR)/$${p##*/}.gz || exit 1; \
	done
	install -D -m 0644 completion/exitscope.bash $(DESTDIR)$(BASHCOMPDIR)/exitscope
	install -D -m 0644 README.md $(DESTDIR)$(DOCDIR)/README.md
	install -d -m 0755 $(DESTDIR)$(DOCDIR)/docs
	install -m 0644 $(DOC_FILES) $(DESTDIR)$(DOCDIR)/docs/

uninstall:
	rm -f $(INSTALLED)
	-rmdir $(DESTDIR)$(DOCDIR)/docs $(DESTDIR)$(DOCDIR) 2>/dev/null

# The Debian package, built from a clean copy of the tracked files (the
# working tree is not touched), linted (errors fail, and so does any
# groff-message: a man page groff warns about), its documents checked in it
# (dpkg -c), installed with dpkg -i (root: CI), its /usr/bin/exitscope run
# (info: 0, or 3 on a host without /dev/kvm), and removed again.
check-deb:
	$(Q)t=$$(mktemp -d) && trap 'rm -rf "$$t"' EXIT && mkdir "$$t/src" && \
	git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$$t/src" && \
	(cd "$$t/src" && DEB_BUILD_OPTIONS="nocheck parallel=2 $$DEB_BUILD_OPTIONS" \
		dpkg-buildpackage -us -uc -b >"$$t/build.log" 2>&1) || \
		{ tail -40 "$$t/build.log" >&2; echo "check-deb: dpkg-buildpackage failed" >&2; exit 1; } && \
	deb=$$(ls "$$t"/exitscope_*_amd64.deb) && echo "check-deb: built $${deb##*/}" && \
	{ rc=0; lintian --fail-on error --info "$$t"/exitscope_*_amd64.changes >"$$t/lintian.log" 2>&1 || rc=$$?; \
	  cat "$$t/lintian.log"; [ $$rc = 0 ] || { echo "check-deb: lintian failed" >&2; exit 1; }; \
	  if grep -q 'groff-message' "$$t/lintian.log"; then echo "check-deb: groff warns about a man page" >&2; exit 1; fi; } && \
	dpkg -c "$$deb" > "$$t/contents" && \
	for d in README.md docs/method.md docs/results-schema.json; do \
	  grep -q " \./usr/share/doc/exitscope/$$d$$" "$$t/contents" || \
	  { echo "check-deb: /usr/share/doc/exitscope/$$d is not in the package" >&2; exit 1; }; done && \
	if [ "$$(id -u)" != 0 ]; then echo "check-deb: dpkg -i needs root (CI runs as root)" >&2; exit 1; fi && \
	dpkg -i "$$deb" && /usr/bin/exitscope --help >/dev/null && \
	{ rc=0; /usr/bin/exitscope info >/dev/null || rc=$$?; \
	  if [ -e /dev/kvm ]; then [ $$rc = 0 ]; \
	  else [ $$rc = 3 ] && echo "check-deb: no /dev/kvm here: info exits 3 as documented"; fi; } && \
	man -w exitscope-run >/dev/null && test -f /usr/share/doc/exitscope/examples/exitscope.timer && dpkg -r exitscope && \
	if [ -e /usr/bin/exitscope ]; then echo "check-deb: /usr/bin/exitscope left after dpkg -r" >&2; exit 1; fi && \
	echo "check-deb: ok"

clean:
	rm -rf build build-san build-fuzz build-clang $(EXE) exitscope-run.json

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
-include lanes/lanes.mk
-include fuzz/fuzz.mk
