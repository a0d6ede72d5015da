package chat

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// allowListRows lists every allow-listed field path with its rule, as docs/REDACTION.md shows it.
func allowListRows() []string {
	var rows []string
	var walk func(rt reflect.Type, prefix string)
	walk = func(rt reflect.Type, prefix string) {
		si := infoOf(rt)
		for _, f := range si.fields {
			ft := rt.Field(f.index).Type
			path := prefix + f.name
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Slice && ft != reflect.TypeFor[LogitBias]() {
				path += "[]"
				ft = ft.Elem()
			}
			rule := rt.Field(f.index).Tag.Get("egress")
			rule, _, _ = strings.Cut(rule, ";")
			switch {
			case ft == reflect.TypeFor[Content]():
				rows = append(rows, fmt.Sprintf("| `%s` | content: a string (text) or an array of parts |", path))
				walk(reflect.TypeFor[Part](), path+"[].")
				continue
			case ft == reflect.TypeFor[Stop]():
				rule = "text (a string or up to 4)"
			case ft == reflect.TypeFor[LogitBias]():
				rule = "token id → num:-100,100"
			case ft.Kind() == reflect.Struct && ft != reflect.TypeFor[JSON]():
				walk(ft, path+".")
				continue
			}
			rows = append(rows, fmt.Sprintf("| `%s` | %s |", path, strings.ReplaceAll(rule, "|", "\\|")))
		}
	}
	walk(reflect.TypeFor[Request](), "")
	return rows
}

// TestAllowListDocumented: docs/REDACTION.md lists every allow-listed field with its rule, so
// an auditor reads the boundary the code enforces.
func TestAllowListDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "REDACTION.md"))
	if err != nil {
		t.Fatal(err)
	}
	var missing []string
	for _, row := range allowListRows() {
		if !strings.Contains(string(doc), row) {
			missing = append(missing, row)
		}
	}
	if len(missing) > 0 {
		t.Errorf("docs/REDACTION.md does not list %d allow-listed field(s) with their rule; the table rows are:\n%s",
			len(missing), strings.Join(allowListRows(), "\n"))
	}
}
