package testmodel

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"
)

func mustWrite(t testing.TB, s Spec) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, s); err != nil {
		t.Fatalf("Write: %v", err)
	}
	return buf.Bytes()
}

func tensorData(t *testing.T, file []byte, h *Header, name string) ([]uint64, []float32) {
	t.Helper()
	for _, ti := range h.Tensors {
		if ti.Name != name {
			continue
		}
		n := uint64(1)
		for _, d := range ti.Dims {
			n *= d
		}
		start := uint64(h.DataOffset) + ti.Offset
		raw := file[start : start+4*n]
		out := make([]float32, n)
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		}
		return ti.Dims, out
	}
	t.Fatalf("no tensor %q", name)
	return nil, nil
}

func TestWriteParsesBack(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec Spec
	}{
		{"alphabet", Alphabet()},
		{"sentence", Sentence("Hello", "the", "cat", "sat", "on", "the", "mat.")},
		{"fixed", FixedOutput("\n[verdict]", "unsafe\nS2")},
		{"soft", func() Spec { s := Alphabet(); s.OutputScale = 3; s.ContextLength = 512; return s }()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := mustWrite(t, tc.spec)
			h, err := ReadHeader(bytes.NewReader(file))
			if err != nil {
				t.Fatalf("ReadHeader: %v", err)
			}
			if h.Version != 3 || h.Metadata["general.architecture"] != "llama" || h.Metadata["general.alignment"] != uint32(32) {
				t.Errorf("version %d, arch %v, alignment %v", h.Version, h.Metadata["general.architecture"], h.Metadata["general.alignment"])
			}
			wantCtx := uint32(2048)
			if tc.spec.ContextLength != 0 {
				wantCtx = uint32(tc.spec.ContextLength)
			}
			if got := h.Metadata["llama.context_length"]; got != wantCtx {
				t.Errorf("context_length = %v, want %d", got, wantCtx)
			}
			for key, want := range map[string]any{
				"tokenizer.ggml.model": "llama", "tokenizer.ggml.bos_token_id": uint32(1),
				"tokenizer.ggml.eos_token_id": uint32(2), "tokenizer.ggml.unknown_token_id": uint32(0),
				"tokenizer.ggml.add_bos_token": true, "tokenizer.ggml.add_space_prefix": false,
				"general.file_type": uint32(0),
			} {
				if got := h.Metadata[key]; got != want {
					t.Errorf("%s = %v, want %v", key, got, want)
				}
			}
			tokens := h.Metadata["tokenizer.ggml.tokens"].([]any)
			types := h.Metadata["tokenizer.ggml.token_type"].([]any)
			if tokens[0] != "<unk>" || tokens[1] != "<s>" || tokens[2] != "</s>" || tokens[3] != "<0x00>" || tokens[258] != "<0xFF>" {
				t.Errorf("special/byte tokens out of place: %v %v %v %v %v", tokens[0], tokens[1], tokens[2], tokens[3], tokens[258])
			}
			for i := 3; i < 259; i++ {
				if types[i] != int32(6) {
					t.Fatalf("token %d type %v, want 6 (byte)", i, types[i])
				}
			}
			if h.DataOffset%32 != 0 {
				t.Errorf("data offset %d not aligned", h.DataOffset)
			}
			end := uint64(0)
			for _, ti := range h.Tensors {
				if ti.Offset%32 != 0 || ti.Type != 0 {
					t.Errorf("tensor %s offset %d type %d", ti.Name, ti.Offset, ti.Type)
				}
				n := uint64(4)
				for _, d := range ti.Dims {
					n *= d
				}
				end = max(end, ti.Offset+n)
			}
			if want := uint64(h.DataOffset) + (end+31)/32*32; uint64(len(file)) != want {
				t.Errorf("file is %d bytes, header says %d", len(file), want)
			}
			fp, err := h.Fingerprint()
			if err != nil || fp != tc.spec.Fingerprint() {
				t.Errorf("header fingerprint %v (%v), spec fingerprint %v", fp, err, tc.spec.Fingerprint())
			}
			checkArgmax(t, file, h, tc.spec, tokens)
		})
	}
}

