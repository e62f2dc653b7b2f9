#!/usr/bin/env bash
# Checks that the compose stack's Prometheus (the `observability` profile) scrapes every target and sees
# each one up: waits until it has found at least EXPECTED_TARGETS targets through Docker's DNS and every
# one of them answers /metrics, or fails after TARGETS_TIMEOUT seconds listing those that do not.
# Env: PROMETHEUS_URL (default http://127.0.0.1:9090), EXPECTED_TARGETS (default 1), TARGETS_TIMEOUT (90).
set -euo pipefail
url=${PROMETHEUS_URL:-http://127.0.0.1:9090}
expected=${EXPECTED_TARGETS:-1}
deadline=$(($(date +%s) + ${TARGETS_TIMEOUT:-90}))
while :; do
  report=$(curl -fsS "$url/api/v1/targets?state=active" 2>/dev/null | node -e '
    let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
      const targets = JSON.parse(s).data.activeTargets;
      const down = targets.filter((t) => t.health !== "up").map((t) => `${t.labels.job} ${t.labels.instance}: ${t.health} ${t.lastError}`);
      console.log(`${targets.length} ${down.length}`);
      for (const d of down) console.log(`  ${d}`);
    });' || echo "0 0")
  first=$(printf '%s\n' "$report" | head -1)
  found=${first% *}
  down=${first#* }
  if [ "$found" -ge "$expected" ] && [ "$down" = 0 ]; then
    echo "Prometheus sees all $found targets up"
    exit 0
  fi
  if [ "$(date +%s)" -gt "$deadline" ]; then
    echo "Prometheus: $found targets found ($expected expected), $down not up:"
    printf '%s\n' "$report" | tail -n +2
    exit 1
  fi
  sleep 3
done
