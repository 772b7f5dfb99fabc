# SPDX-License-Identifier: GPL-2.0-only
#
# Installing on a real host: "make install" / "make uninstall", and the
# man page. Included by the top Makefile, whose KDIR, KVER, KREL, BUILD,
# TOOL_BIN and Q this uses.
#
#   make install [DESTDIR=/staging] [PREFIX=/usr/local] [KDIR=... | KVER=...]
#
# What goes where (PREFIX=/usr/local):
#   /lib/modules/KREL/updates/kmod/vdpa_sim_batch.ko[.xz]  kbuild's
#        modules_install: "updates" (INSTALL_MOD_DIR) is searched ahead of
#        the kernel's own modules by Debian's depmod and is kbuild 6.12's
#        default for external modules; "kmod/" is the module's directory in the
#        tree. dkms installs to updates/dkms instead: use one or the other.
#   PREFIX/sbin/vdpactl-batch      sbin, as Debian's iproute2 installs
#        "vdpa": an administration tool (man section 8); loads need root
#   PREFIX/share/man/man8/vdpactl-batch.8
#   PREFIX/share/bash-completion/completions/vdpactl-batch
#   PREFIX/share/doc/vdpa-batch/examples/{modprobe.d,modules-load.d}/
#        examples only: module options and boot-time loading are the
#        administrator's choice, so nothing is written into /etc.
#
# With DESTDIR (staging for a package) depmod is left to the package's
# maintainer scripts; without it, depmod runs for KREL after the module is
# installed or removed.

PREFIX ?= /usr/local
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
BASH_COMPLETION_DIR ?= $(PREFIX)/share/bash-completion/completions
DOCDIR ?= $(PREFIX)/share/doc/vdpa-batch
INSTALL_MOD_DIR ?= updates
INSTALL ?= install
RST2MAN ?= rst2man
DEPMOD ?= depmod

MAN_SRC := Documentation/vdpactl-batch.8.rst
MAN_PAGE := $(BUILD)/man/vdpactl-batch.8
COMPLETION_SRC := contrib/bash-completion/vdpactl-batch
EXAMPLES := contrib/modprobe.d/vdpa_sim_batch.conf \
	contrib/modules-load.d/vdpa_sim_batch.conf

# kbuild needs an absolute INSTALL_MOD_PATH: it runs in KDIR.
MOD_DESTDIR = $(if $(DESTDIR),$(abspath $(DESTDIR)))
MOD_INSTALL_DIR = $(MOD_DESTDIR)/lib/modules/$(KREL)/$(INSTALL_MOD_DIR)/kmod

# The key kbuild would sign with: CONFIG_MODULE_SIG_KEY, relative to KDIR
# unless absolute (kbuild's rule); PKCS#11 URIs are left to kbuild.
mod_kconfig = $(shell sed -n 's/^$(1)=//p' $(KDIR)/include/config/auto.conf 2>/dev/null)
MOD_SIG_KEY = $(patsubst "%",%,$(call mod_kconfig,CONFIG_MODULE_SIG_KEY))
MOD_SIGN_SKIP = $(if $(filter y,$(call mod_kconfig,CONFIG_MODULE_SIG_ALL)),$(if \
	$(filter pkcs11:%,$(MOD_SIG_KEY))$(wildcard $(MOD_SIG_KEY) $(KDIR)/$(MOD_SIG_KEY)),,not \
	signing the module: no signing key $(MOD_SIG_KEY) in $(KDIR) (see Documentation/user-guide.rst)))

.PHONY: install uninstall man dkms-check install-module install-tool install-man \
	install-completion install-examples uninstall-module install-clean

install: install-module install-tool install-man install-completion \
	install-examples

man: $(MAN_PAGE)