// checkArgmax multiplies the written embedding and output matrices (ignoring the block, which writes
// only scratch dimensions) and checks that every piece's best next token is its successor.
func checkArgmax(t *testing.T, file []byte, h *Header, s Spec, tokens []any) {
	dims, emb := tensorData(t, file, h, "token_embd.weight")
	_, out := tensorData(t, file, h, "output.weight")
	embd, nv := int(dims[0]), int(dims[1])
	for tok := 259; tok < nv; tok++ {
		x := emb[tok*embd : (tok+1)*embd]
		best, bestLogit := -1, math.Inf(-1)
		for v := range nv {
			var logit float64
			for d := range embd {
				logit += float64(out[v*embd+d]) * float64(x[d])
			}
			if logit > bestLogit {
				best, bestLogit = v, logit
			}
		}
		want, ok := s.Successor[tokens[tok].(string)]
		if !ok {
			want = "</s>"
		}
		if tokens[best] != want {
			t.Fatalf("after %q the model prefers %q, successor is %q", tokens[tok], tokens[best], want)
		}
	}
}

func TestWriteIsDeterministic(t *testing.T) {
	a, b := mustWrite(t, Alphabet()), mustWrite(t, Alphabet())
	if !bytes.Equal(a, b) {
		t.Fatal("two writes of the same spec differ")
	}
	p, _ := Perturbed(Alphabet(), 0.5, 1)
	if bytes.Equal(a, mustWrite(t, p)) {
		t.Fatal("a perturbed spec wrote the same bytes")
	}
}

func TestWriteFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.gguf")
	if err := WriteFile(path, Alphabet()); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, mustWrite(t, Alphabet())) {
		t.Error("WriteFile wrote different bytes than Write")
	}
	bad := Spec{Pieces: []string{""}}
	if err := WriteFile(filepath.Join(t.TempDir(), "bad.gguf"), bad); !errors.Is(err, ErrInvalidSpec) {
		t.Errorf("WriteFile(invalid) = %v, want ErrInvalidSpec", err)
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec Spec
		ok   bool
	}{
		{"alphabet", Alphabet(), true},
		{"empty piece", Spec{Pieces: []string{"a", ""}}, false},
		{"space in piece", Spec{Pieces: []string{"a b"}}, false},
		{"special as piece", Spec{Pieces: []string{"</s>"}}, false},
		{"byte token as piece", Spec{Pieces: []string{"<0x41>"}}, false},
		{"invalid utf-8", Spec{Pieces: []string{"\xff"}}, false},
		{"successor from unknown piece", Spec{Pieces: []string{"a"}, Successor: map[string]string{"b": "a"}}, false},
		{"successor to unknown piece", Spec{Pieces: []string{"a"}, Successor: map[string]string{"a": "b"}}, false},
		{"successor to eos", Spec{Pieces: []string{"a"}, Successor: map[string]string{"a": "</s>"}}, true},
		{"successor to a prefix", Spec{Pieces: []string{"abc"}, Successor: map[string]string{"abc": "ab"}}, true},
		{"negative scale", Spec{Pieces: []string{"a"}, OutputScale: -1}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.spec.Validate()
			if (err == nil) != tc.ok {
				t.Fatalf("Validate() = %v, want ok=%v", err, tc.ok)
			}
			if err != nil && !errors.Is(err, ErrInvalidSpec) {
				t.Errorf("error %v does not wrap ErrInvalidSpec", err)
			}
		})
	}
}

func TestReadHeaderRejects(t *testing.T) {
	good := mustWrite(t, Alphabet())
	badMagic := append([]byte("GGML"), good[4:]...)
	badVersion := bytes.Clone(good)
	binary.LittleEndian.PutUint32(badVersion[4:], 9)
	hugeCount := bytes.Clone(good)
	binary.LittleEndian.PutUint64(hugeCount[16:], 1<<40)
	for _, tc := range []struct {
		name string
		in   []byte
	}{
		{"empty", nil},
		{"magic", badMagic},
		{"version", badVersion},
		{"key count", hugeCount},
		{"truncated", good[:200]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := ReadHeader(bytes.NewReader(tc.in)); !errors.Is(err, ErrNotGGUF) {
				t.Fatalf("ReadHeader = %v, want ErrNotGGUF", err)
			}
		})
	}
}

func FuzzReadHeader(f *testing.F) {
	good := mustWrite(f, Spec{Pieces: []string{"a", "b"}, Successor: map[string]string{"a": "b"}})
	f.Add(good[:4096])
	f.Add(good[:64])
	f.Add([]byte("GGUF"))
	f.Fuzz(func(t *testing.T, in []byte) {
		h, err := ReadHeader(io.LimitReader(bytes.NewReader(in), 1<<20))
		if err != nil {
			if !errors.Is(err, ErrNotGGUF) {
				t.Fatalf("error %v does not wrap ErrNotGGUF", err)
			}
			return
		}
		if h.DataOffset%32 != 0 && h.Metadata["general.alignment"] == nil {
			t.Fatalf("data offset %d not aligned to the default 32", h.DataOffset)
		}
		_, _ = h.Fingerprint()
	})
}
