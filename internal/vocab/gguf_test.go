package vocab

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/sucursal/sucursal/internal/testmodel"
)

// ggufSpecs are generated models with different tokenizers.
func ggufSpecs() map[string]testmodel.Spec {
	return map[string]testmodel.Spec{
		"alphabet": testmodel.Alphabet(),
		"pieces":   testmodel.Alphabet().WithPieces("bc", "def", "▁a"),
		"sentence": testmodel.Sentence("hello", "the", "quick", "brown", "fox"),
	}
}

func writeGGUF(t testing.TB, spec testmodel.Spec) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := testmodel.Write(&buf, spec); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// metadataEnd computes where a generated file's metadata ends from the key/values the generator's
// own reader returns, by the GGUF layout (24-byte preamble, then per key: length-prefixed name,
// u32 type, value), independently of the code under test.
func metadataEnd(t testing.TB, file []byte) int {
	t.Helper()
	h, err := testmodel.ReadHeader(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	var size func(v any) int
	size = func(v any) int {
		switch x := v.(type) {
		case string:
			return 8 + len(x)
		case uint8, int8, bool:
			return 1
		case uint16, int16:
			return 2
		case uint32, int32, float32:
			return 4
		case uint64, int64, float64:
			return 8
		case []any:
			n := 4 + 8
			for _, e := range x {
				n += size(e)
			}
			return n
		}
		t.Fatalf("unexpected metadata value %T", v)
		return 0
	}
	end := 24
	for k, v := range h.Metadata {
		end += 8 + len(k) + 4 + size(v)
	}
	return end
}

// TestFromGGUFEqualsGenerator: the vocabulary read from a generated file has the fingerprint the
// generator computes from the spec, decodes every piece as llama.cpp does, and is read without
// a byte of the tensor section (the stream fails right after the metadata).
func TestFromGGUFEqualsGenerator(t *testing.T) {
	fps := map[string]string{}
	for name, spec := range ggufSpecs() {
		t.Run(name, func(t *testing.T) {
			file := writeGGUF(t, spec)
			end := metadataEnd(t, file)
			tooFar := errors.New("read past the metadata")
			v, err := FromGGUF(io.MultiReader(bytes.NewReader(file[:end]), errReader{tooFar}))
			if err != nil {
				t.Fatal(err)
			}
			want := spec.Fingerprint().String()
			if got := v.Fingerprint().String(); got != want {
				t.Fatalf("fingerprint %s, the generator's %s", got, want)
			}
			fps[name] = want
			if v.Size() != len(spec.Vocab()) {
				t.Fatalf("%d tokens, the spec has %d", v.Size(), len(spec.Vocab()))
			}
			for id := range spec.Vocab() {
				if id <= int(testmodel.EOSID) {
					continue // control tokens decode to "" here and to their name in PieceText
				}
				want, _ := spec.PieceText(id)
				if got, ok := v.Piece(int32(id)); !ok || got != want {
					t.Fatalf("piece %d = %q, %v; llama.cpp gives %q", id, got, ok, want)
				}
			}
			// The same through a file on disk.
			path := filepath.Join(t.TempDir(), "m.gguf")
			if err := testmodel.WriteFile(path, spec); err != nil {
				t.Fatal(err)
			}
			fv, err := FromGGUFFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if fv.Fingerprint() != v.Fingerprint() {
				t.Fatal("the file and the stream give different fingerprints")
			}
		})
	}
	if fps["alphabet"] == fps["pieces"] || fps["alphabet"] == fps["sentence"] {
		t.Fatalf("different tokenizers share a fingerprint: %v", fps)
	}
	if _, err := FromGGUFFile(filepath.Join(t.TempDir(), "missing.gguf")); err == nil {
		t.Fatal("a missing file gave a vocabulary")
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// TestFromGGUFEveryTruncationFails: any prefix of a real header is an error, never a panic or a
// vocabulary.
func TestFromGGUFEveryTruncationFails(t *testing.T) {
	file := writeGGUF(t, testmodel.Alphabet())
	end := metadataEnd(t, file)
	for n := 0; n < end; n++ {
		if _, err := FromGGUF(bytes.NewReader(file[:n])); !errors.Is(err, ErrNotGGUF) {
			t.Fatalf("%d of %d header bytes: err = %v", n, end, err)
		}
	}
}

// gguf builds hostile headers by hand.
type gguf struct{ bytes.Buffer }

func newGGUF(version uint32, nkv uint64) *gguf {
	g := &gguf{}
	g.u32(0x46554747)
	g.u32(version)
	g.u64(0)
	g.u64(nkv)
	return g
}

func (g *gguf) u32(x uint32) *gguf { _ = binary.Write(g, binary.LittleEndian, x); return g }
func (g *gguf) u64(x uint64) *gguf { _ = binary.Write(g, binary.LittleEndian, x); return g }
func (g *gguf) str(s string) *gguf { g.u64(uint64(len(s))); g.WriteString(s); return g }

func (g *gguf) strings(key string, vals ...string) *gguf {
	g.str(key).u32(gArray).u32(gString).u64(uint64(len(vals)))
	for _, v := range vals {
		g.str(v)
	}
	return g
}

func (g *gguf) ints(key string, vals ...int32) *gguf {
	g.str(key).u32(gArray).u32(gInt32).u64(uint64(len(vals)))
	for _, v := range vals {
		g.u32(uint32(v))
	}
	return g
}

// minimal is a valid five-key header; the cases below break one thing each.
func minimal() *gguf {
	g := newGGUF(3, 5)
	g.str("tokenizer.ggml.model").u32(gString).str("llama")
	g.strings("tokenizer.ggml.tokens", "<unk>", "<s>", "</s>", "a")
	g.ints("tokenizer.ggml.token_type", 2, 3, 3, 1)
	g.str("tokenizer.ggml.bos_token_id").u32(gUint32).u32(1)
	g.str("tokenizer.ggml.eos_token_id").u32(gUint32).u32(2)
	return g
}

func TestFromGGUFRefusesHostileHeaders(t *testing.T) {
	v, err := FromGGUF(bytes.NewReader(minimal().Bytes()))
	if err != nil {
		t.Fatalf("the minimal header: %v", err)
	}
	if fp := v.Fingerprint(); fp.Size != 4 || fp.BOS != 1 || fp.EOS != 2 || fp.VocabType != "llama" {
		t.Fatalf("minimal header read as %+v", fp)
	}
	// Other keys of every type are skipped, including arrays of strings and nested arrays.
	g := newGGUF(2, 9)
	g.str("general.name").u32(gString).str("x")
	g.str("general.alignment").u32(gUint32).u32(32)
	g.str("f64").u32(gFloat64).u64(math.Float64bits(1.5))
	g.str("tokenizer.ggml.merges").u32(gArray).u32(gString).u64(2).str("a b").str("c d")
	g.str("nested").u32(gArray).u32(gArray).u64(1).u32(gUint8).u64(3)
	g.Write([]byte{1, 2, 3})
	g.str("tokenizer.ggml.model").u32(gString).str("gpt2")
	g.strings("tokenizer.ggml.tokens", "Ġa", "b")
	g.str("tokenizer.ggml.bos_token_id").u32(gInt32).u32(0)
	g.str("tokenizer.ggml.eos_token_id").u32(gUint64).u64(1)
	if v, err := FromGGUF(bytes.NewReader(g.Bytes())); err != nil || v.Fingerprint().VocabType != "gpt2" || v.Size() != 2 {
		t.Fatalf("v2 header with skipped keys: %v", err)
	}

	huge := uint64(1) << 62
	for name, b := range map[string][]byte{
		"empty":             nil,
		"bad magic":         append([]byte("GGUG"), minimal().Bytes()[4:]...),
		"version 1":         newGGUF(1, 0).Bytes(),
		"version 4":         newGGUF(4, 0).Bytes(),
		"no tokenizer":      newGGUF(3, 0).Bytes(),
		"key count":         newGGUF(3, huge).Bytes(),
		"key length":        newGGUF(3, 1).u64(huge).Bytes(),
		"token count":       newGGUF(3, 1).str("tokenizer.ggml.tokens").u32(gArray).u32(gString).u64(huge).Bytes(),
		"token length":      newGGUF(3, 1).str("tokenizer.ggml.tokens").u32(gArray).u32(gString).u64(1).u64(huge).Bytes(),
		"tokens lie":        newGGUF(3, 1).str("tokenizer.ggml.tokens").u32(gArray).u32(gString).u64(1 << 20).str("a").Bytes(),
		"tokens not array":  newGGUF(3, 1).str("tokenizer.ggml.tokens").u32(gString).str("a").Bytes(),
		"tokens of ints":    newGGUF(3, 1).ints("tokenizer.ggml.tokens", 1).Bytes(),
		"model not string":  newGGUF(3, 1).str("tokenizer.ggml.model").u32(gUint32).u32(1).Bytes(),
		"types of strings":  newGGUF(3, 1).strings("tokenizer.ggml.token_type", "a").Bytes(),
		"bos a string":      newGGUF(3, 1).str("tokenizer.ggml.bos_token_id").u32(gString).str("1").Bytes(),
		"bos negative":      newGGUF(3, 1).str("tokenizer.ggml.bos_token_id").u32(gInt32).u32(uint32(0xfffffff0)).Bytes(),
		"bos too big":       newGGUF(3, 1).str("tokenizer.ggml.bos_token_id").u32(gUint64).u64(math.MaxUint64).Bytes(),
		"skipped string":    newGGUF(3, 1).str("x").u32(gString).u64(huge).Bytes(),
		"skipped array":     newGGUF(3, 1).str("x").u32(gArray).u32(gUint64).u64(huge).Bytes(),
		"skipped strings":   newGGUF(3, 1).str("x").u32(gArray).u32(gString).u64(huge).Bytes(),
		"unknown type":      newGGUF(3, 1).str("x").u32(13).Bytes(),
		"unknown elem type": newGGUF(3, 1).str("x").u32(gArray).u32(99).u64(1).Bytes(),
		"duplicate key":     newGGUF(3, 2).str("x").u32(gUint8).Write1(0).str("x").u32(gUint8).Write1(0).Bytes(),
		"deep nesting":      deepArray(maxGGUFDepth + 1),
		"types length": func() []byte {
			g := newGGUF(3, 3)
			g.str("tokenizer.ggml.model").u32(gString).str("llama")
			g.strings("tokenizer.ggml.tokens", "a", "b")
			return g.ints("tokenizer.ggml.token_type", 1).Bytes()
		}(),
		"eos out of range": func() []byte {
			g := newGGUF(3, 3)
			g.str("tokenizer.ggml.model").u32(gString).str("llama")
			g.strings("tokenizer.ggml.tokens", "a", "b")
			return g.str("tokenizer.ggml.eos_token_id").u32(gUint32).u32(2).Bytes()
		}(),
	} {
		t.Run(name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			v, err := FromGGUF(bytes.NewReader(b))
			runtime.ReadMemStats(&after)
			if !errors.Is(err, ErrNotGGUF) || v != nil {
				t.Fatalf("got %v, %v; want ErrNotGGUF", v, err)
			}
			// The largest legitimate allocation before a lie shows is one key or token (64 KiB)
			// plus the read buffer; a count taken at its word would be gigabytes.
			if d := after.TotalAlloc - before.TotalAlloc; d > 4<<20 {
				t.Fatalf("a hostile header cost %d bytes of allocation", d)
			}
		})
	}
}

func (g *gguf) Write1(b byte) *gguf { g.WriteByte(b); return g }

func deepArray(depth int) []byte {
	g := newGGUF(3, 1).str("x").u32(gArray)
	for range depth - 1 {
		g.u32(gArray).u64(1)
	}
	return g.u32(gUint8).u64(0).Bytes()
}

func FuzzFromGGUF(f *testing.F) {
	f.Add(minimal().Bytes())
	file := writeGGUF(f, testmodel.Alphabet())
	f.Add(file[:metadataEnd(f, file)])
	f.Add(newGGUF(3, 1).str("x").u32(gArray).u32(gString).u64(3).str("a").Bytes())
	f.Add(deepArray(3))
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := FromGGUF(bytes.NewReader(b))
		if err != nil {
			if !errors.Is(err, ErrNotGGUF) || v != nil {
				t.Fatalf("error %v with vocabulary %v", err, v)
			}
			return
		}
		fp := v.Fingerprint()
		if fp.Size != v.Size() || fp.Size == 0 || fp.BOS >= fp.Size || fp.EOS >= fp.Size {
			t.Fatalf("inconsistent vocabulary %+v", fp)
		}
		// Whatever was accepted must survive being read again identically.
		again, err := FromGGUF(bytes.NewReader(b))
		if err != nil || again.Fingerprint() != fp {
			t.Fatalf("a second read differs: %v", err)
		}
	})
}

