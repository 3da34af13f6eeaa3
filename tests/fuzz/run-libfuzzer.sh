#!/usr/bin/env bash
# Builds the libFuzzer targets with the `fuzz` preset and fuzzes each for a while from its seed corpus
# (SECONDS per target, default 20). New inputs go to build/fuzz/corpus, never into the source tree.
# Exits 77 (skipped) where clang or libFuzzer is not installed.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-20}"

if ! command -v clang++ >/dev/null || ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  echo "clang++ or libFuzzer is not installed: skipping"
  exit 77
fi
cmake --preset fuzz >/dev/null
targets=(fuzz_roomkitrowdecoder:roomkitrow fuzz_agui:agui fuzz_eventmd:eventmd fuzz_textpacker:textpacker)
cmake --build --preset fuzz --target "${targets[@]%%:*}"
for entry in "${targets[@]}"; do
  target="${entry%%:*}"
  corpus="${entry##*:}"
  mkdir -p "build/fuzz/corpus/$corpus"
  echo "== $target, ${seconds}s"
  # libFuzzer exits 77 on a crash by default, which ctest reads as "skipped": a crash must fail the test.
  log="build/fuzz/$target.log"
  if ! build/fuzz/tests/fuzz/"$target" -max_total_time="$seconds" -rss_limit_mb=4096 -max_len=65536 -print_final_stats=1 \
    -error_exitcode=1 -timeout_exitcode=1 -artifact_prefix=build/fuzz/ "build/fuzz/corpus/$corpus" "tests/fuzz/corpus/$corpus" >"$log" 2>&1; then
    tail -n 40 "$log"
    echo "$target failed: the input is in build/fuzz (crash-*, timeout-*, oom-*)"
    exit 1
  fi
  tail -n 6 "$log"
done
