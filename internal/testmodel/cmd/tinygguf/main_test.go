package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sucursal/sucursal/internal/testmodel"
)

func TestRun(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name     string
		args     []string
		spec     testmodel.Spec
		template string
	}{
		{"alphabet", nil, testmodel.Alphabet(), testmodel.PromptTemplate},
		{"sentence", []string{"-kind", "sentence", "-trigger", "Hi", "-text", "good morning"}, testmodel.Sentence("Hi", "good", "morning"), testmodel.PromptTemplate},
		{"fixed", []string{"-kind", "fixed", "-marker", "#", "-text", `unsafe\nS2`}, testmodel.FixedOutput("#", "unsafe\nS2"), testmodel.FixedOutputTemplate("#")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".gguf")
			var out bytes.Buffer
			if err := run(append([]string{"-o", path}, tc.args...), &out); err != nil {
				t.Fatal(err)
			}
			if want := testmodel.Modelfile(path, tc.template); out.String() != want {
				t.Errorf("printed %q, want %q", out.String(), want)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			if err := testmodel.Write(&want, tc.spec); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want.Bytes()) {
				t.Error("written model differs from the spec's")
			}
		})
	}
	for _, args := range [][]string{{"-kind", "nope"}, {"-kind", "sentence"}, {"-kind", "fixed"}} {
		err := run(append([]string{"-o", filepath.Join(dir, "x.gguf")}, args...), &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), "-kind") {
			t.Errorf("run(%q) = %v, want an error naming -kind", args, err)
		}
	}
}
