#!/usr/bin/env bash
# Device run for issue 19 items 1-2 (auto_graph and host cost): the GPU tests of the user loop and of train_step,
# the host profile of an op-by-op step, and bench/step_graph.py with its "user loop" columns. Logs under $OUT.
# Usage: bash bench/gpu_loop.sh [tests] [profile] [bench] [epoch]   (default: the first three; STEPS, CONFIGS, T_TEST
# override; epoch reads Fashion-MNIST from .gpudata/fashion, which bench/pack_gpudata.sh fills)
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/alpha_gpu_out}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} ALPHA_CACHE_DIR=${ALPHA_CACHE_DIR:-/tmp/alpha_cache}
what=${*:-tests profile bench}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>&1 | tee "$OUT/env.txt"
python3 -c "import cupy, torch, sys; print('python', sys.version.split()[0], 'cupy', cupy.__version__, 'torch', torch.__version__)" 2>&1 | tee -a "$OUT/env.txt"
for w in $what; do
  t0=$(date +%s)
  case $w in
    tests)
      timeout "${T_TEST:-300}" python3 -m pytest -q -rs -p no:cacheprovider ${PYTEST_ARGS:-} tests/test_user_loop_gpu.py \
        tests/test_cuda_graph.py tests/test_cuda_train.py ${EXTRA_TESTS:-} > "$OUT/pytest.log" 2>&1
      echo "pytest rc=$? in $(( $(date +%s) - t0 )) s"
      grep -E "^(FAILED|ERROR)|Error:|assert" "$OUT/pytest.log" | head -40
      tail -3 "$OUT/pytest.log" ;;
    profile)
      timeout 120 python3 bench/profile_host.py --engine cuda --batch 128 --steps 30 --top 40 2>&1 | tee "$OUT/profile_fashion.txt"
      timeout 120 python3 bench/profile_host.py --engine cuda --net resnet18 --batch 32 --steps 10 --top 25 2>&1 \
        | tee "$OUT/profile_resnet18.txt" | head -12 ;;
    bench)
      timeout "${T_BENCH:-240}" python3 bench/step_graph.py --steps "${STEPS:-30}" --configs "${CONFIGS:-fashion:128,resnet18:32}" \
        2>&1 | tee "$OUT/step_graph.txt" ;;
    epoch)
      timeout "${T_EPOCH:-200}" python3 bench/user_epoch.py --data-dir .gpudata/fashion --epochs "${EPOCHS:-3}" 2>&1 \
        | tee "$OUT/user_epoch.txt" ;;
  esac
  echo "== $w done in $(( $(date +%s) - t0 )) s"
done