# --halt=warning: a man page that renders with warnings is not built.
$(MAN_PAGE): $(MAN_SRC)
	$(if $(shell command -v $(RST2MAN)),,$(error $(RST2MAN) not found: install Debian's python3-docutils (make setup)))
	@mkdir -p $(dir $@)
	$(Q)$(RST2MAN) --halt=warning $< $@.tmp && mv $@.tmp $@

# kbuild's own depmod step is switched off (cmd_depmod): it needs
# System.map, which header packages lack, and must not write module indexes
# into a staging DESTDIR. Modules are signed as kbuild does only when the
# kernel's signing key is there; Debian's headers do not ship it.
install-module: module
	$(if $(MOD_SIGN_SKIP),@echo 'install-module: $(MOD_SIGN_SKIP)')
	$(Q)scripts/kbuild.sh . $(BUILD)/kmod/$(KREL) $(KDIR) modules_install \
		INSTALL_MOD_PATH=$(MOD_DESTDIR) INSTALL_MOD_DIR=$(INSTALL_MOD_DIR) \
		cmd_depmod=: quiet_cmd_depmod= \
		$(if $(MOD_SIGN_SKIP),CONFIG_MODULE_SIG_ALL=)
	$(if $(DESTDIR),,$(Q)$(DEPMOD) -a $(KREL))

install-tool: tool
	$(Q)$(INSTALL) -D -m 0755 $(TOOL_BIN) $(DESTDIR)$(SBINDIR)/vdpactl-batch

install-man: $(MAN_PAGE)
	$(Q)$(INSTALL) -D -m 0644 $(MAN_PAGE) $(DESTDIR)$(MANDIR)/man8/vdpactl-batch.8

install-completion:
	$(Q)$(INSTALL) -D -m 0644 $(COMPLETION_SRC) \
		$(DESTDIR)$(BASH_COMPLETION_DIR)/vdpactl-batch

install-examples:
	$(Q)for f in $(EXAMPLES); do \
		$(INSTALL) -D -m 0644 $$f \
			$(DESTDIR)$(DOCDIR)/examples/$${f#contrib/} || exit 1; \
	done

# Removes exactly what install put there; shared directories stay.
uninstall: uninstall-module
	$(Q)rm -f $(DESTDIR)$(SBINDIR)/vdpactl-batch \
		$(DESTDIR)$(MANDIR)/man8/vdpactl-batch.8 \
		$(DESTDIR)$(BASH_COMPLETION_DIR)/vdpactl-batch \
		$(addprefix $(DESTDIR)$(DOCDIR)/examples/,$(EXAMPLES:contrib/%=%))
	$(Q)$(call remove_empty_dirs,$(addprefix $(DESTDIR)$(DOCDIR)/, \
		examples/modprobe.d examples/modules-load.d examples) $(DESTDIR)$(DOCDIR))

uninstall-module:
	$(if $(KREL),,$(error no kernel build tree at '$(KDIR)': set KVER= or KDIR= to the kernel the module was installed for))
	$(Q)rm -f $(MOD_INSTALL_DIR)/vdpa_sim_batch.ko \
		$(MOD_INSTALL_DIR)/vdpa_sim_batch.ko.gz \
		$(MOD_INSTALL_DIR)/vdpa_sim_batch.ko.xz \
		$(MOD_INSTALL_DIR)/vdpa_sim_batch.ko.zst
	$(Q)$(call remove_empty_dirs,$(MOD_INSTALL_DIR))
	$(if $(DESTDIR),,$(Q)$(DEPMOD) -a $(KREL))

# remove_empty_dirs DIR...: the directories of ours that are left empty.
remove_empty_dirs = for d in $(1); do \
		[ ! -d $$d ] || rmdir --ignore-fail-on-non-empty $$d || exit 1; \
	done

# dkms.conf at work, in temporary dkms trees (KVER: the kernel to build for).
dkms-check:
	$(Q)scripts/dkms-check.sh $(KVER)

clean: install-clean
install-clean:
	$(Q)rm -rf $(BUILD)/man
