#!/bin/sh
# Writes the task regions of taskset.ld (INCLUDEd from it) for the task objects named on the
# command line (build/tests/carousel/tasks/NAME.o, built with -ffunction-sections): per task,
# in external RAM, its boot-time code (P_init, P_checksum, P_expected and the wl_math functions
# the DCTs' init uses: never run in a job, never mapped), a block-aligned code region (text and constants: Carousel code blocks, read-only), a data region (Carousel
# data blocks) and a 1 KiB stack region, with the symbols __ts_code_NAME[_end],
# __ts_data_NAME[_end] and __ts_stack_NAME (the stack's top) that taskset.c lays tasks out by,
# and __ts_lma_NAME (where the code region's bytes are in external RAM: __ts_code_NAME here).
#
# With --overlay DIR (the objects' directory) it writes the regions of taskset-overlay.ld for
# the software-only overlay variant (docs/carousel.md, "The overlay variant"; profile
# `overlay-paper`): every task is LINKED at the scratchpad's base (the region SPM), one OVERLAY
# whose sections all start there (the tasks overlap), each laid out as its stack (growing down
# towards the scratchpad's base, below which nothing is mapped: an overflow faults), its code
# and constants, then its data if stack, code and data fit the scratchpad (else its data stay
# in external RAM, in the section with its boot-time code; and if stack and code do not fit
# either, its stack too). A task's stack is 256 bytes unless OVERLAY_STACKS ("NAME=BYTES ...")
# says otherwise. Its load image (code, constants, data) is in external RAM at __ts_lma_NAME.
# Sizes are read with ${SIZE:-riscv64-unknown-elf-size}.
BOOT='.text.*_init .text.*_checksum .text.*_expected .text.wl_sqrt .text.wl_cbrt
                    .text.wl_sin .text.wl_cos .text.wl_acos .text.wl_fabs .text.wl_fix .text.wl_isqrt'
TEXT='.text .text.* .rodata .rodata.* .srodata .srodata.*'
DATA='.data .data.* .sdata .sdata.* .bss .bss.* .sbss .sbss.* COMMON'

if [ "${1:-}" = "--overlay" ]; then
    dir=${2:?usage: tasks-ld.sh --overlay DIR NAME...}
    shift 2
    spm_base=0x30000000
    spm_size=2048
    size=${SIZE:-riscv64-unknown-elf-size}
    # Bytes of the job's code and constants and of the data (each section rounded up to 4).
    measure() {
        "$size" -A "$dir/$1.o" | awk '
            /^\.text|^\.rodata|^\.srodata/ {
                if ($1 ~ /_init$|_checksum$|_expected$|^\.text\.wl_(sqrt|cbrt|sin|cos|acos|fabs|fix|isqrt)$/) next
                code += int(($2 + 3) / 4) * 4 }
            /^\.data|^\.sdata|^\.bss|^\.sbss/ { data += int(($2 + 3) / 4) * 4 }
            END { print code + 0, data + 0 }'
    }
    # Boot-time code (and data that do not fit) in external RAM.
    stack_of() {
        for kv in ${OVERLAY_STACKS:-}; do
            [ "${kv%%=*}" = "$1" ] && { echo "${kv#*=}"; return; }
        done
        echo 256
    }
    for t in "$@"; do
        set -- $(measure "$t") "$@"
        code=$1 data=$2
        shift 2
        stack=$(stack_of "$t")
        extstack=
        if [ $((stack + code + data)) -le $spm_size ]; then
            eval "fits_$t=1 stack_$t=$stack"
            extdata=
        else
            eval "fits_$t=0 stack_$t=$stack"
            extdata="*/tasks/$t.o($DATA)"
            if [ $((stack + code)) -gt $spm_size ]; then
                eval "stack_$t=0"
                extstack=". = ALIGN(16); . += $stack; __ts_xstack_$t = .;"
            fi
        fi
        cat <<LD
    .tsx.$t : {
        */tasks/$t.o($BOOT)
        . = ALIGN(4);
        __ts_xdata_$t = .;
        $extdata
        . = ALIGN(4);
        __ts_xdata_${t}_end = .;
        $extstack
    } > EXT
LD
    done
    echo "    OVERLAY : NOCROSSREFS {"
    for t in "$@"; do
        eval "fits=\$fits_$t stack=\$stack_$t"
        if [ "$fits" = 1 ]; then
            data="*/tasks/$t.o($DATA)"
        else
            data=
        fi
        if [ "$stack" = 0 ]; then
            top="__ts_stack_$t = __ts_xstack_$t;"
        else
            top="__ts_stack_$t = .;"
        fi
        cat <<LD
        .ts.$t {
            . += $stack;
            $top
            __ts_code_$t = .;
            */tasks/$t.o($TEXT)
            . = ALIGN(4);
            __ts_code_${t}_end = .;
            __ts_sdata_$t = .;
            $data
            . = ALIGN(4);
            __ts_sdata_${t}_end = .;
        }
LD
    done
    echo "    } > SPM AT > EXT"
    for t in "$@"; do
        eval "fits=\$fits_$t"
        if [ "$fits" = 1 ]; then
            echo "    __ts_data_$t = __ts_sdata_$t; __ts_data_${t}_end = __ts_sdata_${t}_end;"
        else
            echo "    __ts_data_$t = __ts_xdata_$t; __ts_data_${t}_end = __ts_xdata_${t}_end;"
        fi
        eval "stack=\$stack_$t"
        echo "    __ts_lma_$t = LOADADDR(.ts.$t) + $stack;"
        echo "    ASSERT(__ts_sdata_${t}_end <= $spm_base + $spm_size, \"overlay: $t does not fit the scratchpad\")"
    done
    exit 0
fi

for t in "$@"; do
cat <<LD
    .ts.$t : {
        */tasks/$t.o($BOOT)
        . = ALIGN(128);
        __ts_code_$t = .;
        __ts_lma_$t = .;
        */tasks/$t.o($TEXT)
        . = ALIGN(128);
        __ts_code_${t}_end = .;
        __ts_data_$t = .;
        */tasks/$t.o($DATA)
        . = ALIGN(128);
        __ts_data_${t}_end = .;
        . += 1024;
        __ts_stack_$t = .;
    } > EXT
LD
done
