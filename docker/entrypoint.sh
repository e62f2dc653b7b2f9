#!/bin/sh
# Runs one part of the stack, chosen by SERVICE (see the Dockerfile).
set -e
# `docker compose run --rm portability-worker backup|restore FILE [--clean]`: the backup command
# (README, "Backups"), with the container's DATABASE_URL and BACKUP_URL; `… rekey`: the
# re-encryption pass after a key rotation (README, "Keys").
case "${1:-}" in
  backup|restore) exec node services/portability/dist/backup.js "$@" ;;
  rekey) exec node dist/rekey.js ;;
esac
case "$SERVICE" in
  gateway) exec node gateway/dist/main.js ;;
  auth|thoughts|insights|assistant|integrations|portability) exec node "services/$SERVICE/dist/main.js" ;;
  *) echo "SERVICE must be gateway, auth, thoughts, insights, assistant, integrations or portability (got '$SERVICE')" >&2; exit 1 ;;
esac
