package configcheck

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	goccy "github.com/goccy/go-yaml"
	goccyparser "github.com/goccy/go-yaml/parser"
	"go.yaml.in/yaml/v3"
)

// Decode reads data strictly into out (a pointer to a struct with yaml tags, holding the
// defaults), as the binaries read their files, and returns every syntax, unknown-key and type
// problem. An empty file is no problem. After a syntax error out is left as it was.
func Decode(data []byte, out any) []Problem {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return []Problem{syntaxProblem(data, err)}
	}
	var ps []Problem
	unknown := map[string]bool{} // "line:key" already reported with a suggestion
	if len(root.Content) > 0 {
		walk(root.Content[0], reflect.TypeOf(out).Elem(), "", func(p Problem, key string) {
			unknown[strconv.Itoa(p.Line)+":"+key] = true
			ps = append(ps, p)
		})
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	err := dec.Decode(out)
	var te *yaml.TypeError
	switch {
	case err == nil, errors.Is(err, io.EOF):
	case errors.As(err, &te):
		for _, m := range te.Errors {
			if g := unknownField.FindStringSubmatch(m); g != nil && unknown[g[1]+":"+g[2]] {
				continue
			}
			ps = append(ps, typeProblem(m))
		}
	default:
		ps = append(ps, typeProblem(strings.TrimPrefix(err.Error(), "yaml: ")))
	}
	return ps
}

var (
	unknownField = regexp.MustCompile(`^line (\d+): field (\S+) not found in type \S+$`)
	atLine       = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)
)

func typeProblem(m string) Problem {
	if g := atLine.FindStringSubmatch(m); g != nil {
		n, _ := strconv.Atoi(g[1])
		return Problem{Line: n, Kind: KindType, Msg: g[2]}
	}
	return Problem{Kind: KindType, Msg: m}
}

// syntaxProblem places a YAML syntax error. The decoder (go.yaml.in/yaml/v3) names a line only,
// and not always the right one (its parser counts some lines from 0); goccy/go-yaml's parser,
// asked the same question, names the line and column of the token at fault and says what it
// expected there. Its answer is used when it agrees the file is broken; otherwise the decoder's.
func syntaxProblem(data []byte, err error) Problem {
	p := typeProblem(strings.TrimPrefix(err.Error(), "yaml: "))
	p.Kind = KindSyntax
	_, perr := goccyparser.ParseBytes(data, 0)
	var se *goccy.SyntaxError
	if errors.As(perr, &se) && se.Token != nil && se.Token.Position != nil {
		p.Line, p.Column, p.Msg = se.Token.Position.Line, se.Token.Position.Column, se.Message
	}
	return p
}

// walk compares a YAML node with the Go type it is decoded into and reports every mapping key
// the type does not define, with the closest key it does. Types that decode themselves
// (yaml.Unmarshaler) are left to the decoder, which reports their unknown keys by line.
func walk(n *yaml.Node, t reflect.Type, section string, report func(Problem, string)) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if n.Kind == yaml.AliasNode || reflect.PointerTo(t).Implements(unmarshaler) {
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return // the decoder reports the type
		}
		fields := map[string]reflect.Type{}
		structKeys(t, fields)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			ft, ok := fields[k.Value]
			if !ok {
				report(Problem{Line: k.Line, Column: k.Column, Kind: KindUnknown, Msg: unknownMsg(k.Value, section, fields)}, k.Value)
				continue
			}
			walk(v, ft, join(section, k.Value), report)
		}
	case reflect.Slice, reflect.Array:
		if n.Kind == yaml.SequenceNode {
			for i, item := range n.Content {
				walk(item, t.Elem(), fmt.Sprintf("%s[%d]", section, i), report)
			}
		}
	case reflect.Map:
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				walk(n.Content[i+1], t.Elem(), join(section, n.Content[i].Value), report)
			}
		}
	}
}

var unmarshaler = reflect.TypeOf((*yaml.Unmarshaler)(nil)).Elem()

// structKeys lists the YAML keys of t as the decoder sees them: the tag's name or the lowercased
// field name, inline structs flattened, "-" and unexported fields left out.
func structKeys(t reflect.Type, into map[string]reflect.Type) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() && !f.Anonymous {
			continue
		}
		tag := f.Tag.Get("yaml")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if strings.Contains(","+opts+",", ",inline,") {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				structKeys(ft, into)
			}
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		into[name] = f.Type
	}
}

func join(section, key string) string {
	if section == "" {
		return key
	}
	return section + "." + key
}

func unknownMsg(key, section string, fields map[string]reflect.Type) string {
	where := "at the top level"
	if section != "" {
		where = "in " + section
	}
	msg := fmt.Sprintf("%q is not a key %s", key, where)
	if s := Closest(key, keys(fields)); s != "" {
		return msg + fmt.Sprintf("; did you mean %q?", s)
	}
	if len(fields) <= 12 {
		return msg + "; known keys: " + strings.Join(keys(fields), ", ")
	}
	return msg
}

func keys(m map[string]reflect.Type) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Closest is the candidate nearest to s in edit distance (case and '-'/'_' folded), or "" when
// none is near enough to be a typo of it: at most a third of its length, and at least 2, away.
func Closest(s string, candidates []string) string {
	norm := func(x string) string { return strings.ReplaceAll(strings.ToLower(x), "-", "_") }
	best, bestD := "", -1
	for _, c := range candidates {
		d := distance(norm(s), norm(c))
		if bestD < 0 || d < bestD || d == bestD && c < best {
			best, bestD = c, d
		}
	}
	if bestD < 0 || bestD > max(2, len(s)/3) {
		return ""
	}
	return best
}

// distance is the Damerau-Levenshtein distance (optimal string alignment): swapped neighbours
// cost one edit, the commonest typo.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
