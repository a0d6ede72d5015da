package testmodel

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
)

// GGUF constants this package writes and reads.
const (
	ggufMagic   = 0x46554747 // "GGUF" little-endian
	ggufVersion = 3
	alignment   = 32
	typeF32     = 0 // ggml tensor type
)

// GGUF metadata value types.
const (
	gUint8   = 0
	gInt8    = 1
	gUint16  = 2
	gInt16   = 3
	gUint32  = 4
	gInt32   = 5
	gFloat32 = 6
	gBool    = 7
	gString  = 8
	gArray   = 9
	gUint64  = 10
	gInt64   = 11
	gFloat64 = 12
)

type kv struct {
	key string
	val any // uint32, float32, bool, string, []string, []float32, []int32
}

func (s Spec) metadata(v vocab) []kv {
	d := s.dims(v)
	name := s.Name
	if name == "" {
		name = "sucursal-tiny"
	}
	return []kv{
		{"general.architecture", "llama"},
		{"general.name", name},
		{"general.alignment", uint32(alignment)},
		{"general.file_type", uint32(0)},
		{"llama.context_length", uint32(s.contextLength())},
		{"llama.embedding_length", uint32(d.embd)},
		{"llama.block_count", uint32(blockCount)},
		{"llama.feed_forward_length", uint32(d.ffn)},
		{"llama.attention.head_count", uint32(d.heads)},
		{"llama.attention.head_count_kv", uint32(d.heads)},
		{"llama.rope.dimension_count", uint32(headDim)},
		{"llama.rope.freq_base", float32(ropeBase)},
		{"llama.attention.layer_norm_rms_epsilon", float32(rmsEps)},
		{"llama.vocab_size", uint32(d.vocab)},
		{"tokenizer.ggml.model", "llama"},
		{"tokenizer.ggml.tokens", v.tokens},
		{"tokenizer.ggml.scores", v.scores},
		{"tokenizer.ggml.token_type", v.types},
		{"tokenizer.ggml.bos_token_id", uint32(bosID)},
		{"tokenizer.ggml.eos_token_id", uint32(eosID)},
		{"tokenizer.ggml.unknown_token_id", uint32(unkID)},
		{"tokenizer.ggml.add_bos_token", true},
		{"tokenizer.ggml.add_eos_token", false},
		{"tokenizer.ggml.add_space_prefix", false},
	}
}

// Write writes the model as a GGUF v3 file with F32 tensors. The bytes depend only on the Spec.
func Write(w io.Writer, s Spec) error {
	if err := s.Validate(); err != nil {
		return err
	}
	v := s.vocab()
	meta := s.metadata(v)
	ts := s.tensors(v)
	ew := &errWriter{w: bufio.NewWriterSize(w, 1<<16)}
	ew.u32(ggufMagic)
	ew.u32(ggufVersion)
	ew.u64(uint64(len(ts)))
	ew.u64(uint64(len(meta)))
	for _, m := range meta {
		ew.str(m.key)
		ew.value(m.val)
	}
	var off uint64
	for _, t := range ts {
		ew.str(t.name)
		ew.u32(uint32(len(t.ne)))
		for _, n := range t.ne {
			ew.u64(n)
		}
		ew.u32(typeF32)
		ew.u64(off)
		off = alignUp(off+uint64(4*len(t.data)), alignment)
	}
	ew.pad(alignment)
	ew.n = 0 // tensor offsets count from the start of the data section
	for _, t := range ts {
		for _, f := range t.data {
			ew.u32(math.Float32bits(f))
		}
		ew.pad(alignment)
	}
	if ew.err != nil {
		return fmt.Errorf("testmodel: write gguf: %w", ew.err)
	}
	if err := ew.w.Flush(); err != nil {
		return fmt.Errorf("testmodel: write gguf: %w", err)
	}
	return nil
}

// WriteFile writes the model to path atomically (a temporary file renamed into place), so a
// runtime never sees half a model.
func WriteFile(path string, s Spec) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tiny-*.gguf")
	if err != nil {
		return fmt.Errorf("testmodel: %w", err)
	}
	defer func() {
		if err != nil {
			_ = os.Remove(tmp.Name())
		}
	}()
	if err := Write(tmp, s); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("testmodel: %w", err)
	}
	// CreateTemp makes 0600; a runtime running as another user must be able to read the model.
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("testmodel: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("testmodel: %w", err)
	}
	return nil
}

func alignUp(n, a uint64) uint64 { return (n + a - 1) / a * a }

// errWriter keeps the first error and counts bytes for padding.
type errWriter struct {
	w   *bufio.Writer
	n   uint64
	err error
	buf [8]byte
}

func (e *errWriter) write(p []byte) {
	if e.err != nil {
		return
	}
	var n int
	n, e.err = e.w.Write(p)
	e.n += uint64(n)
}

func (e *errWriter) u32(x uint32) { binary.LittleEndian.PutUint32(e.buf[:4], x); e.write(e.buf[:4]) }
func (e *errWriter) u64(x uint64) { binary.LittleEndian.PutUint64(e.buf[:8], x); e.write(e.buf[:8]) }

func (e *errWriter) str(s string) {
	e.u64(uint64(len(s)))
	e.write([]byte(s))
}

func (e *errWriter) pad(a uint64) {
	if r := e.n % a; r != 0 {
		e.write(make([]byte, a-r))
	}
}

func (e *errWriter) value(v any) {
	switch x := v.(type) {
	case uint32:
		e.u32(gUint32)
		e.u32(x)
	case float32:
		e.u32(gFloat32)
		e.u32(math.Float32bits(x))
	case bool:
		e.u32(gBool)
		if x {
			e.write([]byte{1})
		} else {
			e.write([]byte{0})
		}
	case string:
		e.u32(gString)
		e.str(x)
	case []string:
		e.u32(gArray)
		e.u32(gString)
		e.u64(uint64(len(x)))
		for _, s := range x {
			e.str(s)
		}
	case []float32:
		e.u32(gArray)
		e.u32(gFloat32)
		e.u64(uint64(len(x)))
		for _, f := range x {
			e.u32(math.Float32bits(f))
		}
	case []int32:
		e.u32(gArray)
		e.u32(gInt32)
		e.u64(uint64(len(x)))
		for _, i := range x {
			e.u32(uint32(i))
		}
	default:
		panic(fmt.Sprintf("testmodel: no GGUF encoding for %T", v))
	}
}
