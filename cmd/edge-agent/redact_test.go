package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runRedactCmd(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	cmd := newRedactCmd()
	var out bytes.Buffer
	cmd.SetIn(strings.NewReader(stdin))
	cmd.SetOut(&out)
	cmd.SetArgs(args)
	if err := cmd.ExecuteContext(context.Background()); err != nil {
		t.Fatalf("edge-agent redact %v: %v", args, err)
	}
	return out.String()
}

func TestRedactCommand(t *testing.T) {
	in := "Sr. Juan Pérez, DNI 12345678Z\nJuan Pérez llama del 600 123 456\n"
	out := runRedactCmd(t, in, "--lines")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("want one JSON line per input line, got %q", out)
	}
	var first, second redactedLine
	if json.Unmarshal([]byte(lines[0]), &first) != nil || json.Unmarshal([]byte(lines[1]), &second) != nil {
		t.Fatalf("output is not JSON lines: %q", out)
	}
	if first.Redacted != "Sr. @@PERSON-1@@, DNI @@DNI-1@@" || !strings.HasPrefix(second.Redacted, "@@PERSON-1@@ llama del @@PHONE-1@@") {
		t.Errorf("redacted = %q / %q", first.Redacted, second.Redacted)
	}
	if strings.Contains(out, "12345678Z") || strings.Contains(out, "Juan") {
		t.Errorf("values printed without --show-values: %s", out)
	}
	if len(first.Entities) != 2 || first.Entities[1].Placeholder != "@@DNI-1@@" || first.Entities[1].Start != strings.Index(in, "12345678Z") {
		t.Errorf("entities = %+v", first.Entities)
	}
	if shown := runRedactCmd(t, "DNI 12345678Z", "--show-values"); !strings.Contains(shown, `"text":"12345678Z"`) {
		t.Errorf("--show-values did not print the value: %s", shown)
	}
}

func TestRedactEvalCommand(t *testing.T) {
	out := runRedactCmd(t, "", "--eval", filepath.Join("..", "..", "testdata", "redact", "corpus.jsonl"))
	for _, want := range []string{"precision", "recall", "PERSON", "IBAN", "DNI", "items: 240", "missed (not covered), most common shapes:"} {
		if !strings.Contains(out, want) {
			t.Errorf("eval output lacks %q:\n%s", want, out)
		}
	}
}

// TestRedactEvalMissForms: on a corpus with a value the policy misses, --eval names its form
// (shape) but not the value, unless --show-values; -o json carries the same shapes.
func TestRedactEvalMissForms(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.jsonl")
	// "Zq7" is no name the rules know; the DNI is caught.
	line := `{"id":"x-1","lang":"es","domain":"bank","text":"El usuario Zq7 tiene DNI 12345678Z.","entities":[` +
		`{"type":"PERSON","value":"Zq7","start":11,"end":14},{"type":"DNI","value":"12345678Z","start":25,"end":34}]}` + "\n"
	if err := os.WriteFile(path, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	out := runRedactCmd(t, "", "--eval", path)
	for _, want := range []string{"PERSON", "1× Aa9", "items: 1, fully covered: 0"} {
		if !strings.Contains(out, want) {
			t.Errorf("eval output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Zq7") {
		t.Errorf("a missed value printed without --show-values:\n%s", out)
	}
	if shown := runRedactCmd(t, "", "--eval", path, "--show-values"); !strings.Contains(shown, `"Zq7"`) {
		t.Errorf("--show-values did not print the missed value:\n%s", shown)
	}
	var rep struct {
		Items int `json:"items"`
		Types []struct {
			Type       string `json:"type"`
			Missed     int    `json:"missed"`
			MissShapes []struct {
				Shape string `json:"shape"`
				Count int    `json:"count"`
			} `json:"miss_shapes"`
		} `json:"types"`
	}
	js := runRedactCmd(t, "", "--eval", path, "-o", "json")
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatalf("-o json: %v\n%s", err, js)
	}
	found := false
	for _, ty := range rep.Types {
		if ty.Type == "PERSON" && ty.Missed == 1 && len(ty.MissShapes) == 1 && ty.MissShapes[0].Shape == "Aa9" {
			found = true
		}
	}
	if rep.Items != 1 || !found || strings.Contains(js, "Zq7") {
		t.Errorf("-o json = %s", js)
	}
}
