#!/usr/bin/env bash
# Proves the distributed stack (docker-compose.yml) end to end, as .ci/run's last step:
#   1. Docker: installs Debian's docker.io + docker-compose when missing, starts dockerd when none answers,
#      builds the base images offline (../shared/tools/offline-images.sh) when they are missing.
#   2. Builds the image (Docker's layer cache makes a code-only change cheap) and the MailDev image.
#   3. Brings the stack up with two replicas of every service and waits until every container is healthy.
#   4. Walks one user through it on http://127.0.0.1:8080 (scripts/compose-walk.mjs).
#   5. Takes it down with its volumes, also on failure (then the containers' logs are printed first).
# Prints the build time, the seconds from `up` to all healthy, and the walk's duration.
# `--prepare` does steps 1 and 2 only (.ci/run runs it beside the tests: installing Docker and
# making the images is mostly waiting on the network and the disk); a later run finds them done.
# Uses `docker compose` (v2) when present, else Debian's `docker-compose` 1.29.
# Env: COMPOSE_WALK_PROJECT (default haven), HEALTHY_TIMEOUT (seconds, default 180), KEEP_STACK=1 (leave it up),
#      STRICT_RESTARTS=1 (fail when a container crashed on its way up, even if its restart made it healthy),
#      OBSERVABILITY=1 (also start the `observability` profile's Prometheus and, after the walk, check that it
#      scrapes every service replica and the gateway, all up: scripts/prometheus-targets.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '\n== %s\n' "$*"; }
now() { date +%s; }

mode=${1:-}
case "$mode" in '' | --prepare) ;; *) echo "usage: scripts/ci-compose.sh [--prepare]"; exit 2 ;; esac
project=${COMPOSE_WALK_PROJECT:-haven}
healthy_timeout=${HEALTHY_TIMEOUT:-180}
scaled=(auth thoughts insights assistant integrations portability)
image=haven:local
maildev_image=haven-maildev:local

# ---- Docker ----
if ! command -v docker >/dev/null || { ! docker compose version >/dev/null 2>&1 && ! command -v docker-compose >/dev/null; }; then
  log "installing Docker (Debian's docker.io and docker-compose)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io docker-compose >/dev/null
fi
if ! docker info >/dev/null 2>&1; then
  log "starting dockerd"
  # In a session of its own: it outlives this script, and whoever stops this script's process group.
  (setsid nohup dockerd >/var/log/dockerd.log 2>&1 &)
  for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && break; sleep 0.5; done
  docker info >/dev/null 2>&1 || { echo "dockerd did not start:"; tail -5 /var/log/dockerd.log; exit 1; }
fi
if docker compose version >/dev/null 2>&1; then
  compose_cmd=(docker compose)
else
  compose_cmd=(docker-compose)
fi
echo "compose: ${compose_cmd[*]} ($("${compose_cmd[@]}" version --short 2>/dev/null || "${compose_cmd[@]}" version | head -1))"

missing_base=()
for base in node:20-bookworm-slim postgres:16-alpine redis:7-alpine; do
  docker image inspect "$base" >/dev/null 2>&1 || missing_base+=("$base")
