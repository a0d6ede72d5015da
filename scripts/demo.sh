#!/usr/bin/env bash
# The one-machine demo: a real Ollama serving a tiny deterministic model (the "datacenter target"),
# a dc-gateway in front of it, an edge-agent for the "branch", a fleet PKI between them, and a
# streamed answer through the whole path. Everything listens on loopback only and stops on exit.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
cache="${SUCURSAL_CACHE:-$root/.cache}"
run="$cache/demo"
bin="$root/bin"
ollama="$cache/ollama-v${OLLAMA_VERSION:-0.17.4}/bin/ollama"

OLLAMA_PORT="${DEMO_OLLAMA_PORT:-11534}"
GATEWAY_ADDR="${DEMO_GATEWAY_ADDR:-127.0.0.1:14443}"
AGENT_ADDR="${DEMO_AGENT_ADDR:-127.0.0.1:18080}"
EDGE_ID="demo-branch-001"
MODEL="sucursal-demo"

pids=()
cleanup() {
  trap - EXIT INT TERM
  if [ "${#pids[@]}" -gt 0 ]; then
    echo
    echo "stopping the demo's processes…"
    kill "${pids[@]}" 2>/dev/null || true
    wait "${pids[@]}" 2>/dev/null || true
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

wait_http() { # url what
  for _ in $(seq 1 150); do
    if curl -fsS -o /dev/null "$1" 2>/dev/null; then return 0; fi
    sleep 0.2
  done
  echo "error: $2 did not come up at $1; its log is in $run/logs" >&2
  exit 1
}

command -v curl >/dev/null || { echo "error: the demo needs curl (apt-get install curl)" >&2; exit 1; }
[ -x "$ollama" ] || { echo "error: $ollama is missing: run 'make deps' first" >&2; exit 1; }
for b in edge-agent dc-gateway fleetctl; do
  [ -x "$bin/$b" ] || { echo "error: $bin/$b is missing: run 'make build' first" >&2; exit 1; }
done

rm -rf "$run" && mkdir -p "$run/logs" "$run/ollama-home" "$run/models"

echo "1/5 writing a tiny deterministic model (a real GGUF, generated, ~1 MB)…"
go run ./internal/testmodel/cmd/tinygguf -o "$run/demo.gguf" -kind sentence -trigger Hola \
  -text "Hola, soy el modelo del centro de datos. Tu pregunta ha viajado por QUIC con TLS mutuo desde la sucursal hasta aqui, y esta respuesta vuelve por el mismo camino." \
  -name "$MODEL" > "$run/Modelfile"

echo "2/5 starting Ollama on 127.0.0.1:$OLLAMA_PORT (the datacenter's model server)…"
HOME="$run/ollama-home" OLLAMA_HOST="127.0.0.1:$OLLAMA_PORT" OLLAMA_MODELS="$run/models" \
  "$ollama" serve >"$run/logs/ollama.log" 2>&1 &
pids+=($!)
wait_http "http://127.0.0.1:$OLLAMA_PORT/api/version" "Ollama"
HOME="$run/ollama-home" OLLAMA_HOST="127.0.0.1:$OLLAMA_PORT" "$ollama" create "$MODEL" -f "$run/Modelfile" >"$run/logs/ollama-create.log" 2>&1

echo "3/5 creating a fleet PKI (CA, gateway certificate, one edge certificate)…"
"$bin/fleetctl" pki init --dir "$run/pki" --edge "$EDGE_ID" >"$run/logs/pki.log"

echo "4/5 starting dc-gateway on udp/$GATEWAY_ADDR and edge-agent on http://$AGENT_ADDR…"
"$bin/dc-gateway" --listen "$GATEWAY_ADDR" --pki "$run/pki" \
  --target-url "http://127.0.0.1:$OLLAMA_PORT/v1" --metrics-listen 127.0.0.1:19464 \
  >"$run/logs/dc-gateway.log" 2>&1 &
pids+=($!)
"$bin/edge-agent" --listen "$AGENT_ADDR" --dc "$GATEWAY_ADDR" --dc-server-name localhost \
  --edge-id "$EDGE_ID" --pki "$run/pki" >"$run/logs/edge-agent.log" 2>&1 &
pids+=($!)
wait_http "http://$AGENT_ADDR/readyz" "edge-agent (QUIC link to the gateway)"

echo "5/5 asking the branch endpoint, streamed:"
echo
echo "  > Hola"
printf "  < "
"$bin/edge-agent" ask --url "http://$AGENT_ADDR" --model "$MODEL" "Hola"
echo
pii="Soy Ana García Pérez, DNI 12345678Z, cuenta ES9121000418450200051332. Hola"
echo "  > $pii"
printf "  < "
"$bin/edge-agent" ask --url "http://$AGENT_ADDR" --model "$MODEL" "$pii"
echo "  What left the branch for that prompt (the same policy, as 'edge-agent redact' shows it):"
echo "$pii" | "$bin/edge-agent" redact | sed -n 's/^{"redacted":"\([^"]*\)".*/    \1/p'
echo
cat <<TXT
The answer above travelled: curl-like client → edge-agent (http://$AGENT_ADDR) → QUIC with mutual
TLS → dc-gateway (udp/$GATEWAY_ADDR) → Ollama → and back, streamed chunk by chunk.

Try next, while the demo runs:
  curl -N http://$AGENT_ADDR/v1/chat/completions -H 'Content-Type: application/json' \\
    -d '{"model":"$MODEL","stream":true,"messages":[{"role":"user","content":"Hola"}]}'
  curl http://$AGENT_ADDR/v1/models            # what the datacenter offers
  curl http://$AGENT_ADDR/readyz               # is the QUIC link up?
  curl -s http://$AGENT_ADDR/metrics | grep ^sucursal_
  curl -s http://127.0.0.1:19464/metrics | grep ^sucursal_gateway
  curl http://$AGENT_ADDR/v1/chat/completions -d '{"model":"nope","messages":[{"role":"user","content":"x"}]}'
Logs: $run/logs/   PKI: $run/pki/
TXT
if [ -t 0 ] && [ "${DEMO_EXIT:-0}" != 1 ]; then
  echo
  echo "Press Ctrl-C to stop the demo."
  while true; do sleep 3600; done
fi
