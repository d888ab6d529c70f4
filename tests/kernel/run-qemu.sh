#!/bin/sh
# Runs kernel scenario tests on QEMU: run-qemu.sh BUILD_DIR NAME...
# Time is instruction-driven (-icount shift=0, sleep=off), so runs do not depend on host speed.
# Prints PASS/FAIL per test and "N passed, M failed"; exits non-zero if any failed.
dir=$1; shift
pass=0; fail=0
for t in "$@"; do
    timeout 60 qemu-system-riscv32 -M virt -bios none -nographic -icount shift=0,sleep=off \
        -kernel "$dir/$t.elf" > "$dir/$t.qemu.out" 2>&1 < /dev/null
    rc=$?
    if [ $rc -eq 0 ]; then
        echo "PASS $t"; pass=$((pass + 1))
    else
        echo "FAIL $t (exit $rc, output in $dir/$t.qemu.out)"; fail=$((fail + 1))
    fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
