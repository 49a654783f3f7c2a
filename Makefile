# vmprof build. Sources are picked up by directory, so a new module or test is
# one new file, not a Makefile edit.

PREFIX   ?= /usr/local
BUILD    ?= build
CC       ?= cc
# The executable links CORE_PKGS; libxml2 and cairo only vmprof-formats.so,
# which it loads when an XML, SVG, HTML, PNG, PDF or EPS is read or written
# (cmd/formats_module.c says why).
CORE_PKGS = libtraceevent libelf gsl libprotobuf-c zlib
MOD_PKGS  = libxml-2.0 cairo libpng
PKGS      = $(CORE_PKGS) $(MOD_PKGS)
VERSION  := $(shell cat VERSION 2>/dev/null || echo 0.0.0)

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

# Warnings are errors: the tree builds clean on Debian 12's gcc and CI keeps it so.
WARN     ?= -Wall -Wextra -Werror -Wno-missing-field-initializers
OPT      ?= -O2 -g
CFLAGS   ?= $(OPT)
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -DVP_VERSION='"$(VERSION)"' $(WARN) \
             -I. -I$(GEN) $(PKG_CFLAGS) $(CFLAGS)
LDLIBS    = $(PKG_LIBS) -lcsv -liberty -lm
EXE_LDLIBS = $(shell pkg-config --libs $(CORE_PKGS) 2>/dev/null) -lcsv -liberty -lm
MOD_LDLIBS = $(shell pkg-config --libs $(MOD_PKGS) 2>/dev/null) -lm

SAN_FLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

