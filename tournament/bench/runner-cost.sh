#!/usr/bin/env bash
# What the runner itself costs, side by side with cuteataxx (issue 44 item 6).
#
# Plays the same GAMES games of our `ataxx` engine against itself at a fixed depth,
# one game at a time, through our runner and through cuteataxx, RUNS times each,
# alternating (ours, cuteataxx, ours, cuteataxx, ...) so that load from elsewhere hits
# both alike, and prints for each manager its best run (least wall time): games per
# second and CPU seconds per game (user + system of the manager and its engines, from
# bash's `time`, which counts the children a command waited for).
#
# The games: GAMES/2 openings of tournament/openings/ataxx-noblocks.txt, each played
# twice with colours swapped, given to both managers as FEN lines (made here by asking
# `ataxx` for the position after each opening's moves). No adjudication in either.
# Ours writes its results file (each game synced before it counts) and a PGN file;
# cuteataxx writes its PGN file.
#
# usage: tournament/bench/runner-cost.sh [--cuteataxx PATH] [--games N] [--depth D]
#                                         [--runs R] [--profile NAME] [--keep DIR]
#                                         [-- EXTRA RUNNER OPTIONS]
#   --cuteataxx PATH  the cuteataxx-cli binary (or $CUTEATAXX); without it only ours runs
#   --games N         games per run (even; default 200)
#   --depth D         the engines' search depth (default 2)
#   --runs R          runs of each manager (default 2)
#   --profile NAME    cargo profile whose `tournament` and `ataxx` are used (default ci;
#                     build them first: cargo build --profile ci -p tournament -p ataxx-engine)
#   --baseline PATH   another build of our runner (an older commit's), run as one more
#                     manager in the same rotation, named by its file name: what a change
#                     to the runner gained (may be given more than once)
#   --keep DIR        leave the settings, results and PGN files in DIR
#   after --, options added to our runner's command line
#
# cuteataxx is not part of this repository. To build it (C++20, CMake, Boost headers):
#   git clone https://github.com/kz04px/cuteataxx /work/ext/cuteataxx
#   apt-get install -y cmake libboost-dev
#   cmake -S /work/ext/cuteataxx -B /work/ext/cuteataxx/build -DCMAKE_BUILD_TYPE=Release
#   nice -n 5 make -C /work/ext/cuteataxx/build -j1 cuteataxx-cli
# (its CMakeLists fetches libataxx, nlohmann/json and doctest; offline, clone them and
# pass -DFETCHCONTENT_SOURCE_DIR_LIBATAXX=DIR, ..._JSON=DIR, ..._DOCTEST=DIR with
# -DFETCHCONTENT_FULLY_DISCONNECTED=ON). The binary is build/cuteataxx-cli.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cuteataxx=${CUTEATAXX:-}
games=200 depth=2 runs=2 profile=ci keep=""
baselines=()
extra=()
while [ $# -gt 0 ]; do
    case $1 in
        --cuteataxx) cuteataxx=$2; shift 2 ;;
        --games) games=$2; shift 2 ;;
        --depth) depth=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --profile) profile=$2; shift 2 ;;
        --keep) keep=$2; shift 2 ;;
        --baseline) baselines+=("$2"); shift 2 ;;
        --) shift; extra=("$@"); break ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "runner-cost.sh: unknown argument '$1' (--help lists them)" >&2; exit 2 ;;
    esac
done
case $games in ''|*[!0-9]*) echo "runner-cost.sh: --games needs an even number" >&2; exit 2 ;; esac
if [ $((games % 2)) -ne 0 ] || [ "$games" -eq 0 ]; then
    echo "runner-cost.sh: --games needs an even number above 0" >&2; exit 2
fi
openings=$((games / 2))
book=$repo/tournament/openings/ataxx-noblocks.txt
if [ "$(grep -cv '^#' "$book")" -lt "$openings" ]; then
    echo "runner-cost.sh: $book has fewer than $openings openings" >&2; exit 2
fi

