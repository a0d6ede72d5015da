package redact

import (
	"context"
	"strings"
	"testing"

	"github.com/sucursal/sucursal/internal/redact/corpus"
)

// realisticNamesFloor is what the default policy (rules only, no NER) must keep on the third dev
// round's name, address and non-name items (realistic-dev3-names.jsonl, written for the forms the
// spent held-out half showed missed) and on that half itself, now tuning data
// (realistic-dev2.jsonl): covered share per type, items fully covered, decoys redacted at most. A
// later change that loses one of these forms fails here. The fresh held-out set is never read.
// maxNameDecoys bounds the decoys a PERSON or ADDRESS span overlaps (companies, institutions,
// public figures, offices, codes read as names): this round's precision, apart from the other
// recognizers' decoys that maxDecoyHit counts too.
var realisticNamesFloor = map[string]struct {
	covered       map[string]float64
	fullyItems    int
	maxDecoyHit   int
	maxNameDecoys int
}{
	"realistic-dev3-names.jsonl": {
		covered:       map[string]float64{"PERSON": 0.98, "ADDRESS": 1, "DNI": 1, "NIE": 1, "DOB": 1, "EMAIL": 1, "PASSPORT": 1, "MRN": 1},
		fullyItems:    166,
		maxDecoyHit:   1,
		maxNameDecoys: 0,
	},
	"realistic-dev2.jsonl": {
		covered:       map[string]float64{"PERSON": 0.99, "ADDRESS": 1},
		fullyItems:    190,
		maxDecoyHit:   10,
		maxNameDecoys: 0,
	},
}

// TestRealisticNames scores the default policy on realistic-dev3-names.jsonl and
// realistic-dev2.jsonl and holds each to realisticNamesFloor. REDACT_DEV_VALUES=1 also logs the
// missed values and redacted decoys (invented data; for a developer's terminal).
func TestRealisticNames(t *testing.T) {
	r := newTestRedactor(t, DefaultConfig())
	for _, file := range []string{"realistic-dev3-names.jsonl", "realistic-dev2.jsonl"} {
		t.Run(strings.TrimSuffix(file, ".jsonl"), func(t *testing.T) {
			floor := realisticNamesFloor[file]
			items := loadItems(t, file)
			rep := evaluate(t, r, items)
			checkFloor(t, rep, floor.covered, floor.fullyItems, floor.maxDecoyHit)
			if n := nameDecoys(t, r, items); n > floor.maxNameDecoys {
				t.Errorf("decoys redacted as PERSON or ADDRESS: %d, want at most %d", n, floor.maxNameDecoys)
			}
		})
	}
}

// nameDecoys counts the decoys that a PERSON or ADDRESS span overlaps.
func nameDecoys(t *testing.T, r *Redactor, items []corpus.Item) int {
	n := 0
	for _, it := range items {
		spans, err := r.Detect(context.Background(), it.Text)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range it.Decoys {
			for _, sp := range spans {
				if (sp.Type == TypePerson || sp.Type == TypeAddress) && sp.Start < d.End && d.Start < sp.End {
					n++
					break
				}
			}
		}
	}
	return n
}

// TestRealisticNamesItems checks the third round's file as the generator promises: ids in
// rl-<lang>-<domain>-2001..2299, DNI letters by mod 23, and every text restored exactly from its
// redaction.
func TestRealisticNamesItems(t *testing.T) {
	items := loadItems(t, "realistic-dev3-names.jsonl")
	if len(items) < 168 {
		t.Fatalf("%d items, want at least 168", len(items))
	}
	r := newTestRedactor(t, DefaultConfig())
	for _, it := range items {
		parts := strings.Split(it.ID, "-")
		if len(parts) != 4 || parts[0] != "rl" || parts[1] != it.Lang || parts[2] != it.Domain || parts[3] < "2001" || parts[3] > "2299" {
			t.Errorf("%s: id not rl-<lang>-<domain>-2001..2299", it.ID)
		}
		for _, e := range it.Entities {
			if e.Type == "DNI" && !validDNIForTest(e.Value) {
				t.Errorf("%s: DNI with a wrong letter", it.ID)
			}
		}
		s := r.NewSession(0)
		out, err := s.Redact(context.Background(), it.Text)
		if err != nil {
			t.Fatal(err)
		}
		if s.Rehydrate(out) != it.Text {
			t.Errorf("%s: rehydrated text differs from the original", it.ID)
		}
		s.Close()
	}
}

func validDNIForTest(v string) bool {
	if len(v) != 9 {
		return false
	}
	n := 0
	for _, c := range v[:8] {
		if c < '0' || c > '9' {
			return false
		}
		n = n*10 + int(c-'0')
	}
	return "TRWAGMYFPDXBNJZSQVHLCKE"[n%23] == v[8]
}
