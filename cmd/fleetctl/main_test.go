package main

import (
	"bytes"
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// run executes the root command in-process, as the binary would, and returns its output.
func run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	root := newRootCommand()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), err
}

// edgeOf parses an edge certificate independently of internal/pki and returns its CN and URI SAN.
func edgeOf(t *testing.T, path string) (string, string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(data)
	if block == nil {
		t.Fatalf("%s: not PEM", path)
	}
	c, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.URIs) != 1 {
		t.Fatalf("%s: URIs %v", path, c.URIs)
	}
	return c.Subject.CommonName, c.URIs[0].String()
}

// clearTwins unsets the FLEETCTL_* twins for the test, so the developer's own shell cannot steer it.
func clearTwins(t *testing.T) {
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "FLEETCTL_") {
			t.Setenv(k, "") // registers the restore
			os.Unsetenv(k)
		}
	}
}

func TestPKICommands(t *testing.T) {
	clearTwins(t)
	base := t.TempDir()
	tests := []struct {
		name      string
		env       map[string]string
		args      []string
		wantErr   string   // substring of the error; "" means success
		wantEdges []string // edge ids whose files must exist afterwards under base/<dir>
		dir       string
	}{
		{name: "flags", dir: "flags", args: []string{"pki", "init", "--dir", filepath.Join(base, "flags"), "--edge", "a", "--edge", "b"},
			wantEdges: []string{"a", "b"}},
		{name: "env twins", dir: "env", env: map[string]string{"FLEETCTL_DIR": filepath.Join(base, "env"), "FLEETCTL_EDGE": "c,d", "FLEETCTL_DC_SAN": "dc.example"},
			args: []string{"pki", "init"}, wantEdges: []string{"c", "d"}},
		{name: "flag wins over env", dir: "flagwins", env: map[string]string{"FLEETCTL_DIR": filepath.Join(base, "not-this-one")},
			args: []string{"pki", "init", "--dir", filepath.Join(base, "flagwins"), "--edge", "e"}, wantEdges: []string{"e"}},
		{name: "add-edge via env dir", dir: "flags", env: map[string]string{"FLEETCTL_DIR": filepath.Join(base, "flags")},
			args: []string{"pki", "add-edge", "f"}, wantEdges: []string{"a", "b", "f"}},
		{name: "no dir", args: []string{"pki", "init", "--edge", "a"}, wantErr: "FLEETCTL_DIR"},
		{name: "bad id", args: []string{"pki", "init", "--dir", filepath.Join(base, "bad"), "--edge", "Bad"}, wantErr: `invalid edge id "Bad"`},
		{name: "add-edge without CA", args: []string{"pki", "add-edge", "--dir", filepath.Join(base, "none"), "g"}, wantErr: "fleetctl pki init"},
		{name: "bad env value", env: map[string]string{"FLEETCTL_VALIDITY_DAYS": "ten"}, args: []string{"pki", "init", "--dir", filepath.Join(base, "x")},
			wantErr: "FLEETCTL_VALIDITY_DAYS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			out, err := run(t, tt.args...)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to mention %q (output %q)", err, tt.wantErr, out)
				}
				return
			}
			if err != nil {
				t.Fatalf("%v: %v\n%s", tt.args, err, out)
			}
			dir := filepath.Join(base, tt.dir)
			for _, f := range []string{"ca.crt", "ca.key", "dc-gateway.crt", "dc-gateway.key"} {
				if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
					t.Error(err)
				}
			}
			for _, id := range tt.wantEdges {
				cn, uri := edgeOf(t, filepath.Join(dir, "edges", id+".crt"))
				if cn != id || uri != "urn:sucursal:edge:"+id {
					t.Errorf("edge %s: CN %q URI %q", id, cn, uri)
				}
				if st, err := os.Stat(filepath.Join(dir, "edges", id+".key")); err != nil || st.Mode().Perm() != 0o600 {
					t.Errorf("edge %s key: %v %v", id, st, err)
				}
			}
		})
	}
	if _, err := os.Stat(filepath.Join(base, "not-this-one")); err == nil {
		t.Errorf("the env dir was used although --dir was given")
	}

	out, err := run(t, "pki", "show", "--dir", filepath.Join(base, "flags"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ca.crt", "dc-gateway.crt", "edges/a.crt", "edges/f.crt", "urn:sucursal:edge:b"} {
		if !strings.Contains(out, want) {
			t.Errorf("pki show output lacks %q:\n%s", want, out)
		}
	}
}

func TestHelpAndVersion(t *testing.T) {
	clearTwins(t)
	out, err := run(t, "pki", "init", "--help")
	if err != nil {
		t.Fatal(err)
	}
	for _, twin := range []string{"[env FLEETCTL_DIR]", "[env FLEETCTL_EDGE]", "[env FLEETCTL_DC_SAN]"} {
		if !strings.Contains(out, twin) {
			t.Errorf("pki init --help does not list %s:\n%s", twin, out)
		}
	}
	if strings.Contains(out, "[env FLEETCTL_FORCE]") { // destructive: typed each time (flagrules.go)
		t.Errorf("pki init --help lists a FLEETCTL_FORCE twin:\n%s", out)
	}
	if out, err := run(t, "--version"); err != nil || !strings.Contains(out, version) {
		t.Errorf("--version printed %q, %v; want it to contain %q", out, err, version)
	}
}
