# SPDX-License-Identifier: GPL-2.0-only
#
# vdpa-batch top-level Makefile. "make help" lists the targets.

BUILD := $(CURDIR)/build

# KERNEL: the kernel the VM boots. "testbed" is Debian's 6.12 that setup
# installs headers for (build/testbed.env); "newest" the newest kernel in
# Debian's archive, a second test bed that "make newest-setup" makes
# (build/newest.env; Documentation/testbed.rst); "debug" the test bed's
# version built with lockdep, KASAN and UBSAN, an opt-in third that "make
# debug-setup" makes (build/debug.env). Each has its own image and logs;
# the other's module goes into the image too, for the vermagic test.
KERNEL ?= testbed
ifeq ($(KERNEL),testbed)
-include build/testbed.env
VM_DIR := $(BUILD)/vm
OTHER_ENV := $(BUILD)/newest.env
else ifeq ($(KERNEL),newest)
-include build/newest.env
VM_DIR := $(BUILD)/vm/newest
OTHER_ENV := $(BUILD)/testbed.env
else ifeq ($(KERNEL),debug)
-include build/debug.env
VM_DIR := $(BUILD)/vm/debug
OTHER_ENV := $(BUILD)/testbed.env
else
$(error KERNEL=$(KERNEL): testbed, newest or debug)
endif
export VB_KERNEL := $(KERNEL)
OTHER_KVER := $(shell sed -n 's/^TESTBED_KVER=//p' $(OTHER_ENV) 2>/dev/null)
OTHER_KDIR := $(shell sed -n 's/^TESTBED_KDIR=//p' $(OTHER_ENV) 2>/dev/null)
HOST_KREL := $(shell uname -r)

# KDIR: the kernel the module is built for. KVER names a Debian kernel by
# release; otherwise the running kernel's headers, else the test bed's.
ifdef KVER
KDIR ?= /lib/modules/$(KVER)/build
else ifneq ($(wildcard /lib/modules/$(HOST_KREL)/build/Makefile),)
KDIR ?= /lib/modules/$(HOST_KREL)/build
else
KDIR ?= $(TESTBED_KDIR)
endif
KREL = $(shell cat $(KDIR)/include/config/kernel.release 2>/dev/null)

ifeq ($(V),1)
Q :=
else
Q := @
MAKEFLAGS += --no-print-directory
endif
export V

# Extra kbuild flags (W=, C=, KCFLAGS=) pass through.
W ?= 1
KBUILD_ARGS = W=$(W) $(if $(C),C=$(C)) $(if $(KCFLAGS),KCFLAGS="$(KCFLAGS)")

