# SPDX-License-Identifier: GPL-2.0-only
#
# libFuzzer over the module's kernel-free code (tests/fuzz/README.md):
#   make fuzz         each target for FUZZ_TIME seconds (600); -j2 runs
#                     them side by side; FUZZ_TARGETS picks some
#   make fuzz-smoke   each target FUZZ_SMOKE_TIME seconds (8) from its
#                     seeds: what tests/host/fuzz-smoke.t runs
#   make fuzz-build   build/fuzz/fuzz_* only
#   make fuzz-corpus  rewrite tests/fuzz/corpus with tests/fuzz/gen_corpus.c
# A finding fails the target and is saved in build/fuzz/artifacts/TARGET/.

FUZZ_DIR := tests/fuzz
FUZZ_OUT := $(BUILD)/fuzz
FUZZ_TIME ?= 600
FUZZ_SMOKE_TIME ?= 8
FUZZ_TARGETS ?= fuzz_ring fuzz_ring_packed fuzz_cvq
FUZZ_RUNS := $(addprefix fuzz-run-,$(FUZZ_TARGETS))
FUZZ_SMOKES := $(addprefix fuzz-smoke-,$(FUZZ_TARGETS))

.PHONY: fuzz fuzz-smoke fuzz-build fuzz-corpus $(FUZZ_RUNS) $(FUZZ_SMOKES)

fuzz-build:
	$(Q)$(MAKE) -C $(FUZZ_DIR) O=$(FUZZ_OUT)

fuzz: $(FUZZ_RUNS)
$(FUZZ_RUNS): fuzz-run-%: fuzz-build
	$(Q)FUZZ_OUT=$(FUZZ_OUT) $(FUZZ_DIR)/run.sh $* $(FUZZ_TIME)

fuzz-smoke: $(FUZZ_SMOKES)
$(FUZZ_SMOKES): fuzz-smoke-%: fuzz-build
	$(Q)FUZZ_OUT=$(FUZZ_OUT) $(FUZZ_DIR)/run.sh --smoke $* $(FUZZ_SMOKE_TIME)

fuzz-corpus: fuzz-build
	$(Q)$(FUZZ_OUT)/gen-corpus $(FUZZ_DIR)/corpus
