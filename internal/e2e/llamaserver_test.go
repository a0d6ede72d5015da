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
	"sync"
	"testing"
	"time"
)

// llamaServers maps the base URL of every llama-server a test started to its process, so that a
// test can crash it (killLlamaServer).
var llamaServers sync.Map

// llamaServer starts a real llama-server (Debian's llama.cpp, fetched by
// scripts/fetch-llama-server.sh, part of `make deps`) serving gguf with a pass-through chat
// template, so it renders a chat exactly as the test models' Ollama template does. args are added
// after the defaults (a repeated option wins: "-c", "8192"). A missing binary fails the test.
func llamaServer(t *testing.T, gguf string, args ...string) string {
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
	cmd := exec.CommandContext(ctx, bin, append([]string{"--jinja", "--chat-template-file", tpl, "-m", gguf, "--host", "127.0.0.1", "--port", port,
		"-c", "2048", "-np", "4", "-t", "1"}, args...)...)
	cmd.Stdout, cmd.Stderr = nil, nil
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	base := "http://127.0.0.1:" + port
	llamaServers.Store(base, cmd)
	t.Cleanup(func() { cancel(); <-done; llamaServers.Delete(base) })
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

// killLlamaServer SIGKILLs the llama-server llamaServer started for base (a crash, not a shutdown)
// and waits until its port refuses connections.
func killLlamaServer(t *testing.T, base string) {
	t.Helper()
	v, ok := llamaServers.Load(base)
	if !ok {
		t.Fatalf("no llama-server of this test on %s", base)
	}
	if err := v.(*exec.Cmd).Process.Kill(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		r, err := http.Get(base + "/health")
		if err != nil {
			return
		}
		r.Body.Close()
	}
	t.Fatalf("llama-server on %s still answers after SIGKILL", base)
}
