# SPDX-License-Identifier: GPL-2.0
# thunkless: the series and the harness that proves it.  See README.md.
SHELL := /bin/bash
S := scripts

.PHONY: all help deps tree export build bench bench-quick check clean distclean

help:
	@echo "make bench     build base/patched/limit UML kernels, run the pktgen A/B benchmark"
	@echo "make check     apply and prove the series (hygiene, builds, boots, kselftests, KUnit)"
	@echo "make tree      unpack the base into build/linux and apply the series"
	@echo "make export    regenerate patches/ from build/linux's commits"
	@echo "make build     build the x86_64 guest kernel and the patched UML kernel"

deps:
	@$(S)/deps.sh build qemu check bench

tree:
	@$(S)/deps.sh build
	@$(S)/tree.sh

export:
	@$(S)/export.sh

build: tree
	@$(S)/deps.sh qemu
	@$(S)/build.sh x86_64 >/dev/null
	@$(S)/build.sh um-patched >/dev/null

bench:
	@$(S)/bench.sh $(BENCHFLAGS)

bench-quick:
	@$(S)/bench.sh --quick $(BENCHFLAGS)

check:
	@$(S)/check.sh $(CHECKFLAGS)

clean:
	rm -rf build/out build/jobs build/check

distclean:
	rm -rf build results
