package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/sucursal/sucursal/internal/fleet"
	"github.com/sucursal/sucursal/internal/fleet/fleettest"
	"github.com/sucursal/sucursal/internal/fleetapi"
)

// runFor runs the command until d has passed (for --watch) and returns what it printed.
func runFor(t *testing.T, d time.Duration, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	root := newRootCommand()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	return out.String(), err
}

// A killed edge shows in `fleetctl status` as OFFLINE, first in the list, with the versions it
// last ran, in text, JSON and YAML; filters narrow the list; `edge forget` refuses a live edge
// and removes a dead one. The thresholds are short here; the defaults are 30 s and 2 min.
func TestStatusShowsKilledEdgeOffline(t *testing.T) {
	clearTwins(t)
	env := fleettest.Start(t)
	url := env.Hub.URL()
	env.SetDesired(t, fleetapi.RoleKey("drafter"), fleetapi.Desired{Manifest: env.Publish(t, "drafter", "1.0.0", fleettest.Artifact(3, 2000))})
	env.RunAgent(t, "branch-a", fleettest.AgentOptions{Labels: map[string]string{"region": "north"}})
	dead := env.RunAgent(t, "branch-b", fleettest.AgentOptions{Labels: map[string]string{"region": "south"}})

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		root := newRootCommand()
		root.SetArgs([]string{"controller", "--nats", url, "--id", "ctl-status", "--lease-ttl", "900ms"})
		root.SetOut(&strings.Builder{})
		root.SetErr(&strings.Builder{})
		done <- root.ExecuteContext(ctx)
	}()
	t.Cleanup(func() { cancel(); <-done })

	short := []string{"--nats", url, "--stale-after", "600ms", "--offline-after", "1200ms"}
	status := func(extra ...string) (fleet.Report, string) {
		t.Helper()
		out, err := run(t, append(append([]string{"status", "-o", "json"}, short...), extra...)...)
		if err != nil {
			t.Fatalf("status: %v\n%s", err, out)
		}
		var r fleet.Report
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("status -o json: %v\n%s", err, out)
		}
		return r, out
	}
	fleettest.Eventually(t, "both edges ONLINE on drafter 1.0.0", func() bool {
		r, _ := status()
		return r.Counts[fleet.EdgeOnline] == 2 && r.Matrix["branch-a"]["drafter"] == "1.0.0" && r.Matrix["branch-b"]["drafter"] == "1.0.0"
	})
	// The controller copies heartbeats as they come; give it one heartbeat after install.
	fleettest.Eventually(t, "the controller recorded branch-b's install", func() bool {
		kv, err := env.JS.KeyValue(context.Background(), env.Cfg.Buckets.Edges)
		if err != nil {
			return false
		}
		e, err := kv.Get(context.Background(), fleetapi.StatusKey("branch-b"))
		return err == nil && strings.Contains(string(e.Value()), `"version":"1.0.0"`)
	})
	if out, err := run(t, append([]string{"edge", "forget", "branch-b"}, short...)...); err == nil || !strings.Contains(out, "ONLINE") {
		t.Fatalf("forgetting a live edge: %v\n%s", err, out)
	}

	dead.Stop(t)
	var r fleet.Report
	var raw string
	fleettest.Eventually(t, "branch-b OFFLINE", func() bool {
		r, raw = status()
		return r.Counts[fleet.EdgeOffline] == 1
	})
	first := r.Edges[0]
	if first.EdgeID != "branch-b" || first.State != fleet.EdgeOffline || first.Roles["drafter"].Version != "1.0.0" {
		t.Fatalf("problems first: got %+v first", first)
	}
	// Durations are seconds, not nanoseconds.
	if first.AgeSeconds < 1 || first.AgeSeconds > 60 || !strings.Contains(raw, `"last_heard_seconds_ago"`) {
		t.Errorf("last_heard_seconds_ago = %v\n%s", first.AgeSeconds, raw)
	}

	text, err := run(t, append([]string{"status"}, short...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("fleetctl status:\n%s", text)
	lines := strings.Split(text, "\n")
	if !strings.Contains(lines[0], "2 edges: 1 OFFLINE, 0 STALE, 1 ONLINE") || !strings.HasPrefix(lines[2], "branch-b") ||
		!strings.Contains(lines[2], "OFFLINE") || !strings.Contains(lines[2], "1.0.0") || !strings.Contains(lines[2], "offline: silent for") {
		t.Fatalf("text status:\n%s", text)
	}

	if r, _ := status("--state", "online", "--label", "region=north", "--role", "drafter"); len(r.Edges) != 1 || r.Edges[0].EdgeID != "branch-a" {
		t.Errorf("filtered: %+v", r.Edges)
	}
	if r, _ := status("--role", "guard"); len(r.Edges) != 0 {
		t.Errorf("--role guard matched %d edges", len(r.Edges))
	}
	out, err := run(t, append([]string{"status", "-o", "yaml"}, short...)...)
	var y struct {
		Edges []map[string]any `yaml:"edges"`
	}
	if err != nil || yaml.Unmarshal([]byte(out), &y) != nil || len(y.Edges) != 2 || y.Edges[0]["state"] != "OFFLINE" {
		t.Fatalf("status -o yaml: %v\n%s", err, out)
	}
	for _, bad := range [][]string{{"-o", "xml"}, {"--state", "dead"}, {"--stale-after", "2m", "--offline-after", "1m"}} {
		if out, err := run(t, append([]string{"status", "--nats", url}, bad...)...); err == nil {
			t.Errorf("status %v accepted:\n%s", bad, out)
		}
	}

	if out, err := run(t, append([]string{"edge", "forget", "branch-b"}, short...)...); err != nil || !strings.Contains(out, "forgotten") {
		t.Fatalf("edge forget: %v\n%s", err, out)
	}
	if r, _ := status(); len(r.Edges) != 1 || r.Edges[0].EdgeID != "branch-a" {
		t.Fatalf("after forget: %+v", r.Edges)
	}
	if out, err := run(t, "edge", "forget", "no-such-edge", "--nats", url); err == nil || !strings.Contains(out, "no such edge") {
		t.Fatalf("forgetting an unknown edge: %v\n%s", err, out)
	}
}

// --watch off a terminal appends frames with a separator; rollout status needs no --role.
func TestWatchAppendsOffTerminalAndRolloutStatusListsAll(t *testing.T) {
	clearTwins(t)
	env := fleettest.Start(t)
	url := env.Hub.URL()
	env.RunAgent(t, "bare", fleettest.AgentOptions{}) // no desired state: an edge with no roles
	fleettest.Eventually(t, "the edge reported", func() bool {
		out, err := run(t, "status", "--nats", url)
		return err == nil && strings.Contains(out, "bare")
	})
	out, err := runFor(t, 700*time.Millisecond, "status", "--nats", url, "--watch", "--interval", "150ms")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out, "\n--- "); n < 2 || strings.Contains(out, "\x1b[") {
		t.Fatalf("want ≥2 separators and no escape codes off a terminal, got %d:\n%q", n, out)
	}
	if !strings.Contains(out, "bare  ONLINE") {
		t.Fatalf("the edge with no roles is missing from the table:\n%s", out)
	}
	out, err = runFor(t, 500*time.Millisecond, "status", "--nats", url, "--watch", "--interval", "150ms", "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(out))
	docs := 0
	for dec.More() {
		var r fleet.Report
		if err := dec.Decode(&r); err != nil {
			t.Fatalf("frame %d: %v\n%s", docs, err, out)
		}
		docs++
	}
	if docs < 2 {
		t.Fatalf("%d JSON frames:\n%s", docs, out)
	}

	for _, args := range [][]string{{"rollout", "status"}, {"rollout", "list"}} {
		out, err := run(t, append(args, "--nats", url)...)
		if err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	if out, err := run(t, "rollout", "status", "--nats", url, "-o", "json"); err != nil || strings.TrimSpace(out) != "[]" {
		t.Fatalf("rollout status -o json with no rollouts: %v %q", err, out)
	}
	if out, err := run(t, "rollout", "status", "--nats", url, "--role", "drafter"); err == nil || !strings.Contains(out, "no rollout for role") {
		t.Fatalf("rollout status of a role without one: %v\n%s", err, out)
	}
	if _, err := run(t, "rollout", "list", "--nats", url, "-o", "toml"); err == nil {
		t.Fatal("rollout list -o toml accepted")
	}
}

// On a terminal each frame starts by homing the cursor and clearing the screen (a redraw in
// place); off one frames are appended after a separator, and a single run prints no decoration.
func TestWatchRedrawsOnATerminal(t *testing.T) {
	frames := 0
	render := func(w io.Writer) error { frames++; _, err := fmt.Fprintf(w, "frame %d\n", frames); return err }
	for _, tc := range []struct {
		name       string
		watch, tty bool
		format     string
		want       []string
		dontWant   []string
	}{
		{"once", false, true, "text", []string{"frame 1\n"}, []string{"\x1b[", "---"}},
		{"terminal", true, true, "text", []string{"\x1b[H\x1b[2J", "frame 1\n", "frame 2\n"}, []string{"\n--- "}},
		{"pipe", true, false, "text", []string{"frame 1\n\n--- ", "frame 2\n"}, []string{"\x1b["}},
		{"pipe yaml", true, false, "yaml", []string{"---\nframe 1\n---\nframe 2\n"}, []string{"\x1b["}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			frames = 0
			f := watchFlags{watch: tc.watch, every: 30 * time.Millisecond}
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			var out bytes.Buffer
			if err := f.runOn(ctx, &out, tc.tty, tc.format, render); err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("missing %q in %q", w, out.String())
				}
			}
			for _, w := range tc.dontWant {
				if strings.Contains(out.String(), w) {
					t.Errorf("unexpected %q in %q", w, out.String())
				}
			}
			if tc.tty && tc.watch && strings.Count(out.String(), "\x1b[H\x1b[2J") != frames {
				t.Errorf("%d frames, %d redraws", frames, strings.Count(out.String(), "\x1b[H\x1b[2J"))
			}
		})
	}
	if err := (&watchFlags{watch: true}).runOn(context.Background(), io.Discard, false, "text", render); err == nil {
		t.Error("--interval 0 accepted")
	}
}
