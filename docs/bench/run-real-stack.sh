#!/usr/bin/env bash
# Runs `edge-agent bench` over the real stack — a real Ollama serving a generated model, a
# dc-gateway in front of it, an edge-agent over loopback QUIC with mutual TLS — and writes the
# report to docs/bench/real-stack-ollama.{json,md}. Needs `make deps build` first.
#
#   ./docs/bench/run-real-stack.sh            # the checked-in report (refuses to overwrite it)
#   OUT=/tmp/mine KEEP_LOGS=/tmp/mine-logs ./docs/bench/run-real-stack.sh   # elsewhere, keeping the logs
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
cache="${SUCURSAL_CACHE:-$root/.cache}"
run="$(mktemp -d /tmp/sucursal-bench.XXXXXX)"
bin="$root/bin"
ollama="$cache/ollama-v${OLLAMA_VERSION:-0.17.4}/bin/ollama"
out="${OUT:-docs/bench/real-stack-ollama}"
OLLAMA_PORT="${BENCH_OLLAMA_PORT:-11644}"
GATEWAY_ADDR="${BENCH_GATEWAY_ADDR:-127.0.0.1:14643}"
AGENT_ADDR="${BENCH_AGENT_ADDR:-127.0.0.1:18680}"
EDGE_ID="bench-branch-001"

pids=()
cleanup() {
  trap - EXIT INT TERM
  [ "${#pids[@]}" -gt 0 ] && { kill "${pids[@]}" 2>/dev/null || true; wait "${pids[@]}" 2>/dev/null || true; }
  if [ -n "${KEEP_LOGS:-}" ]; then mkdir -p "$KEEP_LOGS" && cp "$run"/*.log "$run"/edge-agent.yaml "$KEEP_LOGS"/; fi
  rm -rf "$run"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
wait_http() {
  for _ in $(seq 1 300); do curl -fsS -o /dev/null "$1" 2>/dev/null && return 0; sleep 0.2; done
  echo "error: $2 did not come up at $1" >&2; cat "$run"/*.log >&2; exit 1
}
[ -x "$ollama" ] || { echo "error: $ollama is missing: run 'make deps' first" >&2; exit 1; }
for b in edge-agent dc-gateway fleetctl; do
  [ -x "$bin/$b" ] || { echo "error: $bin/$b is missing: run 'make build' first" >&2; exit 1; }
done

# The model: every answer is these 156 words, one token each, cut at max_tokens.
words=""
for i in 0 1 2 3 4 5; do
  for w in alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november \
    oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu; do words+="$w$i "; done
done
go run ./internal/testmodel/cmd/tinygguf -o "$run/bench.gguf" -kind fixed -marker $'\n[answer]' \
  -text "${words% }" -name bench-fixed > "$run/Modelfile"

mkdir -p "$run/home" "$run/models"
HOME="$run/home" OLLAMA_HOST="127.0.0.1:$OLLAMA_PORT" OLLAMA_MODELS="$run/models" OLLAMA_NUM_PARALLEL=2 \
  "$ollama" serve >"$run/ollama.log" 2>&1 &
pids+=($!)
wait_http "http://127.0.0.1:$OLLAMA_PORT/api/version" Ollama
HOME="$run/home" OLLAMA_HOST="127.0.0.1:$OLLAMA_PORT" "$ollama" create bench-fixed -f "$run/Modelfile" >"$run/create.log" 2>&1

"$bin/fleetctl" pki init --dir "$run/pki" --edge "$EDGE_ID" >"$run/pki.log"
"$bin/dc-gateway" --listen "$GATEWAY_ADDR" --pki "$run/pki" --target-url "http://127.0.0.1:$OLLAMA_PORT/v1" \
  >"$run/dc-gateway.log" 2>&1 &
pids+=($!)
cat >"$run/edge-agent.yaml" <<YAML
listen: $AGENT_ADDR
edge_id: $EDGE_ID
dc: $GATEWAY_ADDR
dc_server_name: localhost
pki: $run/pki
admission:
  max_active: 2
  max_queue: 4
  max_wait: 5s
YAML
"$bin/edge-agent" --config "$run/edge-agent.yaml" >"$run/edge-agent.log" 2>&1 &
pids+=($!)
wait_http "http://$AGENT_ADDR/readyz" "edge-agent (QUIC link to the gateway)"

# Load the model once, outside the measurement.
"$bin/edge-agent" ask --url "http://$AGENT_ADDR" --model bench-fixed --max-tokens 4 "warm" >/dev/null

"$bin/edge-agent" bench --scenarios docs/bench/real-stack.yaml --target "http://$AGENT_ADDR" \
  --agent-config "$run/edge-agent.yaml" --out "$out"