# The binaries are where cargo puts them (CARGO_TARGET_DIR, build.target-dir).
target_dir=$(cd "$repo" && cargo metadata --format-version 1 --no-deps 2>/dev/null \
    | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p') || true
[ -n "$target_dir" ] || target_dir=${CARGO_TARGET_DIR:-$repo/target}
bin=$target_dir/$profile
[ "$profile" = dev ] && bin=$target_dir/debug
for b in tournament ataxx; do
    [ -x "$bin/$b" ] || { echo "runner-cost.sh: no $bin/$b: build it with the $profile profile" >&2; exit 2; }
done
for b in "${baselines[@]}"; do
    [ -x "$b" ] || { echo "runner-cost.sh: baseline runner '$b' is not executable" >&2; exit 2; }
done
if [ -n "$cuteataxx" ] && [ ! -x "$cuteataxx" ]; then
    echo "runner-cost.sh: cuteataxx binary '$cuteataxx' is not executable" >&2; exit 2
fi

if [ -n "$keep" ]; then
    mkdir -p "$keep"; work=$(cd "$keep" && pwd)
else
    work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fi

# The openings as FEN lines: the engine's `d` (after `uai`) prints `Fen: ...` after the moves.
# (awk, not head: head's early exit would fail the pipeline under pipefail)
awk -v n="$openings" '!/^#/ && k++ < n' "$book" | while read -r line; do
    printf 'uai\nposition startpos moves %s\nd\nquit\n' "$line" | "$bin/ataxx" \
        | sed -n 's/^Fen: //p'
done > "$work/openings.fen"
[ "$(wc -l < "$work/openings.fen")" -eq "$openings" ] \
    || { echo "runner-cost.sh: could not make the FEN openings" >&2; exit 1; }

cat > "$work/cuteataxx.json" <<EOF
{
    "games": $games,
    "concurrency": 1,
    "ratinginterval": $((games * 10)),
    "verbose": false,
    "debug": false,
    "tournament": "roundrobin",
    "print_early": false,
    "openings": { "path": "$work/openings.fen", "repeat": true, "shuffle": false },
    "timecontrol": { "depth": $depth },
    "pgn": { "enabled": true, "verbose": true, "override": true,
             "path": "$work/cuteataxx.pgn", "event": "runner-cost" },
    "engines": [
        { "name": "ataxx1", "path": "$bin/ataxx", "protocol": "UAI" },
        { "name": "ataxx2", "path": "$bin/ataxx", "protocol": "UAI" }
    ]
}
EOF

# One timed run: prints "WALL USER SYS" (seconds) and leaves the manager's output
# in $work/NAME.out.
timed() {
    local name=$1; shift
    local TIMEFORMAT='%R %U %S'
    { time "$@" > "$work/$name.out" 2>&1; } 2>&1
}

ours() { # [RUNNER]: another build of ours
    rm -f "$work/ours.jsonl" "$work/ours.pgn"
    timed ours "${1:-$bin/tournament}" \
        -engine "cmd=$bin/ataxx" name=ataxx1 "depth=$depth" \
        -engine "cmd=$bin/ataxx" name=ataxx2 "depth=$depth" \
        -games "$games" -repeat -concurrency 1 \
        -openings "file=$work/openings.fen" format=epd \
        -results "$work/ours.jsonl" -pgnout "$work/ours.pgn" "${extra[@]}"
}

theirs() {
    rm -f "$work/cuteataxx.pgn"
    timed cuteataxx "$cuteataxx" "$work/cuteataxx.json"
}

best_ours="" best_theirs=""
declare -A best_base
better() { # keeps the run with the least wall time: "WALL USER SYS"
    if [ -z "$1" ] || awk -v a="$2" -v b="$1" 'BEGIN { split(a, x, " "); split(b, y, " "); exit !(x[1] < y[1]) }'; then
        echo "$2"
    else
        echo "$1"
    fi
}
line() { # NAME "WALL USER SYS" GAMES
    awk -v n="$1" -v t="$2" -v g="$3" 'BEGIN { split(t, x, " ");
        printf "%-20s %4d games  %7.2f s wall  %6.1f games/s  %6.2f ms wall/game  %6.2f ms CPU/game (user %.2f s, sys %.2f s)\n",
            n, g, x[1], g / x[1], 1000 * x[1] / g, 1000 * (x[2] + x[3]) / g, x[2], x[3] }'
}

echo "runner-cost: $games games of ataxx depth $depth against itself, concurrency 1, $runs runs each, alternating"
echo "machine: $(nproc) CPUs, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$runs"); do
    t=$(ours)
    played=$(grep -c '"result"' "$work/ours.jsonl" || true)
    [ "$played" -eq "$games" ] || { echo "ours played $played of $games games:"; tail -5 "$work/ours.out"; exit 1; }
    echo "run $r: $(line ours "$t" "$games")"
    best_ours=$(better "$best_ours" "$t")
    for b in "${baselines[@]}"; do
        t=$(ours "$b")
        played=$(grep -c '"result"' "$work/ours.jsonl" || true)
        [ "$played" -eq "$games" ] || { echo "$b played $played of $games games:"; tail -5 "$work/ours.out"; exit 1; }
        echo "run $r: $(line "$(basename "$b")" "$t" "$games")"
        best_base[$b]=$(better "${best_base[$b]:-}" "$t")
    done
    if [ -n "$cuteataxx" ]; then
        t=$(theirs)
        played=$(grep -c '^\[Result ' "$work/cuteataxx.pgn" || true)
        [ "$played" -eq "$games" ] || { echo "cuteataxx played $played of $games games:"; tail -5 "$work/cuteataxx.out"; exit 1; }
        echo "run $r: $(line cuteataxx "$t" "$games")"
        best_theirs=$(better "$best_theirs" "$t")
    fi
done
echo "best of $runs (least wall time):"
line ours "$best_ours" "$games"
for b in "${baselines[@]}"; do
    line "$(basename "$b")" "${best_base[$b]}" "$games"
done
if [ -n "$cuteataxx" ]; then
    line cuteataxx "$best_theirs" "$games"
    awk -v a="$best_ours" -v b="$best_theirs" 'BEGIN { split(a, x, " "); split(b, y, " ");
        printf "ours takes %.2fx cuteataxx'"'"'s wall time per game, %.2fx its CPU per game\n",
            x[1] / y[1], (x[2] + x[3]) / (y[2] + y[3]) }'
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
