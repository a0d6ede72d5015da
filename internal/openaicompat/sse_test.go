package openaicompat

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

// errWouldBlock stands for a network read that would wait: the source has nothing more yet.
var errWouldBlock = errors.New("would block")

type thenBlock struct{ s string }

func (r *thenBlock) Read(p []byte) (int, error) {
	if r.s == "" {
		return 0, errWouldBlock
	}
	n := copy(p, r.s)
	r.s = r.s[n:]
	return n, nil
}

// checkReady reads every event of in (all of it arrives in one read, then the source would
// block) and checks that Ready said, before each Next, whether Next could answer without reading.
func checkReady(t *testing.T, in string) {
	t.Helper()
	r := NewSSEReader(&thenBlock{in}, 1<<10)
	if _, err := r.Next(); err != nil { // the first Next fills the buffer from the source
		return
	}
	for range len(in) + 2 {
		ready := r.Ready()
		_, err := r.Next()
		blocked := errors.Is(err, errWouldBlock)
		if ready && blocked {
			t.Fatalf("%q: Ready said an event was there, Next had to read", in)
		}
		if !ready && !blocked && !errors.Is(err, ErrEventTooLarge) {
			t.Fatalf("%q: Ready said no event was there, Next returned one (err %v)", in, err)
		}
		if err != nil {
			return
		}
	}
}

func TestSSEReaderReady(t *testing.T) {
	for _, in := range []string{
		"data: a\n\ndata: b\n\ndata: [DONE]\n\n",
		"data: a\n\ndata: b\n",                 // second event not finished
		"data: a\n\ndata: b\n\ndata: c",        // third has no blank line yet
		"data: a\r\n\r\ndata: b\r\n\r\n",       // CRLF
		"data: a\n\n: ping\n\n",                // a comment alone is not an event
		"data: a\n\n: ping\n\ndata: b\n\n",     // … but one after it is
		"data: a\n\nevent: x\ndata\n\n",        // a data line without a colon is not data
		"data: a\n\n\n\n\ndata: b\n\n",         // extra blank lines
		"data: a\n\ndata: x\ndata: y\n\ndata:", // multi-line event
	} {
		checkReady(t, in)
	}
}

func FuzzSSEReaderReady(f *testing.F) {
	f.Add("data: a\n\ndata: b\n\n: c\n\ndata: d")
	f.Add("data: a\r\n\r\ndata:x\r\ndata:y\r\n\r\n")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 16<<10 {
			return
		}
		checkReady(t, s)
	})
}
