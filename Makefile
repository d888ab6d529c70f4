# Cactus: thin entry points over cargo and the firmware build (docs/testing.md explains each).
#
#   make setup   install missing system packages (scripts/setup)
#   make build   the `cactus` binary (release) and the firmware test programs
#   make install PREFIX=DIR   the binary to DIR/bin, the kernel to DIR/share/cactus
#   make demo    build, then run the demo firmware (workloads/demo) on cactus-sim with its
#                statistics and per-task report, then the MTSS network workload with one
#                task's stack cut to 128 bytes under `mtss` (frames moved, bytes lent and
#                borrowed per task in the report); each run also as an HTML page
#                (build/demo.html, build/demo-mtss.html) and the demo as a Perfetto trace
#   make test    fmt, clippy, unit tests, firmware, difftests against QEMU; the last line
#                printed is "N passed, M failed" summed over every step
#   make bench   the parsers' property tests at 200 000 cases each, cactus-sim speed against
#                QEMU (cactus bench sim-speed), the kernel's
#                switch cost and footprint (cactus bench kernel), its costs against the
#                number of tasks (cactus bench scaling), the stack checks' cost
#                (cactus bench checks), the workload suites at
#                full inputs (cactus bench workloads) and the segmented-stack evaluation
#                (cactus bench segmented)

SHELL  := /bin/bash
CARGO  ?= cargo
CACTUS := target/release/cactus
DEMO   ?= workloads/demo/demo.toml
DEMO_MTSS   ?= workloads/mtss/network-small.toml
DEMO_SHRINK ?= patricia=90%
RANDOM_COUNT ?= 200
RANDOM_SEED  ?= 1
FUZZ_RUNS    ?= 20
MT_FUZZ_RUNS ?= 8
ISO_FUZZ_RUNS ?= 8
PT_FUZZ_RUNS ?= 8
LS_FUZZ_RUNS ?= 8
STRESS_RUNS  ?= 200
# Parallel jobs for the firmware step (the C builds of tests/, kernel/, workloads/).
JOBS         ?= $(shell nproc)
FUZZ_SEED    ?= 1
# One log directory per `make test` run (make's pid), so runs in the same tree never mix.
RUN_ID := $(shell echo $$PPID)
LOGS   := build/test-logs/run-$(RUN_ID)
SUMMARY := $(LOGS)/summary
# Seconds per step ("S NAME" lines), printed slowest first before the result line.
TIMES   := $(LOGS)/times
# A comma inside $(call ...) arguments.
comma := ,

PREFIX ?= /usr/local

.PHONY: setup build cactus firmware demo test bench install install-data

setup:
	bash scripts/setup

cactus:
	$(CARGO) build --release -p cactus-cli

firmware:
	$(MAKE) -j$(JOBS) -C tests
	$(MAKE) -j$(JOBS) -C kernel
	$(MAKE) -j$(JOBS) -C workloads qemu

build: cactus firmware

# install: the `cactus` binary to $(PREFIX)/bin (cargo builds it first only if it is stale) and
# the kernel it builds firmware against to $(PREFIX)/share/cactus, where the binary looks for
# it (docs/own-project.md). install-data alone puts the kernel beside a binary installed
# otherwise (`cargo install --path crates/cli`: PREFIX=~/.cargo). PREFIX may hold spaces.
install: cactus install-data
	install -d "$(PREFIX)/bin"
	install -m 755 $(CACTUS) "$(PREFIX)/bin/cactus"

install-data:
	install -d "$(PREFIX)/share/cactus"
	rm -rf "$(PREFIX)/share/cactus/kernel"
	cp -R kernel "$(PREFIX)/share/cactus/kernel"

demo: setup cactus
	$(CACTUS) run $(DEMO) --report build/demo.html --trace build/demo.perfetto-trace
	$(CACTUS) run $(DEMO_MTSS) --stack mtss --shrink $(DEMO_SHRINK) --report build/demo-mtss.html
	@echo "make demo: the runs as HTML pages, build/demo.html and build/demo-mtss.html (any browser);"
	@echo "           the demo's timeline, build/demo.perfetto-trace (ui.perfetto.dev)"

