package pki

import (
	"crypto/x509"
	"path/filepath"
	"testing"
	"time"
)

func TestEnsureHubCert(t *testing.T) {
	dir := t.TempDir()
	mustInit(t, Options{Dir: dir})
	now := time.Now()
	steps := []struct {
		name  string
		sans  []string
		force bool // replace the CA first
		want  bool // issued
	}{
		{"first time", nil, false, true},
		{"kept", nil, false, false},
		{"a new name", []string{"fleet.dc.example"}, false, true},
		{"kept with that name", []string{"fleet.dc.example"}, false, false},
		{"new CA", []string{"fleet.dc.example"}, true, true},
	}
	for _, s := range steps {
		if s.force {
			mustInit(t, Options{Dir: dir, Force: true})
		}
		got, err := EnsureHubCert(dir, s.sans, now)
		if err != nil || got != s.want {
			t.Fatalf("%s: issued %v, %v; want %v", s.name, got, err, s.want)
		}
	}
	if err := verifyLeaf(t, dir, filepath.Join(dir, HubCertFile), x509.ExtKeyUsageServerAuth); err != nil {
		t.Fatalf("hub certificate does not chain to the current CA: %v", err)
	}
	if _, err := HubTLS(dir); err != nil {
		t.Fatal(err)
	}
}

func TestInspectListsTheHubCertificate(t *testing.T) {
	dir := t.TempDir()
	mustInit(t, Options{Dir: dir})
	if _, err := EnsureHubCert(dir, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	infos, err := Inspect(dir, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range infos {
		if in.Role == RoleHub {
			if in.Path != HubCertFile || len(in.Problems) != 0 {
				t.Fatalf("hub certificate: %+v", in)
			}
			return
		}
	}
	t.Fatalf("Inspect did not list %s: %+v", HubCertFile, infos)
}
