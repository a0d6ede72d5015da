package corpus

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Shape is the form of a value without the value: upper-case letters become A, lower-case a,
// digits 9, other characters are kept, and runs collapse — a run of digits or capitals keeps
// its length ("9{8}A", "A{3}9{6}"), a run of lower-case letters is one "a" ("Aa Aa" for a
// two-word name). Shapes say which forms a recognizer misses without saying what was missed.
func Shape(v string) string {
	var b strings.Builder
	prev, n := rune(0), 0
	flush := func() {
		if n == 0 {
			return
		}
		b.WriteRune(prev)
		if n > 1 && (prev == '9' || prev == 'A') {
			fmt.Fprintf(&b, "{%d}", n)
		}
	}
	for _, r := range v {
		c := r
		switch {
		case unicode.IsDigit(r):
			c = '9'
		case unicode.IsUpper(r):
			c = 'A'
		case unicode.IsLetter(r):
			c = 'a'
		case unicode.IsSpace(r):
			c = ' '
		}
		if c == prev {
			n++
			continue
		}
		flush()
		prev, n = c, 1
	}
	flush()
	return b.String()
}

// MissShape is one form of missed value and how many labelled values had it.
type MissShape struct {
	Shape string `json:"shape"`
	Count int    `json:"count"`
}

// topShapes returns the shapes of values, most common first (ties by shape), at most n.
func topShapes(values []string, n int) []MissShape {
	count := map[string]int{}
	for _, v := range values {
		count[Shape(v)]++
	}
	out := make([]MissShape, 0, len(count))
	for s, c := range count {
		out = append(out, MissShape{s, c})
	}
	slices.SortFunc(out, func(a, b MissShape) int {
		if a.Count != b.Count {
			return b.Count - a.Count
		}
		return strings.Compare(a.Shape, b.Shape)
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}

// shortValue keeps a value on one line for a terminal.
func shortValue(v string) string {
	v = strings.Join(strings.Fields(v), " ")
	if utf8.RuneCountInString(v) > 60 {
		v = string([]rune(v)[:57]) + "..."
	}
	return v
}
