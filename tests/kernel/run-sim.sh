#!/bin/sh
# Runs kernel scenario tests on cactus-sim: run-sim.sh CACTUS BUILD_DIR NAME...
# Uses each test's -sim.elf variant (trace device present) under the default profile.
# Prints PASS/FAIL per test and "N passed, M failed"; exits non-zero if any failed.
cactus=$1; dir=$2; shift 2
pass=0; fail=0
for t in "$@"; do
    timeout 60 "$cactus" run --stats none "$dir/$t-sim.elf" > "$dir/$t.sim.out" 2>&1 < /dev/null
    rc=$?
    if [ $rc -eq 0 ]; then
        echo "PASS $t"; pass=$((pass + 1))
    else
        echo "FAIL $t (exit $rc, output in $dir/$t.sim.out)"; fail=$((fail + 1))
    fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
