package pki

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestInspect(t *testing.T) {
	dir := t.TempDir()
	issued := time.Now()
	mustInit(t, Options{Dir: dir, Edges: []string{"b", "a"}, Validity: 60 * 24 * time.Hour, Now: func() time.Time { return issued }})
	// An edge cert signed by another CA, dropped into this directory by mistake.
	other := t.TempDir()
	mustInit(t, Options{Dir: other, Edges: []string{"stray"}})
	for _, ext := range []string{".crt", ".key"} {
		data, err := os.ReadFile(filepath.Join(other, "edges", "stray"+ext))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "edges", "stray"+ext), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(dir, "edges", "b.key"), 0o644); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		at       time.Time
		problems map[string]string // path -> a substring its problems must contain; "" means none
	}{
		{issued, map[string]string{"ca.crt": "", "dc-gateway.crt": "", "edges/a.crt": "", "edges/b.crt": "mode 0644",
			"edges/stray.crt": "not signed by the CA"}},
		{issued.Add(45 * 24 * time.Hour), map[string]string{"ca.crt": "", "edges/a.crt": "expires within 30 days"}},
		{issued.Add(61 * 24 * time.Hour), map[string]string{"ca.crt": "", "dc-gateway.crt": "expired", "edges/a.crt": "expired"}},
	}
	for _, tt := range tests {
		infos, err := Inspect(dir, tt.at)
		if err != nil {
			t.Fatal(err)
		}
		var paths []string
		for _, in := range infos {
			paths = append(paths, in.Path)
			want, ok := tt.problems[in.Path]
			if !ok {
				continue
			}
			got := strings.Join(in.Problems, "; ")
			if (want == "") != (got == "") || !strings.Contains(got, want) {
				t.Errorf("at +%v, %s problems %q, want %q", tt.at.Sub(issued), in.Path, got, want)
			}
		}
		if want := []string{"ca.crt", "dc-gateway.crt", "edges/a.crt", "edges/b.crt", "edges/stray.crt"}; !slices.Equal(paths, want) {
			t.Errorf("Inspect listed %v, want %v", paths, want)
		}
	}

	// An edge's copy: ca.crt and its own pair only. Not having ca.key is normal there.
	edge := t.TempDir()
	for _, rel := range []string{"ca.crt", "edges/a.crt", "edges/a.key"} {
		data, _ := os.ReadFile(filepath.Join(dir, rel))
		os.MkdirAll(filepath.Join(edge, "edges"), 0o700)
		if err := os.WriteFile(filepath.Join(edge, rel), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	infos, err := Inspect(edge, issued)
	if err != nil || len(infos) != 2 || infos[1].Name != "a" || len(infos[1].Problems) != 0 || !strings.Contains(strings.Join(infos[0].Problems, ""), "cannot enrol") {
		t.Errorf("Inspect on an edge copy = %+v, %v", infos, err)
	}
	if _, err := Inspect(t.TempDir(), issued); !errors.Is(err, ErrMissing) {
		t.Errorf("Inspect on an empty dir: %v, want ErrMissing", err)
	}
}
