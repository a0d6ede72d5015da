package target

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestSSEReader(t *testing.T) {
	in := ": ping\n\ndata: {\"a\":1}\n\nevent: x\ndata: line1\ndata: line2\r\n\r\ndata:[DONE]\n\ndata: tail"
	r := NewSSEReader(strings.NewReader(in), 1<<10)
	want := []string{`{"a":1}`, "line1\nline2", "[DONE]", "tail"}
	for _, w := range want {
		got, err := r.Next()
		if err != nil {
			t.Fatalf("want %q, got error %v", w, err)
		}
		if string(got) != w {
			t.Fatalf("got %q, want %q", got, w)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("got %v, want EOF", err)
	}
}

func TestSSEReaderLimit(t *testing.T) {
	r := NewSSEReader(strings.NewReader("data: "+strings.Repeat("x", 100)+"\n\n"), 10)
	if _, err := r.Next(); !errors.Is(err, ErrEventTooLarge) {
		t.Fatalf("got %v", err)
	}
}

func FuzzSSEReader(f *testing.F) {
	f.Add("data: {}\n\ndata: [DONE]\n\n")
	f.Add(": c\r\ndata:x\r\ndata:y\r\n\r\n")
	f.Fuzz(func(t *testing.T, s string) {
		r := NewSSEReader(strings.NewReader(s), 64)
		for i := 0; i < len(s)+2; i++ {
			d, err := r.Next()
			if err != nil {
				return
			}
			if len(d) > 64 {
				t.Fatalf("event of %d bytes over the limit", len(d))
			}
		}
		t.Fatalf("reader did not terminate")
	})
}
