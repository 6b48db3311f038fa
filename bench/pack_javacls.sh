#!/usr/bin/env bash
# Development machine: fills .javacls/ (git-ignored; carry it to the GPU machine, which has no JDK) with the compiled
# alpha-java facade and its examples (.javacls/classes) and the Py4J jar, as bench/gpu_bridges.sh expects them.
# Usage: bash bench/pack_javacls.sh
set -euo pipefail
cd "$(dirname "$0")/.."
git check-ignore -q .javacls/ || echo "warning: .javacls/ is not git-ignored (add /.javacls/ to .git/info/exclude)" >&2
(cd java && mvn -q -o compile)
jar=$(ls ~/.m2/repository/net/sf/py4j/py4j/*/py4j-*.jar | grep -v sources | tail -1)
rm -rf .javacls && mkdir -p .javacls/classes
cp -r java/target/classes/. .javacls/classes/
cp "$jar" .javacls/py4j.jar
javac -d .javacls/classes -cp ".javacls/classes:.javacls/py4j.jar" $(find java/examples -name '*.java')
echo "javacls: $(find .javacls/classes -name '*.class' | wc -l) classes, $(du -sh .javacls | cut -f1)"
