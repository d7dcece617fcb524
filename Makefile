# brisk — plain Makefile with pkg-config.
#   make            build ./brisk
#   make run        install missing build deps, build, run the quick check on .
#   make check      install missing test deps, build, run every test
#   make check-noroot  build, run the tests that need no root, without root
#                   (as nobody when run by root; installs nothing: for
#                   package builds, packaging/check-noroot.sh)
#   make bench      benchmarks (not timed tests)
#   make BPF=0      without the breakdown's BPF collector (default auto:
#                   built when clang, bpftool and libbpf are there)
#   make V=1        show commands;  make SANITIZE=1  ASan + UBSan
#   make WERROR=1   warnings are errors (CI: .ci/run)
#   make HARDEN=0   no hardening flags of our own (packaging that brings its
#                   own: dpkg-buildflags, %{optflags}); or override
#                   HARDEN_CFLAGS / HARDEN_LDFLAGS / FORTIFY
#   make dist       brisk-VERSION.tar.gz from git HEAD (git archive; refuses
#                   outside a git checkout or with uncommitted changes)
#   make deb        the .deb from that tarball, as Debian builds it, in
#                   build/pkg (dpkg-buildpackage -us -uc; DEB_BUILD_OPTIONS)
#   make install PREFIX=/usr/local DESTDIR=
#                   (shell completions: BASHCOMPDIR, ZSHCOMPDIR, FISHCOMPDIR)
VERSION  := 0.1.0
PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
DATADIR  ?= $(PREFIX)/share/brisk
MANDIR   ?= $(PREFIX)/share/man
DATADIR_ROOT ?= $(PREFIX)/share
# Shell completions.  bash: bash-completion's completionsdir (its .pc file,
# with our prefix), else the usual place; zsh: Debian's vendor directory
# (Fedora: $(DATADIR_ROOT)/zsh/site-functions); fish: its vendor directory.
# Recursively expanded: pkg-config runs only when installing.
BASHCOMPDIR ?= $(or $(shell $(PKG_CONFIG) --define-variable=prefix=$(PREFIX) \
                 --define-variable=datadir=$(DATADIR_ROOT) \
                 --variable=completionsdir bash-completion 2>/dev/null),$(DATADIR_ROOT)/bash-completion/completions)
ZSHCOMPDIR  ?= $(DATADIR_ROOT)/zsh/vendor-completions
FISHCOMPDIR ?= $(DATADIR_ROOT)/fish/vendor_completions.d
PKGS     := ncursesw libudev libsystemd libpci inih json-c fuse3 cairo liburing
# pkg-config by another name (a cross build's, pkgconf) as PKG_CONFIG=...
PKG_CONFIG ?= pkg-config
TESTPKGS := cmocka

CC       ?= cc
# The breakdown's collector (probes/iowhy.bpf.c), compiled by clang for the
# BPF target and embedded by bpftool as a skeleton; BPF=0 leaves it out and
# brisk says the breakdown is unavailable.  auto: when all three are here.
CLANG    ?= clang
BPFTOOL  ?= $(or $(shell command -v bpftool 2>/dev/null),$(firstword $(wildcard /usr/sbin/bpftool /sbin/bpftool)))
BPF      ?= auto
ifeq ($(BPF),auto)
override BPF := $(if $(and $(shell command -v $(CLANG) 2>/dev/null),$(BPFTOOL),$(shell $(PKG_CONFIG) --exists libbpf 2>/dev/null && echo y)),1,0)
endif
ifeq ($(BPF),1)
PKGS     += libbpf
endif
# src/ by concern, one level deep (ARCHITECTURE.md); includes are by
# basename, so each folder is on the include path
SRC_DIRS := $(sort $(patsubst %/,%,$(dir $(wildcard src/*/*.c src/*/*.h))))
CFLAGS   ?= -O2 -g
WARN     := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wformat=2 -Wformat-overflow=2 -Wpointer-arith -Wcast-align \
            -Wwrite-strings -Wundef -Wvla -Wnull-dereference -Wimplicit-fallthrough \
            -Wold-style-definition -Wmissing-declarations -Wredundant-decls
