package redact

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sucursal/sucursal/internal/redact/corpus"
)

// realisticDevFloor is what the default policy (rules only, no NER) must keep on the dev half
// of the realistic corpus (issue #13): covered share per type, items fully covered, decoys
// redacted at most. The held-out half is never read here (testdata/redact/REALISTIC.md).
var realisticDevFloor = struct {
	covered     map[string]float64
	fullyItems  int
	maxDecoyHit int
}{
	covered: map[string]float64{
		"PERSON": 0.995, "ADDRESS": 1, "DOB": 1, "EMAIL": 1, "MRN": 1, "PASSPORT": 1, "DNI": 1, "NIE": 1,
		"NSS": 1, "IBAN": 1, "CCC": 1, "CARD": 1, "CARD_EXP": 1, "CVV": 1, "PHONE": 1, "PLATE": 1, "IP": 1,
	},
	fullyItems:  292,
	maxDecoyHit: 5,
}

func evaluate(t testing.TB, r *Redactor, items []corpus.Item) corpus.Report {
	t.Helper()
	rep, err := corpus.Evaluate(context.Background(), items, func(ctx context.Context, text string) ([]corpus.Found, error) {
		spans, err := r.Detect(ctx, text)
		out := make([]corpus.Found, len(spans))
		for i, s := range spans {
			out[i] = corpus.Found{Type: LabelType(s.Type), Start: s.Start, End: s.End}
		}
		return out, err
	})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestRealisticDev scores the default policy on realistic-dev.jsonl and holds it to
// realisticDevFloor. REDACT_DEV_VALUES=1 also logs the missed values and redacted decoys (the
// corpus is invented data; for a developer's terminal).
func TestRealisticDev(t *testing.T) {
	r := newTestRedactor(t, DefaultConfig())
	rep := evaluate(t, r, loadItems(t, "realistic-dev.jsonl"))
	checkFloor(t, rep, realisticDevFloor.covered, realisticDevFloor.fullyItems, realisticDevFloor.maxDecoyHit)
}

// checkRestores redacts it.Text in a new session of r and checks that the text comes back exactly
// from its redaction, whole and streamed in 3-byte chunks (the issue's "answers restored
// exactly"). It returns the redacted text and in how many of the two ways it did not.
func checkRestores(t *testing.T, r *Redactor, it corpus.Item) (string, int) {
	t.Helper()
	s := r.NewSession(0)
	defer s.Close()
	out, err := s.Redact(context.Background(), it.Text)
	if err != nil {
		t.Fatalf("%s: %v", it.ID, err)
	}
	bad := 0
	if back := s.Rehydrate(out); back != it.Text {
		bad++
		t.Errorf("%s: rehydrated text differs from the original", it.ID)
	}
	st := s.NewStream()
	var b strings.Builder
	for i := 0; i < len(out); i += 3 {
		b.WriteString(st.Write(out[i:min(i+3, len(out))]))
	}
	b.WriteString(st.Flush())
	if b.String() != it.Text {
		bad++
		t.Errorf("%s: streamed rehydration differs from the original", it.ID)
	}
	return out, bad
}

// checkFloor logs rep (REDACT_DEV_VALUES=1: with the missed values and redacted decoys, invented
// data, for a developer's terminal) and holds it to a floor: the covered share per type, the
// items fully covered, the decoys redacted.
func checkFloor(t *testing.T, rep corpus.Report, covered map[string]float64, fullyItems, maxDecoyHit int) {
	t.Helper()
	var b strings.Builder
	_ = rep.Print(&b)
	_ = rep.PrintMisses(&b, os.Getenv("REDACT_DEV_VALUES") == "1")
	t.Log("\n" + b.String())
	for _, ts := range rep.Types {
		if want, ok := covered[ts.Type]; ok && float64(ts.Covered) < want*float64(ts.Gold) {
			t.Errorf("%s: covered %d of %d, want at least %.3f", ts.Type, ts.Covered, ts.Gold, want)
		}
	}
	if rep.FullyCaught < fullyItems {
		t.Errorf("items fully covered: %d, want at least %d", rep.FullyCaught, fullyItems)
	}
	if rep.DecoysHit > maxDecoyHit {
		t.Errorf("decoys redacted: %d, want at most %d", rep.DecoysHit, maxDecoyHit)
	}
}

// TestRealisticDevRoundTrip: every realistic text in the tree redacted with the default policy, comes back exactly from
// its redaction, whole and streamed in 3-byte chunks (the "answers restored exactly"),
// and no placeholder is left in what comes back.
func TestRealisticDevRoundTrip(t *testing.T) {
	r := newTestRedactor(t, DefaultConfig())
	var items []corpus.Item
	// Every realistic dev file, by pattern: a list by hand had lost six files in a merge.
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "redact", "realistic-dev*.jsonl"))
	if err != nil || len(files) < 20 {
		t.Fatalf("realistic dev files: %v (%d found)", err, len(files))
	}
	for _, path := range files {
		f := filepath.Base(path)
		items = append(items, loadItems(t, f)...)
	}
	bad := 0
	for _, it := range items {
		_, n := checkRestores(t, r, it)
		bad += n
	}
	t.Logf("%d realistic items, %d not restored exactly", len(items), bad)
}
