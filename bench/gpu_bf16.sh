#!/usr/bin/env bash
# Device run (lent GPU): the bf16 parity tests (tests/test_cuda_bf16.py), then bench/bf16_gemm.py. Logs in $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/alpha_gpu_out}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv 2>&1 | tee "$OUT/env.txt"
timeout "${T_TEST:-200}" python3 -m pytest -q -rs -p no:cacheprovider tests/test_cuda_bf16.py > "$OUT/pytest_bf16.log" 2>&1
echo "pytest rc=$?"; grep -E "^(FAILED|ERROR)|Error" "$OUT/pytest_bf16.log" | head -30; tail -3 "$OUT/pytest_bf16.log"
timeout "${T_BENCH:-150}" python3 bench/bf16_gemm.py 2>&1 | tee "$OUT/bf16_gemm.txt"