# step NAME, COMMAND: runs COMMAND and records one passed or failed step; its output is also
# kept in $(LOGS)/NAME.log, from which a failing step's reasons are printed at the end.
define step
	@echo "== $(1): $(2)"
	@t0=$$(date +%s); set -o pipefail; if { $(2); } 2>&1 | tee $(LOGS)/$(1).log; then \
	 echo "1 0 $(1)" >> $(SUMMARY); \
	 else echo "0 1 $(1)" >> $(SUMMARY); echo "== $(1): FAILED"; fi; \
	 echo "$$(( $$(date +%s) - t0 )) $(1)" >> $(TIMES)
endef

# counted NAME, COMMAND: runs a difftest COMMAND and records its own "N passed, M failed"
# or, for a sweep (bench, stress), the "passed=N failed=M" ending its summary line (one
# failure if it printed neither, e.g. on bad input). Skipped, as one failure, if the
# cactus step failed: a stale binary must not report on code that does not build.
define counted
	@echo "== $(1): $(2)"
	@if grep -qx "0 1 cactus" $(SUMMARY); then \
	   echo "0 1 $(1)" >> $(SUMMARY); echo "== $(1): SKIPPED (cactus did not build)"; exit 0; fi; \
	 t0=$$(date +%s); set -o pipefail; $(2) | tee $(LOGS)/$(1).log || true; \
	 echo "$$(( $$(date +%s) - t0 )) $(1)" >> $(TIMES); \
	 last=$$(tail -n 1 $(LOGS)/$(1).log); \
	 if [[ "$$last" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$$ ]] || \
	    [[ "$$last" =~ \ passed=([0-9]+)\ failed=([0-9]+)$$ ]]; then \
	   echo "$${BASH_REMATCH[1]} $${BASH_REMATCH[2]} $(1)" >> $(SUMMARY); \
	 else echo "0 1 $(1)" >> $(SUMMARY); echo "== $(1): FAILED (no result line)"; fi
endef

# Every step runs even if an earlier one failed, so one run shows everything that is wrong.
# The steps after `cactus` run in two lanes at once, each a plain serial sub-make: lane A the
# serial steps (the tests/ check programs in their own build directories, the scripts'
# scenarios), lane B the sweeps that use both cores themselves (firmware builds are atomic, so
# the lanes may share build/firmware). Lane B prints as it goes; lane A's output is kept in
# lane-a.out and printed when both have ended. A
# sub-make has its own $PPID, so the log directory is passed down; a lane that stops early
# (not a failing step: a broken recipe) counts as a failed step "lanes".
test: setup
	@mkdir -p $(LOGS) && rm -f $(SUMMARY) $(TIMES) && echo "== logs: $(LOGS)"
	$(call step,fmt,$(CARGO) fmt --all -- --check)
	$(call step,clippy,$(CARGO) clippy --workspace --all-targets -- -D warnings)
	$(call step,firmware,$(MAKE) -j$(JOBS) -C tests && $(MAKE) -j$(JOBS) -C kernel && \
	    $(MAKE) -j$(JOBS) -C workloads qemu)
	$(call counted,kernel-host,$(MAKE) --no-print-directory -C kernel host-test)
	$(call counted,workloads-host,$(MAKE) --no-print-directory -C workloads host-test)
	$(call step,cargo-test,$(CARGO) test --workspace --release)
	$(call step,cactus,$(CARGO) build --release -p cactus-cli)
	@echo "== lanes: A (checks, scripts) in $(LOGS)/lane-a.out, printed when it ends; B (sweeps) here"
	@$(MAKE) --no-print-directory LOGS=$(LOGS) test-lane-a > $(LOGS)/lane-a.out 2>&1 & a=$$!; \
	 $(MAKE) --no-print-directory LOGS=$(LOGS) test-lane-b; b=$$?; wait $$a; a=$$?; \
	 echo "== lane A:"; cat $(LOGS)/lane-a.out; \
	 if [ $$a -ne 0 ] || [ $$b -ne 0 ]; then echo "0 1 lanes" >> $(SUMMARY); fi
	@echo "== slowest steps (seconds; all in $(TIMES)):"; sort -rn $(TIMES) | head -n 8 | sed 's/^/   /'
	@for s in $$(awk '$$2 { print $$3 }' $(SUMMARY)); do f=$(LOGS)/$$s.log; [ -f $$f ] || continue; \
	   echo "== why $$s failed (the first 40 failure lines of $$f):"; \
	   grep -E -e '^---- |panicked at|^test .* FAILED$$|^error|FAIL' $$f | head -n 40 | sed 's/^/   /'; \
	 done
	@awk '{ p += $$1; f += $$2; if ($$2) bad = bad " " $$3 } \
	     END { if (bad) print "failing steps:" bad; printf "%d passed, %d failed\n", p, f; exit (f > 0) }' \
	     $(SUMMARY)

