package e2e

import (
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/agent"
	"github.com/sucursal/sucursal/internal/drafter"
	"github.com/sucursal/sucursal/internal/testmodel"
)

// llamaServer starts a real llama-server (Debian's llama.cpp, fetched by
// scripts/fetch-llama-server.sh, part of `make deps`) serving gguf with a pass-through chat
// template, so it renders a chat exactly as the test models' Ollama template does. A missing
// binary fails the test.
func llamaServer(t *testing.T, gguf string) string {
	t.Helper()
	bin := os.Getenv("SUCURSAL_LLAMA_SERVER_BIN")
	if bin == "" {
		_, file, _, _ := runtime.Caller(0)
		bin = filepath.Join(filepath.Dir(file), "..", "..", ".cache", "llama-server", "bin", "llama-server")
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("llama-server not found at %s: run `make deps` (scripts/fetch-llama-server.sh) or set SUCURSAL_LLAMA_SERVER_BIN", bin)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	tpl := filepath.Join(t.TempDir(), "passthrough.jinja")
	if err := os.WriteFile(tpl, []byte("{% for m in messages %}{{ m.content }}{% endfor %}"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "--jinja", "--chat-template-file", tpl, "-m", gguf, "--host", "127.0.0.1", "--port", port,
		"-c", "2048", "-np", "4", "-t", "1")
	cmd.Stdout, cmd.Stderr = nil, nil
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	base := "http://127.0.0.1:" + port
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if r, err := http.Get(base + "/health"); err == nil {
			r.Body.Close()
			if r.StatusCode == http.StatusOK {
				return base
			}
		}
		select {
		case <-done:
			t.Fatal("llama-server exited before it was ready")
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatal("llama-server not ready after a minute")
	return ""
}

// TestDraftingOnLlamaServer: the edge drafter on a real llama-server. With the draft model's GGUF
// configured the hello picks token mode and the accepted tokens equal the protocol simulated from
// the specs; without it, or with another tokenizer, text mode. Every answer is the target's.
func TestDraftingOnLlamaServer(t *testing.T) {
	o, tgt, d := draftModels(t)
	wp, _ := testmodel.Perturbed(tgt.WithPieces("bc", "def", "xyz", "▁a"), 0.3, 5)
	dir := t.TempDir()
	dPath, wpPath := filepath.Join(dir, "draft.gguf"), filepath.Join(dir, "draft-wp.gguf")
	if err := testmodel.WriteFile(dPath, d); err != nil {
		t.Fatal(err)
	}
	if err := testmodel.WriteFile(wpPath, wp); err != nil {
		t.Fatal(err)
	}
	dURL, wpURL := llamaServer(t, dPath), llamaServer(t, wpPath)
	fleet := newPKI(t)
	gwAddr := startDraftGateway(t, fleet, o.URL+"/v1", o.URL, 0)
	wan := startWAN(t, gwAddr, 40*time.Millisecond)
	for _, gamma := range []int{2, 5} {
		for _, dc := range []struct{ name, url, gguf, mode string }{
			{"same tokenizer with GGUF", dURL, dPath, "token"},
			{"same tokenizer without GGUF", dURL, "", "text"},
			{"other tokenizer", wpURL, wpPath, "text"},
		} {
			t.Run(dc.name+"/gamma="+strconv.Itoa(gamma), func(t *testing.T) {
				url, a := startAgent(t, fleet, wan, func(c *agent.Config) {
					c.Draft = drafter.Config{Enabled: true, Backend: "llamacpp", URL: dc.url, TokenizerGGUF: dc.gguf,
						GammaMin: gamma, GammaMax: gamma}
				})
				waitLink(t, a)
				warmUp(t, url, "tiny")
				wantAccepted := 0
				for _, tc := range draftCases {
					want := tgt.Greedy(tc.prompt, limit64(tc.max))
					if got := greedyStream(t, url, tc.prompt, tc.max); got != want {
						t.Errorf("%q: got %q, want %q", tc.prompt, got, want)
					}
					wantAccepted += expectedAccepted(d, tgt, tc.prompt, int(tc.max), gamma)
				}
				if n := metricSum(t, url, `sucursal_drafter_answers_total{dc="`+wan+`",mode="`+dc.mode+`"}`); n != float64(len(draftCases)) {
					t.Errorf("%v answers drafted in %s mode, want %d (plain: %v)", n, dc.mode, len(draftCases),
						metricSum(t, url, "sucursal_drafter_plain_total"))
				}
				if dc.mode == "token" {
					if got := metricSum(t, url, "sucursal_drafter_accepted_tokens_total"); got != float64(wantAccepted) {
						t.Errorf("accepted %v draft tokens, the protocol simulated from the specs accepts %d", got, wantAccepted)
					}
				}
			})
		}
	}
}
