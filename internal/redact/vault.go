package redact

import (
	"hash/maphash"
	"strconv"
	"strings"
)

// vault maps values to placeholders for one session. Values are kept in one byte arena that
// wipe() overwrites (and that overwrites its old copy whenever it grows), and are indexed by a
// seeded hash rather than by string keys, so that no map key keeps a copy of a value alive
// after the session ends.
type vault struct {
	seed    maphash.Seed
	byHash  map[uint64]int // 1 + index of the last entry with that hash (see entry.sameHash)
	entries []entry
	arena   []byte // every entry's value, back to back
	byKey   map[phKey]int
	perType map[string]int
	types   map[string]bool // distinct types, for the streaming prefix test
	// reserved is the number of values the maps were last sized for.
	reserved int
}

type entry struct {
	value []byte // in arena, from off
	off   int
	typ   string
	n     int
	sent  bool // appeared in a Redact output
	seen  bool // came back in a rehydrated output
	// sameHash is 1 + the index of the previous entry whose value has the same hash, 0 if
	// none: collisions chain through the entries instead of a slice per hash.
	sameHash int
}

func newVault() *vault {
	return &vault{seed: maphash.MakeSeed(), byHash: map[uint64]int{}, byKey: map[phKey]int{},
		perType: map[string]int{}, types: map[string]bool{}}
}

// reserve sizes an empty vault for n values of at most size bytes in all, so that a long
// first message does not grow its maps and arena a dozen times.
func (v *vault) reserve(n, size int) {
	if len(v.entries) > 0 {
		return
	}
	if cap(v.arena) < size {
		v.arena = make([]byte, 0, size)
	}
	if n <= max(8, v.reserved) {
		return // small, or a recycled vault that was sized for as many
	}
	v.reserved = n
	v.byHash, v.byKey = make(map[uint64]int, n), make(map[phKey]int, n)
	v.entries = make([]entry, 0, n)
}

func (v *vault) lookup(value string) int {
	return v.lookupHash(value, maphash.String(v.seed, value))
}

func (v *vault) lookupHash(value string, h uint64) int {
	for i := v.byHash[h]; i > 0; i = v.entries[i-1].sameHash {
		if string(v.entries[i-1].value) == value {
			return i - 1
		}
	}
	return -1
}

// writePlaceholder writes the placeholder of value, adding value under typ if it is new.
// The same value always gets the same placeholder, whatever type a later detector gives it.
func (v *vault) writePlaceholder(b *strings.Builder, value, typ string) {
	h := maphash.String(v.seed, value)
	i := v.lookupHash(value, h)
	if i < 0 {
		i = v.add(value, typ, h)
	}
	e := &v.entries[i]
	e.sent = true
	var num [20]byte
	b.WriteString(phDelim)
	b.WriteString(e.typ)
	b.WriteByte('-')
	b.Write(strconv.AppendInt(num[:0], int64(e.n), 10))
	b.WriteString(phDelim)
}

func (v *vault) add(value, typ string, h uint64) int {
	if len(v.arena)+len(value) > cap(v.arena) {
		grown := make([]byte, len(v.arena), max(2*cap(v.arena), len(v.arena)+len(value), 256))
		copy(grown, v.arena)
		clear(v.arena) // the old copy must not outlive the session either
		v.arena = grown
		for k := range v.entries {
			e := &v.entries[k]
			e.value = v.arena[e.off : e.off+len(e.value) : e.off+len(e.value)]
		}
	}
	off := len(v.arena)
	v.arena = append(v.arena, value...)
	n := v.perType[typ] + 1
	v.perType[typ] = n
	i := len(v.entries)
	v.entries = append(v.entries, entry{value: v.arena[off:len(v.arena):len(v.arena)], off: off, typ: typ, n: n, sameHash: v.byHash[h]})
	v.byHash[h] = i + 1
	v.byKey[makeKey(typ, n)] = i
	if n == 1 {
		v.types[typ] = true // (set with the type's first value: perType and types are cleared together)
	}
	return i
}

// couldBecome reports whether a partial placeholder parse can still turn into a known one.
func (v *vault) couldBecome(p phParse) bool {
	if len(v.entries) == 0 {
		return false
	}
	if p.typeLen == 0 {
		return true
	}
	typ := p.key.typ[:p.typeLen]
	for t := range v.types {
		if !p.typeEnd {
			if len(t) >= len(typ) && t[:len(typ)] == string(typ) {
				return true
			}
			continue
		}
		if t != string(typ) {
			continue
		}
		if p.digits == 0 {
			return true
		}
		if p.digitsEnd {
			_, ok := v.byKey[p.key]
			return ok
		}
		for n := 1; n <= v.perType[t]; n++ {
			if s := strconv.Itoa(n); len(s) >= p.digits && atoi(s[:p.digits]) == p.key.n {
				return true
			}
		}
	}
	return false
}

// unique returns the entry a partial placeholder names unambiguously (type and number both
// complete), or -1.
func (v *vault) unique(p phParse) int {
	if !p.typeEnd || p.digits == 0 {
		return -1
	}
	if i, ok := v.byKey[p.key]; ok {
		return i
	}
	return -1
}

// wipe overwrites every value and empties the vault, keeping its storage for reuse.
func (v *vault) wipe() {
	clear(v.arena)
	clear(v.entries)
	v.entries, v.arena = v.entries[:0], v.arena[:0]
	clear(v.byHash)
	clear(v.byKey)
	clear(v.perType)
	clear(v.types)
}
