#!/usr/bin/env bash
# FuzzyMatch's side of the comparison, on a directory written by export.ts: compiles the index with
# FuzzyMatch-cli -c (timed by /usr/bin/time -v), then runs the harness once per mode. Every timed run holds
# /tmp/bench.lock, so that it overlaps no other benchmark on the machine.
#
#   bash bench/fuzzymatch/run.sh /work/fm/data/1m
#
# Writes into DIR: build-index.log, and per mode MODE.tsv (one line per query: ms, matches, best score)
# and MODE.log (load time, RSS). REBUILD=1 compiles the index again; ONLY="MODE ..." runs those modes.
set -euo pipefail

DIR=${1:?usage: run.sh DIR (written by export.ts)}
FM_ROOT=${FM_ROOT:-/work/fm}
BIN=$FM_ROOT/prefix/bin
LOCK=${BENCH_LOCK:-/tmp/bench.lock}
# Tessera's bench: threshold 75, top 10.
FUZZY=${FUZZY:-0.75}
NMATCH=${NMATCH:-10}

if [[ ! -f $DIR/sources.txt.fmi || -n ${REBUILD:-} ]]; then
  # The CLI's defaults: --penalty-tokens nbr,tag,cas, --max-tokens-in-pattern 300; ids are line numbers.
  (cd "$DIR" && flock "$LOCK" /usr/bin/time -v "$BIN/FuzzyMatch-cli" -c sources.txt) \
    > >(grep -v '^WARNING: cannot index empty segment' > "$DIR/build-index.log") 2>&1
  printf 'FMI_BYTES\t%s\n' "$(stat -c %s "$DIR/sources.txt.fmi")" >> "$DIR/build-index.log"
  grep -E 'STEP|Elapsed|Maximum resident|FMI_BYTES' "$DIR/build-index.log" >&2
fi

# The warm-up of Tessera's engine bench (export.ts writes it); an older export has none: then the first
# 200 timed queries, its former warm-up.
if [[ -f $DIR/warmup.txt ]]; then warmup="--warmup-file $DIR/warmup.txt --warmup-passes 4"; else warmup="--warmup 200"; fi
# mode name, then harness options.
modes=(
  # Candidates: every entry sharing a bigram with the query (--mr 0: no length-proportional minimum).
  "ml2-mr0 --ml 2 --mr 0"
  # --ml 2 alone: the CLI's --mr default 0.3 still applies to queries of 10 tokens or more.
  "ml2 --ml 2"
  # The CLI's defaults.
  "default --ml 3 --mr 0.3"
)
for mode in "${modes[@]}"; do
  read -r name opts <<<"$mode"
  # ONLY="default ml2": those modes alone.
  [[ -z ${ONLY:-} || " $ONLY " == *" $name "* ]] || continue
  # The 1-minute load average before and after (other work on the machine skews latencies).
  # shellcheck disable=SC2086 # opts is a list of options
  flock "$LOCK" bash -c 'printf "LOADAVG_START\t%s\n" "$(cut -d" " -f1 /proc/loadavg)" >&2
    "$@"; status=$?
    printf "LOADAVG_END\t%s\n" "$(cut -d" " -f1 /proc/loadavg)" >&2; exit $status' _ \
    "$BIN/fm-harness" --index "$DIR/sources.txt.fmi" --queries "$DIR/queries.txt" \
    --fuzzy "$FUZZY" --nmatch "$NMATCH" $warmup $opts > "$DIR/$name.tsv" 2> "$DIR/$name.log"
  echo "$name: $(tr '\n' ' ' < "$DIR/$name.log")" >&2
done
