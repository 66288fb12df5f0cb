#!/bin/bash
# Queues a sharded data run on Slurm: a job array of SHARDS tasks (one shard each) and
# a merge job that waits for it. Prints the two job ids.
#   usage: submit.sh datagen.conf      (see datagen.conf.example)
set -euo pipefail
conf=$(realpath "${1:?usage: submit.sh datagen.conf}")
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=/dev/null
source "$conf"
mkdir -p "$RUN_DIR"
array=$(sbatch --parsable ${SBATCH_OPTIONS[@]+"${SBATCH_OPTIONS[@]}"} \
    --array="0-$((SHARDS - 1))" --cpus-per-task="${THREADS:-1}" \
    --chdir="$RUN_DIR" --export="ALL,RUN_CONF=$conf" "$here/datagen.sbatch")
array=${array%%;*}
merge=$(sbatch --parsable ${SBATCH_OPTIONS[@]+"${SBATCH_OPTIONS[@]}"} \
    --dependency="afterany:$array" \
    --chdir="$RUN_DIR" --export="ALL,RUN_CONF=$conf" "$here/datagen-merge.sbatch")
echo "shards: job $array (array 0-$((SHARDS - 1))), merge: job ${merge%%;*}"
