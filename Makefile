# brisk — plain Makefile with pkg-config.
#   make            build ./brisk
#   make run        install missing build deps, build, run the quick check on .
#   make check      install missing test deps, build, run every test
#   make bench      benchmarks (not timed tests)
#   make V=1        show commands;  make SANITIZE=1  ASan + UBSan
#   make install PREFIX=/usr/local DESTDIR=
VERSION  := 0.1.0
PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
DATADIR  ?= $(PREFIX)/share/brisk
MANDIR   ?= $(PREFIX)/share/man
PKGS     := ncursesw libudev libpci inih json-c fuse3
TESTPKGS := cmocka

CC       ?= cc
CFLAGS   ?= -O2 -g
WARN     := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wformat=2 -Wformat-overflow=2 -Wpointer-arith -Wcast-align \
            -Wwrite-strings -Wundef -Wvla -Wnull-dereference -Wimplicit-fallthrough \
            -Wold-style-definition -Wmissing-declarations -Wredundant-decls
# Recursively expanded on purpose: pkg-config runs only once deps are there.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS))
PKG_LIBS   = $(shell pkg-config --libs $(PKGS))
CPPFLAGS += -D_GNU_SOURCE -DBRISK_VERSION='"$(VERSION)"' \
            -DBRISK_DATADIR='"$(DATADIR)"' -Iprobes -Isrc -Isrc/lab -Isrc/cmd -Iui
ALL_CFLAGS = -std=c11 $(WARN) $(CFLAGS) $(PKG_CFLAGS)
ifeq ($(SANITIZE),1)
ALL_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS    += -fsanitize=address,undefined
endif
ifneq ($(V),1)
Q := @
QCC = @echo "  CC      $@";
QLD = @echo "  LD      $@";
endif

PROBE_SRC := $(sort $(wildcard probes/*.c))
ENGINE_SRC:= $(sort $(wildcard src/*.c src/lab/*.c src/cmd/*.c))
UI_SRC    := $(filter-out ui/main.c,$(sort $(wildcard ui/*.c)))
LIB_OBJ   := $(patsubst %.c,build/%.o,$(PROBE_SRC) $(ENGINE_SRC) $(UI_SRC))
MAIN_OBJ  := build/ui/main.o
UNIT_SRC  := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN  := $(patsubst tests/unit/%.c,build/tests/%,$(UNIT_SRC))
HELPER_SRC:= $(sort $(wildcard tests/helpers/*.c))
HELPER_BIN:= $(patsubst tests/helpers/%.c,build/tests/helpers/%,$(HELPER_SRC))

.PHONY: all run check bench deps test-deps tests install uninstall clean
all: brisk

# Objects are rebuilt when the compiled-in paths or the flags change.
CONFIG_ID    := $(shell echo '$(DATADIR) $(SANITIZE) $(CFLAGS) $(CC)' | cksum | cut -d' ' -f1)
CONFIG_STAMP := build/.config-$(CONFIG_ID)
$(CONFIG_STAMP):
	@mkdir -p build && rm -f build/.config-* && touch $@
$(LIB_OBJ) $(MAIN_OBJ): $(CONFIG_STAMP)

brisk: $(LIB_OBJ) $(MAIN_OBJ)
	$(QLD)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm

build/%.o: %.c
	@mkdir -p $(dir $@)
	$(QCC)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

build/libbrisk.a: $(LIB_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

build/tests/test_%: tests/unit/test_%.c build/libbrisk.a
	@mkdir -p $(dir $@)
	$(QLD)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(shell pkg-config --cflags $(TESTPKGS)) $(LDFLAGS) -o $@ $< \
	  build/libbrisk.a $(PKG_LIBS) $(shell pkg-config --libs $(TESTPKGS)) -lm

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
	./brisk

check: test-deps
	@$(MAKE) --no-print-directory tests
	@tests/run.sh

bench: test-deps
	@$(MAKE) --no-print-directory tests
	@tests/bench/run.sh

DATA := $(wildcard profiles/*.conf profiles/*.ini)
SHIPPED_PROFILES := $(wildcard profiles/*.profile)
MAN1 := $(wildcard man/*.1)
MAN5 := $(wildcard man/*.5)

install: brisk
	install -Dm755 brisk $(DESTDIR)$(BINDIR)/brisk
	install -d $(DESTDIR)$(DATADIR) $(DESTDIR)$(MANDIR)/man1
	install -m644 $(DATA) $(DESTDIR)$(DATADIR)/
	$(if $(SHIPPED_PROFILES),install -d $(DESTDIR)$(DATADIR)/profiles && install -m644 $(SHIPPED_PROFILES) $(DESTDIR)$(DATADIR)/profiles/)
	install -m644 $(MAN1) $(DESTDIR)$(MANDIR)/man1/
	$(if $(MAN5),install -d $(DESTDIR)$(MANDIR)/man5 && install -m644 $(MAN5) $(DESTDIR)$(MANDIR)/man5/)

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/brisk $(DESTDIR)$(MANDIR)/man1/brisk*.1 $(DESTDIR)$(MANDIR)/man5/brisk*.5
	rm -rf $(DESTDIR)$(DATADIR)

clean:
	rm -rf build brisk

-include $(shell find build -name '*.d' 2>/dev/null)