done
if [ ${#missing_base[@]} -gt 0 ]; then
  offline=../shared/tools/offline-images.sh
  if [ -x "$offline" ] || [ -f "$offline" ]; then
    log "building base images offline (${missing_base[*]})"
    bash "$offline"
  else
    log "pulling base images (${missing_base[*]})"
    for base in "${missing_base[@]}"; do docker pull -q "$base"; done
  fi
fi

# ---- a throw-away configuration: fresh secrets, MailDev for mail, nothing from a developer's .env ----
workdir=$(mktemp -d)
envfile="$workdir/ci.env"
random() { node -e "process.stdout.write(require('crypto').randomBytes(32).toString('$1'))"; }
{
  echo "COMPOSE_PROJECT_NAME=$project"
  echo "JWT_SECRET=$(random hex)"
  echo "INTERNAL_SECRET=$(random hex)"
  echo "DATA_ENCRYPTION_KEY=$(random base64)"
  echo "APP_URL=http://127.0.0.1:8080"
  echo "LOG_LEVEL=info"
} >"$envfile"
profile_args=()
[ "${OBSERVABILITY:-}" != 1 ] || profile_args=(--profile observability)
compose() { "${compose_cmd[@]}" -p "$project" --env-file "$envfile" "${profile_args[@]}" "$@"; }

# The other implementation, when this machine has both, must read the file too (cheap).
if [ "${compose_cmd[*]}" = "docker compose" ] && command -v docker-compose >/dev/null; then
  docker-compose -p "$project" --env-file "$envfile" config -q && echo "docker-compose 1.x reads the file too"
elif docker compose version >/dev/null 2>&1; then
  docker compose -p "$project" --env-file "$envfile" config -q && echo "docker compose v2 reads the file too"
fi
compose config -q

if [ -n "$(docker ps -aq --filter "label=com.docker.compose.project=$project")" ]; then
  echo "Compose project '$project' already has containers: stop it first (or set COMPOSE_WALK_PROJECT)."
  echo "(This walk ends with 'down -v', which would delete that project's volumes.)"
  exit 1
fi

for port in 8080 1080; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "Port $port on this machine is taken: the stack publishes the gateway on 8080 and MailDev on 1080."
    exit 1
  fi
done

# ---- build ----
log "building $image and $maildev_image"
t0=$(now)
docker build -q -t "$image" . >/dev/null
docker build -q -t "$maildev_image" -f docker/maildev/Dockerfile docker >/dev/null
build_secs=$(($(now) - t0))
echo "build: ${build_secs} s"
if [ "$mode" = --prepare ]; then
  rm -rf "$workdir"
  log "prepared: Docker answers, the base images and $image are built"
  exit 0
fi

# ---- up, then wait until every container is healthy ----
stack_up=0
status=1
walk_log="$workdir/walk.log"
cleanup() {
  local rc=$?
  if [ "$status" != 0 ] && [ "$rc" = 0 ]; then rc=1; fi
  if [ "$stack_up" = 1 ]; then
    if [ "$rc" != 0 ]; then
      log "FAILED: the stack's state and logs"
      compose ps || true
      compose logs --no-color --tail=120 || true
      # The containers' logs are long: what failed is said again last, where a CI's tail shows it.
      log "FAILED (the reason, again)"
      if [ -s "$walk_log" ]; then tail -n 25 "$walk_log"; else echo "before the walk (see above)"; fi
    fi
    if [ "${KEEP_STACK:-}" = 1 ]; then
      echo "KEEP_STACK=1: leaving the stack up (compose -p $project --env-file $envfile down -v to end it)"
    else
      log "down -v"
      compose down -v --remove-orphans >/dev/null 2>&1 || compose down -v --remove-orphans || true
      docker volume rm "${project}_k8s-backups" >/dev/null 2>&1 || true
    fi
  fi
  [ "${KEEP_STACK:-}" = 1 ] || rm -rf "$workdir"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

scale_args=()
for s in "${scaled[@]}"; do scale_args+=(--scale "$s=2"); done
expected=0
scraped=0
for s in $(compose config --services); do
  # docker-compose 1.29 lists a profile's services even when the profile is off.
  [ "$s" != prometheus ] || [ "${OBSERVABILITY:-}" = 1 ] || continue
  case " ${scaled[*]} " in *" $s "*) n=2 ;; *) n=1 ;; esac
  expected=$((expected + n))
  case "$s" in postgres | redis | maildev | prometheus) ;; *) scraped=$((scraped + n)) ;; esac
done

log "up: $expected containers (${scaled[*]} twice each)"
t0=$(now)
stack_up=1
# Compose 1.29 gives up when a dependency is unhealthy at the moment it looks (PostgreSQL in crash
# recovery while the whole stack connects at once); the restart policies bring it back, so it is asked
# once more, and the stack must still be healthy within the same time bound.
if ! compose up -d --no-build "${scale_args[@]}"; then
  echo "up stopped on a dependency not healthy yet: asking once more"
  sleep 15
  compose up -d --no-build "${scale_args[@]}"
fi
# Waits until every container of the stack is healthy (at most $healthy_timeout s from $t0).
wait_healthy() {
  while :; do
    states=$(docker ps -a --filter "label=com.docker.compose.project=$project" --format '{{.Names}} {{.Status}}')
    total=$(printf '%s\n' "$states" | grep -c . || true)
    healthy=$(printf '%s\n' "$states" | grep -c '(healthy)' || true)
    if [ "$total" -ge "$expected" ] && [ "$healthy" = "$total" ]; then
      healthy_secs=$(($(now) - t0))
      return
    fi
    if [ $(($(now) - t0)) -gt "$healthy_timeout" ]; then
      echo "not all healthy after ${healthy_timeout} s ($healthy of $total, $expected expected):"
      printf '%s\n' "$states" | grep -v '(healthy)' || true
      exit 1
    fi
    sleep 2
  done
}
healthy_secs=
wait_healthy
up_secs=$healthy_secs
echo "up -> all $total containers healthy: ${up_secs} s"
# A container that crashed on its way up and was restarted is healthy now but shows a restart count:
# say which, with its fatal log lines. STRICT_RESTARTS=1 makes that a failure.
restarts=$(docker ps -aq --filter "label=com.docker.compose.project=$project" \
  | xargs docker inspect --format '{{.Name}} {{.RestartCount}}' | awk '$2 > 0')
