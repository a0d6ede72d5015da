package trust

import (
	"crypto/x509"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/pki"
)

type fixture struct {
	dir   string
	ca    *pki.CA
	certs map[string]*x509.Certificate
}

func newFixture(t testing.TB, ids ...string) *fixture {
	t.Helper()
	dir := t.TempDir()
	if _, err := pki.Init(pki.Options{Dir: dir, Edges: ids}); err != nil {
		t.Fatal(err)
	}
	ca, err := pki.LoadCA(dir)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{dir: dir, ca: ca, certs: map[string]*x509.Certificate{}}
	for _, id := range ids {
		if f.certs[id], err = pki.ReadEdgeCert(dir, id); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func (f *fixture) renew(t testing.TB, id string) *x509.Certificate {
	t.Helper()
	_, c, err := pki.RenewEdge(f.dir, id, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestListCheck(t *testing.T) {
	f := newFixture(t, "nuc-a", "nuc-b", "nuc-c", "nuc-stray")
	now := time.Now()
	var l List
	for _, id := range []string{"nuc-a", "nuc-b", "nuc-c"} {
		if err := l.Enrol(f.certs[id], map[string]string{"region": "norte"}, now); err != nil {
			t.Fatal(err)
		}
	}
	oldB, oldC := f.certs["nuc-b"], f.certs["nuc-c"]
	if err := l.Renew(f.renew(t, "nuc-b"), time.Hour, now); err != nil { // old still accepted for an hour
		t.Fatal(err)
	}
	if err := l.Renew(f.renew(t, "nuc-c"), 0, now); err != nil { // old refused at once
		t.Fatal(err)
	}
	if _, err := l.Revoke("nuc-a", "stolen", now); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		id   string
		cert *x509.Certificate
		at   time.Time
		want string // "" admitted
	}{
		{"revoked", "nuc-a", f.certs["nuc-a"], now, pki.ReasonRevoked},
		{"never enrolled", "nuc-stray", f.certs["nuc-stray"], now, pki.ReasonUnenrolled},
		{"superseded within grace", "nuc-b", oldB, now.Add(30 * time.Minute), ""},
		{"superseded after grace", "nuc-b", oldB, now.Add(2 * time.Hour), pki.ReasonUnenrolled},
		{"superseded without grace", "nuc-c", oldC, now, pki.ReasonUnenrolled},
		{"renewed", "nuc-c", mustRead(t, f.dir, "nuc-c"), now, ""},
		{"another edge's certificate under this id", "nuc-b", oldC, now, pki.ReasonUnenrolled},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := l.Check(tc.id, tc.cert, tc.at)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || pki.ReasonOf(err) != tc.want {
				t.Fatalf("got %v, want reason %s", err, tc.want)
			}
		})
	}
	if err := (*List)(nil).Check("nuc-b", oldB, now); pki.ReasonOf(err) != pki.ReasonUnenrolled {
		t.Fatalf("no list: %v", err)
	}
	if err := l.Enrol(f.certs["nuc-a"], nil, now); err == nil {
		t.Fatal("a revoked certificate was enrolled again")
	}
}

func mustRead(t testing.TB, dir, id string) *x509.Certificate {
	c, err := pki.ReadEdgeCert(dir, id)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestSignedListRefusesTamperingAndOtherCAs(t *testing.T) {
	f := newFixture(t, "nuc-a")
	other := newFixture(t, "nuc-a")
	var l List
	if err := l.Enrol(f.certs["nuc-a"], nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	data, err := l.Seal(f.ca, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if got, err := Open(data, f.ca.Cert); err != nil || got.Version != 1 || got.Find("nuc-a") == nil {
		t.Fatalf("Open = %+v, %v", got, err)
	}
	if _, err := Open(data, other.ca.Cert); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("another CA's gateway accepted it: %v", err)
	}
	// Sign an empty list with the other CA and splice its list into our signature.
	var empty List
	forged, err := empty.Seal(other.ca, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Open(forged, f.ca.Cert); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("forged list accepted: %v", err)
	}
	for _, bad := range [][]byte{nil, []byte("{}"), []byte(`{"list":"e30=","signature":"AAAA"}`), data[:len(data)/2]} {
		if _, err := Open(bad, f.ca.Cert); err == nil {
			t.Fatalf("Open(%q) accepted", bad)
		}
	}
}

func TestStoreVersionsAndCache(t *testing.T) {
	f := newFixture(t, "nuc-a", "nuc-b")
	cache := filepath.Join(t.TempDir(), "cache.json")
	s := NewStore(f.ca.Cert, cache)
	var seen atomic.Int32
	s.OnChange(func(*List) { seen.Add(1) })
	var l List
	_ = l.Enrol(f.certs["nuc-a"], nil, time.Now())
	v1, _ := l.Seal(f.ca, time.Now())
	_ = l.Enrol(f.certs["nuc-b"], nil, time.Now())
	v2, _ := l.Seal(f.ca, time.Now())

	if changed, err := s.Apply(v2); !changed || err != nil {
		t.Fatalf("Apply(v2) = %v, %v", changed, err)
	}
	if changed, err := s.Apply(v2); changed || err != nil {
		t.Fatalf("Apply(v2) again = %v, %v", changed, err)
	}
	if _, err := s.Apply(v1); !errors.Is(err, ErrStale) {
		t.Fatalf("an older list was accepted: %v", err)
	}
	if seen.Load() != 1 || s.Current().Version != 2 {
		t.Fatalf("changes %d, version %d", seen.Load(), s.Current().Version)
	}
	// A gateway restarted without NATS starts from the cache.
	s2 := NewStore(f.ca.Cert, cache)
	if found, err := s2.LoadCache(); !found || err != nil || s2.Current().Find("nuc-b") == nil {
		t.Fatalf("LoadCache = %v, %v", found, err)
	}
	// A tampered cache is refused, not enforced.
	if err := os.WriteFile(cache, []byte(strings.Replace(string(v2), `"signature": "`, `"signature": "AA`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := NewStore(f.ca.Cert, cache).LoadCache(); err == nil {
		t.Fatal("tampered cache accepted")
	}
}

func TestGateOneConnectionPerEdgeAndRevocationCloses(t *testing.T) {
	f := newFixture(t, "nuc-a", "nuc-b")
	s := NewStore(f.ca.Cert, "")
	g := NewGate(s, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	var l List
	_ = l.Enrol(f.certs["nuc-a"], nil, time.Now())
	_ = l.Enrol(f.certs["nuc-b"], nil, time.Now())
	data, _ := l.Seal(f.ca, time.Now())
	if _, err := s.Apply(data); err != nil {
		t.Fatal(err)
	}
	closed := map[string]string{}
	closer := func(name string) func(string) { return func(msg string) { closed[name] = msg } }
	relA1 := g.Claim("nuc-a", f.certs["nuc-a"], closer("a1"))
	relA2 := g.Claim("nuc-a", f.certs["nuc-a"], closer("a2"))
	g.Claim("nuc-b", f.certs["nuc-b"], closer("b"))
	if !strings.Contains(closed["a1"], "replaced") || closed["a2"] != "" {
		t.Fatalf("after a second claim: %v", closed)
	}
	relA1() // the replaced connection ending must not drop its successor
	if g.Connected() != 2 {
		t.Fatalf("connected %d, want 2", g.Connected())
	}
	if _, err := l.Revoke("nuc-b", "stolen", time.Now()); err != nil {
		t.Fatal(err)
	}
	data, _ = l.Seal(f.ca, time.Now())
	if _, err := s.Apply(data); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(closed["b"], "revoked") || closed["a2"] != "" || g.Connected() != 1 {
		t.Fatalf("after revoking nuc-b: %v, connected %d", closed, g.Connected())
	}
	relA2()
	if g.Connected() != 0 {
		t.Fatalf("connected %d after release", g.Connected())
	}
}

func TestRefusedLogIsRateLimited(t *testing.T) {
	var buf strings.Builder
	g := NewGate(nil, nil, slog.New(slog.NewTextHandler(&buf, nil)))
	now := time.Unix(1e9, 0)
	g.now = func() time.Time { return now }
	for range 100 {
		g.Refused(pki.ReasonForeignCA, errors.New("x509: unknown authority"))
	}
	now = now.Add(logEvery)
	g.Refused(pki.ReasonForeignCA, errors.New("x509: unknown authority"))
	lines := strings.Count(buf.String(), "\n")
	if lines != 2 || !strings.Contains(buf.String(), "suppressed_since_last=99") {
		t.Fatalf("%d lines:\n%s", lines, buf.String())
	}
}

func FuzzOpen(f *testing.F) {
	fx := newFixture(f, "nuc-a")
	var l List
	_ = l.Enrol(fx.certs["nuc-a"], nil, time.Now())
	data, _ := l.Seal(fx.ca, time.Now())
	f.Add(data)
	f.Add([]byte(`{"list":"","signature":""}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := Open(b, fx.ca.Cert)
		if err == nil && got.Validate() != nil {
			t.Fatal("Open returned an invalid list")
		}
	})
}
