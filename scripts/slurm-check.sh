#!/usr/bin/env bash
# Runs chunked rendering on a real Slurm cluster of one node (this machine): installs Debian's
# slurm-wlm and munge when missing (as root), starts munged, slurmctld and slurmd with a minimal
# slurm.conf naming this host (its own ports, state and logs in a temporary folder), submits
# examples/slurm/render-chunks.sbatch as an `sbatch --array` job whose tasks render the built-in
# demo's chunks (--frames from SLURM_ARRAY_TASK_ID), waits, joins the chunks with `strata concat`
# and checks that the result equals the unchunked render frame for frame (and byte for byte); then
# the lower-third template the same way, and a batch whose array tasks render `--shard i/2`.
# Stops the daemons it started, by pid. Where they cannot start it prints "skipped: …", exit 0.
#
#   bash scripts/slurm-check.sh
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

say() { echo "slurm-check: $*"; }
fail() { echo "slurm-check: FAILED: $*" >&2; exit 1; }
skip() { echo "skipped: $*"; exit 0; }

work=$(mktemp -d /var/tmp/strata-slurm-check.XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
  status=$?
  if [ -n "${SLURM_CONF:-}" ] && command -v scancel >/dev/null 2>&1; then scancel --quiet --full --name=strata-chunks 2>/dev/null || true; fi
  for ((k = ${#pids[@]} - 1; k >= 0; k--)); do
    pid=${pids[$k]}
    kill "$pid" 2>/dev/null || continue
    for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -9 "$pid" 2>/dev/null || true
  done
  [ ${#pids[@]} -gt 0 ] && say "stopped the daemons it started (pids ${pids[*]})"
  rm -rf "$work"
  exit $status
}
trap cleanup EXIT

# --- Slurm and munge ----------------------------------------------------------------------------
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  [ "$(id -u)" -eq 0 ] || skip "Slurm is not installed (as root: apt-get install -y slurm-wlm munge)"
  say "installing Debian's slurm-wlm and munge"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >"$work/apt.log" 2>&1 \
    || skip "Slurm could not be installed ($(tail -n 1 "$work/apt.log"))"
fi
[ "$(id -u)" -eq 0 ] || skip "starting slurmd needs root"

# munged: reuse one that answers, else start our own.
if ! (munge -n | unmunge) >/dev/null 2>&1; then
  if [ ! -s /etc/munge/munge.key ]; then
    (mungekey --create --keyfile=/etc/munge/munge.key 2>/dev/null || /usr/sbin/create-munge-key -f) >/dev/null 2>&1 \
      || skip "no munge key and none could be made"
    chown munge:munge /etc/munge/munge.key; chmod 400 /etc/munge/munge.key
  fi
  mkdir -p /run/munge /var/lib/munge /var/log/munge
  chown munge:munge /run/munge /var/lib/munge /var/log/munge
  runuser -u munge -- /usr/sbin/munged --foreground >"$work/munged.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 20); do (munge -n | unmunge) >/dev/null 2>&1 && break; sleep 0.5; done
  (munge -n | unmunge) >/dev/null 2>&1 || skip "munged did not start ($(tail -n 1 "$work/munged.log"))"
  say "munged started (pid ${pids[-1]})"
fi

# A one-node cluster on this host, on ports of its own.
node=$(hostname -s)
cpus=$(nproc)
memory=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 / 2 ))
mkdir -p "$work/state" "$work/spool" "$work/out" "$work/logs"
export SLURM_CONF="$work/slurm.conf"
cat >"$SLURM_CONF" <<EOF
ClusterName=strata-check
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=${SLURMCTLD_PORT:-16817}
SlurmdPort=${SLURMD_PORT:-16818}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
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
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SlurmdTimeout=60
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=check Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -i -f "$SLURM_CONF" >"$work/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$work/slurmd.out" 2>&1 &
pids+=($!)
say "slurmctld (pid ${pids[-2]}) and slurmd (pid ${pids[-1]}) started for node $node ($cpus CPUs)"
idle=""
for _ in $(seq 1 60); do
  state=$(sinfo -h -n "$node" -o %T 2>/dev/null | head -n 1)
  case "$state" in idle*|mixed*|allocated*) idle=$state; break ;; esac
  kill -0 "${pids[-1]}" 2>/dev/null && kill -0 "${pids[-2]}" 2>/dev/null || break
  sleep 1
done
if [ -z "$idle" ]; then
  why=$( (grep -hiE "error|fatal" "$work/slurmctld.log" "$work/slurmd.log" "$work/slurmctld.out" "$work/slurmd.out" 2>/dev/null || true) | tail -n 1)
  skip "the Slurm daemons did not start (node state '${state:-none}'${why:+: $why})"
fi
say "node $node is $idle"

# --- The job ------------------------------------------------------------------------------------
source scripts/env.sh
swift build --product strata >"$work/build.log" 2>&1 || { tail -n 20 "$work/build.log" >&2; fail "swift build failed"; }
strata="$root/.build/debug/strata"
frames=60; chunk=20; tasks=$(( (frames + chunk - 1) / chunk ))
export STRATA="$strata" OUT="$work/out" FRAMES=$frames CHUNK=$chunk EXT=mp4
export RENDER_ARGS="--size 320x180 --duration 2"
say "sbatch --array=0-$((tasks - 1)) --wait examples/slurm/render-chunks.sbatch"
started=$(date +%s)
job=$(timeout 900 sbatch --parsable --wait --array=0-$((tasks - 1)) --output="$work/logs/task-%a.log" \
        examples/slurm/render-chunks.sbatch 2>"$work/sbatch.err")
rc=$?
for log in "$work"/logs/task-*.log; do [ -f "$log" ] && sed "s|^|  $(basename "$log" .log): |" "$log"; done
[ $rc -eq 0 ] || fail "the array job ${job:-?} failed (exit $rc): $(tail -n 3 "$work/sbatch.err")"
say "array job $job: $tasks tasks done in $(( $(date +%s) - started )) s"
sacct_line=$(squeue -h -j "$job" 2>/dev/null | wc -l)
[ "$sacct_line" -eq 0 ] || fail "tasks of job $job are still queued"

parts=("$work"/out/chunk-*.mp4)
[ ${#parts[@]} -eq $tasks ] || fail "expected $tasks chunks, found ${#parts[@]}"
"$strata" concat "${parts[@]}" -o "$work/out/joined.mp4" || fail "strata concat failed"
"$strata" render $RENDER_ARGS --keyframe-interval $chunk -o "$work/out/whole.mp4" >/dev/null || fail "the unchunked render failed"

count=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$work/out/joined.mp4")
[ "$count" = "$frames" ] || fail "joined.mp4 has $count frames, expected $frames"
framemd5() { ffmpeg -v error -i "$1" -f framemd5 - | grep -v '^#'; }
[ "$(framemd5 "$work/out/joined.mp4")" = "$(framemd5 "$work/out/whole.mp4")" ] \
  || fail "the joined chunks decode differently from the unchunked render"
say "joined.mp4: $count frames, equal to the unchunked render frame for frame (framemd5)"
cmp -s "$work/out/joined.mp4" "$work/out/whole.mp4" && say "joined.mp4 is byte-identical to the unchunked render"

# A template in chunks: the same job, with RENDER_ARGS naming the template.
export STRATA_TEMPLATES="$root/Templates" OUT="$work/tout" FRAMES=60 CHUNK=30
export RENDER_ARGS="lower-third --set duration=2 --scale 0.25"
mkdir -p "$OUT"
say "sbatch --array=0-1 --wait examples/slurm/render-chunks.sbatch (RENDER_ARGS=\"$RENDER_ARGS\")"
job=$(timeout 900 sbatch --parsable --wait --array=0-1 --output="$work/logs/template-%a.log" examples/slurm/render-chunks.sbatch 2>"$work/sbatch.err") \
  || fail "the template array job failed: $(cat "$work"/logs/template-*.log "$work/sbatch.err" 2>/dev/null | tail -n 3)"
"$strata" concat "$OUT"/chunk-*.mp4 -o "$OUT/joined.mp4" >/dev/null || fail "strata concat (template chunks) failed"
"$strata" render $RENDER_ARGS --keyframe-interval $CHUNK -o "$OUT/whole.mp4" >/dev/null || fail "the unchunked template render failed"
[ "$(framemd5 "$OUT/joined.mp4")" = "$(framemd5 "$OUT/whole.mp4")" ] || fail "the template chunks decode differently from the unchunked render"
say "template job $job: 2 chunks joined equal the unchunked template render frame for frame"

# A batch in shards: task i runs `strata batch --shard i/2`.
printf 'id,name,title\nada,Ada Lovelace,Analyst\ngrace,Grace Hopper,Rear admiral\nalan,Alan Turing,Mathematician\n' >"$work/rows.csv"
batch_args="lower-third --data $work/rows.csv --name {{id}}.mp4 --set duration=2 --scale 0.25"
say "sbatch --array=0-1 --wait --wrap 'strata batch … --shard \$SLURM_ARRAY_TASK_ID/2'"
job=$(timeout 900 sbatch --parsable --wait --array=0-1 --output="$work/logs/batch-%a.log" \
        --wrap "exec $strata batch $batch_args --out $work/shards --shard \$SLURM_ARRAY_TASK_ID/2" 2>"$work/sbatch.err") \
  || fail "the batch array job failed: $(cat "$work"/logs/batch-*.log "$work/sbatch.err" 2>/dev/null | tail -n 3)"
"$strata" batch $batch_args --out "$work/unsharded" >/dev/null 2>&1 || fail "the unsharded batch failed"
for id in ada grace alan; do
  cmp -s "$work/shards/$id.mp4" "$work/unsharded/$id.mp4" || fail "shard output $id.mp4 differs from the unsharded batch's"
done
say "batch job $job: 3 rows in 2 shards, byte-identical to the unsharded batch"
say "passed"
