package redact

import "strconv"

// Placeholders look like @@PERSON-1@@. Why this shape:
//   - ASCII only, and no character that Markdown rewrites or escapes (no brackets, asterisks,
//     underscores, backticks): models answering in Markdown copy it verbatim.
//   - The type tells the model what stood there, so it can still write fluent text ("@@PERSON-1@@
//     can sign the form") instead of guessing.
//   - It is closed at both ends, so it never runs into the text after it: "@@PERSON-1@@2" can
//     not be read as PERSON-12, whatever digits follow.
//   - "@@" almost never occurs in prose, and every "@@" a user types is itself vaulted as a
//     LITERAL on the way in, so that the only "@@" the model sees are ours.
// Rehydration tolerates what models do to it: any case, up to two spaces after the opening
// and before the closing "@@" and around the separator, and "_" instead of "-".

const (
	phDelim   = "@@"
	maxTypeLn = 24
	maxDigits = 6
	maxSpaces = 2
)

// phKey identifies a vault entry without allocating: the upper-cased type and its number.
type phKey struct {
	typ [maxTypeLn]byte
	n   int
}

func makeKey(typ string, n int) phKey {
	var k phKey
	copy(k.typ[:], typ)
	k.n = n
	return k
}

func placeholder(typ string, n int) string {
	return phDelim + typ + "-" + strconv.Itoa(n) + phDelim
}

// phParse is the result of reading a placeholder-shaped text at some position.
type phParse struct {
	status    int // phNone, phPartial (input ended while still in shape), phFull
	length    int // bytes consumed when phFull
	key       phKey
	typeLen   int
	typeEnd   bool // the type is complete (a separator was seen)
	digits    int  // number of digits read
	digitsEnd bool // the number is complete (something other than a digit followed)
}

const (
	phNone = iota
	phPartial
	phFull
)

// parsePlaceholder reads the tolerant placeholder grammar at s[0:]:
//
//	"@@" sp? TYPE sp? ("-"|"_") sp? DIGITS sp? "@@"      sp = up to two spaces
//
// It knows nothing about the vault; callers decide whether the key exists.
func parsePlaceholder(s string) phParse {
	var p phParse
	i := 0
	need := func(c byte) bool { // true if matched; sets partial if input ended
		if i >= len(s) {
			p.status = phPartial
			return false
		}
		if s[i] != c {
			return false
		}
		i++
		return true
	}
	spaces := func() bool { // false if input ended inside the spaces
		for k := 0; k < maxSpaces && i < len(s) && s[i] == ' '; k++ {
			i++
		}
		if i >= len(s) {
			p.status = phPartial
			return false
		}
		return true
	}
	if !need('@') || !need('@') || !spaces() {
		return p
	}
	for i < len(s) && p.typeLen < maxTypeLn {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z':
			c -= 'a' - 'A'
		case c >= 'A' && c <= 'Z', c >= '0' && c <= '9' && p.typeLen > 0:
		default:
			goto typeDone
		}
		p.key.typ[p.typeLen] = c
		p.typeLen++
		i++
	}
typeDone:
	if i >= len(s) {
		p.status = phPartial
		return p
	}
	if p.typeLen == 0 || !spaces() {
		return p
	}
	if s[i] != '-' && s[i] != '_' {
		return p
	}
	i++
	p.typeEnd = true
	if !spaces() {
		return p
	}
	if i < len(s) && s[i] == '0' {
		return p // numbers never start with 0; "@@PERSON-01@@" is not PERSON-1
	}
	for i < len(s) && s[i] >= '0' && s[i] <= '9' && p.digits < maxDigits {
		p.key.n = p.key.n*10 + int(s[i]-'0')
		p.digits++
		i++
	}
	if i >= len(s) {
		p.status = phPartial
		return p
	}
	p.digitsEnd = true
	if p.digits == 0 || !spaces() {
		return p
	}
	if !need('@') || !need('@') {
		return p
	}
	p.status = phFull
	p.length = i
	return p
}
