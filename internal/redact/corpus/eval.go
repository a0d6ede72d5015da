package corpus

import (
	"context"
	"fmt"
	"io"
	"slices"
	"text/tabwriter"
)

// Found is one detection to score: a type and byte offsets into the item's text.
type Found struct {
	Type       string
	Start, End int
}

// Detector is what Evaluate measures (the redactor, behind a function so that this package
// does not depend on it).
type Detector func(ctx context.Context, text string) ([]Found, error)

// TypeScore is the result for one entity type.
type TypeScore struct {
	Type      string
	Gold      int // labelled values
	Predicted int // detections of this type
	TruePred  int // detections overlapping a labelled value of the same type
	Found     int // labelled values overlapped by a detection of the same type
	Covered   int // labelled values entirely inside some detection of any type (not leaked)
}

// Precision is TruePred/Predicted (1 when nothing was predicted).
func (s TypeScore) Precision() float64 { return ratio(s.TruePred, s.Predicted) }

// Recall is Found/Gold.
func (s TypeScore) Recall() float64 { return ratio(s.Found, s.Gold) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// Report is an evaluation over a corpus.
type Report struct {
	Items       int
	Types       []TypeScore
	DecoysHit   int // decoys overlapped by any detection (over-redaction)
	Decoys      int
	FullyCaught int // items whose every labelled value is covered
}

// Evaluate runs detect over every item and scores it per type.
func Evaluate(ctx context.Context, items []Item, detect Detector) (Report, error) {
	rep := Report{Items: len(items)}
	by := map[string]*TypeScore{}
	get := func(t string) *TypeScore {
		if by[t] == nil {
			by[t] = &TypeScore{Type: t}
		}
		return by[t]
	}
	overlap := func(aS, aE, bS, bE int) bool { return aS < bE && bS < aE }
	for _, it := range items {
		found, err := detect(ctx, it.Text)
		if err != nil {
			return rep, fmt.Errorf("corpus: evaluate %s: %w", it.ID, err)
		}
		all := true
		for _, g := range it.Entities {
			ts := get(g.Type)
			ts.Gold++
			hit, cov := false, false
			for _, f := range found {
				if f.Type == g.Type && overlap(f.Start, f.End, g.Start, g.End) {
					hit = true
				}
				if f.Start <= g.Start && g.End <= f.End {
					cov = true
				}
			}
			if hit {
				ts.Found++
			}
			if cov {
				ts.Covered++
			} else {
				all = false
			}
		}
		if all {
			rep.FullyCaught++
		}
		for _, f := range found {
			ts := get(f.Type)
			ts.Predicted++
			if slices.ContainsFunc(it.Entities, func(g Label) bool { return g.Type == f.Type && overlap(f.Start, f.End, g.Start, g.End) }) {
				ts.TruePred++
			}
		}
		for _, d := range it.Decoys {
			rep.Decoys++
			if slices.ContainsFunc(found, func(f Found) bool { return overlap(f.Start, f.End, d.Start, d.End) }) {
				rep.DecoysHit++
			}
		}
	}
	for _, ts := range by {
		rep.Types = append(rep.Types, *ts)
	}
	slices.SortFunc(rep.Types, func(a, b TypeScore) int {
		if a.Type < b.Type {
			return -1
		}
		return 1
	})
	return rep, nil
}

// Print writes the report as a table.
func (r Report) Print(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "type\tgold\tpredicted\tprecision\trecall\tcovered\t")
	for _, t := range r.Types {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.3f\t%.3f\t%.3f\t\n", t.Type, t.Gold, t.Predicted, t.Precision(), t.Recall(), ratio(t.Covered, t.Gold))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "items: %d, fully covered: %d (%.1f%%); decoys redacted: %d of %d\n",
		r.Items, r.FullyCaught, 100*ratio(r.FullyCaught, r.Items), r.DecoysHit, r.Decoys)
	return err
}
