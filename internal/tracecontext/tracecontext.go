package tracecontext

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"
)

// Header is the HTTP header (and the wire field's meaning) that carries a Parent.
const Header = "traceparent"

// Parent is one traceparent: the trace it belongs to and the span that is its parent.
type Parent struct {
	TraceID  string // 32 lowercase hex digits, not all zero
	ParentID string // 16 lowercase hex digits, not all zero
	Sampled  bool
}

// Valid reports whether p is a well-formed, usable traceparent.
func (p Parent) Valid() bool {
	return isHex(p.TraceID, 32) && isHex(p.ParentID, 16) &&
		strings.Trim(p.TraceID, "0") != "" && strings.Trim(p.ParentID, "0") != ""
}

// String is the header value, version 00.
func (p Parent) String() string {
	flags := "00"
	if p.Sampled {
		flags = "01"
	}
	return "00-" + p.TraceID + "-" + p.ParentID + "-" + flags
}

// Parse reads a traceparent header value. Version 00 must be exactly 55 characters; a later
// version may append fields after the flags (they are ignored, as the spec says); version ff and
// anything malformed are refused.
func Parse(s string) (Parent, bool) {
	if len(s) < 55 || (len(s) > 55 && s[55] != '-') {
		return Parent{}, false
	}
	version := s[0:2]
	if !isHex(version, 2) || version == "ff" || (version == "00" && len(s) != 55) {
		return Parent{}, false
	}
	if s[2] != '-' || s[35] != '-' || s[52] != '-' {
		return Parent{}, false
	}
	flags := s[53:55]
	if !isHex(flags, 2) {
		return Parent{}, false
	}
	b, _ := hex.DecodeString(flags)
	p := Parent{TraceID: s[3:35], ParentID: s[36:52], Sampled: b[0]&1 == 1}
	if !p.Valid() {
		return Parent{}, false
	}
	return p, true
}

// New starts a trace: random ids, sampled.
func New() Parent {
	return Parent{TraceID: randomHex(16), ParentID: randomHex(8), Sampled: true}
}

// Child is the traceparent to send downstream: the same trace, a new parent (span) id.
func (p Parent) Child() Parent {
	p.ParentID = randomHex(8)
	return p
}

type key struct{}

// With returns ctx carrying p.
func With(ctx context.Context, p Parent) context.Context { return context.WithValue(ctx, key{}, p) }

// From returns the Parent ctx carries, if any.
func From(ctx context.Context) (Parent, bool) {
	p, ok := ctx.Value(key{}).(Parent)
	return p, ok && p.Valid()
}

func randomHex(n int) string {
	b := make([]byte, n)
	for {
		_, _ = rand.Read(b) // never fails on Linux (crypto/rand panics rather than return short)
		for _, c := range b {
			if c != 0 {
				return hex.EncodeToString(b)
			}
		}
	}
}

func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
