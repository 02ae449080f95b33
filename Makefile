# SPDX-License-Identifier: GPL-2.0
# thunkless: the series and the harness that proves it.  See README.md.
SHELL := /bin/bash
S := scripts

.PHONY: all help deps tree export build bench bench-quick bench-upstream bench-srso bench-modules check clean distclean

help:
	@echo "BASE=6.12 (or 6.1, the default) on any target: that base's series (patches/<base>/); make check without BASE proves both (6.12 by its build proofs)"
	@echo "make bench     build the UML kernels (base/patched/limit, and tc as modules), run the pktgen A/B benchmark"
	@echo "make bench-upstream  tc-matchall n=1,100 on those and on upstream 6.12's own tc wrapper"
	@echo "make bench-srso  the same with retpolines plus SRSO safe RET, AMD Zen 1-3's default (base-srso, patched-srso)"
	@echo "make bench-modules   the tc scenarios alone, tc built in and as modules (base-mod, patched-mod)"
	@echo "make check     apply and prove the series: 6.1 whole (hygiene, builds, boots, kselftests, KUnit), 6.12's build proofs; BASE=6.12: that one whole; CHECKFLAGS=--long: every base whole, in depth"
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

# Against upstream 6.12's tc wrapper: um-upstream and um-upstream-limit
# (configs/profiles) join base, patched and limit; not part of "make check".
bench-upstream:
	@$(S)/bench.sh --upstream --scenarios tc-matchall:1:100 --gates on $(BENCHFLAGS)

# Retpolines plus SRSO safe RET, the default on AMD Zen 1-3: um-base-srso and
# um-patched-srso (configs/profiles) join base, patched and limit, which has
# neither; not part of "make check".
bench-srso:
	@$(S)/bench.sh --srso --scenarios tc-matchall:1:100,udp-lookup --gates on $(BENCHFLAGS)

# The tc scenarios alone, on the six kernels of "make bench": base,
# patched and limit with tc built in, base-mod, patched-mod and limit-mod
# with tc's classifiers and actions as modules, as distributions build them.
bench-modules:
	@$(S)/bench.sh --scenarios tc-matchall,tc-mixed $(BENCHFLAGS)

check:
	@$(S)/check.sh $(CHECKFLAGS)

clean:
	rm -rf build/out build/jobs build/check

distclean:
	rm -rf build results
