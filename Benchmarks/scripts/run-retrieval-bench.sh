#!/usr/bin/env bash
# Issue 3's retrieval benchmark and its anchors, in one run on this machine.
#
#   Benchmarks/scripts/run-retrieval-bench.sh [quality|scale|all]
#
# quality: shared/bench/bench.py (bm25s, rank_bm25, SQLite FTS5) and `dolphin-bench quality` on
#          BEIR SciFact train, both per query; compare_quality.py reports even ids (tuning) and
#          odd ids (reported) with paired bootstrap 95% intervals
#          -> Benchmarks/Results/retrieval-quality.json
# scale:   `dolphin-bench scale`, shared/bench/scale_fts5.py and scale_bm25s.py on the same
#          synthetic items and queries -> Benchmarks/Results/retrieval-scale.json
#
# Environment: SIZES (default 1000,10000,100000), VENV (default <repo>/.venv-bench, created
# with shared/bench/setup.sh when missing; git-ignored), WORK (scratch, default
# <repo>/bench-results/retrieval; git-ignored), SHARED (default <repo>/../shared), CLEAN=1 to
# rebuild both release products from scratch (incremental release builds with cross-module
# optimization have been seen to link stale inlined code after a stored property was added).
set -euo pipefail

MODE=${1:-all}
case "$MODE" in quality|scale|all) ;; *) echo "usage: $0 [quality|scale|all]" >&2; exit 64 ;; esac

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SHARED=$(cd "${SHARED:-$ROOT/../shared}" && pwd)
VENV=${VENV:-$ROOT/.venv-bench}
WORK=${WORK:-$ROOT/bench-results/retrieval}
SIZES=${SIZES:-1000,10000,100000}
RESULTS=$ROOT/Benchmarks/Results
SCRIPTS=$ROOT/Benchmarks/scripts
DATA=$SHARED/data/scifact

mkdir -p "$WORK" "$RESULTS"
if [ ! -x "$VENV/bin/python" ]; then
  bash "$SHARED/bench/setup.sh" "$VENV"
fi
PY=$VENV/bin/python

echo "== building (release)"
if [ "${CLEAN:-0}" = 1 ]; then
  rm -rf "$(swift build -c release --package-path "$ROOT" --show-bin-path)" \
    "$(swift build -c release --package-path "$ROOT/Benchmarks" --show-bin-path)" \
    "$ROOT/Benchmarks/.build/release.yaml"
fi
# Statically linked, as README's install line builds it: the Swift runtime and Foundation inside
# the binary, which starts faster than one resolving them from the toolchain at every start.
swift build -c release --package-path "$ROOT" --product dolphin --static-swift-stdlib
# The nested package keeps the main package's list of source files in its build plan: a file
# added to a library since the last build is not compiled ("cannot find … in scope") until the
# plan is made again. Dropping the plan costs a second, not a rebuild.
rm -f "$ROOT/Benchmarks/.build/release.yaml"
swift build -c release --package-path "$ROOT/Benchmarks" --product dolphin-bench
BENCH=$ROOT/Benchmarks/.build/release/dolphin-bench

if [ "$MODE" = quality ] || [ "$MODE" = all ]; then
  echo "== quality: anchors (bench.py, SciFact train)"
  (cd "$WORK" && "$PY" "$SHARED/bench/bench.py" --data "$DATA" --repeats 1 --out results_scifact.json)
  echo "== quality: hybrid-lexical-v1 (dolphin-bench quality)"
  "$BENCH" quality --corpus "$DATA/corpus.jsonl" --queries "$DATA/queries.jsonl" \
    --qrels "$DATA/qrels/train.tsv" --split all --json --per-query "$WORK/ours_per_query.tsv" \
    > "$WORK/ours_quality.json"
  cat "$WORK/ours_quality.json"
  "$PY" "$SCRIPTS/compare_quality.py" --anchors "$WORK/results_scifact.json" \
    --ours "$WORK/ours_per_query.tsv" --ours-json "$WORK/ours_quality.json" \
    --qrels "$DATA/qrels/train.tsv" --out "$RESULTS/retrieval-quality.json"
fi

if [ "$MODE" = scale ] || [ "$MODE" = all ]; then
  echo "== scale: hybrid-lexical-v1 (dolphin-bench scale --sizes $SIZES)"
  "$BENCH" scale --sizes "$SIZES" --corpus "$DATA/corpus.jsonl" --data "$DATA" \
    --dolphin "$ROOT/.build/release/dolphin" --out "$WORK/ours_scale.json"
  echo "== scale: SQLite FTS5 anchor (scale_fts5.py)"
  (cd "$WORK" && "$PY" "$SHARED/bench/scale_fts5.py" --sizes "$SIZES" --out results_scale_fts5.json)
  echo "== scale: bm25s anchor (scale_bm25s.py)"
  "$PY" "$SCRIPTS/scale_bm25s.py" --shared "$SHARED" --sizes "$SIZES" --out "$WORK/results_scale_bm25s.json"
  "$PY" "$SCRIPTS/compare_scale.py" --ours "$WORK/ours_scale.json" \
    --fts5 "$WORK/results_scale_fts5.json" --bm25s "$WORK/results_scale_bm25s.json" \
    --out "$RESULTS/retrieval-scale.json"
fi
