#!/usr/bin/env bash
# npm run test:cluster: the cluster scenarios (test/cluster/*.scenario.ts), which need root and
# network namespaces. What a killed run left (namespaces, bridges, veths named dc-*, processes in
# those namespaces) is removed first; everything is removed again however this run ends, and a
# mocha left running by a killed wrapper is ended with it.
set -uo pipefail
cd "$(dirname "$0")/../.."
MOCHA_PID=""
# The mocha of a run whose wrapper was SIGKILLed would go on and tear down this run's network: its id is kept here.
PIDFILE="${TMPDIR:-/tmp}/dispensary-cluster-mocha.pid"
cleanup() {
  if [ -n "$MOCHA_PID" ]; then kill -9 "$MOCHA_PID" 2>/dev/null || true; fi
  node dist/test/cluster/harness/cleanup.js || true
  rm -f "$PIDFILE"
}
if [ -f "$PIDFILE" ]; then
  stale=$(cat "$PIDFILE")
  if [ -n "$stale" ] && grep -qa 'cluster' "/proc/$stale/cmdline" 2>/dev/null; then kill -9 "$stale" 2>/dev/null || true; fi
fi
cleanup
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# CLUSTER_DATABASE_URL picks the database server (PostgreSQL by default); arguments (scenario files) go to mocha.
node node_modules/mocha/bin/mocha.js --no-config --require dist/test/setup.js --timeout 120000 --exit "${@:-dist/test/cluster/*.scenario.js}" &
MOCHA_PID=$!
echo "$MOCHA_PID" > "$PIDFILE"
wait "$MOCHA_PID"
status=$?
MOCHA_PID=""
exit "$status"
