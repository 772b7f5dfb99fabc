# SPDX-License-Identifier: GPL-2.0-only
#
# make oldest-uapi: build vdpactl-batch, its unit tests and testbed/programs
# against the UAPI headers of the oldest supported release (Debian
# bookworm's linux-libc-dev, Linux 6.1, unpacked by scripts/fetch-uapi.sh),
# put first on the include path. A constant newer than those headers must
# then come from tools/vdpactl-batch/compat.h, whatever headers this
# machine has installed. "make check" runs it.

OLDEST_UAPI := $(BUILD)/uapi/oldest/usr/include
OLDEST_UAPI_CFLAGS := -I$(OLDEST_UAPI) \
	-I$(OLDEST_UAPI)/$(shell $(CC) -print-multiarch 2>/dev/null)
OLDEST_UAPI_OUT := $(BUILD)/oldest-uapi
OLDEST_UAPI_TESTTOOLS := \
	$(patsubst testbed/programs/%.c,$(OLDEST_UAPI_OUT)/testtools/%,$(TESTTOOL_SRCS))

.PHONY: oldest-uapi oldest-uapi-cflags oldest-uapi-clean

oldest-uapi: $(OLDEST_UAPI)/linux/vhost.h $(OLDEST_UAPI_TESTTOOLS)
	$(Q)$(MAKE) -C $(TOOL_DIR) O=$(OLDEST_UAPI_OUT)/tool \
		CFLAGS="$(OLDEST_UAPI_CFLAGS)" all tests
	@echo 'oldest-uapi: vdpactl-batch and testbed/programs build against $(shell cat $(BUILD)/uapi/oldest/version 2>/dev/null)'

$(OLDEST_UAPI_OUT)/testtools/simmark: $(TESTTOOL_LIB_simmark)
$(OLDEST_UAPI_OUT)/testtools/vsbdrv: $(TESTTOOL_LIB_vsbdrv) $(wildcard $(TOOL_DIR)/lib/*.h)
$(OLDEST_UAPI_OUT)/testtools/vsbfeat: $(TESTTOOL_LIB_vsbfeat) $(wildcard $(TOOL_DIR)/lib/*.h)
$(OLDEST_UAPI_OUT)/testtools/%: testbed/programs/%.c $(wildcard testbed/programs/*.h) $(OLDEST_UAPI)/linux/vhost.h
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(TESTTOOL_CFLAGS) $(TESTTOOL_CFLAGS_$*) $(OLDEST_UAPI_CFLAGS) \
		-I$(TOOL_DIR) -o $@ $< \
		$(TESTTOOL_LIB_$*)

$(OLDEST_UAPI)/linux/vhost.h:
	$(error no oldest UAPI headers in $(OLDEST_UAPI): run 'make setup')

# For tests/host/uapi-oldest.t, which builds altered copies of the tool.
oldest-uapi-cflags:
	@echo '$(OLDEST_UAPI_CFLAGS)'

oldest-uapi-clean:
	$(Q)rm -rf $(OLDEST_UAPI_OUT)

check-tests: oldest-uapi
clean: oldest-uapi-clean
