#!/bin/sh
# Writes the task regions of taskset.ld (INCLUDEd from it) for the task objects named on the
# command line (build/tests/carousel/tasks/NAME.o, built with -ffunction-sections): per task,
# in external RAM, its boot-time code (P_init, P_checksum, P_expected and the wl_math functions
# the DCTs' init uses: never run in a job, never mapped), a block-aligned code region (text and constants: Carousel code blocks, read-only), a data region (Carousel
# data blocks) and a 1 KiB stack region, with the symbols __ts_code_NAME[_end],
# __ts_data_NAME[_end] and __ts_stack_NAME (the stack's top) that taskset.c lays tasks out by.
for t in "$@"; do
cat <<LD
    .ts.$t : {
        */tasks/$t.o(.text.*_init .text.*_checksum .text.*_expected .text.wl_sqrt .text.wl_cbrt
                    .text.wl_sin .text.wl_cos .text.wl_acos .text.wl_fabs .text.wl_fix .text.wl_isqrt)
        . = ALIGN(128);
        __ts_code_$t = .;
        */tasks/$t.o(.text .text.* .rodata .rodata.* .srodata .srodata.*)
        . = ALIGN(128);
        __ts_code_${t}_end = .;
        __ts_data_$t = .;
        */tasks/$t.o(.data .data.* .sdata .sdata.* .bss .bss.* .sbss .sbss.* COMMON)
        . = ALIGN(128);
        __ts_data_${t}_end = .;
        . += 1024;
        __ts_stack_$t = .;
    } > EXT
LD
done
