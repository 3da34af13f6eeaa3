#!/usr/bin/env bash
# Builds the libFuzzer targets with the `fuzz` preset and fuzzes each for a short while from its seed corpus.
# New inputs go to build/fuzz/corpus, never into the source tree. Exits 77 (skipped) without clang/libFuzzer.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-30}"

if ! command -v clang++ >/dev/null || ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  echo "clang++ or libFuzzer is not installed: skipping"
  exit 77
fi
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz --target fuzz_roomkitrowdecoder
corpus=build/fuzz/corpus/roomkitrow
mkdir -p "$corpus"
build/fuzz/tests/fuzz/fuzz_roomkitrowdecoder -max_total_time="$seconds" -rss_limit_mb=4096 -print_final_stats=1 \
  "$corpus" tests/fuzz/corpus/roomkitrow 2>&1 | tail -n 12
