package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/pki"
)

// waitLog waits until the agent's log holds want after from bytes, and returns the log.
func (p *agentProcess) waitLog(t *testing.T, from int, want string) string {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if l := p.logs(); strings.Contains(l[from:], want) {
			return l[from:]
		}
	}
	t.Fatalf("the log has no %q within 30 s", want)
	return ""
}

// SIGHUP on the built binary: a changed redaction policy and log level take effect at once (what
// reaches the DC changes), a changed listen address is named as needing a restart, and a file
// that became invalid changes nothing and its problems are logged.
func TestSIGHUPReloads(t *testing.T) {
	dir := t.TempDir()
	bin := buildAgent(t, dir)
	pkiDir := filepath.Join(dir, "pki")
	if _, err := pki.Init(pki.Options{Dir: pkiDir, Edges: []string{"branch-0001"}}); err != nil {
		t.Fatal(err)
	}
	dcSaw := &tap{}
	gw := startGateway(t, pkiDir, pacedTarget(t, dcSaw))
	p, cfgFile := startAgentProcess(t, bin, pkiDir, gw, "")
	base, err := os.ReadFile(cfgFile)
	if err != nil {
		t.Fatal(err)
	}
	const word = "Zorblax"
	ask := func() string {
		t.Helper()
		s := startStreamSaying(p.url, "short", "el proyecto "+word+" sigue en marcha")
		s.wait(t, "ask")
		return dcSaw.last()
	}
	hup := func(yaml string) int {
		t.Helper()
		if err := os.WriteFile(cfgFile, []byte(yaml), 0o600); err != nil {
			t.Fatal(err)
		}
		from := len(p.logs())
		if err := p.cmd.Process.Signal(syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
		return from
	}
	if !strings.Contains(ask(), word) {
		t.Fatal("before the reload the word was redacted already")
	}
	p.waitLog(t, 0, `"msg":"request served"`) // written after the answer's last byte

	_, rest, _ := strings.Cut(string(base), "\n") // without its listen line
	from := hup("listen: 127.0.0.1:1\n" + rest + "log_level: warn\nredaction:\n  deny:\n    - {value: " + word + ", type: CODENAME}\n")
	l := p.waitLog(t, from, `"msg":"configuration reloaded"`)
	for _, want := range []string{`"reloaded":["redaction","guard","log_level"],"log_level":"warn"`, `changed keys not reloaded`, `"keys":["listen"]`} {
		if !strings.Contains(l, want) {
			t.Errorf("the reload log lacks %s:\n%s", want, l)
		}
	}
	if got := ask(); strings.Contains(got, word) || !strings.Contains(got, "CODENAME") {
		t.Fatalf("after the reload the DC got %s", got)
	}
	if strings.Contains(p.logs()[from:], `"msg":"request served"`) {
		t.Error("log_level warn did not take effect: a request was logged at info")
	}

	from = hup(string(base) + "lisen: 127.0.0.1:1\nlog_level: loud\n")
	l = p.waitLog(t, from, "SIGHUP: configuration not reloaded; the one in force stays")
	for _, want := range []string{`\"lisen\" is not a key at the top level; did you mean \"listen\"?`, `log_level: \"loud\" is not one of`} {
		if !strings.Contains(l, want) {
			t.Errorf("the refused reload's log lacks %s:\n%s", want, l)
		}
	}
	if got := ask(); strings.Contains(got, word) {
		t.Fatalf("a refused reload changed the policy in force: the DC got %s", got)
	}
	if strings.Contains(p.logs(), "hola") {
		t.Error("the log holds prompt text")
	}
}