// BenchmarkFromGGUF reads the tokenizer of a header shaped like a large real model's (152k
// byte-level BPE tokens, types, and 150k merges that are skipped), against the generator's general
// GGUF header reader over the same bytes as the baseline.
//
//	go test -run '^$' -bench FromGGUF ./internal/vocab/
func BenchmarkFromGGUF(b *testing.B) {
	const n = 152_000
	toks, types, merges := make([]string, n), make([]int32, n), make([]string, n-2000)
	for i := range toks {
		toks[i], types[i] = "Ġtok"+strconv.Itoa(i), 1
	}
	for i := range merges {
		merges[i] = "Ġt ok" + strconv.Itoa(i)
	}
	g := newGGUF(3, 6)
	g.str("tokenizer.ggml.model").u32(gString).str("gpt2")
	g.strings("tokenizer.ggml.tokens", toks...)
	g.ints("tokenizer.ggml.token_type", types...)
	g.strings("tokenizer.ggml.merges", merges...)
	g.str("tokenizer.ggml.bos_token_id").u32(gUint32).u32(1)
	g.str("tokenizer.ggml.eos_token_id").u32(gUint32).u32(2)
	file := g.Bytes()
	b.Run("baseline=testmodel.ReadHeader", func(b *testing.B) {
		for b.Loop() {
			if _, err := testmodel.ReadHeader(bytes.NewReader(file)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("FromGGUF", func(b *testing.B) {
		for b.Loop() {
			if _, err := FromGGUF(bytes.NewReader(file)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