LIB_SRCS  = $(sort $(wildcard lib/*/*.c converters/*.c render/*.c))
# the forwarders into vmprof-formats.so stand in for MOD_SRCS' entry points
# in the executable alone (libvmprof.a, for tests and fuzzers, has them all)
SHIM_SRC  = cmd/formats_module.c
CMD_SRCS  = $(filter-out $(SHIM_SRC),$(sort $(wildcard cmd/*.c)))
MOD_SRCS  = $(sort $(wildcard render/*.c)) converters/xml_read.c converters/xml_write.c
UNIT_SRCS = $(sort $(wildcard test/unit/test_*.c))
UNIT_HELP = $(filter-out $(UNIT_SRCS),$(sort $(wildcard test/unit/*.c)))

# pprof's profile.proto is compiled by protoc-c into the build directory: the
# .proto is the source, and the generated code matches the installed
# libprotobuf-c (its headers check the version) instead of a committed copy.
GEN       = $(BUILD)/gen

LIB_OBJS  = $(LIB_SRCS:%.c=$(BUILD)/%.o) $(GEN)/profile.pb-c.o $(GEN)/report_assets.o
CMD_OBJS  = $(CMD_SRCS:%.c=$(BUILD)/%.o)
MOD_OBJS  = $(MOD_SRCS:%.c=$(BUILD)/%.o) $(GEN)/report_assets.o
EXE_OBJS  = $(CMD_OBJS) $(SHIM_SRC:%.c=$(BUILD)/%.o) $(filter-out $(MOD_OBJS),$(LIB_OBJS))
UNIT_BINS = $(UNIT_SRCS:test/unit/%.c=$(BUILD)/test/%)
SAN_LIB_OBJS  = $(LIB_SRCS:%.c=$(BUILD)/san/%.o) $(BUILD)/san/gen/profile.pb-c.o \
                $(BUILD)/san/gen/report_assets.o
SAN_CMD_OBJS  = $(CMD_SRCS:%.c=$(BUILD)/san/%.o)
SAN_MOD_OBJS  = $(MOD_SRCS:%.c=$(BUILD)/san/%.o) $(BUILD)/san/gen/report_assets.o
SAN_EXE_OBJS  = $(SAN_CMD_OBJS) $(SHIM_SRC:%.c=$(BUILD)/san/%.o) \
                $(filter-out $(SAN_MOD_OBJS),$(SAN_LIB_OBJS))
SAN_UNIT_BINS = $(UNIT_SRCS:test/unit/%.c=$(BUILD)/san/test/%)
# Programs through which integration tests drive lib/ (test/drivers/*.c)
DRIVER_SRCS = $(sort $(wildcard test/drivers/*.c))
DRIVER_BINS = $(DRIVER_SRCS:test/drivers/%.c=$(BUILD)/test/drivers/%)
SAN_DRIVER_BINS = $(DRIVER_SRCS:test/drivers/%.c=$(BUILD)/san/test/drivers/%)

.PHONY: all deps check check-layers check-unit check-unit-san check-integration check-integration-opt \
        check-vm check-fuzz-regress \
        bench demo fuzz fuzz-ci install clean distclean workloads tsan
.DELETE_ON_ERROR:

all: $(BUILD)/vmprof $(BUILD)/vmprof-formats.so

# Example workloads (examples/workloads/*.c), each one program, built with
# frame pointers and symbols so their functions show by name on host and guest.
WORKLOADS = $(patsubst examples/workloads/%.c,$(BUILD)/examples/%,$(wildcard examples/workloads/*.c))
workloads: $(WORKLOADS)
$(BUILD)/examples/%: examples/workloads/%.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) -std=gnu11 -O1 -g -fno-omit-frame-pointer -pthread $(WARN) -o $@ $<

# The host-vs-guest demo (scripts/demo.sh): outputs in demo-out/;
# DEMO_FLAGS='--kvm --smp 2' passes options.
demo: deps
	@$(MAKE) --no-print-directory all workloads
	@BUILD=$(abspath $(BUILD)) scripts/demo.sh --out $(abspath demo-out) $(DEMO_FLAGS)

# The real host-vs-guest run as a test (make check runs it too, with the
# other integration tests): vm_host_guest boots the guest, vm_receive checks
# the transfer's damage detection.
check-vm: deps
	@$(MAKE) --no-print-directory all workloads $(BUILD)/san/vmprof
	@$(MAKE) --no-print-directory check-integration T=vm_

# Every lib/ object goes in whole and its vp_ symbols are exported
# (cmd/exports.list): the module calls into them. The module binds its own
# calls to itself (-Bsymbolic), so the forwarders of the same names never
# catch them. The module's own references are bound when it loads (-z now:
# one built against another executable fails dlopen, named), those of the
# libraries it pulls in as first called (dlopen's RTLD_LAZY).
EXE_LDFLAGS = -Wl,--dynamic-list=cmd/exports.list
MOD_LDFLAGS = -shared -Wl,-Bsymbolic -Wl,-z,now
$(BUILD)/vmprof: $(EXE_OBJS) cmd/exports.list | $(BUILD)/vmprof-formats.so
	$(CC) $(CFLAGS) $(EXE_LDFLAGS) -o $@ $(EXE_OBJS) $(EXE_LDLIBS)

$(BUILD)/vmprof-formats.so: $(MOD_OBJS)
	$(CC) $(CFLAGS) $(MOD_LDFLAGS) -o $@ $(MOD_OBJS) $(MOD_LDLIBS)
$(MOD_OBJS) $(SAN_MOD_OBJS): ALL_CFLAGS += -fPIC

$(BUILD)/libvmprof.a: $(LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(GEN)/%.pb-c.c $(GEN)/%.pb-c.h: converters/%.proto
	@mkdir -p $(GEN)
	@echo "  PROTOC  $<"
	@protoc-c --proto_path=converters --c_out=$(GEN) $<

# The HTML report's and the flame graph's style sheets and scripts, compiled
# in (with the scripts' hashes for the page's Content-Security-Policy).
ASSETS = report_css=render/report.css report_js=render/report.js \
         flame_css=render/flame.css flame_js=render/flame.js
$(GEN)/report_assets.c: $(foreach a,$(ASSETS),$(lastword $(subst =, ,$(a)))) scripts/embed-assets.sh
	@mkdir -p $(GEN)
	@echo "  EMBED   $@"
	@scripts/embed-assets.sh $@ $(ASSETS)

# generated sources are compiled by these rules (the ones above take the
# source tree's paths); every object waits for the generated header
$(GEN)/%.o: $(GEN)/%.c
	@echo "  CC      $<"
	@$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<
$(BUILD)/san/gen/%.o: $(GEN)/%.c
	@mkdir -p $(dir $@)
	@echo "  CC san  $<"
	@$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -MMD -MP -c -o $@ $<
$(BUILD)/fuzz/gen/%.o: $(GEN)/%.c
	@mkdir -p $(dir $@)
	@echo "  CC fuzz $<"
	@$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<
$(LIB_SRCS:%.c=$(BUILD)/%.o) $(EXE_OBJS) $(LIB_SRCS:%.c=$(BUILD)/san/%.o) $(SAN_EXE_OBJS) \
    $(LIB_SRCS:%.c=$(BUILD)/fuzz/%.o): | $(GEN)/profile.pb-c.h

$(BUILD)/test/%: test/unit/%.c $(UNIT_HELP) $(BUILD)/libvmprof.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itest/unit $(shell pkg-config --cflags cmocka) -o $@ $< $(UNIT_HELP) \
	    $(BUILD)/libvmprof.a $(LDLIBS) $(shell pkg-config --libs cmocka)

$(BUILD)/test/drivers/%: test/drivers/%.c $(BUILD)/libvmprof.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(BUILD)/libvmprof.a $(LDLIBS)

# The same sources built with ASan+UBSan, for the unit tests and a sanitized binary.
$(BUILD)/san/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC san  $<"
	@$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/san/libvmprof.a: $(SAN_LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/san/vmprof: $(SAN_EXE_OBJS) cmd/exports.list | $(BUILD)/san/vmprof-formats.so
	$(CC) $(CFLAGS) $(SAN_FLAGS) $(EXE_LDFLAGS) -o $@ $(SAN_EXE_OBJS) $(EXE_LDLIBS)

$(BUILD)/san/vmprof-formats.so: $(SAN_MOD_OBJS)
	$(CC) $(CFLAGS) $(SAN_FLAGS) $(MOD_LDFLAGS) -o $@ $(SAN_MOD_OBJS) $(MOD_LDLIBS)

$(BUILD)/san/test/%: test/unit/%.c $(UNIT_HELP) $(BUILD)/san/libvmprof.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -Itest/unit $(shell pkg-config --cflags cmocka) -o $@ $< \
	    $(UNIT_HELP) $(BUILD)/san/libvmprof.a $(LDLIBS) $(shell pkg-config --libs cmocka)

$(BUILD)/san/test/drivers/%: test/drivers/%.c $(BUILD)/san/libvmprof.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -o $@ $< $(BUILD)/san/libvmprof.a $(LDLIBS)

# ThreadSanitizer: the program built again in a directory of its own (TSan
# and ASan do not mix), for the integration test that runs the parallel
# walks, compare's loads, the read-ahead and the progress line under it.
TSAN_BUILD = $(BUILD)/tsan
tsan:
	@$(MAKE) --no-print-directory BUILD=$(TSAN_BUILD) OPT="-O1 -g -fsanitize=thread" \
	    $(TSAN_BUILD)/vmprof $(TSAN_BUILD)/vmprof-formats.so

# Fuzzing (clang, libFuzzer): each test/fuzz/fuzz_NAME.c is a target.
FUZZ_NAMES  = $(patsubst test/fuzz/fuzz_%.c,%,$(filter-out test/fuzz/fuzz_util.c,$(wildcard test/fuzz/fuzz_*.c)))
FUZZ_CC    ?= clang
FUZZ_SECONDS ?= 10
FUZZ_SAN    = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
FUZZ_CFLAGS = -std=c11 -D_GNU_SOURCE -DVP_VERSION='"$(VERSION)"' -I. -I$(GEN) $(PKG_CFLAGS) -g -O1 \
              -Wno-unused-command-line-argument
# targets read fixtures (symfs, kallsyms) from the source tree
FUZZ_DEFS   = -DVP_SRCDIR='"$(abspath .)"'
FUZZ_OBJS   = $(LIB_SRCS:%.c=$(BUILD)/fuzz/%.o) $(BUILD)/fuzz/gen/profile.pb-c.o \
              $(BUILD)/fuzz/gen/report_assets.o
# kept between runs: make would otherwise delete them as intermediates
.SECONDARY: $(FUZZ_OBJS) $(GEN)/profile.pb-c.c $(GEN)/profile.pb-c.h $(GEN)/report_assets.c

$(BUILD)/fuzz/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC fuzz $<"
	@$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(BUILD)/fuzz/fuzz_%: test/fuzz/fuzz_%.c test/fuzz/fuzz_util.c test/fuzz/fuzz.h $(FUZZ_OBJS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_DEFS) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $(filter-out %.h,$^) $(LDLIBS)

# The same targets without libFuzzer, for replaying inputs under ASan in make check.
$(BUILD)/san/replay_%: test/fuzz/fuzz_%.c test/fuzz/fuzz_util.c test/fuzz/replay_main.c test/fuzz/fuzz.h $(BUILD)/san/libvmprof.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(FUZZ_DEFS) $(SAN_FLAGS) -o $@ $(filter %.c,$^) $(BUILD)/san/libvmprof.a $(LDLIBS)

fuzz: deps
	@$(MAKE) --no-print-directory $(FUZZ_NAMES:%=$(BUILD)/fuzz/fuzz_%)
	@FUZZ_SECONDS=$(FUZZ_SECONDS) BUILD=$(abspath $(BUILD)) scripts/fuzz.sh $(FUZZ_NAMES)

# A CI-sized run: every target, 60 s in all.
fuzz-ci:
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$$((60 / $(words $(FUZZ_NAMES))))

# Every committed corpus and regression input, replayed through the ASan build.
check-fuzz-regress: $(FUZZ_NAMES:%=$(BUILD)/san/replay_%)
	@LSAN_OPTIONS=suppressions=$(abspath test/lsan.supp) BUILD=$(abspath $(BUILD)) \
	    scripts/fuzz-replay.sh $(FUZZ_NAMES)

deps:
	@scripts/deps.sh

# `make check` is the one test command: it installs what is missing, builds,
# runs the unit tests, the unit tests again under ASan+UBSan, then the
# integration tests against the real perf.
# The build (three builds of the sources, the tests, the replays) on every
# CPU: serially it was 2m44s of a check on 2 CPUs, on both 1m31s.
NPROC := $(shell nproc 2>/dev/null || echo 1)
check: deps
	@$(MAKE) --no-print-directory -j$(NPROC) all workloads $(BUILD)/san/vmprof $(UNIT_BINS) \
	    $(SAN_UNIT_BINS) $(DRIVER_BINS) $(SAN_DRIVER_BINS) $(FUZZ_NAMES:%=$(BUILD)/san/replay_%)
	@$(MAKE) --no-print-directory -j$(NPROC) tsan
	@$(MAKE) --no-print-directory check-layers check-unit check-unit-san check-fuzz-regress \
	    check-integration check-integration-opt

# The layering of design.md: a lower layer never includes an upper one
# (lib/ only lib/; converters/ and render/ lib/ and themselves), and no
# circle between headers or between source files (by the objects' symbols).
check-layers: $(LIB_OBJS) $(CMD_OBJS)
	@python3 scripts/check-layers.py $(LIB_OBJS) $(CMD_OBJS)

check-unit: $(UNIT_BINS)
	@scripts/run-unit.sh $(UNIT_BINS)

check-unit-san: $(SAN_UNIT_BINS)
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	    LSAN_OPTIONS=suppressions=$(abspath test/lsan.supp) scripts/run-unit.sh $(SAN_UNIT_BINS)

# Every integration test runs the ASan+UBSan binary; the tests that judge our
# numbers against perf's run the optimised binary too (check-integration-opt).
INTEGRATION_ENV = LSAN_OPTIONS=suppressions=$(abspath test/lsan.supp) BUILD=$(abspath $(BUILD)) \
    VMPROF_TSAN=$(abspath $(TSAN_BUILD)/vmprof)
OPT_TESTS = agrees_with_perf compare_oracle report_vdso stats_oracle
check-integration: $(BUILD)/vmprof $(BUILD)/san/vmprof $(SAN_DRIVER_BINS) tsan
	@VMPROF=$(abspath $(BUILD)/san/vmprof) VMPROF_SAN=$(abspath $(BUILD)/san/vmprof) \
	    $(INTEGRATION_ENV) scripts/run-integration.sh $(T)
check-integration-opt: $(BUILD)/vmprof $(DRIVER_BINS)
	@echo "integration tests against perf, optimised build:"
	@VMPROF=$(abspath $(BUILD)/vmprof) VMPROF_SAN=$(abspath $(BUILD)/vmprof) \
	    $(INTEGRATION_ENV) scripts/run-integration.sh $(OPT_TESTS)

# The build runs after deps: the pkg-config flags are read when make starts.
bench: deps
	@$(MAKE) --no-print-directory all
	@scripts/bench.sh $(abspath $(BUILD)/vmprof)

install: $(BUILD)/vmprof $(BUILD)/vmprof-formats.so
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/vmprof \
	    $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BUILD)/vmprof $(DESTDIR)$(PREFIX)/bin/vmprof
	install -m 644 $(BUILD)/vmprof-formats.so $(DESTDIR)$(PREFIX)/lib/vmprof/vmprof-formats.so
	install -m 644 man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/

clean:
	rm -rf $(BUILD)

# Also what `make demo` leaves in the tree (the fuzzers' corpora live in $(BUILD)).
distclean: clean
	rm -rf demo-out

-include $(LIB_OBJS:.o=.d) $(EXE_OBJS:.o=.d) $(SAN_LIB_OBJS:.o=.d) $(SAN_EXE_OBJS:.o=.d) $(FUZZ_OBJS:.o=.d)
