#!/usr/bin/env bash
# Device run (lent GPU): the bf16 parity tests (tests/test_cuda_bf16.py), bench/bf16_gemm.py, then ResNet18-CIFAR
# b512 in bf16 against PyTorch autocast bf16 (bench/resnet18_cifar.py --modes bf16). Logs in $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/alpha_gpu_out}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv 2>&1 | tee "$OUT/env.txt"
timeout "${T_TEST:-200}" python3 -m pytest -q -rs -p no:cacheprovider tests/test_cuda_bf16.py > "$OUT/pytest_bf16.log" 2>&1
echo "pytest rc=$?"; grep -E "^(FAILED|ERROR)|Error|error" "$OUT/pytest_bf16.log" | head -30; tail -3 "$OUT/pytest_bf16.log"
timeout "${T_BENCH:-120}" python3 bench/bf16_gemm.py 2>&1 | tee "$OUT/bf16_gemm.txt"
timeout "${T_NET:-200}" python3 bench/resnet18_cifar.py --nets "${NETS:-resnet18}" --modes "${MODES:-bf16}" \
  --steps 20 --graph "${GRAPHS:-off,on}" 2>&1 | tee "$OUT/resnet18_bf16.txt" | tail -12
