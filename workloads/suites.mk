# suites.mk: build rules of workload suites 2-5 (included by workloads/Makefile).
#
# A runner is one workload list <dir>/<main>.c (defining wl_workload_programs[<n>] and
# wl_workload_name) linked with every other <dir>/*.c that is not a workload*.c file, plus
# <runner>_EXTRA sources. Each runner is built as a host sanitizer test (host_suite.c) and as
# bare-metal rv32 ELFs for the small and full size class (runner.c, painted stacks of
# SUITE_STACK_BYTES per program).

RUNNERS := coremark-single coremark-quad ccs ccs-unroll malardalen crazyflie

coremark-single_DIR  := coremark-like
coremark-single_MAIN := workload_single
coremark-single_N    := 1
coremark-quad_DIR    := coremark-like
coremark-quad_MAIN   := workload_quad
coremark-quad_N      := 4

# ccs reuses the MiBench/MediaBench programs already written for mtss (adpcm, g721, sha, susan).
CCS_MTSS   := mtss/telecomm/adpcm.c mtss/mediabench/g721.c mtss/security/sha.c \
              mtss/automotive/susan.c
CCS_INC    := -Imtss/telecomm -Imtss/mediabench -Imtss/security -Imtss/automotive
ccs_DIR    := ccs
ccs_MAIN   := workload
ccs_N      := 9
ccs_EXTRA  := $(CCS_MTSS)
ccs_INC    := $(CCS_INC)
# The paper's "aggressive" setting: the same sources with loop unrolling.
ccs-unroll_DIR    := ccs
ccs-unroll_MAIN   := workload
ccs-unroll_N      := 9
ccs-unroll_EXTRA  := $(CCS_MTSS)
ccs-unroll_INC    := $(CCS_INC)
ccs-unroll_CFLAGS := -funroll-loops

malardalen_DIR  := malardalen-like
malardalen_MAIN := workload
malardalen_N    := 13

crazyflie_DIR  := crazyflie-like
crazyflie_MAIN := workload
crazyflie_N    := 4

SUITE_STACK_BYTES := 32768

runner_srcs = $(filter-out $($(1)_DIR)/workload%.c,$(wildcard $($(1)_DIR)/*.c)) \
              $($(1)_DIR)/$($(1)_MAIN).c $($(1)_EXTRA)
runner_deps = $(call runner_srcs,$(1)) $(wildcard $($(1)_DIR)/*.h) $(COMMON_SRCS) $(COMMON_HDRS)
runner_flags = -I$($(1)_DIR) $($(1)_INC) -DWL_PROGRAMS=$($(1)_N) $($(1)_CFLAGS)

define suite_host_rule
$(BUILD)/host/suite-$(1): $(call runner_deps,$(1)) $(COMMON)/host/host_suite.c
	@mkdir -p $$(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(call runner_flags,$(1)) -o $$@ $(COMMON)/host/host_suite.c \
	    $(call runner_srcs,$(1)) $(COMMON_SRCS)
endef

# suite_qemu_rule(runner, elf-suffix, size class, extra flags)
define suite_qemu_rule
$(BUILD)/qemu/$(1)-$(2).elf: $(call runner_deps,$(1)) $(RV_RUNTIME) $(COMMON)/baremetal/link.ld
	@mkdir -p $$(@D)
	$(RV_CC) $(RV_CFLAGS) $(RV_LDFLAGS) $(call runner_flags,$(1)) -DWL_SIZE_CLASS=$(3) \
	    -DWL_STACK_BYTES=$(SUITE_STACK_BYTES) $(4) -o $$@ $(RV_RUNTIME) \
	    $(call runner_srcs,$(1)) $(COMMON_SRCS) -lgcc
endef

$(foreach r,$(RUNNERS),$(eval $(call suite_host_rule,$(r))))
$(foreach r,$(RUNNERS),$(eval $(call suite_qemu_rule,$(r),small,0,)))
$(foreach r,$(RUNNERS),$(eval $(call suite_qemu_rule,$(r),full,1,)))
# Single-path check: malardalen with instruction counting, default seed and another seed.
$(eval $(call suite_qemu_rule,malardalen,sp0,0,-DWL_COUNT_INSNS -DWL_INPUT_VARIANT=0))
$(eval $(call suite_qemu_rule,malardalen,sp1,0,-DWL_COUNT_INSNS -DWL_INPUT_VARIANT=1))

SUITE_HOST_BINS  := $(addprefix $(BUILD)/host/suite-,$(RUNNERS))
SUITE_QEMU_SMALL := $(foreach r,$(RUNNERS),$(BUILD)/qemu/$(r)-small.elf)
SUITE_QEMU_FULL  := $(foreach r,$(RUNNERS),$(BUILD)/qemu/$(r)-full.elf)
SUITE_QEMU_ELFS  := $(SUITE_QEMU_SMALL) $(SUITE_QEMU_FULL)
SINGLE_PATH_ELFS := $(BUILD)/qemu/malardalen-sp0.elf $(BUILD)/qemu/malardalen-sp1.elf

# Shell fragment (needs qemu_run from QEMU_RUN): runs both single-path ELFs with -icount
# shift=0 and, per program, PASSes iff the per-round minstret sequences are identical.
SINGLE_PATH_SCRIPT := \
	for v in 0 1; do \
	  qemu_run $(BUILD)/qemu/malardalen-sp$$v.elf $(BUILD)/qemu/logs/malardalen-sp$$v.log \
	      malardalen-seed$$v -icount shift=0; \
	done; \
	for p in $$(awk '/^insns /{print $$2}' $(BUILD)/qemu/logs/malardalen-sp0.log | sort -u); do \
	  a=$$(awk -v p=$$p '$$1=="insns" && $$2==p {printf "%s ", $$4}' \
	      $(BUILD)/qemu/logs/malardalen-sp0.log); \
	  b=$$(awk -v p=$$p '$$1=="insns" && $$2==p {printf "%s ", $$4}' \
	      $(BUILD)/qemu/logs/malardalen-sp1.log); \
	  if [[ -n "$$a" && "$$a" == "$$b" ]]; then \
	    echo "PASS single-path $$p insns/round $$a"; pass=$$((pass+1)); \
	  else echo "FAIL single-path $$p seed0 [$$a] seed1 [$$b]"; fail=$$((fail+1)); fi; \
	done

# Instruction-counting builds of every runner (minstret around each P_round).
$(foreach r,$(RUNNERS),$(eval $(call suite_qemu_rule,$(r),count-small,0,-DWL_COUNT_INSNS)))
$(foreach r,$(RUNNERS),$(eval $(call suite_qemu_rule,$(r),count-full,1,-DWL_COUNT_INSNS)))
SUITE_COUNT_ELFS := $(foreach r,$(RUNNERS),$(foreach s,small full, \
                      $(BUILD)/qemu/$(r)-count-$(s).elf))

# Per-round stack builds of every runner (stack repainted before each round).
$(foreach r,$(RUNNERS),$(eval $(call suite_qemu_rule,$(r),rstack-small,0,-DWL_ROUND_STACK)))
$(foreach r,$(RUNNERS),$(eval $(call suite_qemu_rule,$(r),rstack-full,1,-DWL_ROUND_STACK)))
SUITE_RSTACK_ELFS := $(foreach r,$(RUNNERS),$(foreach s,small full, \
                       $(BUILD)/qemu/$(r)-rstack-$(s).elf))
