package jsonlit

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzUnquote: Unquote agrees with encoding/json on every literal encoding/json accepts.
func FuzzUnquote(f *testing.F) {
	for _, s := range []string{`"a"`, `"caf\u00e9"`, `"\ud83d\ude00"`, `"\ud800x"`, `"a\nb\"c\\d\/"`, "\"\xff\"", `"é"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, lit string) {
		lit = strings.TrimRight(lit, " \t\r\n")
		var want string
		err := json.Unmarshal([]byte(lit), &want)
		end, _ := End(lit, 0)
		if len(lit) == 0 || lit[0] != '"' {
			return
		}
		got, ok := Unquote(lit)
		if err == nil {
			if end != len(lit) || !ok || got != want {
				t.Fatalf("%q: got %q (end %d ok %v), encoding/json %q", lit, got, end, ok, want)
			}
		} else if end == len(lit) && ok {
			t.Fatalf("%q: accepted what encoding/json refuses (%v)", lit, err)
		}
	})
}
