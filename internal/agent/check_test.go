package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/configcheck"
	"github.com/sucursal/sucursal/internal/pki"
)

// checkPKI is a fleet PKI as an edge holds it, with edges a and b, and what the cases break in it.
func checkPKI(t *testing.T, now time.Time, validity time.Duration) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "pki")
	if _, err := pki.Init(pki.Options{Dir: dir, Edges: []string{"branch-a", "branch-b"}, Validity: validity,
		Now: func() time.Time { return now }}); err != nil {
		t.Fatal(err)
	}
	return dir
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestCheckFile(t *testing.T) {
	now := time.Now()
	good := checkPKI(t, now, 0)
	// edge a's files hold edge b's certificate and key (copied from the wrong NUC).
	swapped := checkPKI(t, now, 0)
	copyFile(t, pki.EdgeCertPath(swapped, "branch-b"), pki.EdgeCertPath(swapped, "branch-a"))
	copyFile(t, pki.EdgeKeyPath(swapped, "branch-b"), pki.EdgeKeyPath(swapped, "branch-a"))
	// edge a's certificate comes from another fleet's CA.
	foreign := checkPKI(t, now, 0)
	other := checkPKI(t, now, 0)
	copyFile(t, pki.EdgeCertPath(other, "branch-a"), pki.EdgeCertPath(foreign, "branch-a"))
	copyFile(t, pki.EdgeKeyPath(other, "branch-a"), pki.EdgeKeyPath(foreign, "branch-a"))
	// issued two days ago for one day.
	expired := checkPKI(t, now.Add(-48*time.Hour), 24*time.Hour)
	// the key is gone.
	nokey := checkPKI(t, now, 0)
	if err := os.Remove(pki.EdgeKeyPath(nokey, "branch-a")); err != nil {
		t.Fatal(err)
	}

	badKeys := filepath.Join(t.TempDir(), "keys.yaml")
	if err := os.WriteFile(badKeys, []byte("keys: [not a key\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	base := func(dir string) string {
		return "edge_id: branch-a\ndc: dc.example:4443\npki: " + dir + "\n"
	}
	for _, tc := range []struct {
		name string
		yaml string
		want []string // each must appear in the report, in this order
	}{
		{"clean", base(good), nil},
		{"syntax: line and column", "edge_id: branch-a\ndc: [dc.example:4443\npki: x\n",
			[]string{"line 3, column 1: syntax: ',' or ']' must be specified"}},
		{"syntax: a tab", "edge_id: a\n\tdc: x\n", []string{"line 2, column 1: syntax: found character"}},
		{"unknown key with a suggestion", base(good) + "lisen: 127.0.0.1:8080\n",
			[]string{`line 4, column 1: unknown key: "lisen" is not a key at the top level; did you mean "listen"?`}},
		{"unknown nested key with a suggestion", base(good) + "link:\n  idle_timout: 3s\n",
			[]string{`line 5, column 3: unknown key: "idle_timout" is not a key in link; did you mean "idle_timeout"?`}},
		{"wrong type", base(good) + "request_timeout: soon\n", []string{"line 4: type:", "time.Duration"}},
		{"logic", base(good) + "log_level: loud\n", []string{`logic: log_level: "loud" is not one of`}},
		{"cert of another edge", base(swapped), []string{`is edge "branch-b"'s, but edge_id is "branch-a"`}},
		{"cert of another CA", base(foreign), []string{"is not signed by the CA in"}},
		{"expired", base(expired), []string{"branch-a.crt expired on"}},
		{"missing key", base(nokey), []string{"branch-a.key is missing"}},
		{"unreadable API key file", base(good) + "auth:\n  keys_file: " + badKeys + "\n", []string{"logic: auth.keys_file:"}},
		{"API key file not there yet", base(good) + "auth:\n  keys_file: " + filepath.Join(t.TempDir(), "keys.yaml") + "\n", nil},
		{"missing PKI", base(filepath.Join(t.TempDir(), "none")), []string{"ca.crt is missing", "branch-a.crt is missing", "branch-a.key is missing"}},
		// One of each kind the file can hold at once (a syntax error stops the reading: its own cases above).
		{"one of each kind, in one run", base(swapped) + "lisen: 127.0.0.1:8080\nrequest_timeout: soon\nlog_level: loud\n",
			[]string{`line 4, column 1: unknown key: "lisen"`, "line 5: type:", `logic: log_level: "loud"`, `pki: certificate`, `is edge "branch-b"'s`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "edge-agent.yaml")
			if err := os.WriteFile(p, []byte(tc.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			r := CheckFile(p, now)
			text := r.Text()
			if tc.want == nil {
				if !r.OK() || text != p+": OK\n" {
					t.Fatalf("want OK, got:\n%s", text)
				}
				return
			}
			if r.OK() {
				t.Fatalf("want problems %q, got OK", tc.want)
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

// Every problem kind the check knows about is produced by the one-of-each case above.
func TestCheckFileKinds(t *testing.T) {
	dir := checkPKI(t, time.Now(), 0)
	if err := os.Remove(pki.EdgeKeyPath(dir, "branch-a")); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "edge-agent.yaml")
	yaml := "edge_id: branch-a\ndc: nohostport\npki: " + dir + "\nlisen: x\nrequest_timeout: soon\n"
	if err := os.WriteFile(p, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	kinds := map[configcheck.Kind]int{}
	for _, pr := range CheckFile(p, time.Now()).Problems {
		kinds[pr.Kind]++
	}
	for _, k := range []configcheck.Kind{configcheck.KindUnknown, configcheck.KindType, configcheck.KindLogic, configcheck.KindPKI} {
		if kinds[k] == 0 {
			t.Errorf("no %s problem in one run: %v", k, kinds)
		}
	}
}
