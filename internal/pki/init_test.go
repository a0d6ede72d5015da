package pki

import (
	"crypto/x509"
	"errors"
	"io/fs"
	"maps"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestInitCreatesLayout(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pki")
	res := mustInit(t, Options{Dir: dir, Edges: []string{"b", "a", "a"}, DCSANs: []string{"dc.example", "10.0.0.5"}})

	wantCreated := []string{"ca.crt", "dc-gateway.crt", "edges/a.crt", "edges/b.crt"}
	if !slices.Equal(res.Created, wantCreated) || len(res.Kept)+len(res.Replaced) != 0 {
		t.Errorf("Result = %+v, want created %v only", res, wantCreated)
	}
	modes := []struct {
		rel  string
		mode fs.FileMode
	}{
		{".", 0o700 | fs.ModeDir}, {"edges", 0o700 | fs.ModeDir},
		{"ca.key", 0o600}, {"dc-gateway.key", 0o600}, {"edges/a.key", 0o600}, {"edges/b.key", 0o600},
		{"ca.crt", 0o644}, {"dc-gateway.crt", 0o644}, {"edges/a.crt", 0o644}, {"edges/b.crt", 0o644},
	}
	for _, m := range modes {
		st, err := os.Stat(filepath.Join(dir, m.rel))
		if err != nil {
			t.Fatal(err)
		}
		if got := st.Mode() & (fs.ModePerm | fs.ModeDir); got != m.mode {
			t.Errorf("%s mode = %v, want %v", m.rel, got, m.mode)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 5 {
		t.Errorf("dir holds %d entries, want 5 (no temp files left): %v", len(entries), entries)
	}

	ca := parseCertFile(t, filepath.Join(dir, "ca.crt"))
	if !ca.IsCA || ca.NotAfter.Sub(ca.NotBefore) < 9*365*24*time.Hour {
		t.Errorf("CA: IsCA=%v lifetime %v", ca.IsCA, ca.NotAfter.Sub(ca.NotBefore))
	}
	dc := parseCertFile(t, filepath.Join(dir, "dc-gateway.crt"))
	for _, name := range []string{"localhost", "dc.example"} {
		if err := dc.VerifyHostname(name); err != nil {
			t.Errorf("dc-gateway cert does not cover %q: %v", name, err)
		}
	}
	for _, ip := range []string{"127.0.0.1", "::1", "10.0.0.5"} {
		if !slices.ContainsFunc(dc.IPAddresses, net.ParseIP(ip).Equal) {
			t.Errorf("dc-gateway cert lacks IP SAN %s (has %v)", ip, dc.IPAddresses)
		}
	}
	if err := verifyLeaf(t, dir, filepath.Join(dir, "dc-gateway.crt"), x509.ExtKeyUsageServerAuth); err != nil {
		t.Errorf("dc-gateway cert not valid for server auth: %v", err)
	}
	if err := verifyLeaf(t, dir, filepath.Join(dir, "dc-gateway.crt"), x509.ExtKeyUsageClientAuth); err == nil {
		t.Errorf("dc-gateway cert must not be valid for client auth")
	}
	for _, id := range []string{"a", "b"} {
		p := filepath.Join(dir, "edges", id+".crt")
		c := parseCertFile(t, p)
		if c.Subject.CommonName != id || len(c.URIs) != 1 || c.URIs[0].String() != "urn:sucursal:edge:"+id {
			t.Errorf("edge %s: CN %q URIs %v", id, c.Subject.CommonName, c.URIs)
		}
		if err := verifyLeaf(t, dir, p, x509.ExtKeyUsageClientAuth); err != nil {
			t.Errorf("edge %s not valid for client auth: %v", id, err)
		}
		if err := verifyLeaf(t, dir, p, x509.ExtKeyUsageServerAuth); err == nil {
			t.Errorf("edge %s must not be valid for server auth", id)
		}
	}
}

func TestInitRerun(t *testing.T) {
	tests := []struct {
		name         string
		second       Options // Dir is filled in
		wantCA       bool    // CA kept byte for byte
		wantA        bool    // edges/a.crt kept byte for byte
		wantCreated  []string
		wantReplaced []string
	}{
		{name: "same args keep everything", second: Options{Edges: []string{"a"}}, wantCA: true, wantA: true},
		{name: "new edge is added under the old CA", second: Options{Edges: []string{"c"}}, wantCA: true, wantA: true,
			wantCreated: []string{"edges/c.crt"}},
		{name: "force replaces the CA and re-issues what it signed", second: Options{Edges: []string{"c"}, Force: true},
			wantCreated: []string{"edges/c.crt"}, wantReplaced: []string{"ca.crt", "dc-gateway.crt", "edges/a.crt"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			mustInit(t, Options{Dir: dir, Edges: []string{"a"}})
			caBefore, aBefore := readFile(t, filepath.Join(dir, "ca.crt")), readFile(t, filepath.Join(dir, "edges/a.crt"))
			caKeyBefore := readFile(t, filepath.Join(dir, "ca.key"))

			tt.second.Dir = dir
			res := mustInit(t, tt.second)
			if !slices.Equal(res.Created, tt.wantCreated) || !slices.Equal(res.Replaced, tt.wantReplaced) {
				t.Errorf("created %v replaced %v, want %v %v", res.Created, res.Replaced, tt.wantCreated, tt.wantReplaced)
			}
			caSame := readFile(t, filepath.Join(dir, "ca.crt")) == caBefore && readFile(t, filepath.Join(dir, "ca.key")) == caKeyBefore
			if caSame != tt.wantCA {
				t.Errorf("CA kept = %v, want %v", caSame, tt.wantCA)
			}
			if aSame := readFile(t, filepath.Join(dir, "edges/a.crt")) == aBefore; aSame != tt.wantA {
				t.Errorf("edges/a.crt kept = %v, want %v", aSame, tt.wantA)
			}
			// Whatever happened, every leaf must chain to the CA now on disk.
			for _, rel := range []string{"edges/a.crt", "dc-gateway.crt"} {
				usage := x509.ExtKeyUsageClientAuth
				if rel == "dc-gateway.crt" {
					usage = x509.ExtKeyUsageServerAuth
				}
				if err := verifyLeaf(t, dir, filepath.Join(dir, rel), usage); err != nil {
					t.Errorf("%s does not chain to the current CA: %v", rel, err)
				}
			}
		})
	}
}

func TestForceKeepsGatewaySANs(t *testing.T) {
	dir := t.TempDir()
	mustInit(t, Options{Dir: dir, DCSANs: []string{"dc.example", "10.9.8.7"}})
	mustInit(t, Options{Dir: dir, DCSANs: []string{"dc2.example"}, Force: true})
	dc := parseCertFile(t, filepath.Join(dir, "dc-gateway.crt"))
	for _, name := range []string{"localhost", "dc.example", "dc2.example", "10.9.8.7"} {
		if err := dc.VerifyHostname(name); err != nil {
			t.Errorf("re-issued gateway cert lost %q: %v", name, err)
		}
	}
}

func TestInitRefuses(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(t *testing.T, dir string) // runs against a dir initialised with edge "a"
		opts    Options
		wantErr error
		wantMsg string
	}{
		{name: "invalid edge ids, all listed", opts: Options{Edges: []string{"ok", "Bad", "x/y"}}, wantErr: ErrInvalidEdgeID, wantMsg: `"x/y"`},
		{name: "invalid dc SAN", opts: Options{DCSANs: []string{"not a name"}}, wantErr: ErrInvalidSAN},
		{name: "ca.key lost", prepare: remove("ca.key"), wantErr: ErrMismatch, wantMsg: "ca.key"},
		{name: "CA gone but leaves remain", prepare: remove("ca.key", "ca.crt"), wantErr: ErrMismatch, wantMsg: "dc-gateway.crt"},
		{name: "CA key readable by others", prepare: chmod("ca.key", 0o644), wantErr: ErrKeyPermissions, wantMsg: "chmod 600"},
		{name: "edge key lost", prepare: remove("edges/a.key"), opts: Options{Edges: []string{"a"}}, wantErr: ErrMismatch, wantMsg: "a.key"},
		{name: "new SAN on an existing gateway cert", prepare: func(*testing.T, string) {}, opts: Options{DCSANs: []string{"dc2.example"}}, wantMsg: "dc2.example"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "pki")
			if tt.prepare != nil {
				mustInit(t, Options{Dir: dir, Edges: []string{"a"}})
				tt.prepare(t, dir)
			}
			before := snapshot(t, dir)
			tt.opts.Dir = dir
			_, err := Init(tt.opts)
			if err == nil {
				t.Fatal("Init succeeded, want an error")
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("error %v, want %v", err, tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("error %q does not mention %q", err, tt.wantMsg)
			}
			if after := snapshot(t, dir); !maps.Equal(before, after) {
				t.Errorf("a refused Init changed the directory: %v -> %v", slices.Sorted(maps.Keys(before)), slices.Sorted(maps.Keys(after)))
			}
		})
	}
}

func TestLoadErrorsForOperators(t *testing.T) {
	dir := t.TempDir()
	past := time.Now().Add(-3 * 365 * 24 * time.Hour)
	mustInit(t, Options{Dir: dir, Edges: []string{"old"}, Validity: 365 * 24 * time.Hour, Now: func() time.Time { return past }})

	_, err := ServerTLS(dir)
	if !errors.Is(err, ErrExpired) || !strings.Contains(err.Error(), "dc-gateway.crt") {
		t.Errorf("ServerTLS with an expired gateway cert: %v, want ErrExpired naming dc-gateway.crt", err)
	}
	_, err = ClientTLS(dir, "old")
	if !errors.Is(err, ErrExpired) || !strings.Contains(err.Error(), "old.crt") {
		t.Errorf("ClientTLS with an expired edge cert: %v, want ErrExpired naming old.crt", err)
	}
	res := mustInit(t, Options{Dir: dir, Edges: []string{"old", "new"}})
	if len(res.Warnings) != 2 || !strings.Contains(strings.Join(res.Warnings, "\n"), "old.crt expired") {
		t.Errorf("re-run warnings = %q, want the expired gateway and edge named", res.Warnings)
	}

	empty := t.TempDir()
	if _, err := ServerTLS(empty); !errors.Is(err, ErrMissing) || !strings.Contains(err.Error(), filepath.Join(empty, "ca.crt")) ||
		!strings.Contains(err.Error(), "fleetctl pki init") {
		t.Errorf("ServerTLS on an empty dir: %v", err)
	}
	if _, err := ClientTLS(dir, "nope"); !errors.Is(err, ErrMissing) || !strings.Contains(err.Error(), "fleetctl pki add-edge --dir "+dir+" nope") {
		t.Errorf("ClientTLS for an unknown edge: %v", err)
	}
	if err := os.Chmod(EdgeKeyPath(dir, "new"), 0o640); err != nil {
		t.Fatal(err)
	}
	if _, err := ClientTLS(dir, "new"); !errors.Is(err, ErrKeyPermissions) {
		t.Errorf("ClientTLS with a group-readable key: %v, want ErrKeyPermissions", err)
	}
	if _, err := ClientTLS(dir, "../ca"); !errors.Is(err, ErrInvalidEdgeID) {
		t.Errorf("ClientTLS with a path as id: %v, want ErrInvalidEdgeID", err)
	}
}

func remove(rels ...string) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		for _, r := range rels {
			if err := os.Remove(filepath.Join(dir, r)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func chmod(rel string, mode fs.FileMode) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		if err := os.Chmod(filepath.Join(dir, rel), mode); err != nil {
			t.Fatal(err)
		}
	}
}

// snapshot maps every file under dir to its contents.
func snapshot(t *testing.T, dir string) map[string]string {
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out[p] = readFile(t, p)
		}
		return nil
	})
	return out
}

func TestAddEdges(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "nothing")
	if _, err := AddEdges(empty, []string{"a"}, 0, nil); !errors.Is(err, ErrMissing) || !strings.Contains(err.Error(), "fleetctl pki init") {
		t.Errorf("AddEdges without a CA: %v, want ErrMissing pointing at pki init", err)
	}
	if _, err := os.Stat(empty); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("AddEdges without a CA created %s", empty)
	}
	dir := t.TempDir()
	mustInit(t, Options{Dir: dir})
	res, err := AddEdges(dir, []string{"z"}, 0, nil)
	if err != nil || !slices.Equal(res.Created, []string{"edges/z.crt"}) {
		t.Fatalf("AddEdges = %+v, %v", res, err)
	}
	if err := verifyLeaf(t, dir, EdgeCertPath(dir, "z"), x509.ExtKeyUsageClientAuth); err != nil {
		t.Error(err)
	}
}
