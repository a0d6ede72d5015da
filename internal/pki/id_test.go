package pki

import (
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// edgeIDOracle is the charset from the issue, written as a regexp so it is independent of the
// byte loop in ValidateEdgeID.
var edgeIDOracle = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,62}$`)

func TestValidateEdgeID(t *testing.T) {
	tests := []struct {
		id string
		ok bool
	}{
		{"a", true},
		{"0", true},
		{"branch-0042", true},
		{"lisboa.baixa_01-b", true},
		{strings.Repeat("x", 63), true},
		{strings.Repeat("x", 64), false},
		{"", false},
		{"Branch", false},
		{"-a", false},
		{".a", false},
		{"_a", false},
		{"a b", false},
		{"a/b", false},
		{"../etc", false},
		{"a:b", false},
		{"a\n", false},
		{"ação", false},
	}
	for _, tt := range tests {
		err := ValidateEdgeID(tt.id)
		if (err == nil) != tt.ok {
			t.Errorf("ValidateEdgeID(%q) = %v, want ok=%v", tt.id, err, tt.ok)
		}
		if err != nil && !errors.Is(err, ErrInvalidEdgeID) {
			t.Errorf("ValidateEdgeID(%q) = %v, want ErrInvalidEdgeID", tt.id, err)
		}
	}
}

func mustURL(t testing.TB, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatalf("url.Parse(%q): %v", s, err)
	}
	return u
}

func TestEdgeID(t *testing.T) {
	tests := []struct {
		name string
		cn   string
		uris []string
		want string // "" means an error is expected
	}{
		{"uri and cn agree", "branch-1", []string{"urn:sucursal:edge:branch-1"}, "branch-1"},
		{"other uris ignored", "b2", []string{"spiffe://fleet/x", "urn:sucursal:edge:b2"}, "b2"},
		{"no uri", "b3", nil, ""},
		{"cn disagrees", "b4", []string{"urn:sucursal:edge:b5"}, ""},
		{"cn only", "b6", []string{"spiffe://fleet/b6"}, ""},
		{"two edge uris", "b7", []string{"urn:sucursal:edge:b7", "urn:sucursal:edge:b8"}, ""},
		{"bad charset in uri", "B9", []string{"urn:sucursal:edge:B9"}, ""},
		{"query smuggled into id", "a?b", []string{"urn:sucursal:edge:a?b"}, ""},
		{"wrong namespace", "c1", []string{"urn:other:edge:c1"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &x509.Certificate{Subject: pkix.Name{CommonName: tt.cn}}
			for _, s := range tt.uris {
				c.URIs = append(c.URIs, mustURL(t, s))
			}
			got, err := EdgeID(c)
			if tt.want == "" {
				if err == nil || !errors.Is(err, ErrNoEdgeID) {
					t.Fatalf("EdgeID = %q, %v; want ErrNoEdgeID", got, err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("EdgeID = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	if _, err := EdgeID(nil); !errors.Is(err, ErrNoEdgeID) {
		t.Errorf("EdgeID(nil) = %v, want ErrNoEdgeID", err)
	}
}

func FuzzValidateEdgeID(f *testing.F) {
	for _, s := range []string{"a", "branch-1", "A", "-x", "a..b", strings.Repeat("z", 63), strings.Repeat("z", 64), "a\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		err := ValidateEdgeID(id)
		if want := edgeIDOracle.MatchString(id); (err == nil) != want {
			t.Fatalf("ValidateEdgeID(%q) = %v, oracle says valid=%v", id, err, want)
		}
	})
}

// FuzzEdgeID feeds arbitrary CNs and URI SANs: whatever EdgeID accepts must be a valid id that both
// the CN and exactly one edge URI state.
func FuzzEdgeID(f *testing.F) {
	f.Add("b1", "urn:sucursal:edge:b1", "")
	f.Add("b1", "urn:sucursal:edge:b1", "urn:sucursal:edge:b2")
	f.Add("x", "urn:sucursal:edge:x#frag", "spiffe://a/b")
	f.Add("", "URN:sucursal:edge:", "")
	f.Fuzz(func(t *testing.T, cn, u1, u2 string) {
		c := &x509.Certificate{Subject: pkix.Name{CommonName: cn}}
		for _, s := range []string{u1, u2} {
			if u, err := url.Parse(s); err == nil && s != "" {
				c.URIs = append(c.URIs, u)
			}
		}
		id, err := EdgeID(c)
		if err != nil {
			if !errors.Is(err, ErrNoEdgeID) {
				t.Fatalf("error %v is not ErrNoEdgeID", err)
			}
			return
		}
		if !edgeIDOracle.MatchString(id) || id != cn {
			t.Fatalf("EdgeID accepted %q (cn %q)", id, cn)
		}
		n := 0
		for _, u := range c.URIs {
			if u.String() == "urn:sucursal:edge:"+id {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("EdgeID accepted %q but %d URI SANs state it exactly", id, n)
		}
	})
}
