package ollamatest_test

import (
	"bytes"
	"context"
	"os/exec"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/sucursal/sucursal/internal/ollamatest"
	"github.com/sucursal/sucursal/internal/testmodel"
)

// BenchmarkStart measures start-to-ready of `ollama serve`; the baseline is running the same binary
// for `--version`, i.e. what process start alone costs.
func BenchmarkStart(b *testing.B) {
	bin, err := ollamatest.Binary()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("baseline=exec-version", func(b *testing.B) {
		for b.Loop() {
			if out, err := exec.Command(bin, "--version").CombinedOutput(); err != nil {
				b.Fatalf("%v: %s", err, out)
			}
		}
	})
	b.Run("serve-until-api-version", func(b *testing.B) {
		for b.Loop() {
			s := ollamatest.Start(b)
			s.Stop(b)
		}
	})
}

// BenchmarkCreateModel measures CreateModel (upload, create, first load) of the Alphabet model;
// the baseline is writing the same GGUF into memory.
func BenchmarkCreateModel(b *testing.B) {
	spec := testmodel.Alphabet()
	b.Run("baseline=write-gguf", func(b *testing.B) {
		var buf bytes.Buffer
		for b.Loop() {
			buf.Reset()
			if err := testmodel.Write(&buf, spec); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("create-and-load", func(b *testing.B) {
		s := ollamatest.Start(b)
		c := s.Client()
		for b.Loop() {
			s.CreateModel(b, "tiny", spec, testmodel.PromptTemplate)
			b.StopTimer()
			// Unload so that every iteration pays for the load again.
			_ = c.Generate(context.Background(), &api.GenerateRequest{Model: "tiny", KeepAlive: &api.Duration{}}, func(api.GenerateResponse) error { return nil })
			b.StartTimer()
		}
	})
}

// BenchmarkGenerate measures one 25-token greedy answer from the loaded Alphabet model; the
// baseline is the 1-token answer to "y", which isolates the per-request overhead.
func BenchmarkGenerate(b *testing.B) {
	s := ollamatest.Start(b)
	s.CreateModel(b, "tiny", testmodel.Alphabet(), testmodel.PromptTemplate)
	c := s.Client()
	for _, tc := range []struct {
		name, prompt string
		threads      int
	}{{"baseline=1-token", "y", 0}, {"25-tokens", "a", 0}, {"1-token/num_thread=2", "y", 2}, {"25-tokens/num_thread=2", "a", 2}} {
		b.Run(tc.name, func(b *testing.B) {
			opts := map[string]any{"temperature": 0}
			if tc.threads > 0 {
				opts["num_thread"] = tc.threads
			}
			for b.Loop() {
				err := c.Generate(context.Background(), &api.GenerateRequest{Model: "tiny", Prompt: tc.prompt, Options: opts},
					func(api.GenerateResponse) error { return nil })
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
