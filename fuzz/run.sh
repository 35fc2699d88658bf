#!/usr/bin/env bash
# Runs one fuzz target on stable Rust, one worker, niced:
#   fuzz/run.sh TARGET [SECONDS] [extra libFuzzer flags...]
# (default 1800 s). New inputs go to corpus/TARGET, findings to
# artifacts/TARGET. See README.md.
set -euo pipefail
cd "$(dirname "$0")"
target=$1
secs=${2:-1800}
shift $(($# < 2 ? $# : 2))
mkdir -p "corpus/$target"
# cargo-fuzz passes -Z flags to rustc; RUSTC_BOOTSTRAP lets stable accept them.
# No sanitizer: kairos and the harnesses have no `unsafe` (see README.md).
RUSTC_BOOTSTRAP=1 exec nice -n 10 cargo fuzz run --sanitizer none "$target" "corpus/$target" -- \
    -dict="dict/$target.dict" -timeout=10 -rss_limit_mb=2048 -max_total_time="$secs" \
    -print_final_stats=1 "$@"
