#!/usr/bin/env bash
# A sharded run on a real Slurm cluster of one node, this machine: installs Debian's
# slurm-wlm and munge if missing (apt-get; needs root), starts munged, slurmctld and
# slurmd by hand (no systemd) with a minimal slurm.conf in a scratch directory,
# submits a run of our ataxx engine (node-limited: deterministic) against the greedy
# built-in as a job array of SHARDS shards plus the dependent merge job, through
# deploy/slurm/submit.sh, then plays the same run unsharded and checks that the merge
# holds the same games: the merged PGN (minimal form) equals the unsharded one but
# for dates, the merged report equals its report, and merging the unsharded results
# with the shards' finds every game again with the same result. Then the same for
# training data: `tune datagen` sharded through tune/deploy/slurm/submit.sh and merged
# holds exactly the unsharded run's games. Stops the daemons it started. Exit status
# 0: passed.
#   usage: tournament/deploy/slurm-local-test.sh     (from anywhere; root)
#   SHARDS (default 4), GAMES_PER_SHARD (default 50, even), NODES (default 3000),
#   DATAGEN_GAMES_PER_SHARD (default 3), KEEP=1 keeps the scratch directory.
#   tournament/deploy/slurm-local-test.sh --bin-dir prints the directory the binaries
#   are taken from and exits (builds nothing, needs no root).
set -euo pipefail
started=$(date +%s)
repo=$(cd "$(dirname "$0")/../.." && pwd)

# CARGO_PROFILE picks the build (.ci/run passes the profile its tests already built).
profile=${CARGO_PROFILE:-release}
# The binaries are where cargo puts them, which is not always $repo/target: cargo
# metadata knows CARGO_TARGET_DIR and a build.target-dir of any config file.
cargo=${CARGO:-cargo}
target_dir=$(cd "$repo" && "$cargo" metadata --format-version 1 --no-deps 2>/dev/null \
    | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p') || true
[ -n "$target_dir" ] || target_dir=${CARGO_TARGET_DIR:-$repo/target}
case $profile in
    dev | test) bin=$target_dir/debug ;;
    bench) bin=$target_dir/release ;;
    *) bin=$target_dir/$profile ;;
esac
if [ "${1:-}" = --bin-dir ]; then
    echo "$bin"
    exit 0
fi
shards=${SHARDS:-4}
per_shard=${GAMES_PER_SHARD:-50}
nodes=${NODES:-3000}
work=$(mktemp -d /tmp/slurm-local-test.XXXXXX)
pids=()
say() { echo "slurm-local-test: $*" >&2; }
# Waits until Slurm's queue is empty (at most 10 minutes).
wait_for_jobs() {
    for _ in $(seq 1200); do
        [ -z "$(squeue -h -o %i)" ] && return 0
        sleep 0.5
    done
    say "jobs still queued after 10 minutes"
    squeue >&2
    exit 1
}
cleanup() {
    local pid
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]}"; do
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    done
    if [ -z "${KEEP:-}" ]; then rm -rf "$work"; else say "kept $work"; fi
}
trap cleanup EXIT

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    say "installing slurm-wlm and munge"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        slurm-wlm munge >/dev/null
fi

# Built already when each binary is newer than every source of the workspace (its
# Cargo.toml and Cargo.lock, each package's Cargo.toml and src/): .ci/run's test build
# made them, and `cargo build -p` would build them again with other dependency features.
built() {
    local b oldest=
    for b in tournament ataxx tune; do
        [ -x "$bin/$b" ] || return 1
        if [ -z "$oldest" ] || [ "$bin/$b" -ot "$oldest" ]; then oldest=$bin/$b; fi
    done
    [ -z "$(cd "$repo" && find Cargo.toml Cargo.lock ./*/Cargo.toml src ./*/src \
        -newer "$oldest" -print -quit 2>/dev/null)" ]
}
if built; then
    say "the runner, the engine and tune ($profile profile) are built from the current sources in $bin"
else
    say "building the runner, the engine and tune ($profile profile) into $bin"
    (cd "$repo" && "$cargo" build --profile "$profile" --quiet -p tournament --bin tournament \
        && "$cargo" build --profile "$profile" --quiet --bin ataxx \
        && "$cargo" build --profile "$profile" --quiet -p tune --bin tune)
fi

# munge: the key the package made (or a new one), the daemon as user munge.
if ! munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then
    [ -s /etc/munge/munge.key ] || mungekey --create --keyfile=/etc/munge/munge.key
    chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key
    install -d -o munge -g munge -m 755 /run/munge
    install -d -o munge -g munge -m 700 /var/lib/munge /var/log/munge
    runuser -u munge -- munged
    for _ in $(seq 50); do
        munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1 && break
        sleep 0.1
    done
    pids+=("$(cat /run/munge/munged.pid)")
fi

