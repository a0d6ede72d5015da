package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gc_percent and memory_limit: 0 means the gateway's default and no limit; the rest is bounded.
func TestValidateGC(t *testing.T) {
	for _, tc := range []struct {
		pct     int
		limit   int64
		wantErr string
	}{
		{0, 0, ""}, {defaultGCPercent, 0, ""}, {10, 64 << 20, ""}, {1000, 8 << 30, ""},
		{5, 0, "--gc-percent: 5"}, {-1, 0, "--gc-percent: -1"}, {2000, 0, "--gc-percent: 2000"},
		{0, 1 << 20, "--memory-limit"}, {0, -1, "--memory-limit"},
	} {
		o := options{gcPercent: tc.pct, memoryLimit: tc.limit}
		errs := o.validateGC()
		if tc.wantErr == "" && len(errs) > 0 || tc.wantErr != "" && (len(errs) != 1 || !strings.Contains(errs[0].Error(), tc.wantErr)) {
			t.Errorf("gc_percent %d, memory_limit %d: %v, want %q", tc.pct, tc.limit, errs, tc.wantErr)
		}
	}
}

// The file's keys reach the options; without them the defaults stay.
func TestGCKeysInTheFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "dc-gateway.yaml")
	if err := os.WriteFile(file, []byte("gc_percent: 25\nmemory_limit: 536870912\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	o, err := loadFile(file, defaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if o.gcPercent != 25 || o.memoryLimit != 512<<20 {
		t.Fatalf("gc_percent %d, memory_limit %d", o.gcPercent, o.memoryLimit)
	}
	if d := defaultOptions(); d.gcPercent != defaultGCPercent || d.memoryLimit != 0 {
		t.Fatalf("defaults: gc_percent %d, memory_limit %d", d.gcPercent, d.memoryLimit)
	}
}
