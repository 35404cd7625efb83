# iosweep - job-file driven I/O tester.
#
#   make            build build/iosweep
#   make demo       run jobs/demo.ini on a 64 MiB file in ${IOSWEEP_DIR:-/var/tmp}, kept for the next run
#   make check      every test (installs missing Debian packages first)
#   make sanitize   the tests again under ASan + UBSan
#   make tsan       the unit tests and the threaded bats files under ThreadSanitizer
#   make lint       cppcheck, clang-tidy, mandoc -T lint
#   make fuzz       the fuzzers (job files, fio job files, result files), FUZZ_SECONDS each
#   make valgrind   memcheck over one small run of each engine
#   make bench      iosweep against bare loops and fio: bench/RESULTS.md
#                   (BEFORE=REV: and against that commit, built apart)
#   make mpi        build/iosweep-mpi, for mpirun across hosts (Open MPI)
#   make install    PREFIX=/usr/local DESTDIR=

CC      ?= cc
PREFIX  ?= /usr/local
BUILD   ?= build
CFLAGS  ?= -O2 -g
# override: a CFLAGS given on the command line (make sanitize) adds to these
override CFLAGS += -std=c17 -Wall -Wextra -Werror -pthread -Isrc
LDLIBS  += -pthread -lm

# Debian packages: what the build needs, and what the tests and demo add.
BUILD_DEBS := gcc make pkg-config libinih-dev libaio-dev liburing-dev libjansson-dev libxxhash-dev \
              libsqlite3-dev libblkid-dev
TEST_DEBS  := $(BUILD_DEBS) libcmocka-dev bats python3 util-linux e2fsprogs fdisk gnuplot-nox mandoc fio \
              strace sqlite3 openmpi-bin libopenmpi-dev \
              chromium tidy python3-html5lib python3-jsonschema python3-pil \
              python3-numpy python3-scipy
BENCH_DEBS := $(BUILD_DEBS) fio time python3 strace
PKGS       := inih jansson liburing libxxhash sqlite3 blkid

# A library that pkg-config cannot find stops the build with the package to install.
pkg_check = $(if $(shell pkg-config --exists $(1) && echo y),,$(error pkg-config cannot find $(1): apt-get install $(2)))
# Targets that install packages first (and then run make again) skip the check.
SELF_INSTALLING := deps test-deps clean demo demo-plots check sanitize tsan mpi mpi-bin lint fuzz valgrind bench
ifeq ($(filter $(SELF_INSTALLING),$(MAKECMDGOALS)),)
$(call pkg_check,inih,libinih-dev)
$(call pkg_check,jansson,libjansson-dev)
$(call pkg_check,liburing,liburing-dev)
$(call pkg_check,libxxhash,libxxhash-dev)
$(call pkg_check,sqlite3,libsqlite3-dev)
$(call pkg_check,blkid,libblkid-dev)
ifeq ($(wildcard /usr/include/libaio.h),)
$(error libaio.h not found: apt-get install libaio-dev)
endif
endif
override CFLAGS += $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# `iosweep run NAME.ini` also looks in the installed jobs directory
JOBS_DIR := $(PREFIX)/share/iosweep/jobs
override CFLAGS += -DIOSWEEP_JOBS_DIR='"$(JOBS_DIR)"'
LDLIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null) -laio $(LDLIBS)

# DIST=mpi (make mpi) swaps the single-host collectives for MPI's.
DIST    ?= single
# src/ is one folder a floor (see README, Layout); every object beside its
# dependency file (-MMD), so a header change rebuilds what includes it
LIB_SRC := $(filter-out src/cli/main.c src/run/dist_single.c src/run/dist_mpi.c src/preload/record_preload.c,\
	$(sort $(shell find src -name '*.c'))) src/run/dist_$(DIST).c