KMOD_SRCS := Kbuild $(wildcard kmod/Kbuild kmod/*/*.[ch] kmod/uapi/*.h)
TESTMOD_SRCS := $(wildcard testbed/warn-module/Kbuild testbed/warn-module/*.[ch])
TOOL_DIR := tools/vdpactl-batch
TOOL_SRCS := $(shell find $(TOOL_DIR) -type f 2>/dev/null)
TOOL_OUT := $(BUILD)/tool
TOOL_BIN := $(TOOL_OUT)/vdpactl-batch
# The tool's unit tests (test_cli runs the whole command line over fakes)
# are built apart, under ASan and UBSan.
TOOL_SAN_OUT := $(BUILD)/tool-san
# The statistics of the benchmarks' scripts, host and guest (tools/bench-report).
BENCH_REPORT_BIN := $(BUILD)/bench-report/bench-report
SAN_CFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all
HAVE_TOOL := $(wildcard $(TOOL_DIR)/Makefile)
KUNIT_DIR := tests/unit/kmod
KUNIT_OUT := $(BUILD)/unit/kmod
# Small programs the VM tests run in the guest (testbed/programs/NAME.c).
TESTTOOL_SRCS := $(wildcard testbed/programs/*.c)
TESTTOOLS := $(patsubst testbed/programs/%.c,$(BUILD)/testtools/%,$(TESTTOOL_SRCS))
TESTTOOL_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -pthread

TB_KO := $(BUILD)/kmod/$(TESTBED_KVER)/kmod/vdpa_sim_batch.ko
TB_TESTMOD := $(BUILD)/testmod/$(TESTBED_KVER)/vdpa_batch_warn_test.ko
TB_STOCK := $(addprefix $(BUILD)/stock/$(TESTBED_KVER)/,vringh.ko vdpa_sim.ko vdpa_sim_net.ko)
TB_OTHER_KO := $(if $(OTHER_KVER),$(BUILD)/kmod/$(OTHER_KVER)/kmod/vdpa_sim_batch.ko)
TB_IMAGE := $(VM_DIR)/initramfs.cpio
# QEMU 10 for the tests that run it in the guest, appended by vm.sh.
TB_QEMU_LAYER := $(BUILD)/vm/qemu.cpio
TB_QEMU_VERSION := $(wildcard $(BUILD)/qemu/version)
TB_INPUTS := $(shell find tests testbed scripts -type f 2>/dev/null)

HOST_TESTS = $(wildcard tests/host/*.t)
# Listed when the recipe runs: make's own wildcard cache would miss
# binaries that sub-makes built moments before.
UNIT_TESTS = $$(ls $(TOOL_SAN_OUT)/tests/test_* $(KUNIT_OUT)/test_* 2>/dev/null)
# VM_TESTS and the suites of make check's passes: tests/vm/suites.mk.
include tests/vm/suites.mk
HARNESS_TESTS = $(wildcard tests/harness/*.t)

.PHONY: all module tool setup testbed testbed-image check check-tests run bench-report \
	newest-setup check-newest test-host host-tests \
	lint clean distclean help unit-tests tool-unit-tests kmod-unit-tests \
	insn-count

all: module tool

help:
	@echo 'vdpa-batch targets:'
	@echo '  all (default)  build the module (for KDIR) and vdpactl-batch'
	@echo '  module         build kmod/vdpa_sim_batch.ko against KDIR'
	@echo '  tool           build build/tool/vdpactl-batch'
	@echo '  setup          install packages, fetch the test-bed kernel, build stock vdpa_sim_net (root)'
	@echo '  testbed-image  build the VM initramfs (module, stock modules, tool, tests)'
	@echo '  check          setup, lint, host unit tests, then the VM tests (CI runs this),'
	@echo '                 then a part of them on the newest Debian kernel (all: KERNEL=newest)'
	@echo '  test-host      the tests that need neither root nor the VM: unit, host, lint'
	@echo '  newest-setup   the newest Debian kernel as a second test bed (KERNEL=newest)'
	@echo '  debug-setup    build the test bed'"'"'s kernel with lockdep, KASAN, UBSAN (KERNEL=debug, opt-in)'
	@echo '  unit-tests     build the host unit tests of the tool and of the module code (ASan/UBSan)'
	@echo '  run            the main job, in the VM'
	@echo '  insn-count     build the TCG plugin that counts guest instructions (scripts/bench-insns.sh)'
	@echo '  lint           W=1 -Werror, sparse (C=2), kmod layers, checkpatch, clang-format, shellcheck'
	@echo '  fresh-check    scripts/setup.sh, make, make run, make check of HEAD in a debootstrapped bookworm root (root)'
	@echo '  oldest-uapi    build the tool and testbed/programs against bookworm'"'"'s Linux 6.1 UAPI headers'
	@echo '  compat         W=1 -Werror module builds against the test bed and the newest Debian kernel source'
	@echo '  install        module, tool, man page, completion, examples (DESTDIR=, PREFIX=/usr/local)'
	@echo '  uninstall      remove what install installed'
	@echo '  man            build build/man/vdpactl-batch.8 (rst2man)'
	@echo '  dkms-check     dkms add/build/remove of dkms.conf in temporary trees'
	@echo '  fuzz           run each libFuzzer target FUZZ_TIME seconds (default 600)'
	@echo '  fuzz-smoke     a short run of each fuzz target (make check runs it)'
	@echo '  clean          remove build outputs (keeps the download cache)'
	@echo '  distclean      remove build/ entirely'
	@echo 'Variables: KDIR=<kernel build dir>  KVER=<Debian kernel release>  V=1'
	@echo '  KERNEL=testbed|newest|debug  the kernel the VM boots (check, run, testbed-image);'
	@echo '                 make check KERNEL=debug runs the locking and memory tests on the debug kernel'
	@echo '  module: $(if $(KDIR),$(KDIR),(no kernel headers found: make setup or KDIR=))'
	@echo '  test bed: $(if $(TESTBED_KVER),$(TESTBED_KVER),(not set up: make setup))'

module:
	$(if $(KREL),,$(error no kernel build tree at '$(KDIR)': run 'make setup' or set KDIR=))
	$(Q)scripts/kbuild.sh . $(BUILD)/kmod/$(KREL) $(KDIR) $(KBUILD_ARGS) modules
	@echo 'module: $(BUILD)/kmod/$(KREL)/kmod/vdpa_sim_batch.ko'

ifneq ($(HAVE_TOOL),)
tool: $(TOOL_BIN)
$(TOOL_BIN): $(TOOL_SRCS)
	$(Q)$(MAKE) -C $(TOOL_DIR) O=$(TOOL_OUT)
unit-tests: tool-unit-tests
tool-unit-tests:
	$(Q)$(MAKE) -C $(TOOL_DIR) O=$(TOOL_SAN_OUT) CFLAGS="$(SAN_CFLAGS)" tests
else
tool:
	@echo '$@: $(TOOL_DIR) has no Makefile yet; nothing to build'
endif

# The module's ring, CVQ and loopback code, built for the host.
unit-tests: kmod-unit-tests
kmod-unit-tests:
	$(Q)$(MAKE) -C $(KUNIT_DIR) O=$(KUNIT_OUT)

setup:
	$(Q)scripts/setup.sh

testbed-image: $(TB_IMAGE) $(if $(TB_QEMU_VERSION),$(TB_QEMU_LAYER))

$(TB_KO): $(KMOD_SRCS)
	$(Q)scripts/kbuild.sh . $(BUILD)/kmod/$(TESTBED_KVER) $(TESTBED_KDIR) $(KBUILD_ARGS) modules

ifneq ($(OTHER_KVER),)
$(TB_OTHER_KO): $(KMOD_SRCS)
	$(Q)scripts/kbuild.sh . $(BUILD)/kmod/$(OTHER_KVER) $(OTHER_KDIR) $(KBUILD_ARGS) modules
endif

$(TB_TESTMOD): $(TESTMOD_SRCS)
	$(Q)scripts/kbuild.sh testbed/warn-module $(BUILD)/testmod/$(TESTBED_KVER) $(TESTBED_KDIR) $(KBUILD_ARGS) modules

$(TB_STOCK):
	$(Q)scripts/build-stock.sh

# The TCG plugin that counts guest instructions (scripts/bench-insns.sh).
INSN_PLUGIN := $(BUILD)/plugin/insn_count.so
insn-count: $(INSN_PLUGIN)
$(INSN_PLUGIN): tools/insn-count/insn_count.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -fPIC -shared \
		-fvisibility=hidden -o $@ $<

# A test program may build in files of the tool's library.
TESTTOOL_LIB_simmark := $(TOOL_DIR)/lib/sim_mark.c
TESTTOOL_LIB_vsbdrv := $(addprefix $(TOOL_DIR)/lib/,cvq_cmd.c cvq_dev.c \
	cvq_io.c cvq_negotiate.c cvq_shm.c cvq_vring.c diag.c net_features.c \
	shm.c strparse.c vhost_vdpa.c vring.c vring_packed.c)
# The library's files are built as the tool builds them (memfd_create(),
# eventfd and le16toh() are glibc extensions).
TESTTOOL_CFLAGS_vsbdrv := -D_GNU_SOURCE
TESTTOOL_LIB_vsbfeat := $(addprefix $(TOOL_DIR)/lib/,cvq_cmd.c cvq_io.c diag.c \
	net_features.c shm.c strparse.c vhost_vdpa.c vring.c vring_packed.c) \
	testbed/programs/common/feature_cover.c
TESTTOOL_CFLAGS_vsbfeat := -D_GNU_SOURCE
$(BUILD)/testtools/simmark: $(TESTTOOL_LIB_simmark)
$(BUILD)/testtools/vsbdrv: $(TESTTOOL_LIB_vsbdrv) $(wildcard $(TOOL_DIR)/lib/*.h)
$(BUILD)/testtools/vsbfeat: $(TESTTOOL_LIB_vsbfeat) $(wildcard $(TOOL_DIR)/lib/*.h) \
	$(wildcard testbed/programs/common/*.h)
$(BUILD)/testtools/%: testbed/programs/%.c $(wildcard testbed/programs/*.h)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(TESTTOOL_CFLAGS) $(TESTTOOL_CFLAGS_$*) -I$(TOOL_DIR) -o $@ $< \
		$(TESTTOOL_LIB_$*)

$(TB_IMAGE): $(TB_KO) $(TB_OTHER_KO) $(TB_TESTMOD) $(TB_STOCK) $(if $(HAVE_TOOL),$(TOOL_BIN)) $(TESTTOOLS) \
		$(BENCH_REPORT_BIN) $(TB_INPUTS)
	$(if $(TESTBED_KVER),,$(error test bed not set up: run 'make setup'))
	$(Q)testbed/mkinitramfs.sh $@

$(TB_QEMU_LAYER): $(TB_QEMU_VERSION) testbed/mkinitramfs.sh
	$(Q)testbed/mkinitramfs.sh --qemu $@

# The newest kernel in Debian's archive as a second test bed
# (build/newest.env); without a kernel newer than the test bed's there is
# none, and the newest kernel's tests are skipped.
newest-setup:
	$(Q)scripts/compat.sh --testbed

# Setup may pick a new kernel, so everything after it runs in a fresh make
# that reads the new build/testbed.env.
ifeq ($(KERNEL),testbed)
check: setup
	$(Q)$(MAKE) newest-setup
	$(Q)$(MAKE) check-tests
	$(Q)$(MAKE) check-newest NEWEST_TESTS="$(NEWEST_VM_TESTS)"
else ifeq ($(KERNEL),debug)
check: setup debug-setup
	$(Q)$(MAKE) check-debug
else
check: setup newest-setup
	$(Q)$(MAKE) KERNEL=testbed check-newest NEWEST_TESTS="$(VM_TESTS)"
endif

# check-newest NEWEST_TESTS=...: those VM tests on the newest kernel.
check-newest:
	$(Q)if [ ! -e $(BUILD)/newest.env ]; then \
		echo 'check: SKIP the newest kernel: none newer than $(TESTBED_KVER) in the archive'; \
	else \
		$(MAKE) KERNEL=newest testbed-image && \
		VB_KERNEL=newest VM_NO_BUILD=1 prove --timer --exec tests/run-test \
			$(NEWEST_TESTS); \
	fi

check-tests: testbed-image unit-tests lint
	$(Q)VM_NO_BUILD=1 prove --timer --exec tests/run-test \
		$(HOST_TESTS) $(UNIT_TESTS) $(VM_TESTS) $(HARNESS_TESTS)
	$(Q)VM_NO_BUILD=1 VM_SLUB_DEBUG=1 VM_TIMEOUT=$${VM_TIMEOUT:-1200} \
		prove --timer --exec tests/run-test $(SLUB_VM_TESTS)

# The main job: scripts/run.sh runs the stages (on the newest kernel only
# the comparison itself: the instruction counts, QEMU and cold-load
# figures are the test bed's), one progress line each, and ends with the
# verdict; everything else goes to build/bench.
run:
	$(Q)scripts/run.sh

# The verdict and report.html of "make run", from its samples.
bench-report: $(BENCH_REPORT_BIN)
$(BENCH_REPORT_BIN): $(wildcard tools/bench-report/*.[ch] tools/bench-report/Makefile) \
		$(TOOL_DIR)/load/timestats.c $(TOOL_DIR)/load/timestats.h \
		$(TOOL_DIR)/load/turns.h
	$(Q)$(MAKE) -s -C tools/bench-report O=$(BUILD)/bench-report

# Lint needs the test bed's kernel (headers for W=1 and sparse, its source
# for checkpatch and .clang-format), which setup fetches, not the image.
lint:
	$(if $(TESTBED_KVER),,$(error test bed not set up: run 'make setup'))
	$(Q)scripts/lint.sh

# Every test that needs neither root nor the VM, for the edit-compile-test
# loop: the unit tests under ASan/UBSan, the host tests (the fuzzers'
# smoke run, the oldest-UAPI build, dkms in temporary trees, ...) and
# lint. Under "make -j2 test-host" lint, one file at a time, runs beside
# the unit tests' build and then beside the tests, two at a time. Needs
# "make setup" once, as root.
test-host: lint host-tests
host-tests: unit-tests
	$(Q)prove -j2 --timer --exec tests/run-test $(HOST_TESTS) $(UNIT_TESTS)

clean:
	$(Q)rm -rf $(BUILD)/kmod $(BUILD)/testmod $(BUILD)/tool $(BUILD)/vm \
		$(BUILD)/tool-san $(BUILD)/bench-report \
		$(BUILD)/stock $(BUILD)/bench $(BUILD)/unit $(BUILD)/lint \
		$(BUILD)/testtools

distclean:
	$(Q)rm -rf $(BUILD)

# Feature fragments: one file per job (fuzzing, packaging, ...).
include $(sort $(wildcard mk/*.mk))
