#!/bin/sh
# Runs one part of the stack, chosen by SERVICE (see the Dockerfile).
set -e
case "$SERVICE" in
  gateway) exec node gateway/dist/main.js ;;
  auth|thoughts|insights|assistant|integrations|portability) exec node "services/$SERVICE/dist/main.js" ;;
  *) echo "SERVICE must be gateway, auth, thoughts, insights, assistant, integrations or portability (got '$SERVICE')" >&2; exit 1 ;;
esac