# Lane A: the check programs built by tests/Makefile and run on QEMU and cactus-sim, and the
# scripts' scenarios (serial steps; lane B's sweeps use both cores themselves).
.PHONY: test-lane-a test-lane-b
test-lane-a:
	$(call step,carousel-ops,$(CACTUS) run --profile carousel-paper --stats none build/tests/carousel/carousel_ops.elf)
	$(call step,overlay-ops,$(CACTUS) run --profile overlay-paper --stats none build/tests/carousel/overlay_ops.elf)
	$(call counted,carousel-tasksets,scripts/carousel-check $(CACTUS))
	$(call counted,carousel-srp,scripts/carousel-srp-check $(CACTUS))
	$(call counted,difftest,$(CACTUS) difftest build/tests/isa/*.elf build/bench/sim-speed/*-small.elf)
	$(call counted,kernel-sim,scripts/sim-check build/tests/kernel/*-sim.elf)
	$(call counted,kernel-difftest,$(CACTUS) difftest --max-cycles 10000000000 $$(ls build/tests/kernel/*.elf | grep -v -- '-sim.elf$$'))
	$(call step,checks-build,$(MAKE) --no-print-directory -C tests checks)
	$(call counted,checks-qemu,$(MAKE) --no-print-directory -s -C tests checks-qemu)
	$(call counted,checks-sim,$(MAKE) --no-print-directory -s -C tests checks-sim)
	$(call step,mtss-build,$(MAKE) --no-print-directory -C tests checks-mtss)
	$(call counted,mtss-qemu,$(MAKE) --no-print-directory -s -C tests checks-mtss-qemu)
	$(call counted,mtss-sim,$(MAKE) --no-print-directory -s -C tests checks-mtss-sim)
	$(call counted,mtss-manifest,$(MAKE) --no-print-directory -s -C tests checks-mtss-manifest)
	$(call counted,ktask-manifest,$(MAKE) --no-print-directory -s -C tests checks-ktask-manifest)
	$(call counted,rmcs-steal,$(MAKE) --no-print-directory -s -C tests checks-rmcs)
	$(call step,chunks-build,$(MAKE) --no-print-directory -C tests checks-chunks checks-segmented checks-hybrid)
	$(call counted,chunks-qemu,$(MAKE) --no-print-directory -s -C tests checks-chunks-qemu)
	$(call counted,chunks-sim,$(MAKE) --no-print-directory -s -C tests checks-chunks-sim)
	$(call counted,segmented-qemu,$(MAKE) --no-print-directory -s -C tests checks-segmented-qemu)
	$(call counted,segmented-sim,$(MAKE) --no-print-directory -s -C tests checks-segmented-sim)
	$(call counted,hybrid-qemu,$(MAKE) --no-print-directory -s -C tests checks-hybrid-qemu)
	$(call counted,hybrid-sim,$(MAKE) --no-print-directory -s -C tests checks-hybrid-sim)
	$(call step,split-build,$(MAKE) --no-print-directory -C tests checks-mtss checks-chunks checks-segmented checks-hybrid MOVE_CHECKS=split)
	$(call counted,mtss-split-qemu,$(MAKE) --no-print-directory -s -C tests checks-mtss-qemu MOVE_CHECKS=split)
	$(call counted,mtss-split-sim,$(MAKE) --no-print-directory -s -C tests checks-mtss-sim MOVE_CHECKS=split)
	$(call counted,chunks-split-sim,$(MAKE) --no-print-directory -s -C tests checks-chunks-sim MOVE_CHECKS=split)
	$(call counted,segmented-split-sim,$(MAKE) --no-print-directory -s -C tests checks-segmented-sim MOVE_CHECKS=split)
	$(call counted,hybrid-split-qemu,$(MAKE) --no-print-directory -s -C tests checks-hybrid-qemu MOVE_CHECKS=split)
	$(call counted,hybrid-split-sim,$(MAKE) --no-print-directory -s -C tests checks-hybrid-sim MOVE_CHECKS=split)
	$(call step,bound-build,$(MAKE) --no-print-directory -C tests checks STACK_BOUND=1 && \
	    $(MAKE) --no-print-directory -C tests checks-mtss checks-segmented checks-hybrid MOVE_CHECKS=split STACK_BOUND=1)
	$(call counted,bound-checks-sim,$(MAKE) --no-print-directory -s -C tests checks-kernel-sim STACK_BOUND=1)
	$(call counted,bound-mtss-sim,$(MAKE) --no-print-directory -s -C tests checks-mtss-sim MOVE_CHECKS=split STACK_BOUND=1)
	$(call counted,bound-segmented-sim,$(MAKE) --no-print-directory -s -C tests checks-segmented-sim MOVE_CHECKS=split STACK_BOUND=1)
	$(call counted,bound-hybrid-sim,$(MAKE) --no-print-directory -s -C tests checks-hybrid-sim MOVE_CHECKS=split STACK_BOUND=1)
	$(call counted,tests-checks,$(MAKE) -s --no-print-directory -C tests tests bench \
	    CC="$(abspath $(CACTUS)) cc --checks detect --" BUILD=$(abspath build/checks-all) \
	    >/dev/null && $(CACTUS) difftest build/checks-all/tests/isa/*.elf \
	    build/checks-all/tests/rt/*.elf build/checks-all/bench/sim-speed/*-small.elf)
	$(call counted,stack-report-sound,scripts/stack-report-check $(CACTUS))
	$(call counted,segmented-workloads,scripts/segmented-check $(CACTUS))
	$(call counted,sensmart,scripts/sensmart-check $(CACTUS))
	$(call counted,bound-workloads,scripts/segmented-check $(CACTUS) --stack-bound)
	$(call counted,hybrid-workloads,scripts/hybrid-check $(CACTUS))
	$(call counted,bound-hybrid-workloads,scripts/hybrid-check $(CACTUS) --stack-bound)
	$(call counted,relocate-sim,$(MAKE) --no-print-directory -s -C kernel relocate-check CACTUS=$(abspath $(CACTUS)))
	$(call counted,relocate-workloads,scripts/relocate-check $(CACTUS))
	$(call counted,relocate-sw-workloads,WINDOW=sw scripts/relocate-check $(CACTUS))
	$(call step,relocate-sw-build,$(MAKE) --no-print-directory -s -C tests checks-relocate-sw CACTUS_CC="$(abspath $(CACTUS)) cc")
	$(call counted,relocate-sw-qemu,$(MAKE) --no-print-directory -s -C tests checks-relocate-sw-qemu)
	$(call counted,relocate-sw-sim,$(MAKE) --no-print-directory -s -C tests checks-relocate-sw-sim CACTUS=$(abspath $(CACTUS)))
	$(call counted,relocate-sw-nofixup,$(MAKE) --no-print-directory -s -C tests checks-relocate-sw-nofixup CACTUS=$(abspath $(CACTUS)))
	$(call counted,trees,scripts/trees-check $(CACTUS))
	$(call counted,irq-workloads,scripts/irq-check $(CACTUS))
	$(call counted,rta-workloads,scripts/rta-check $(CACTUS))
	$(call counted,srp,scripts/srp-check $(CACTUS))
	$(call counted,baremetal,scripts/baremetal-check $(CACTUS))
	$(call counted,endings,scripts/endings-check $(CACTUS))
	$(call counted,own-project,scripts/own-project-check)
	$(call counted,html-report,scripts/report-check $(CACTUS))
	$(call step,mtss-demo,$(CACTUS) run --oracle stop $(DEMO_MTSS) --stack mtss \
	    --shrink $(DEMO_SHRINK) --stats-out build/mtss-demo.json > build/mtss-demo.out 2>&1 && \
	    jq -e '.firmware.tasks[] | select(.name == "patricia") | .overflows > 0 and .exited == "returned"' \
	    build/mtss-demo.json > /dev/null)

# Lane B: the workload sweeps, fuzzers and stress runs (most of them parallel inside).
test-lane-b:
	$(call counted,workloads-difftest,$(CACTUS) difftest --timeout 60 $$(ls build/workloads/qemu/*-small.elf))
	$(call counted,demo-difftest,$(CACTUS) difftest $$($(CACTUS) build --target qemu workloads/demo/demo.toml))
	$(call counted,workload-firmware-sim,$(CACTUS) workloads stacks --size small)
	$(call counted,workload-firmware-difftest,$(CACTUS) difftest --timeout 120 $$(for m in workloads/*/*-small.toml; do $(CACTUS) build --target qemu $$m 2>/dev/null; done))
	$(call counted,random-difftest,$(CACTUS) difftest --random $(RANDOM_COUNT) --seed $(RANDOM_SEED))
	$(call counted,fuzz,$(CACTUS) fuzz --runs $(FUZZ_RUNS) --seed $(FUZZ_SEED) --modes none$(comma)detect$(comma)mtss$(comma)split)
	$(call counted,isolate-fuzz,$(CACTUS) fuzz --runs $(ISO_FUZZ_RUNS) --seed $(FUZZ_SEED) --opt O2 --modes none --isolate --out build/fuzz-isolate)
	$(call counted,preempt-fuzz,$(CACTUS) fuzz --runs $(PT_FUZZ_RUNS) --seed $(FUZZ_SEED) --opt O2 --modes none --preempt-traps 3 --out build/fuzz-preempt)
	$(call counted,logical-fuzz,$(CACTUS) fuzz --runs $(LS_FUZZ_RUNS) --seed $(FUZZ_SEED) --opt O0$(comma)O2 --modes none --logical-stack --out build/fuzz-logical)
	$(call counted,multitask-fuzz,$(CACTUS) fuzz --runs $(MT_FUZZ_RUNS) --seed $(FUZZ_SEED) --multitask 4 --modes mtss$(comma)split --no-tight --out build/fuzz-multitask)
	$(call counted,mtss-stress,$(CACTUS) stress mtss --runs $(STRESS_RUNS) --seed 1)
	$(call counted,segmented-stress,$(CACTUS) stress mtss --runs $(STRESS_RUNS) --seed 1 --stack segmented)
	$(call counted,bound-stress,$(CACTUS) stress mtss --runs $(STRESS_RUNS) --seed 1 --stack segmented --stack-bound)
	$(call counted,hybrid-stress,$(CACTUS) stress mtss --runs $(STRESS_RUNS) --seed 1 --stack mtss+split)
	$(call counted,bound-hybrid-stress,$(CACTUS) stress mtss --runs $(STRESS_RUNS) --seed 1 --stack mtss+split --stack-bound)
	$(call counted,relocate-stress,$(CACTUS) stress mtss --runs $(STRESS_RUNS) --seed 1 --stack relocate)
	$(call counted,workloads-checks,$(MAKE) -s --no-print-directory -C workloads qemu \
	    RV_CC="$(abspath $(CACTUS)) cc --checks detect --" BUILD=$(abspath build/workloads-checks) \
	    >/dev/null && $(CACTUS) difftest --timeout 60 build/workloads-checks/qemu/*-small.elf)
	$(call counted,checks-workloads,$(CACTUS) bench checks --variants unopt$(comma)opt \
	    --k-sweep none workloads/*/*-small.toml workloads/demo/demo.toml)
	$(call counted,shard-merge,scripts/shard-check $(CACTUS) 3 checks --variants unopt$(comma)opt \
	    --k-sweep none workloads/mtss/telecomm-small.toml workloads/demo/demo.toml)
	$(call counted,isolate,scripts/isolate-check $(CACTUS))
	$(call counted,ccs-poison,$(CACTUS) bench ccs --size small --parts poison$(comma)mutation)

# A bench whose goals are missed exits 1; the leading `-` lets the others run all the same.
bench: build
	PROPTEST_CASES=200000 $(CARGO) test --release -p cactus-isa --test integration fuzz::
	PROPTEST_CASES=200000 $(CARGO) test --release -p cactus-asm --test integration fuzz::
	PROPTEST_CASES=200000 $(CARGO) test --release -p cactus-sim --test integration fuzz::
	PROPTEST_CASES=200000 $(CARGO) test --release -p cactus-firmware --test integration fuzz_manifest::
	-$(CACTUS) bench sim-speed
	-$(CACTUS) bench kernel
	-$(CACTUS) bench latency
	-$(CACTUS) bench scaling
	$(CACTUS) fuzz --runs 200 --seed 1 --multitask 4 --modes mtss --no-tight --out build/fuzz-multitask
	$(CACTUS) fuzz --runs 200 --seed 1 --modes none --preempt-traps 3 --isolate --logical-stack --out build/fuzz-sensmart
	-$(CACTUS) bench checks
	-$(CACTUS) bench workloads
	-$(CACTUS) bench segmented
	-$(CACTUS) bench carousel
	-$(CACTUS) bench srp
	-$(CACTUS) bench ccs
