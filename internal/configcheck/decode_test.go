package configcheck

import (
	"strings"
	"testing"
	"time"
)

type inner struct {
	Name    string        `yaml:"name"`
	Timeout time.Duration `yaml:"timeout"`
}

type shared struct {
	Listen string `yaml:"listen"`
}

type config struct {
	shared   `yaml:",inline"`
	Items    []inner          `yaml:"items"`
	ByName   map[string]inner `yaml:"by_name"`
	Section  *inner           `yaml:"section"`
	Untagged int
	Skipped  string `yaml:"-"`
}

func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		want       []string // problems, as String() prints them; nil = none
	}{
		{"empty", "", nil},
		{"comments only", "# nothing\n", nil},
		{"inline and untagged keys", "listen: x\nuntagged: 3\n", nil},
		{"top level typo", "lsiten: x\n", []string{`line 1, column 1: unknown key: "lsiten" is not a key at the top level; did you mean "listen"?`}},
		{"typo in a list item", "items:\n  - name: a\n  - nmae: b\n",
			[]string{`line 3, column 5: unknown key: "nmae" is not a key in items[1]; did you mean "name"?`}},
		{"typo in a map value", "by_name:\n  a:\n    timeuot: 1s\n",
			[]string{`line 3, column 5: unknown key: "timeuot" is not a key in by_name.a; did you mean "timeout"?`}},
		{"nothing close: the known keys", "section:\n  colour: red\n",
			[]string{`line 2, column 3: unknown key: "colour" is not a key in section; known keys: name, timeout`}},
		{"a skipped field is unknown", "skipped: x\n", []string{`line 1, column 1: unknown key: "skipped"`}},
		{"type", "section:\n  timeout: soon\n", []string{"line 2: type: cannot unmarshal !!str `soon` into time.Duration"}},
		{"several at once, in order", "lsiten: x\nsection:\n  timeout: soon\n  nmae: y\n",
			[]string{`line 1, column 1: unknown key: "lsiten"`, "line 3: type:", `line 4, column 3: unknown key: "nmae"`}},
		{"syntax", "a: b\nc: d: e\n", []string{"line 2, column 4: syntax: mapping value is not allowed in this context"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c config
			ps := Decode([]byte(tc.yaml), &c)
			if len(ps) != len(tc.want) {
				t.Fatalf("got %d problems %v, want %d %q", len(ps), ps, len(tc.want), tc.want)
			}
			r := Report{File: "f"}
			r.Add(ps...)
			for i, w := range tc.want {
				if got := r.Problems[i].String(); !strings.HasPrefix(got, w) {
					t.Errorf("problem %d = %q, want prefix %q", i, got, w)
				}
			}
		})
	}
}

func TestClosest(t *testing.T) {
	keys := []string{"listen", "metrics_listen", "log_level", "idle_timeout", "pki"}
	for _, tc := range []struct{ in, want string }{
		{"lisen", "listen"},
		{"lsiten", "listen"},       // swapped neighbours: one edit
		{"log-level", "log_level"}, // '-' for '_'
		{"LOG_LEVEL", "log_level"}, // case
		{"metrics-listen", "metrics_listen"},
		{"pkk", "pki"},
		{"colour", ""}, // nothing near
		{"", ""},
	} {
		if got := Closest(tc.in, keys); got != tc.want {
			t.Errorf("Closest(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{"listen: x\n", "items:\n  - name: a\n", "a: [\n", "by_name: {a: {timeout: 1s}}\n", "\t- x"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var c config
		for _, p := range Decode(b, &c) {
			if p.Msg == "" || p.Line < 0 || p.Column < 0 {
				t.Fatalf("bad problem %+v", p)
			}
		}
	})
}