# Recursively expanded on purpose: pkg-config runs only once deps are there.
PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKGS))
PKG_LIBS   = $(shell $(PKG_CONFIG) --libs $(PKGS))
CPPFLAGS += -D_GNU_SOURCE -DBRISK_VERSION='"$(VERSION)"' \
            -DBRISK_DATADIR='"$(DATADIR)"' -Iprobes $(addprefix -I,$(SRC_DIRS)) -Iui
CPPFLAGS += -DBRISK_BPF=$(BPF)
ifeq ($(BPF),1)
CPPFLAGS += -Ibuild/probes
endif
ifeq ($(WERROR),1)
WARN     += -Werror
endif
# Hardening, on by default: brisk runs as root.  _FORTIFY_SOURCE needs an
# optimising build (none with -O0 or no -O at all) and is left out under
# SANITIZE=1 (ASan replaces the same functions); level 3 where the compiler
# has __builtin_dynamic_object_size, else 2.
HARDEN   ?= 1
FORTIFY_LEVEL := $(shell printf 'int main(void){char b[4];return (int)__builtin_dynamic_object_size(b,0);}' | \
                   $(CC) -x c -o /dev/null - >/dev/null 2>&1 && echo 3 || echo 2)
OPT_LEVEL := $(lastword $(filter -O%,$(CFLAGS)))
ifneq ($(filter-out -O0,$(OPT_LEVEL)),)
ifneq ($(SANITIZE),1)
FORTIFY  ?= -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=$(FORTIFY_LEVEL)
endif
endif
ifeq ($(HARDEN),1)
HARDEN_CFLAGS  ?= -fstack-protector-strong -fPIE $(FORTIFY)
HARDEN_LDFLAGS ?= -pie -Wl,-z,relro,-z,now
endif
# the build directory's name kept out of the binary (debug info, __FILE__):
# the same tarball built anywhere gives the same brisk (the Ansible role's
# tarball install compares it with the installed one)
ALL_CFLAGS = -std=c11 $(WARN) $(HARDEN_CFLAGS) $(CFLAGS) $(PKG_CFLAGS) -ffile-prefix-map=$(CURDIR)=.
LDFLAGS   := $(HARDEN_LDFLAGS) $(LDFLAGS)
ifeq ($(SANITIZE),1)
ALL_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS    += -fsanitize=address,undefined
endif
ifneq ($(V),1)
Q := @
QCC = @echo "  CC      $@";
QLD = @echo "  LD      $@";
endif