if [ -n "$restarts" ]; then
  echo "WARNING: containers restarted on their way up (name, restarts):"
  echo "$restarts"
  for name in $(echo "$restarts" | awk '{print $1}'); do
    docker logs "${name#/}" 2>&1 | grep -E '"level":(50|60)|Error|error' | tail -5 | cut -c1-600 | sed "s|^|  ${name#/}: |"
  done
  [ "${STRICT_RESTARTS:-}" != 1 ] || exit 1
fi

# ---- the walk ----
log "walk"
t0=$(now)
HAVEN_URL=http://127.0.0.1:8080 MAILDEV_URL=http://127.0.0.1:1080 node scripts/compose-walk.mjs 2>&1 | tee "$walk_log"
walk_secs=$(($(now) - t0))

# ---- the restore drill: a journal backed up, the database destroyed, restored into a fresh one ----
log "restore drill"
t0=$(now)
drill_state="$workdir/drill.json"
HAVEN_URL=http://127.0.0.1:8080 MAILDEV_URL=http://127.0.0.1:1080 node scripts/compose-drill.mjs write "$drill_state"
compose run --rm --no-deps -T portability-worker backup | tee "$workdir/backup.out"
backup_file=$(sed -n 's/^Backup written: \([^ ]*\).*/\1/p' "$workdir/backup.out")
[ -n "$backup_file" ] || { echo "the backup command wrote no backup"; exit 1; }
# Destroyed: every container stopped, the database's and the queues' volumes gone.
compose stop >/dev/null 2>&1
compose rm -f postgres redis >/dev/null 2>&1
docker volume rm "${project}_postgres-data" "${project}_redis-data" >/dev/null
compose up -d --no-build postgres redis >/dev/null 2>&1
until compose exec -T postgres pg_isready -U haven -d haven -q; do
  [ $(($(now) - t0)) -lt "$healthy_timeout" ] || { echo "PostgreSQL did not come back"; exit 1; }
  sleep 2
done
compose run --rm --no-deps -T portability-worker restore "$backup_file"
compose up -d --no-build "${scale_args[@]}" >/dev/null 2>&1
wait_healthy
HAVEN_URL=http://127.0.0.1:8080 node scripts/compose-drill.mjs check "$drill_state"
# The image's re-encryption command runs beside the services (nothing to do: one key).
compose run --rm --no-deps -T portability-worker rekey | tee "$workdir/rekey.out"
grep -q 'No value uses an old key any more' "$workdir/rekey.out" || { echo "rekey did not finish"; exit 1; }
drill_secs=$(($(now) - t0))

# ---- the Kubernetes backup and restore steps (deploy/k8s/README.md), no cluster: the CronJob's
# container run by Docker as the kubelet would (scripts/k8s-job.mjs) against this stack's database ----
log "kubernetes backup job and restore steps"
t0=$(now)
k8s_volume="${project}_k8s-backups"
k8s_job() {
  node scripts/k8s-job.mjs --manifest deploy/k8s/base/backup.yaml --cronjob haven-backup --image "$image" \
    --network "${project}_default" --secret "DATABASE_URL=postgres://haven:haven@postgres:5432/haven" \
    --volume "haven-backups=$k8s_volume" "$@"
}
k8s_job | tee "$workdir/k8s-backup.out"
k8s_file=$(sed -n 's/^Backup written: \([^ ]*\).*/\1/p' "$workdir/k8s-backup.out")
[ -n "$k8s_file" ] || { echo "the CronJob's container wrote no backup"; exit 1; }
k8s_job --args backup,--list | grep -qF "$(basename "$k8s_file")" || { echo "backup --list does not show it"; exit 1; }
# A thought written after the backup: the restore (with --clean, over this database) must remove it.
HAVEN_URL=http://127.0.0.1:8080 node scripts/compose-drill.mjs scribble "$drill_state"
# The README's steps: every writer stopped (the Deployments scaled to 0), the restore as a Job, back up.
compose stop >/dev/null 2>&1
compose up -d --no-build postgres redis >/dev/null 2>&1
until compose exec -T postgres pg_isready -U haven -d haven -q; do
  [ $(($(now) - t0)) -lt "$healthy_timeout" ] || { echo "PostgreSQL did not come back"; exit 1; }
  sleep 2
done
k8s_job --args "restore,$k8s_file,--clean"
compose up -d --no-build "${scale_args[@]}" >/dev/null 2>&1
wait_healthy
HAVEN_URL=http://127.0.0.1:8080 node scripts/compose-drill.mjs check "$drill_state"
docker volume rm "$k8s_volume" >/dev/null
k8s_secs=$(($(now) - t0))

if [ "${OBSERVABILITY:-}" = 1 ]; then
  log "prometheus targets"
  EXPECTED_TARGETS=$scraped scripts/prometheus-targets.sh
fi

status=0
log "compose stack passed: build ${build_secs} s, up->healthy ${up_secs} s, walk ${walk_secs} s, restore drill ${drill_secs} s, kubernetes steps ${k8s_secs} s"
