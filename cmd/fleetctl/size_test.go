package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/sucursal/sucursal/internal/sizing"
)

const sizeExample = "../../packaging/sizing/example-assumptions.yaml"

func TestSizeCommand(t *testing.T) {
	clearTwins(t)
	dir := t.TempDir()
	taken := filepath.Join(dir, "taken.yaml")
	if err := os.WriteFile(taken, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.yaml")
	example, err := os.ReadFile(sizeExample)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte(strings.Replace(string(example), "gpus_per_node: 4", "gpus_per_node: 0, racks: 2", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	failing := filepath.Join(dir, "failing.yaml")
	if err := os.WriteFile(failing, []byte(strings.Replace(string(example), "tpot_p95_ms: 50", "tpot_p95_ms: 5", 1)), 0o644); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name    string
		env     map[string]string
		args    []string
		want    []string // substrings of the output
		wantErr string   // substring of the error; "" means success
	}{
		{name: "text by default", args: []string{"size", "--assumptions", sizeExample},
			want: []string{"ceil(34.32) = 35", "11 nodes, 44 GPUs, 11 replicas", "327 680 bytes", "= 38.0 GB per GPU", "OK    kv-concurrency"}},
		{name: "env twins", env: map[string]string{"FLEETCTL_ASSUMPTIONS": sizeExample, "FLEETCTL_OUTPUT": "json"},
			args: []string{"size"}, want: []string{`"gpus": 35`}},
		{name: "flag wins over env", env: map[string]string{"FLEETCTL_ASSUMPTIONS": bad},
			args: []string{"size", "--assumptions", sizeExample, "-o", "yaml"}, want: []string{"nodes_deployed: 11"}},
		{name: "unknown format", args: []string{"size", "--assumptions", sizeExample, "-o", "xml"},
			wantErr: `unknown output format "xml" (want text, json, yaml)`},
		{name: "no file", args: []string{"size"}, wantErr: "--assumptions is required"},
		{name: "every problem at once", args: []string{"size", "--assumptions", bad},
			wantErr: "unknown key racks in hardware"},
		{name: "a failing check fails the command after the report", args: []string{"size", "--assumptions", failing},
			want: []string{"FAIL  tpot"}, wantErr: "1 checks failed (tpot)"},
		{name: "never overwrites", args: []string{"size", "--assumptions", sizeExample, "--write-assumptions", taken},
			wantErr: "file exists"},
		{name: "no arguments", args: []string{"size", "--assumptions", sizeExample, "extra"}, wantErr: "unknown command"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			out, err := run(t, tt.args...)
			if tt.wantErr == "" && err != nil {
				t.Fatalf("%v: %v\n%s", tt.args, err, out)
			}
			if tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("err = %v, want it to mention %q (output %q)", err, tt.wantErr, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
	if b, _ := os.ReadFile(taken); string(b) != "keep me\n" {
		t.Errorf("--write-assumptions overwrote an existing file: %q", b)
	}
}

// TestSizeCommandWritesWhatItUsed: the written file carries every default and the date, and sizing
// it again gives the same report.
func TestSizeCommandWritesWhatItUsed(t *testing.T) {
	clearTwins(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "plan.yaml")
	example, err := os.ReadFile(sizeExample)
	if err != nil {
		t.Fatal(err)
	}
	// Without a date: the written file gets the day of the run.
	if err := os.WriteFile(in, []byte(strings.Replace(string(example), "date: 2026-12-01\n", "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	used := filepath.Join(dir, "used.yaml")
	first, err := run(t, "size", "--assumptions", in, "--write-assumptions", used, "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	written, err := os.ReadFile(used)
	if err != nil {
		t.Fatal(err)
	}
	todayStr := time.Now().Format(time.DateOnly)
	for _, want := range []string{"# Assumptions used by fleetctl size", "\ndate: " + todayStr + "\n", "rho_table:", "verify_cost: 1\n"} {
		if !strings.Contains(string(written), want) {
			t.Errorf("written assumptions lack %q:\n%s", want, written)
		}
	}
	var doc map[string]any
	if err := yaml.Unmarshal(written, &doc); err != nil {
		t.Fatal(err)
	}
	again, err := run(t, "size", "--assumptions", used, "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	if first != again {
		t.Errorf("sizing the written assumptions gives another report:\n%s\n%s", first, again)
	}
	var r sizing.Report
	if err := json.Unmarshal([]byte(again), &r); err != nil {
		t.Fatal(err)
	}
	if r.Capacity.GPUs != 35 || string(r.Assumptions.Date) != todayStr {
		t.Errorf("json report: %d GPUs, date %s", r.Capacity.GPUs, r.Assumptions.Date)
	}
}

func TestSizeCommandHelp(t *testing.T) {
	clearTwins(t)
	out, err := run(t, "size", "--help")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Examples:", "fleetctl size --assumptions", "[env FLEETCTL_ASSUMPTIONS]", "[env FLEETCTL_OUTPUT]",
		"[env FLEETCTL_WRITE_ASSUMPTIONS]", "--from-fleet", "never overwritten"} {
		if !strings.Contains(out, want) {
			t.Errorf("help lacks %q:\n%s", want, out)
		}
	}
}
