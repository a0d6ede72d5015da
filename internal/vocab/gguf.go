package vocab

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
)

// ErrNotGGUF is returned (wrapped) for input that is not a GGUF v2/v3 file with a tokenizer, or
// whose header breaks a limit below.
var ErrNotGGUF = errors.New("vocab: not a GGUF file with a tokenizer")

// Limits that keep a hostile or corrupt header from costing more than its own bytes. A real GGUF's
// largest tokenizer has ~262k tokens, keys are at most 65535 bytes (the GGUF spec) and token texts
// are short; values this reader skips (merges, the chat template) are discarded as they stream.
const (
	ggufMagic       = 0x46554747 // "GGUF" read little-endian
	maxGGUFKeys     = 1 << 16
	maxGGUFKeyLen   = 1 << 16
	maxGGUFTokens   = 1 << 22
	maxGGUFTokenLen = 1 << 16
	maxGGUFSkip     = 1 << 30 // one skipped string or array, in bytes
	maxGGUFDepth    = 4       // arrays of arrays, skipped only
	maxSmallString  = 1 << 10 // tokenizer.ggml.model
	preallocTokens  = 1 << 12 // grown by append beyond this, so a lying count costs little
)

// GGUF metadata value types (gguf.h: enum gguf_type).
const (
	gUint8 = iota
	gInt8
	gUint16
	gInt16
	gUint32
	gInt32
	gFloat32
	gBool
	gString
	gArray
	gUint64
	gInt64
	gFloat64
)

// fixedSize is the byte size of a fixed-size value type, 0 for strings and arrays.
func fixedSize(t uint32) uint64 {
	switch t {
	case gUint8, gInt8, gBool:
		return 1
	case gUint16, gInt16:
		return 2
	case gUint32, gInt32, gFloat32:
		return 4
	case gUint64, gInt64, gFloat64:
		return 8
	}
	return 0
}

// FromGGUFFile reads the tokenizer of the GGUF model at path (metadata only; tensors are never
// read, so this costs the header's size whatever the model's).
func FromGGUFFile(path string) (*Vocab, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("vocab: %w", err)
	}
	defer f.Close()
	v, err := FromGGUF(f)
	if err != nil {
		return nil, fmt.Errorf("%w (%s)", err, path)
	}
	return v, nil
}

// FromGGUF reads a vocabulary from a GGUF v2/v3 stream's metadata: tokenizer.ggml.model, tokens,
// token_type, bos_token_id and eos_token_id, with the same rules as FromModelInfo (a missing BOS
// or EOS is -1). It stops after the last metadata key.
func FromGGUF(r io.Reader) (*Vocab, error) {
	g := &ggufReader{r: bufio.NewReaderSize(r, 1<<16)}
	if m := g.u32(); g.err == nil && m != ggufMagic {
		return nil, fmt.Errorf("%w: magic %#x", ErrNotGGUF, m)
	}
	if ver := g.u32(); g.err == nil && ver != 2 && ver != 3 {
		return nil, fmt.Errorf("%w: version %d (want 2 or 3)", ErrNotGGUF, ver)
	}
	g.u64() // tensor count: the tensors are not read
	nkv := g.u64()
	if g.err == nil && nkv > maxGGUFKeys {
		return nil, fmt.Errorf("%w: %d metadata keys", ErrNotGGUF, nkv)
	}
	var (
		model      string
		tokens     []string
		types      []int32
		bos, eos   = -1, -1
		haveTokens bool
		seen       = map[string]bool{}
	)
	for i := uint64(0); i < nkv && g.err == nil; i++ {
		key := g.str(maxGGUFKeyLen)
		typ := g.u32()
		if g.err != nil {
			break
		}
		if seen[key] {
			g.fail(fmt.Errorf("duplicate key %q", key))
			break
		}
		seen[key] = true
		switch key {
		case "tokenizer.ggml.model":
			if typ != gString {
				g.fail(fmt.Errorf("%s has type %d, not string", key, typ))
				break
			}
			model = g.str(maxSmallString)
		case "tokenizer.ggml.tokens":
			tokens, haveTokens = g.stringArray(typ, key), true
		case "tokenizer.ggml.token_type":
			types = g.intArray(typ, key)
		case "tokenizer.ggml.bos_token_id":
			bos = g.id(typ, key)
		case "tokenizer.ggml.eos_token_id":
			eos = g.id(typ, key)
		default:
			g.skip(typ, 0)
		}
	}
	if g.err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotGGUF, g.err)
	}
	if model == "" || !haveTokens {
		return nil, fmt.Errorf("%w: no tokenizer.ggml.model or tokenizer.ggml.tokens", ErrNotGGUF)
	}
	v, err := New(model, tokens, types, bos, eos)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotGGUF, err)
	}
	return v, nil
}

// ggufReader reads little-endian GGUF values and keeps the first error; after one, every read
// returns zeros, so a parse is a straight line with one check at the end.
type ggufReader struct {
	r   *bufio.Reader
	err error
	buf [8]byte
}

func (g *ggufReader) fail(err error) {
	if g.err == nil {
		g.err = err
	}
}

func (g *ggufReader) read(n int) []byte {
	b := g.buf[:n]
	if g.err != nil {
		clear(b)
		return b
	}
	if _, err := io.ReadFull(g.r, b); err != nil {
		g.fail(fmt.Errorf("truncated header: %w", err))
		clear(b)
	}
	return b
}

