#!/usr/bin/env bash
# Device run (lent GPU): the math / matMul / bernouliMul kernels' parity tests (tests/test_cuda_math.py), the other
# GPU suites named in SUITES, then bench/matmul_batched.py. Logs in $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/alpha_gpu_out}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv 2>&1 | tee "$OUT/env.txt"
SUITES=${SUITES:-tests/test_cuda_math.py}
timeout "${T_TEST:-400}" python3 -m pytest -q -rs -p no:cacheprovider $SUITES > "$OUT/pytest_math.log" 2>&1
echo "pytest rc=$?"; grep -E "^(FAILED|ERROR)|Error|error|PARITY" "$OUT/pytest_math.log" | head -40; tail -3 "$OUT/pytest_math.log"
[ "${BENCH:-1}" = 1 ] && timeout "${T_BENCH:-150}" python3 bench/matmul_batched.py --reps "${REPS:-30}" ${BENCH_ARGS:-} 2>&1 | tee "$OUT/matmul_batched.txt"
exit 0