PROBE_SRC := $(filter-out %.bpf.c,$(sort $(wildcard probes/*.c)))
ENGINE_SRC:= $(sort $(wildcard $(addsuffix /*.c,$(SRC_DIRS))))
UI_SRC    := $(filter-out ui/main.c,$(sort $(wildcard ui/*.c)))
LIB_OBJ   := $(patsubst %.c,build/%.o,$(PROBE_SRC) $(ENGINE_SRC) $(UI_SRC))
MAIN_OBJ  := build/ui/main.o
UNIT_SRC  := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN  := $(patsubst tests/unit/%.c,build/tests/%,$(UNIT_SRC))
HELPER_SRC:= $(sort $(wildcard tests/helpers/*.c))
HELPER_BIN:= $(patsubst tests/helpers/%.c,build/tests/helpers/%,$(HELPER_SRC))

.PHONY: all run check check-noroot dist deb bench deps test-deps tests install uninstall clean
all: brisk

# Objects are rebuilt when the compiled-in paths or the flags change.
CONFIG_ID    := $(shell echo '$(DATADIR) $(BPF) $(SANITIZE) $(CFLAGS) $(CC) $(HARDEN) $(WERROR) $(HARDEN_CFLAGS) $(HARDEN_LDFLAGS)' | cksum | cut -d' ' -f1)
CONFIG_STAMP := build/.config-$(CONFIG_ID)
$(CONFIG_STAMP):
	@mkdir -p build && rm -f build/.config-* && touch $@
$(LIB_OBJ) $(MAIN_OBJ): $(CONFIG_STAMP)

# The marker beside ./brisk says "a build tree": only then does brisk read
# the data in ./profiles beside it (src/base/datadir.h).  Never installed.
brisk: $(LIB_OBJ) $(MAIN_OBJ) | .brisk-build-tree
	$(QLD)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm

.brisk-build-tree:
	$(Q)echo 'brisk build tree: ./brisk reads its data from ./profiles (src/base/datadir.h)' >$@

build/%.o: %.c
	@mkdir -p $(dir $@)
	$(QCC)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# The collector: no DWARF paths of the build tree, the linked object
# (bpftool gen object) embedded in the skeleton header iowhy.c includes.
BPF_CFLAGS := -g -O2 -target bpf -mcpu=v3 -Iprobes -ffile-prefix-map=$(CURDIR)=. -fno-ident
ifeq ($(BPF),1)
build/probes/iowhy.bpf.o: probes/iowhy.bpf.c probes/iowhy_core.h probes/iowhy_acct.h $(CONFIG_STAMP)
	@mkdir -p $(dir $@)
	$(QCC)$(CLANG) $(BPF_CFLAGS) -c -o $@.tmp $< && $(BPFTOOL) gen object $@ $@.tmp && rm -f $@.tmp

build/probes/iowhy.skel.h: build/probes/iowhy.bpf.o
	$(Q)$(BPFTOOL) gen skeleton $< name iowhy_bpf >$@.tmp && mv $@.tmp $@

build/probes/iowhy.o: build/probes/iowhy.skel.h
endif

build/libbrisk.a: $(LIB_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

build/tests/test_%: tests/unit/test_%.c build/libbrisk.a
	@mkdir -p $(dir $@)
	$(QLD)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(shell $(PKG_CONFIG) --cflags $(TESTPKGS)) $(LDFLAGS) -o $@ $< \
	  build/libbrisk.a $(PKG_LIBS) $(shell $(PKG_CONFIG) --libs $(TESTPKGS)) -lm

build/tests/helpers/%: tests/helpers/%.c build/libbrisk.a
	@mkdir -p $(dir $@)
	$(QLD)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< build/libbrisk.a $(PKG_LIBS) -lm

deps:
	@packaging/install-deps.sh --check build || packaging/install-deps.sh build

test-deps:
	@packaging/install-deps.sh --check test || packaging/install-deps.sh test

tests: brisk $(UNIT_BIN) $(HELPER_BIN)

run: deps
	@$(MAKE) --no-print-directory brisk
	@if [ -t 0 ] && [ -t 1 ]; then echo ./brisk tui; ./brisk tui; else echo ./brisk run; ./brisk run; fi

check: test-deps
	@$(MAKE) --no-print-directory tests
	@tests/run.sh

check-noroot: tests
	@packaging/check-noroot.sh

bench: test-deps
	@$(MAKE) --no-print-directory tests
	@tests/bench/run.sh

DATA := $(wildcard profiles/*.conf profiles/*.ini)
SHIPPED_PROFILES := $(wildcard profiles/*.profile)
MAN1 := $(wildcard man/*.1)
MAN5 := $(wildcard man/*.5)
# the JSON Schema of each JSON output (brisk(1) JSON)
SCHEMAS := $(wildcard schemas/*.schema.json)
# commands whose page is another's: man brisk-get shows brisk-set(1)
MAN_ALIASES := get restore

install: brisk
	install -Dm755 brisk $(DESTDIR)$(BINDIR)/brisk
	install -d $(DESTDIR)$(DATADIR) $(DESTDIR)$(MANDIR)/man1
	install -m644 $(DATA) $(DESTDIR)$(DATADIR)/
	$(if $(SHIPPED_PROFILES),install -d $(DESTDIR)$(DATADIR)/profiles && install -m644 $(SHIPPED_PROFILES) $(DESTDIR)$(DATADIR)/profiles/)
	$(if $(SCHEMAS),install -d $(DESTDIR)$(DATADIR)/schemas && install -m644 $(SCHEMAS) $(DESTDIR)$(DATADIR)/schemas/)
	install -m644 $(MAN1) $(DESTDIR)$(MANDIR)/man1/
	for c in $(MAN_ALIASES); do printf '.so man1/brisk-set.1\n' >$(DESTDIR)$(MANDIR)/man1/brisk-$$c.1 && \
	  chmod 644 $(DESTDIR)$(MANDIR)/man1/brisk-$$c.1 || exit 1; done
	$(if $(MAN5),install -d $(DESTDIR)$(MANDIR)/man5 && install -m644 $(MAN5) $(DESTDIR)$(MANDIR)/man5/)
	install -Dm644 completions/brisk.bash $(DESTDIR)$(BASHCOMPDIR)/brisk
	install -Dm644 completions/_brisk $(DESTDIR)$(ZSHCOMPDIR)/_brisk
	install -Dm644 completions/brisk.fish $(DESTDIR)$(FISHCOMPDIR)/brisk.fish

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/brisk $(DESTDIR)$(MANDIR)/man1/brisk*.1 $(DESTDIR)$(MANDIR)/man5/brisk*.5
	rm -f $(DESTDIR)$(BASHCOMPDIR)/brisk $(DESTDIR)$(ZSHCOMPDIR)/_brisk $(DESTDIR)$(FISHCOMPDIR)/brisk.fish
	rm -rf $(DESTDIR)$(DATADIR)

# The release tarball: HEAD as git archive makes it (mtime = the commit's
# time), gzip -n: the same commit gives the same bytes.  Only committed
# work goes in, so a dirty tree is refused rather than silently left out
# (untracked files are not looked at: they would not be in HEAD either).
DIST := brisk-$(VERSION)
dist:
	@if [ "$$(git -C '$(CURDIR)' rev-parse --show-toplevel 2>/dev/null)" != "$$(pwd -P)" ]; then \
	  echo "make dist: $(CURDIR) is not a git checkout; the tarball is made by git archive from HEAD" >&2; exit 1; fi
	@if [ -n "$$(git status --porcelain --untracked-files=no)" ]; then \
	  echo "make dist: uncommitted changes (git status); the tarball is HEAD: commit or stash them first" >&2; exit 1; fi
	$(Q)git archive --format=tar --prefix=$(DIST)/ -o $(DIST).tar.tmp HEAD
	$(Q)gzip -9n <$(DIST).tar.tmp >$(DIST).tar.gz.tmp && rm -f $(DIST).tar.tmp && mv $(DIST).tar.gz.tmp $(DIST).tar.gz
	@echo "$(DIST).tar.gz: $$(git rev-parse --short HEAD)$$(git describe --exact-match HEAD 2>/dev/null | sed 's/^/ (/; s/$$/)/')"

# The Debian package from the dist tarball: orig tarball, unpacked,
# packaging/debian as debian/, source and binary packages in build/pkg.
deb: dist
	rm -rf build/pkg && mkdir -p build/pkg
	cp $(DIST).tar.gz build/pkg/brisk_$(VERSION).orig.tar.gz
	tar xzf $(DIST).tar.gz -C build/pkg
	cp -r packaging/debian build/pkg/$(DIST)/debian
	cd build/pkg/$(DIST) && dpkg-buildpackage -us -uc
	@ls build/pkg/*.changes build/pkg/*.deb

clean:
	rm -rf --one-file-system build brisk .brisk-build-tree

# (not build/pkg: make deb's package build, with directories named *.d)
-include $(shell find build -path build/pkg -prune -o -name '*.d' -type f -print 2>/dev/null)
