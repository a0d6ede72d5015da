package wire

import (
	"bytes"
	"testing"
)

// Control frames round-trip, and their payloads decode to what was sent.
func TestControlFramesRoundTrip(t *testing.T) {
	tests := []struct {
		typ  Type
		msg  any
		into func(Frame) (any, error)
	}{
		{TypePing, Ping{Seq: 7}, func(f Frame) (any, error) { var m Ping; err := f.Decode(&m); return m, err }},
		{TypePong, Pong{Seq: 7}, func(f Frame) (any, error) { var m Pong; err := f.Decode(&m); return m, err }},
		{TypeGoAway, GoAway{Reason: "draining", GraceMillis: 30000}, func(f Frame) (any, error) {
			var m GoAway
			err := f.Decode(&m)
			return m, err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.typ.String(), func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteJSON(&buf, tt.typ, tt.msg); err != nil {
				t.Fatal(err)
			}
			f, err := NewReader(&buf).Read()
			if err != nil {
				t.Fatal(err)
			}
			if f.Type != tt.typ {
				t.Fatalf("type %v, want %v", f.Type, tt.typ)
			}
			got, err := tt.into(f)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.msg {
				t.Fatalf("got %+v, want %+v", got, tt.msg)
			}
		})
	}
}

func TestHasFeature(t *testing.T) {
	for _, tt := range []struct {
		in   []string
		want bool
	}{{nil, false}, {[]string{"x"}, false}, {[]string{"x", FeatureControl}, true}} {
		if got := HasFeature(tt.in, FeatureControl); got != tt.want {
			t.Errorf("HasFeature(%q) = %v", tt.in, got)
		}
	}
}