func (g *ggufReader) u32() uint32 { return binary.LittleEndian.Uint32(g.read(4)) }
func (g *ggufReader) u64() uint64 { return binary.LittleEndian.Uint64(g.read(8)) }

// str reads a string of at most limit bytes (every limit is small, so a length that lies costs
// at most one such allocation before the read fails).
func (g *ggufReader) str(limit uint64) string {
	n := g.u64()
	if g.err != nil {
		return ""
	}
	if n > limit {
		g.fail(fmt.Errorf("a string of %d bytes (limit %d)", n, limit))
		return ""
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(g.r, b); err != nil {
		g.fail(fmt.Errorf("truncated header: %w", err))
		return ""
	}
	return string(b)
}

// arrayHeader reads an array's element type and length after checking that the value is an
// array at all.
func (g *ggufReader) arrayHeader(typ uint32, key string, limit uint64) (uint32, uint64) {
	if typ != gArray {
		g.fail(fmt.Errorf("%s has type %d, not array", key, typ))
		return 0, 0
	}
	et, n := g.u32(), g.u64()
	if g.err == nil && n > limit {
		g.fail(fmt.Errorf("%s has %d elements (limit %d)", key, n, limit))
	}
	return et, n
}

func (g *ggufReader) stringArray(typ uint32, key string) []string {
	et, n := g.arrayHeader(typ, key, maxGGUFTokens)
	if g.err == nil && et != gString {
		g.fail(fmt.Errorf("%s holds type %d, not strings", key, et))
	}
	if g.err != nil {
		return nil
	}
	out := make([]string, 0, min(n, preallocTokens))
	for i := uint64(0); i < n && g.err == nil; i++ {
		out = append(out, g.str(maxGGUFTokenLen))
	}
	return out
}

func (g *ggufReader) intArray(typ uint32, key string) []int32 {
	et, n := g.arrayHeader(typ, key, maxGGUFTokens)
	if g.err != nil {
		return nil
	}
	if !isInt(et) {
		g.fail(fmt.Errorf("%s holds type %d, not integers", key, et))
		return nil
	}
	out := make([]int32, 0, min(n, preallocTokens))
	for i := uint64(0); i < n && g.err == nil; i++ {
		x, ok := g.int(et)
		if !ok || x < math.MinInt32 || x > math.MaxInt32 {
			g.fail(fmt.Errorf("%s[%d] is out of range", key, i))
		}
		out = append(out, int32(x))
	}
	return out
}

// id reads a token id; llama.cpp writes uint32, other writers int32.
func (g *ggufReader) id(typ uint32, key string) int {
	if !isInt(typ) {
		g.fail(fmt.Errorf("%s has type %d, not an integer", key, typ))
		return -1
	}
	x, ok := g.int(typ)
	if !ok || x < -1 || x > maxGGUFTokens {
		g.fail(fmt.Errorf("%s is out of range", key))
		return -1
	}
	return int(x)
}

func isInt(t uint32) bool {
	switch t {
	case gUint8, gInt8, gUint16, gInt16, gUint32, gInt32, gUint64, gInt64:
		return true
	}
	return false
}

// int reads an integer of type t as int64; false for a uint64 that does not fit.
func (g *ggufReader) int(t uint32) (int64, bool) {
	switch t {
	case gUint8:
		return int64(g.read(1)[0]), true
	case gInt8:
		return int64(int8(g.read(1)[0])), true
	case gUint16:
		return int64(binary.LittleEndian.Uint16(g.read(2))), true
	case gInt16:
		return int64(int16(binary.LittleEndian.Uint16(g.read(2)))), true
	case gUint32:
		return int64(g.u32()), true
	case gInt32:
		return int64(int32(g.u32())), true
	case gUint64:
		x := g.u64()
		return int64(x), x <= math.MaxInt64
	case gInt64:
		return int64(g.u64()), true
	}
	return 0, false
}

// skip discards one value of type t without keeping it.
func (g *ggufReader) skip(t uint32, depth int) {
	if g.err != nil {
		return
	}
	if sz := fixedSize(t); sz > 0 {
		g.discard(sz)
		return
	}
	switch t {
	case gString:
		n := g.u64()
		if g.err == nil && n > maxGGUFSkip {
			g.fail(fmt.Errorf("a string of %d bytes", n))
		}
		g.discard(n)
	case gArray:
		if depth >= maxGGUFDepth {
			g.fail(errors.New("arrays nested too deep"))
			return
		}
		et, n := g.u32(), g.u64()
		if g.err != nil {
			return
		}
		if sz := fixedSize(et); sz > 0 {
			if n > maxGGUFSkip/sz {
				g.fail(fmt.Errorf("an array of %d elements", n))
				return
			}
			g.discard(n * sz)
			return
		}
		if et != gString && et != gArray {
			g.fail(fmt.Errorf("unknown value type %d", et))
			return
		}
		if n > maxGGUFSkip {
			g.fail(fmt.Errorf("an array of %d elements", n))
			return
		}
		for i := uint64(0); i < n && g.err == nil; i++ {
			g.skip(et, depth+1)
		}
	default:
		g.fail(fmt.Errorf("unknown value type %d", t))
	}
}

func (g *ggufReader) discard(n uint64) {
	for n > 0 && g.err == nil {
		step := int(min(n, 1<<30))
		if m, err := g.r.Discard(step); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			g.fail(fmt.Errorf("truncated header: %w", err))
		} else {
			n -= uint64(m)
		}
	}
}
