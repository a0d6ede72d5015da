package agent

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/pki"
	"github.com/sucursal/sucursal/internal/redact"
)

func reloadAgent(t *testing.T) (*Agent, Config) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "pki")
	if _, err := pki.Init(pki.Options{Dir: dir, Edges: []string{"branch-a"}}); err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.EdgeID, cfg.DC, cfg.DCServerName, cfg.PKI, cfg.Listen = "branch-a", "127.0.0.1:1", "localhost", dir, "127.0.0.1:0"
	a, err := New(cfg, slog.New(slog.NewJSONHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	return a, cfg
}

// redacted is what the policy in force makes of text.
func redacted(t *testing.T, a *Agent, text string) string {
	t.Helper()
	s := a.path.p.Load().redactor.NewSession(time.Minute)
	defer s.Close()
	out, err := s.Redact(context.Background(), text)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func metricNames(t *testing.T, a *Agent) []string {
	t.Helper()
	mfs, err := a.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, mf := range mfs {
		out = append(out, mf.GetName())
	}
	return out
}

func TestReload(t *testing.T) {
	a, cfg := reloadAgent(t)
	level := new(slog.LevelVar)
	a.SetLevel(level)
	const word = "Zorblax"
	if got := redacted(t, a, "el proyecto "+word+" sigue en marcha"); !strings.Contains(got, word) {
		t.Fatalf("before the reload %q was redacted: %q", word, got)
	}
	before := metricNames(t, a)
	old := a.path.p.Load()

	// A reloadable change (the deny list, the log level) and two that need a restart.
	next := cfg
	next.Redaction.Deny = append(slices.Clone(cfg.Redaction.Deny), redact.DenyEntry{Value: word, Type: "CODENAME"})
	next.LogLevel = "debug"
	next.Listen = "127.0.0.1:9"
	next.Link.KeepAlive = cfg.Link.KeepAlive + time.Second
	r, err := a.Reload(next)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Reloaded, []string{"redaction", "guard", "log_level"}) || !slices.Equal(r.Refused, []string{"listen", "link"}) {
		t.Fatalf("report %+v", r)
	}
	if got := redacted(t, a, "el proyecto "+word+" sigue en marcha"); strings.Contains(got, word) {
		t.Fatalf("after the reload %q was not redacted: %q", word, got)
	}
	if level.Level() != slog.LevelDebug {
		t.Fatalf("log level %v, want debug", level.Level())
	}
	after := metricNames(t, a)
	for _, n := range before {
		if !slices.Contains(after, n) {
			t.Errorf("metric %s is gone after the reload", n)
		}
	}
	// What was refused keeps its value: the next reload still names it.
	if r, err := a.Reload(next); err != nil || !slices.Equal(r.Refused, []string{"listen", "link"}) {
		t.Fatalf("second reload: %+v %v", r, err)
	}

	// A configuration that does not validate, or whose parts do not build, changes nothing.
	inForce := a.path.p.Load()
	if inForce == old {
		t.Fatal("the reload did not swap the policy")
	}
	for name, mutate := range map[string]func(*Config){
		"invalid": func(c *Config) {
			c.Redaction.Deny = append(c.Redaction.Deny, redact.DenyEntry{Value: "x", Type: "lower"})
		},
		"does not build": func(c *Config) {
			c.Redaction.Custom = []redact.CustomRecognizer{{Name: "bad", Type: "CODE", Pattern: "(", Score: 1}}
		},
	} {
		bad := next
		mutate(&bad)
		bad.LogLevel = "error"
		if _, err := a.Reload(bad); err == nil {
			t.Errorf("%s: reloaded", name)
		}
		if a.path.p.Load() != inForce || level.Level() != slog.LevelDebug {
			t.Errorf("%s: a failed reload changed what is in force", name)
		}
	}
	if got := redacted(t, a, "el proyecto "+word+" sigue en marcha"); strings.Contains(got, word) {
		t.Fatalf("after failed reloads the policy in force changed: %q", got)
	}
}
