package testmodel

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// ErrNotGGUF is returned (wrapped) by ReadHeader for input that is not a GGUF v2/v3 header.
var ErrNotGGUF = errors.New("testmodel: not a GGUF file")

// Limits that keep a hostile header from making ReadHeader allocate without bound.
const (
	maxStringLen = 1 << 20
	maxArrayLen  = 1 << 20
	maxCount     = 1 << 16
	maxDims      = 4
)

// Header is what ReadHeader found before the tensor data.
type Header struct {
	Version  uint32
	Metadata map[string]any // uint8…int64, float32/64, bool, string, or []any for arrays
	Tensors  []TensorInfo
	// DataOffset is where the tensor data starts in the file (aligned).
	DataOffset int64
}

// TensorInfo describes one tensor; Offset is relative to Header.DataOffset.
type TensorInfo struct {
	Name   string
	Dims   []uint64
	Type   uint32
	Offset uint64
}

// ReadHeader parses a GGUF header: metadata and tensor infos. Tests use it to check what Write made;
// it is strict (unknown value types, oversized strings or arrays are errors).
func ReadHeader(r io.Reader) (*Header, error) {
	rd := &reader{r: bufio.NewReader(r)}
	if magic := rd.u32(); rd.err == nil && magic != ggufMagic {
		return nil, fmt.Errorf("%w: magic %#x", ErrNotGGUF, magic)
	}
	h := &Header{Version: rd.u32(), Metadata: map[string]any{}}
	if rd.err == nil && h.Version != 2 && h.Version != 3 {
		return nil, fmt.Errorf("%w: version %d", ErrNotGGUF, h.Version)
	}
	nt, nkv := rd.u64(), rd.u64()
	if rd.err == nil && (nt > maxCount || nkv > maxCount) {
		return nil, fmt.Errorf("%w: %d tensors, %d keys", ErrNotGGUF, nt, nkv)
	}
	for i := uint64(0); i < nkv && rd.err == nil; i++ {
		k := rd.str()
		h.Metadata[k] = rd.value(rd.u32(), true)
	}
	for i := uint64(0); i < nt && rd.err == nil; i++ {
		t := TensorInfo{Name: rd.str()}
		nd := rd.u32()
		if nd > maxDims {
			rd.fail(fmt.Errorf("tensor %q has %d dims", t.Name, nd))
		}
		for j := uint32(0); j < nd && rd.err == nil; j++ {
			t.Dims = append(t.Dims, rd.u64())
		}
		t.Type, t.Offset = rd.u32(), rd.u64()
		h.Tensors = append(h.Tensors, t)
	}
	if rd.err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotGGUF, rd.err)
	}
	align := uint64(32)
	if a, ok := h.Metadata["general.alignment"].(uint32); ok && a > 0 {
		align = uint64(a)
	}
	h.DataOffset = int64(alignUp(rd.n, align))
	return h, nil
}

// Fingerprint returns the tokenizer fingerprint recorded in the header's metadata.
func (h *Header) Fingerprint() (Fingerprint, error) {
	model, _ := h.Metadata["tokenizer.ggml.model"].(string)
	bos, okB := h.Metadata["tokenizer.ggml.bos_token_id"].(uint32)
	eos, okE := h.Metadata["tokenizer.ggml.eos_token_id"].(uint32)
	raw, okT := h.Metadata["tokenizer.ggml.tokens"].([]any)
	if model == "" || !okB || !okE || !okT {
		return Fingerprint{}, fmt.Errorf("%w: no tokenizer metadata", ErrNotGGUF)
	}
	tokens := make([]string, len(raw))
	for i, t := range raw {
		s, ok := t.(string)
		if !ok {
			return Fingerprint{}, fmt.Errorf("%w: token %d is %T", ErrNotGGUF, i, t)
		}
		tokens[i] = s
	}
	return fingerprint(model, int(bos), int(eos), tokens), nil
}

type reader struct {
	r   *bufio.Reader
	n   uint64
	err error
	buf [8]byte
}

func (r *reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

func (r *reader) read(n int) []byte {
	if r.err != nil {
		return r.buf[:n]
	}
	if _, err := io.ReadFull(r.r, r.buf[:n]); err != nil {
		r.fail(err)
	}
	r.n += uint64(n)
	return r.buf[:n]
}

func (r *reader) u32() uint32 { return binary.LittleEndian.Uint32(r.read(4)) }
func (r *reader) u64() uint64 { return binary.LittleEndian.Uint64(r.read(8)) }

func (r *reader) str() string {
	n := r.u64()
	if r.err != nil {
		return ""
	}
	if n > maxStringLen {
		r.fail(fmt.Errorf("string of %d bytes", n))
		return ""
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r.r, b); err != nil {
		r.fail(err)
	}
	r.n += n
	return string(b)
}

func (r *reader) value(typ uint32, arrayOK bool) any {
	switch typ {
	case gUint8:
		return r.read(1)[0]
	case gInt8:
		return int8(r.read(1)[0])
	case gUint16:
		return binary.LittleEndian.Uint16(r.read(2))
	case gInt16:
		return int16(binary.LittleEndian.Uint16(r.read(2)))
	case gUint32:
		return r.u32()
	case gInt32:
		return int32(r.u32())
	case gFloat32:
		return math.Float32frombits(r.u32())
	case gBool:
		return r.read(1)[0] != 0
	case gString:
		return r.str()
	case gUint64:
		return r.u64()
	case gInt64:
		return int64(r.u64())
	case gFloat64:
		return math.Float64frombits(r.u64())
	case gArray:
		if !arrayOK {
			r.fail(errors.New("nested array"))
			return nil
		}
		et, n := r.u32(), r.u64()
		if n > maxArrayLen {
			r.fail(fmt.Errorf("array of %d elements", n))
			return nil
		}
		var out []any
		for i := uint64(0); i < n && r.err == nil; i++ {
			out = append(out, r.value(et, false))
		}
		return out
	}
	r.fail(fmt.Errorf("unknown value type %d", typ))
	return nil
}
