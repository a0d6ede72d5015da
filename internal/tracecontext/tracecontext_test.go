package tracecontext

import (
	"context"
	"testing"
)

func TestParse(t *testing.T) {
	const good = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	for _, tc := range []struct {
		in      string
		ok      bool
		sampled bool
	}{
		{good, true, true},
		{"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00", true, false},
		{"01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-what-the-future-adds", true, true},
		{"01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", true, true},
		{"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra", false, false}, // 00 is exactly 55
		{"ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", false, false},
		{"00-00000000000000000000000000000000-00f067aa0ba902b7-01", false, false},
		{"00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", false, false},
		{"00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", false, false}, // uppercase
		{"00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01", false, false},
		{"00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", false, false},
		{"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0x", false, false},
		{"", false, false},
		{"01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x", false, false},
	} {
		p, ok := Parse(tc.in)
		if ok != tc.ok || (ok && p.Sampled != tc.sampled) {
			t.Errorf("Parse(%q) = %+v, %v; want ok %v sampled %v", tc.in, p, ok, tc.ok, tc.sampled)
		}
	}
	p, _ := Parse(good)
	if p.String() != good {
		t.Errorf("round trip: %s", p.String())
	}
}

func TestNewChildAndContext(t *testing.T) {
	p := New()
	if !p.Valid() || !p.Sampled {
		t.Fatalf("New() = %+v", p)
	}
	if q, ok := Parse(p.String()); !ok || q != p {
		t.Fatalf("New() does not round-trip: %s", p)
	}
	c := p.Child()
	if c.TraceID != p.TraceID || c.ParentID == p.ParentID || !c.Valid() {
		t.Fatalf("Child() = %+v of %+v", c, p)
	}
	if New().TraceID == p.TraceID {
		t.Fatal("two traces with one id")
	}
	if _, ok := From(context.Background()); ok {
		t.Fatal("an empty context carries a trace")
	}
	if got, ok := From(With(context.Background(), p)); !ok || got != p {
		t.Fatalf("From(With(p)) = %+v, %v", got, ok)
	}
}

// Whatever a client sends, Parse either refuses it or returns ids that are lowercase hex of the
// right length — nothing else can come out of it.
func FuzzParse(f *testing.F) {
	f.Add("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
	f.Add("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x")
	f.Add("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\x00")
	f.Fuzz(func(t *testing.T, s string) {
		p, ok := Parse(s)
		if !ok {
			if p != (Parent{}) {
				t.Fatalf("refused %q but returned %+v", s, p)
			}
			return
		}
		if !p.Valid() {
			t.Fatalf("Parse(%q) = %+v, not valid", s, p)
		}
		if q, ok := Parse(p.String()); !ok || q != p {
			t.Fatalf("%q: %+v does not round-trip", s, p)
		}
	})
}
