package fleet_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	gosync "sync"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/fleet"
	"github.com/sucursal/sucursal/internal/fleet/fleettest"
	"github.com/sucursal/sucursal/internal/fleetapi"
)

type lockedLog struct {
	mu gosync.Mutex
	b  bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}
func (l *lockedLog) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

// duplicateKeys returns the keys that appear more than once at the top of a JSON object.
func duplicateKeys(line string) ([]string, error) {
	dec := json.NewDecoder(strings.NewReader(line))
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var dup []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k := fmt.Sprint(tok)
		if seen[k] {
			dup = append(dup, k)
		}
		seen[k] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return dup, nil
}

// The controller's JSON log lines are valid objects with each key once (a rollout's message used
// to be logged as a second "msg").
func TestControllerLogLinesHaveUniqueKeys(t *testing.T) {
	env := fleettest.Start(t)
	ctx := context.Background()
	env.SetDesired(t, fleetapi.RoleKey(role), fleetapi.Desired{Manifest: env.Publish(t, role, "1.0.0", fleettest.Artifact(1, 1000))})
	env.Publish(t, role, "1.1.0", fleettest.Artifact(2, 1000))
	startEdges(t, env, 2, nil)
	var out lockedLog
	c, err := fleet.NewController(env.JS, fleet.ControllerConfig{Fleet: env.Cfg, ID: "ctl-log", LeaseTTL: 900 * time.Millisecond},
		slog.New(slog.NewJSONHandler(&out, nil)))
	if err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- c.Run(cctx) }()
	defer func() { cancel(); <-done }()
	if _, err := fleet.StartRollout(ctx, env.JS, env.Cfg, fleet.StartRequest{Role: role, Version: "1.1.0", Waves: []float64{100}, Key: env.Key}); err != nil {
		t.Fatal(err)
	}
	fleettest.Eventually(t, "a rollout advanced line", func() bool { return strings.Contains(out.String(), `"rollout advanced"`) })
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	for sc.Scan() {
		dup, err := duplicateKeys(sc.Text())
		if err != nil || len(dup) > 0 {
			t.Errorf("log line %s: duplicate keys %v, %v", sc.Text(), dup, err)
		}
	}
}
