package main

import (
	"bytes"
	"context"
	"encoding/json"
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
	for _, want := range []string{"precision", "recall", "PERSON", "IBAN", "DNI", "items: 240"} {
		if !strings.Contains(out, want) {
			t.Errorf("eval output lacks %q:\n%s", want, out)
		}
	}
}