LIB_OBJ := $(LIB_SRC:src/%.c=$(BUILD)/obj/%.o)
UNIT    := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/test_*.c))
HELPERS := $(patsubst tests/helpers/%.c,$(BUILD)/tests/%,$(wildcard tests/helpers/*.c))
SHIMS   := $(patsubst tests/shim/%.c,$(BUILD)/tests/%.so,$(wildcard tests/shim/*_shim.c))
BENCH_BIN := $(patsubst bench/%.c,$(BUILD)/bench/%,$(wildcard bench/*.c))

.PHONY: all deps test-deps demo demo-plots check sanitize tsan mpi mpi-bin bench install clean lint fuzz valgrind
all: $(BUILD)/iosweep $(BUILD)/libiosweep-record.so

deps:
	@tools/deps.sh $(BUILD_DEBS)
test-deps:
	@tools/deps.sh $(TEST_DEBS)

$(BUILD)/obj/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@
-include $(LIB_OBJ:.o=.d) $(BUILD)/obj/cli/main.d
# the objects that name JOBS_DIR are rebuilt when PREFIX changes
PREFIX_STAMP := $(BUILD)/obj/prefix$(subst /,_,$(PREFIX))
$(BUILD)/obj/cli/cli.o $(BUILD)/obj/cli/commands.o: $(PREFIX_STAMP)
$(PREFIX_STAMP): | $(BUILD)/obj
	rm -f $(BUILD)/obj/prefix_*
	touch $@
# made anew: ar would keep the members of objects that are gone
$(BUILD)/libiosweep.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^
$(BUILD)/iosweep: $(BUILD)/obj/cli/main.o $(BUILD)/libiosweep.a
	$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@
# iosweep record's interposer: found beside the binary, or installed under
# PREFIX/lib/iosweep; never with the sanitizers' CFLAGS (it runs inside the
# recorded program)
$(BUILD)/libiosweep-record.so: src/preload/record_preload.c | $(BUILD)/obj
	$(CC) -O2 -g -std=c17 -Wall -Wextra -Werror -shared -fPIC -fvisibility=hidden $< -ldl -o $@
$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libiosweep.a | $(BUILD)/tests
	$(CC) $(CFLAGS) $< $(BUILD)/libiosweep.a $(shell pkg-config --libs cmocka) $(LDLIBS) -o $@
$(BUILD)/tests/%: tests/helpers/%.c | $(BUILD)/tests
	$(CC) $(CFLAGS) $< $(LDLIBS) -o $@
# the LD_PRELOAD shims (faults, signals): never with the sanitizers' CFLAGS
$(BUILD)/tests/%_shim.so: tests/shim/%_shim.c | $(BUILD)/tests
	$(CC) -O2 -g -std=c17 -Wall -Wextra -Werror -shared -fPIC $< -ldl -o $@
$(BUILD)/bench/%: bench/%.c bench/common.h | $(BUILD)/bench
	$(CC) $(CFLAGS) $< $(LDLIBS) -o $@
$(BUILD)/obj $(BUILD)/tests $(BUILD)/bench:
	mkdir -p $@

demo:
	@tools/deps.sh $(BUILD_DEBS)
	@$(MAKE) --no-print-directory all
	$(BUILD)/iosweep run jobs/demo.ini

# make check builds build/iosweep-mpi too where Open MPI's compiler is, so that
# the multi-host tests run (with plain CFLAGS: not under the sanitizers)
# (looked for when the recipe runs: deps.sh may just have installed it)
# (the builds use every core: NPROC jobs)
NPROC := $(shell nproc 2>/dev/null || echo 1)
check:
	@tools/deps.sh $(TEST_DEBS)
	@$(MAKE) --no-print-directory -j$(NPROC) all $(UNIT) $(HELPERS) $(SHIMS)
	@if command -v mpicc >/dev/null; then $(MAKE) --no-print-directory -j$(NPROC) mpi-bin CFLAGS="-O2 -g"; fi
	@BUILD=$(BUILD) tests/run.sh

bench:
	@tools/deps.sh $(BENCH_DEBS)
	@$(MAKE) --no-print-directory all $(BENCH_BIN)
	@BUILD=$(BUILD) BEFORE=$(BEFORE) bench/run.sh

sanitize:
	@$(MAKE) --no-print-directory check BUILD=build-san CC=clang \
		CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"

# the unit tests and the bats files where threads meet (workers, the mmap
# engine's helpers, the stdout watcher, the progress line, signals, the jobs
# of a group, the threads of a replay, the threads reading a tree) under
# ThreadSanitizer: a data race fails them.  The tests' LD_PRELOAD shims are
# not instrumented and are ignored: TSan models one descriptor table per
# process, and iosweep's threads have their own (run_own_files), so a shim's
# open() and write() of the same number in two threads read as a race.
TSAN_SUITES := tests/cli/core.bats tests/cli/faults.bats tests/cli/signals.bats \
	tests/cli/rate.bats tests/cli/progress.bats tests/cli/writes.bats \
	tests/cli/groups.bats tests/cli/replay_threads.bats tests/cli/opendir.bats
tsan:
	@BATS_SUITES="$(TSAN_SUITES)" TSAN_OPTIONS=halt_on_error=1:ignore_noninstrumented_modules=1 \
		$(MAKE) --no-print-directory check BUILD=build-tsan CFLAGS="-O2 -g -fsanitize=thread"

mpi:
	@tools/deps.sh $(BUILD_DEBS) openmpi-bin libopenmpi-dev
	@$(MAKE) --no-print-directory mpi-bin
mpi-bin:
	@$(MAKE) --no-print-directory BUILD=build-mpi CC=mpicc DIST=mpi build-mpi/iosweep
	@mkdir -p build && cp build-mpi/iosweep build/iosweep-mpi

lint:
	@tools/lint.sh
fuzz:
	@tools/deps.sh clang libclang-rt-14-dev $(BUILD_DEBS)
	@tests/fuzz/run.sh
valgrind:
	@tools/deps.sh valgrind $(BUILD_DEBS)
	@$(MAKE) --no-print-directory all
	@BUILD=$(BUILD) tests/valgrind.sh

# Every job of jobs/ run small (8 MiB, 3 repeats) and plotted: build/plots/NAME.json
# and NAME.svg.  Test files go to a temporary directory, removed afterwards.
demo-plots:
	@tools/deps.sh $(BUILD_DEBS) gnuplot-nox
	@$(MAKE) --no-print-directory all
	@mkdir -p $(BUILD)/plots
	@dir=$$(mktemp -d "$${IOSWEEP_DIR:-/var/tmp}/iosweep-plots.XXXXXX") || exit 1; \
	for j in jobs/*.ini; do \
		n=$$(basename "$$j" .ini); \
		IOSWEEP_DIR=$$dir $(BUILD)/iosweep run "$$j" --set size=8m --set repeat=3 --quiet \
			-o json:$(BUILD)/plots/$$n.json && \
		$(BUILD)/iosweep plot $(BUILD)/plots/$$n.json -o $(BUILD)/plots/$$n.svg && \
		echo "$(BUILD)/plots/$$n.svg" || { rm -rf "$$dir"; exit 1; }; \
	done; \
	rm -rf "$$dir"

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/man/man5 $(DESTDIR)$(PREFIX)/share/iosweep/jobs
	install -m 755 $(BUILD)/iosweep $(DESTDIR)$(PREFIX)/bin/iosweep
	install -d $(DESTDIR)$(PREFIX)/lib/iosweep
	install -m 755 $(BUILD)/libiosweep-record.so $(DESTDIR)$(PREFIX)/lib/iosweep/
	# the man pages name the PREFIX they are installed with
	for m in man1/iosweep.1 man5/iosweep-job.5; do \
		sed 's|/usr/local/share/iosweep|$(PREFIX)/share/iosweep|g' "man/$${m#*/}" \
			>"$(DESTDIR)$(PREFIX)/share/man/$$m" && chmod 644 "$(DESTDIR)$(PREFIX)/share/man/$$m" || exit 1; \
	done
	install -m 644 jobs/*.ini $(DESTDIR)$(PREFIX)/share/iosweep/jobs/

clean:
	rm -rf build build-san build-tsan build-mpi build-fuzz
