#!/bin/sh
# Regenerates tests/data/gcc12/*.s from the corpus C files (GCC 12, as the toolchain uses).
set -eu
cd "$(dirname "$0")"
for f in kernelish workload; do
    for o in O0 O2 Os; do
        riscv64-unknown-elf-gcc --specs=picolibc.specs -march=rv32imac_zicsr_zifencei \
            -mabi=ilp32 -"$o" -S "$f.c" -o "../gcc12/$f-$o.s"
    done
done
