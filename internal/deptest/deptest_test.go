package deptest

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const mod = "github.com/sucursal/sucursal/"

// goList runs `go list` with args and returns its output lines.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list"}, args...)...).Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("go list %v: %v\n%s", args, err, stderr)
	}
	return strings.Fields(string(out))
}

func deps(t *testing.T, pkg string) []string { return goList(t, "-deps", mod+pkg) }

func imports(t *testing.T, pkg string) []string {
	return goList(t, "-f", `{{join .Imports " "}}`, mod+pkg)
}

func mustNotContain(t *testing.T, what string, got []string, forbidden ...string) {
	t.Helper()
	for _, f := range forbidden {
		if slices.Contains(got, f) {
			t.Errorf("%s: %s is there and must not be", what, f)
		}
	}
}

// No binary links the testing package or a test helper.
func TestBinariesLinkNoTestCode(t *testing.T) {
	helpers := []string{"testing", "testing/internal/testdeps", "net/http/httptest", "go.uber.org/goleak",
		mod + "internal/ollamatest", mod + "internal/fleet/fleettest", mod + "internal/benchclock", mod + "internal/testmodel",
		mod + "internal/deptest"}
	for _, bin := range []string{"cmd/edge-agent", "cmd/dc-gateway", "cmd/fleetctl"} {
		mustNotContain(t, bin, deps(t, bin), helpers...)
	}
}

// The request pipeline knows stages and the chat types, never the transport or the wire
// protocol: the DC is an interface it defines (pipeline.DC), met by package dc.
func TestPipelineDoesNotReachTheTransport(t *testing.T) {
	mustNotContain(t, "internal/pipeline", deps(t, "internal/pipeline"),
		mod+"internal/link", mod+"internal/wire", mod+"internal/dc", "github.com/quic-go/quic-go")
}

// The link is transport only: no guard, no redaction, no chat semantics, no pipeline.
func TestLinkIsTransportOnly(t *testing.T) {
	mustNotContain(t, "internal/link", deps(t, "internal/link"),
		mod+"internal/guard", mod+"internal/redact", mod+"internal/pipeline", mod+"internal/chat", mod+"internal/dc")
}

// Only the DC client opens streams on the link (and the agent wires it): nothing can send
// around the exit check.
func TestOnlyTheDCClientUsesTheLink(t *testing.T) {
	allowed := []string{mod + "internal/dc", mod + "internal/agent", mod + "internal/link"}
	for _, p := range goList(t, mod+"...") {
		if slices.Contains(allowed, p) {
			continue
		}
		if slices.Contains(imports(t, strings.TrimPrefix(p, mod)), mod+"internal/link") {
			t.Errorf("%s imports internal/link; requests must go through internal/dc (and its exit check)", p)
		}
	}
}

// The redactor reads text; it never opens a connection (the NER backends, which do, are
// redact/ner), and it does not depend on the transport or the request pipeline.
func TestRedactOpensNoConnection(t *testing.T) {
	mustNotContain(t, "internal/redact (direct imports)", imports(t, "internal/redact"),
		"net", "net/http", "crypto/tls", "github.com/quic-go/quic-go", "github.com/nats-io/nats.go")
	mustNotContain(t, "internal/redact", deps(t, "internal/redact"),
		mod+"internal/link", mod+"internal/dc", mod+"internal/wire", mod+"internal/pipeline", mod+"internal/redact/ner",
		mod+"internal/openaicompat")
}

// The fleet controller and fleetctl share the edges' contract (internal/fleetapi), not the edge's
// sync agent.
func TestFleetDoesNotImportTheEdgeAgent(t *testing.T) {
	for _, p := range []string{"internal/fleet", "cmd/fleetctl"} {
		mustNotContain(t, p, deps(t, p), mod+"internal/sync", mod+"internal/agent")
	}
}

// Leaf packages stay leaves.
func TestLeaves(t *testing.T) {
	for _, p := range []string{"internal/jsonlit", "internal/wire", "internal/chat"} {
		for _, d := range deps(t, p) {
			if strings.HasPrefix(d, mod) && d != mod+p && !(p == "internal/chat" && d == mod+"internal/jsonlit") {
				t.Errorf("%s depends on %s; it must stay a leaf", p, d)
			}
		}
	}
}
