package pki

import (
	"errors"
	"net"
	"regexp"
	"slices"
	"testing"
)

func TestParseSANs(t *testing.T) {
	tests := []struct {
		in      []string
		dns     []string
		ips     []string
		badVals int
	}{
		{in: []string{"localhost", "127.0.0.1", "::1"}, dns: []string{"localhost"}, ips: []string{"127.0.0.1", "::1"}},
		{in: []string{"DC.Example.", "dc.example", "10.0.0.1", "10.0.0.1"}, dns: []string{"dc.example"}, ips: []string{"10.0.0.1"}},
		{in: []string{"*.dc.example"}, dns: []string{"*.dc.example"}},
		{in: []string{"", "a b", "-x.example", "x..y", "*", "a.*.b"}, badVals: 6},
		{in: []string{"ok.example", "bad_name"}, dns: []string{"ok.example"}, badVals: 1},
	}
	for _, tt := range tests {
		got, err := ParseSANs(tt.in)
		var ips []string
		for _, ip := range got.IPs {
			ips = append(ips, ip.String())
		}
		if !slices.Equal(got.DNS, tt.dns) || !slices.Equal(ips, tt.ips) {
			t.Errorf("ParseSANs(%q) = %v %v, want %v %v", tt.in, got.DNS, ips, tt.dns, tt.ips)
		}
		n := 0
		if err != nil {
			if !errors.Is(err, ErrInvalidSAN) {
				t.Errorf("ParseSANs(%q) error %v is not ErrInvalidSAN", tt.in, err)
			}
			n = len(err.(interface{ Unwrap() []error }).Unwrap())
		}
		if n != tt.badVals {
			t.Errorf("ParseSANs(%q) reported %d bad values (%v), want %d", tt.in, n, err, tt.badVals)
		}
	}
}

// hostnameOracle is RFC 1123 host name syntax (lowercase) with an optional leading wildcard label.
var hostnameOracle = regexp.MustCompile(`^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`)

func FuzzParseSANs(f *testing.F) {
	f.Add("localhost", "10.1.2.3")
	f.Add("*.dc.example.", "fe80::1")
	f.Add("a..b", "-")
	f.Fuzz(func(t *testing.T, a, b string) {
		got, err := ParseSANs([]string{a, b})
		if len(got.DNS)+len(got.IPs) > 2 {
			t.Fatalf("more names out than in: %v", got)
		}
		for _, d := range got.DNS {
			if len(d) > 253 || !hostnameOracle.MatchString(d) {
				t.Fatalf("accepted DNS SAN %q", d)
			}
		}
		for _, ip := range got.IPs {
			if ip == nil || (net.ParseIP(a) == nil && net.ParseIP(b) == nil) {
				t.Fatalf("IP %v out of nowhere", ip)
			}
		}
		if err == nil && len(got.DNS)+len(got.IPs) == 0 {
			t.Fatalf("no error and no names for %q %q", a, b)
		}
	})
}
