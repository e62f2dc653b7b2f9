#!/bin/bash
# Container health probe: exits 0 when http://127.0.0.1:$PORT<path> answers 200.
#   healthcheck.sh [path] [port]     (defaults: /readyz, $PORT, 3000)
# Plain bash (/dev/tcp), no Node start-up per probe: a stack of twenty containers probing every few
# seconds must not eat a small machine's CPU, nor time out when that machine is busy.
path=${1:-/readyz}
port=${2:-${PORT:-3000}}
exec 3<>"/dev/tcp/127.0.0.1/$port" || exit 1
printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' "$path" >&3
IFS= read -r -t 10 status <&3 || exit 1
case "$status" in
  "HTTP/1."?" 200 "*) exit 0 ;;
  *) echo "$path: ${status%$'\r'}"; exit 1 ;;
esac
