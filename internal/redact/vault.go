package redact

import (
	"hash/maphash"
	"strconv"
)

// vault maps values to placeholders for one session. Values are kept as byte slices that
// wipe() overwrites, and are indexed by a seeded hash rather than by string keys, so that no
// map key keeps a copy of a value alive after the session ends.
type vault struct {
	seed    maphash.Seed
	byHash  map[uint64][]int
	entries []entry
	byKey   map[phKey]int
	perType map[string]int
	types   map[string]bool // distinct types, for the streaming prefix test
}

type entry struct {
	value []byte
	typ   string
	n     int
	ph    string // canonical placeholder
	sent  bool   // appeared in a Redact output
	seen  bool   // came back in a rehydrated output
}

func newVault() *vault {
	return &vault{seed: maphash.MakeSeed(), byHash: map[uint64][]int{}, byKey: map[phKey]int{},
		perType: map[string]int{}, types: map[string]bool{}}
}

func (v *vault) lookup(value string) int {
	for _, i := range v.byHash[maphash.String(v.seed, value)] {
		if string(v.entries[i].value) == value {
			return i
		}
	}
	return -1
}

// placeholderFor returns the placeholder of value, adding it under typ if it is new. The
// same value always gets the same placeholder, whatever type a later detector gives it.
func (v *vault) placeholderFor(value, typ string) string {
	if i := v.lookup(value); i >= 0 {
		v.entries[i].sent = true
		return v.entries[i].ph
	}
	v.perType[typ]++
	n := v.perType[typ]
	e := entry{value: []byte(value), typ: typ, n: n, ph: placeholder(typ, n), sent: true}
	i := len(v.entries)
	v.entries = append(v.entries, e)
	h := maphash.String(v.seed, value)
	v.byHash[h] = append(v.byHash[h], i)
	v.byKey[makeKey(typ, n)] = i
	v.types[typ] = true
	return e.ph
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

func (v *vault) wipe() {
	for i := range v.entries {
		clear(v.entries[i].value)
		v.entries[i].value = nil
	}
	v.entries = nil
	clear(v.byHash)
	clear(v.byKey)
}
