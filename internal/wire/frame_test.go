package wire

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	frames := []Frame{
		{TypeHello, []byte(`{"version":1,"edge_id":"b1"}`)},
		{TypeRequest, []byte(`{"op":"chat.completions"}`)},
		{TypeChunk, []byte(`{"id":"x","choices":[]}`)},
		{TypeDone, []byte(`{}`)},
		{TypeCancel, nil},
	}
	for _, f := range frames {
		if err := Write(&buf, f.Type, f.Payload); err != nil {
			t.Fatal(err)
		}
	}
	r := NewReader(&buf)
	for i, want := range frames {
		got, err := r.Read()
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if got.Type != want.Type || !bytes.Equal(got.Payload, want.Payload) {
			t.Fatalf("frame %d: got %v %q, want %v %q", i, got.Type, got.Payload, want.Type, want.Payload)
		}
	}
	if _, err := r.Read(); err != io.EOF {
		t.Fatalf("after the last frame: %v, want io.EOF", err)
	}
}

func TestReadErrors(t *testing.T) {
	frame := func(v uint8, ty Type, n uint32, payload string) []byte {
		b := []byte{v, byte(ty), byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}
		return append(b, payload...)
	}
	tests := []struct {
		name string
		in   []byte
		max  int
		want error
	}{
		{"other version", frame(2, TypeHello, 2, "{}"), DefaultMaxPayload, ErrVersion},
		{"version zero", frame(0, TypeHello, 2, "{}"), DefaultMaxPayload, ErrVersion},
		{"unknown type", frame(Version, 99, 2, "{}"), DefaultMaxPayload, ErrUnknownType},
		{"too large", frame(Version, TypeChunk, 1<<30, ""), DefaultMaxPayload, ErrTooLarge},
		{"over a small limit", frame(Version, TypeChunk, 11, "01234567890"), 10, ErrTooLarge},
		{"truncated payload", frame(Version, TypeChunk, 10, "abc"), DefaultMaxPayload, io.ErrUnexpectedEOF},
		{"truncated header", []byte{Version, byte(TypeChunk), 0}, DefaultMaxPayload, io.ErrUnexpectedEOF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewReader(bytes.NewReader(tt.in))
			r.MaxPayload = tt.max
			_, err := r.Read()
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
		})
	}
}

func TestVersionErrorSaysBothVersions(t *testing.T) {
	var buf bytes.Buffer
	if err := writeVersion(&buf, 7, TypeHello, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	_, err := NewReader(&buf).Read()
	var ve *VersionError
	if !errors.As(err, &ve) || ve.Got != 7 || ve.Want != Version {
		t.Fatalf("got %v", err)
	}
}

// FuzzReader feeds arbitrary bytes to the decoder: it must never panic, never allocate past the
// limit, and whatever it accepts must re-encode to the same bytes.
func FuzzReader(f *testing.F) {
	var seed bytes.Buffer
	_ = Write(&seed, TypeHello, []byte(`{"version":1}`))
	_ = Write(&seed, TypeChunk, []byte(`{"choices":[]}`))
	f.Add(seed.Bytes())
	f.Add([]byte{Version, byte(TypeDone), 0, 0, 0, 0})
	f.Add([]byte{2, 1, 0, 0, 0, 0})
	f.Add([]byte{Version, byte(TypeChunk), 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(bytes.NewReader(data))
		r.MaxPayload = 1 << 16
		var out bytes.Buffer
		consumed := 0
		for {
			fr, err := r.Read()
			if err != nil {
				break
			}
			if len(fr.Payload) > r.MaxPayload {
				t.Fatalf("payload %d over limit", len(fr.Payload))
			}
			if err := Write(&out, fr.Type, fr.Payload); err != nil {
				t.Fatal(err)
			}
			consumed += HeaderSize + len(fr.Payload)
		}
		if !bytes.Equal(out.Bytes(), data[:consumed]) {
			t.Fatalf("re-encoding differs from the accepted input")
		}
		// JSON payload decoding must not panic either.
		var h Hello
		_ = Frame{Type: TypeHello, Payload: data}.Decode(&h)
	})
}