host=$(hostname -s)
cpus=$(nproc)
mkdir -p "$work/state" "$work/spool" "$work/run"
export SLURM_CONF=$work/slurm.conf
cat > "$SLURM_CONF" <<CONF
ClusterName=localtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
say "starting slurmctld and slurmd ($cpus CPUs)"
slurmctld -i
for _ in $(seq 50); do [ -s "$work/slurmctld.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$work/slurmctld.pid")")
slurmd
for _ in $(seq 50); do [ -s "$work/slurmd.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$work/slurmd.pid")")
for _ in $(seq 100); do
    sinfo -h -N -o %t 2>/dev/null | grep -qE '^(idle|mix|alloc)' && break
    sleep 0.2
done
sinfo -h -N -o '%N %t %c' >&2 || { cat "$work/slurmctld.log" "$work/slurmd.log" >&2; exit 1; }

# The run: SHARDS × GAMES_PER_SHARD games in colour-swapped pairs.
rounds=$((shards * per_shard / 2))
cat > "$work/run.conf" <<CONF
TOURNAMENT=$bin/tournament
RUN_DIR=$work/run
SHARDS=$shards
CONCURRENCY=1
SPRT=()
RUN=(
  -engine cmd=$bin/ataxx name=ataxx nodes=$nodes
  -engine builtin=greedy
  -games 2 -rounds $rounds -repeat
  -openings file=$repo/tournament/openings/ataxx-openings.txt order=random
  -seed 2024
)
SBATCH_OPTIONS=(--time=10)
CONF
say "submitting $shards shards × $per_shard games and the merge"
submitted=$(date +%s)
"$repo/tournament/deploy/slurm/submit.sh" "$work/run.conf" >&2
wait_for_jobs
on_slurm=$(($(date +%s) - submitted))
cat "$work/run/merge.log" >&2

# The same run, unsharded, on this machine.
say "playing the same run unsharded"
# shellcheck source=/dev/null
source "$work/run.conf"
"$bin/tournament" "${RUN[@]}" -results "$work/full.jsonl" -pgnout "$work/full.pgn" \
    -report > "$work/full.txt" 2>/dev/null
fail=0
check() { if "$@"; then say "ok: $what"; else say "FAILED: $what"; fail=1; fi; }
quietly() { "$@" >/dev/null 2>&1; }
what="$shards shard results files"
check test "$(ls "$work/run"/shard-*.jsonl | wc -l)" -eq "$shards"
what="the merge found all $((shards * per_shard)) games"
check grep -q "merged: $((shards * per_shard)) of $((shards * per_shard)) games" "$work/run/merge.log"
what="the merged PGN is the unsharded run's, game for game (all but dates and timed comments)"
check diff <(grep -v '^\[Date ' "$work/full.pgn" | sed 's/ {[^}]*}//g') \
    <(grep -v '^\[Date ' "$work/run/run.pgn" | sed 's/ {[^}]*}//g')
what="the merged report is the unsharded run's"
check diff <(grep -v '^Finished match' "$work/full.txt") \
    <(grep -v '^Finished match' "$work/run/report.txt")
what="merging the unsharded results with the shards' finds every game again, same result"
check quietly "$bin/tournament" merge "$work/full.jsonl" "$work/run"/shard-*.jsonl
cat "$work/run/report.txt" >&2

# Training data the same way: `tune datagen` as a job array of SHARDS shards and the
# dependent merge (tune/deploy/slurm/submit.sh), then the same run unsharded: the
# merge holds exactly its games.
per_data_shard=${DATAGEN_GAMES_PER_SHARD:-3}
mkdir -p "$work/data"
cat > "$work/datagen.conf" <<CONF
TUNE=$bin/tune
RUN_DIR=$work/data
SHARDS=$shards
THREADS=1
GENERATOR=datagen
RUN=(--games $((shards * per_data_shard)) --nodes 300 --seed 7)
SBATCH_OPTIONS=(--time=10)
CONF
say "submitting $shards datagen shards × $per_data_shard games and the merge"
submitted=$(date +%s)
"$repo/tune/deploy/slurm/submit.sh" "$work/datagen.conf" >&2
wait_for_jobs
data_on_slurm=$(($(date +%s) - submitted))
cat "$work/data/datagen-merge.log" >&2
# shellcheck source=/dev/null
source "$work/datagen.conf"
"$bin/tune" datagen "${RUN[@]}" --out "$work/data-full.bin" 2>/dev/null
what="$shards datagen shard files"
check test "$(find "$work/data" -name 'shard-*.bin' | wc -l)" -eq "$shards"
what="the merged data has the unsharded run's $((shards * per_data_shard)) games"
check grep -q "^$work/data/merged.bin: $((shards * per_data_shard)) games" "$work/data/merge.txt"
what="merging the unsharded file after the merged one drops every game as already merged"
check quietly grep -q "data-full.bin: 0 games kept, $((shards * per_data_shard)) already merged" \
    <("$bin/tune" datagen-merge --out "$work/both.bin" "$work/data/merged.bin" "$work/data-full.bin" 2>&1)
say "Slurm part (submit to merged) ${on_slurm} s, datagen ${data_on_slurm} s, whole test $(($(date +%s) - started)) s"
[ "$fail" = 0 ] && say "PASSED" || say "FAILED"
exit "$fail"
