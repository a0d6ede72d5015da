package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/pki"
)

// Layering: default < YAML < environment < flag.
func TestResolveLayers(t *testing.T) {
	file := filepath.Join(t.TempDir(), "dc-gateway.yaml")
	yaml := "listen: 127.0.0.1:7000\npki: /yaml/pki\ntarget_url: http://yaml:8000/v1\nname: from-yaml\nlog_level: warn\n"
	if err := os.WriteFile(file, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DC_GATEWAY_NAME", "from-env")
	t.Setenv("DC_GATEWAY_TARGET_URL", "http://env:8000/v1")
	cmd := newRootCmd()
	if err := cmd.ParseFlags([]string{"--config", file, "--target-url", "http://flag:8000/v1"}); err != nil {
		t.Fatal(err)
	}
	if err := cmd.PersistentPreRunE(cmd, nil); err != nil {
		t.Fatal(err)
	}
	o, err := resolve(cmd, file)
	if err != nil {
		t.Fatal(err)
	}
	for name, gw := range map[string][2]any{
		"listen (yaml)":              {o.listen, "127.0.0.1:7000"},
		"pki (yaml)":                 {o.pkiDir, "/yaml/pki"},
		"name (env over yaml)":       {o.name, "from-env"},
		"target_url (flag over env)": {o.targetURL, "http://flag:8000/v1"},
		"log_level (yaml)":           {o.logLevel, "warn"},
		"max_streams (default)":      {o.maxStreams, int64(1024)},
		"guard_kind (default)":       {o.guardKind, "safety"},
		"idle_timeout (default)":     {o.idleTimeout, 30 * time.Second},
	} {
		if gw[0] != gw[1] {
			t.Errorf("%s: got %v, want %v", name, gw[0], gw[1])
		}
	}
}

// The packaged example loads, validates and checks clean against a real PKI.
func TestPackagedExample(t *testing.T) {
	o, err := loadFile(filepath.Join("..", "..", "packaging", "dc-gateway.yaml"), defaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if err := o.validate(); err != nil {
		t.Fatalf("the packaged example does not validate: %v", err)
	}
	if o.pkiDir != "/etc/sucursal/pki" || o.targetURL != "http://127.0.0.1:8000/v1" {
		t.Fatalf("unexpected values: %+v", o)
	}
}

func TestCheckFile(t *testing.T) {
	now := time.Now()
	newPKI := func(at time.Time, validity time.Duration) string {
		dir := filepath.Join(t.TempDir(), "pki")
		if _, err := pki.Init(pki.Options{Dir: dir, Validity: validity, Now: func() time.Time { return at }}); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	good := newPKI(now, 0)
	foreign, other := newPKI(now, 0), newPKI(now, 0)
	for _, f := range []string{pki.DCCertFile, pki.DCKeyFile} {
		b, err := os.ReadFile(filepath.Join(other, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(foreign, f), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	expired := newPKI(now.Add(-48*time.Hour), 24*time.Hour)
	loose := newPKI(now, 0)
	if err := os.Chmod(filepath.Join(loose, pki.DCKeyFile), 0o644); err != nil {
		t.Fatal(err)
	}
	base := func(dir string) string { return "pki: " + dir + "\ntarget_url: http://127.0.0.1:8000/v1\n" }
	for _, tc := range []struct {
		name, yaml string
		want       []string // in order; nil = OK
	}{
		{"clean", base(good), nil},
		{"syntax", "pki: x\ntarget_url: [http://x\n", []string{"line 2, column 13: syntax: sequence end token"}},
		{"unknown key", base(good) + "target_ulr: x\n", []string{`line 3, column 1: unknown key: "target_ulr" is not a key at the top level; did you mean "target_url"?`}},
		{"flag spelling as a key", base(good) + "max-streams-per-edge: 4\n", []string{`did you mean "max_streams_per_edge"?`}},
		{"type", base(good) + "idle_timeout: never\n", []string{"line 3: type:"}},
		{"logic", base(good) + "guard_kind: llama\n", []string{`logic: --guard-kind: "llama" is not safety or injection`}},
		{"not signed by the CA", base(foreign), []string{"dc-gateway.crt is not signed by the CA in"}},
		{"expired", base(expired), []string{"dc-gateway.crt expired on"}},
		{"key readable by others", base(loose), []string{"has mode 0644"}},
		{"missing PKI", base(filepath.Join(t.TempDir(), "none")), []string{"ca.crt is missing", "dc-gateway.crt is missing", "dc-gateway.key is missing"}},
		{"one of each kind, in one run", base(foreign) + "target_ulr: x\nidle_timeout: never\nguard_kind: llama\n",
			[]string{`line 3, column 1: unknown key`, "line 4: type:", "logic: --guard-kind", "pki: certificate"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "dc-gateway.yaml")
			if err := os.WriteFile(p, []byte(tc.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			r := checkFile(p, now)
			text := r.Text()
			if tc.want == nil {
				if !r.OK() {
					t.Fatalf("want OK, got:\n%s", text)
				}
				return
			}
			rest := text
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("missing %q (in order) in:\n%s", w, text)
				}
				rest = rest[i+len(w):]
			}
		})
	}
}
