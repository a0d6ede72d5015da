package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sucursal/sucursal/internal/loadbench"
)

// A minimal endpoint: one model, whole answers of max_tokens characters, no /metrics; it checks
// the bench's bearer token.
func benchServer(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, `{"data":[{"id":"tiny","owned_by":"test"}]}`)
	})
	mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer sk-secret" {
			w.WriteHeader(401)
			return
		}
		var b struct {
			MaxTokens int `json:"max_tokens"`
		}
		_ = json.NewDecoder(r.Body).Decode(&b)
		fmt.Fprintf(w, `{"choices":[{"message":{"content":%q}}],"usage":{"completion_tokens":%d}}`, strings.Repeat("a", b.MaxTokens), b.MaxTokens)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func runBench(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := newRootCmd()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(append([]string{"bench"}, args...))
	err := cmd.Execute()
	return out.String(), err
}

func TestBenchCommand(t *testing.T) {
	srv := benchServer(t)
	dir := t.TempDir()
	scen := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(scen, []byte("model: tiny\nmeasure: {requests: 3}\nscenarios:\n  - {name: one, stream: false, input_tokens: {p50: 3}, output_tokens: {p50: 5}, arrival: {mode: closed, concurrency: [1]}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	prefix := filepath.Join(dir, "report")
	out, err := runBench(t, "--scenarios", scen, "--target", srv.URL, "--api-key", "sk-secret", "--out", prefix)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	data, err := os.ReadFile(prefix + ".json")
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte("sk-secret")) {
		t.Error("the API key is in the report")
	}
	var r loadbench.Report
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	c := r.Results[0].Cells[0]
	if c.Answered != 3 || c.OutputTokens != 5 || r.Snapshot.Target != srv.URL+"/v1" || r.Snapshot.Models[0].ID != "tiny" ||
		!strings.Contains(r.Snapshot.QueueWait, "not measurable from outside") || r.Snapshot.ScenarioSHA256 == "" {
		t.Errorf("report %+v\ncell %+v", r.Snapshot, c)
	}
	if got := strings.Join(r.Snapshot.Command, " "); got != "edge-agent bench --api-key $EDGE_AGENT_API_KEY --out "+prefix+" --scenarios "+scen+" --target "+srv.URL {
		t.Errorf("recorded command %q", got)
	}
	md, err := os.ReadFile(prefix + ".md")
	if err != nil || !strings.Contains(string(md), "$EDGE_AGENT_API_KEY") || bytes.Contains(md, []byte("sk-secret")) {
		t.Errorf("markdown: %v\n%s", err, md)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--scenarios", scen, "--target", srv.URL, "--api-key", "sk-secret", "--out", prefix}, "exists"},
		{[]string{"--target", srv.URL}, "--scenarios is required"},
		{[]string{"--scenarios", scen, "--target", "ftp://x"}, "want an http(s) URL"},
		{[]string{"--scenarios", filepath.Join(dir, "none.yaml")}, "no such file"},
	} {
		if _, err := runBench(t, tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.args, err, tc.want)
		}
	}
	// Without --api-key every request is refused: errors counted, nothing met the SLO.
	out, err = runBench(t, "--scenarios", scen, "--target", srv.URL)
	if err != nil || !strings.Contains(out, "http 401 ×3") || !strings.Contains(out, "No load met the SLO") {
		t.Errorf("unauthenticated run: %v\n%s", err, out)
	}
}
