package redact

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sucursal/sucursal/internal/redact/corpus"
)

func loadCorpus(t testing.TB) []corpus.Item { return loadItems(t, "corpus.jsonl") }

// loadItems reads a labelled file from testdata/redact: corpus.jsonl (generated) or
// handwritten.jsonl (30 prompts written by hand in phrasings the generator never makes).
func loadItems(t testing.TB, name string) []corpus.Item {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", "redact", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	items, err := corpus.ReadJSONL(f)
	if err != nil {
		t.Fatal(err)
	}
	return items
}

func newTestRedactor(t testing.TB, cfg Config) *Redactor {
	t.Helper()
	r, err := New(cfg, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestAuditCorpus is the library-level egress audit: every corpus prompt, redacted, holds no
// labelled value in any form; rehydrated (whole and streamed in small chunks), it is the
// original exactly.
func TestAuditCorpus(t *testing.T) {
	r := newTestRedactor(t, DefaultConfig())
	items := append(loadCorpus(t), loadItems(t, "handwritten.jsonl")...)
	leaks := 0
	for _, it := range items {
		out, _ := checkRestores(t, r, it)
		for _, l := range corpus.Leaks(out, it) {
			leaks++
			t.Errorf("%s", l)
		}
	}
	t.Logf("%d items, %d leaks", len(items), leaks)
}

func TestEvaluateCorpus(t *testing.T) {
	r := newTestRedactor(t, DefaultConfig())
	rep, err := corpus.Evaluate(context.Background(), loadCorpus(t), func(ctx context.Context, text string) ([]corpus.Found, error) {
		spans, err := r.Detect(ctx, text)
		out := make([]corpus.Found, len(spans))
		for i, s := range spans {
			out[i] = corpus.Found{Type: s.Type, Start: s.Start, End: s.End}
		}
		return out, err
	})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	_ = rep.Print(&b)
	t.Log("\n" + b.String())
	if rep.FullyCaught != rep.Items {
		t.Errorf("%d of %d items have a labelled value not covered by any detection", rep.Items-rep.FullyCaught, rep.Items)
	}
}

// loadDevItems loads a round's dev file and checks what every such file promises: at least
// minItems items, ids rl-<lang>-<domain>-N with the item's own lang and domain and N in lo…hi,
// none repeated.
func loadDevItems(t *testing.T, name string, lo, hi, minItems int) []corpus.Item {
	t.Helper()
	items := loadItems(t, name)
	if len(items) < minItems {
		t.Fatalf("%s: %d items, want at least %d", name, len(items), minItems)
	}
	seen := map[string]bool{}
	for _, it := range items {
		k := strings.LastIndexByte(it.ID, '-')
		n, err := strconv.Atoi(it.ID[k+1:])
		if err != nil || n < lo || n > hi || !strings.HasPrefix(it.ID, "rl-"+it.Lang+"-"+it.Domain+"-") {
			t.Errorf("%s: id out of %d…%d or not rl-<lang>-<domain>-N", it.ID, lo, hi)
		}
		if seen[it.ID] {
			t.Errorf("%s: duplicate id", it.ID)
		}
		seen[it.ID] = true
	}
	return items
}
