package corpus

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
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
	// Missed holds the labelled values not covered (leaked), for MissShapes and an operator's
	// --show-values; Print never writes them.
	Missed []string `json:"-"`
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
	// DecoyHits holds the decoys that a detection overlapped, by decoy type (values: see Missed).
	DecoyHits map[string][]string
}

// placeholderTypes maps the type names a detector may report in placeholder spelling (letters and
// digits only) to the corpora's label for them, so that a detector passing redact's span types
// straight through is scored against the right labels.
var placeholderTypes = map[string]string{"CARDEXP": "CARD_EXP"}

// Evaluate runs detect over every item and scores it per type. A detection's type in placeholder
// spelling (CARDEXP) is read as its label (CARD_EXP).
func Evaluate(ctx context.Context, items []Item, detect Detector) (Report, error) {
	rep := Report{Items: len(items), DecoyHits: map[string][]string{}}
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
		for i := range found {
			if l, ok := placeholderTypes[found[i].Type]; ok {
				found[i].Type = l
			}
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
				ts.Missed = append(ts.Missed, g.Value)
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
				rep.DecoyHits[d.Type] = append(rep.DecoyHits[d.Type], d.Value)
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

// MissShapesPerType is how many of the most common miss shapes PrintMisses and JSON show.
const MissShapesPerType = 5

// PrintMisses writes, for each type with a value not covered, the most common shapes of those
// values (see Shape), and which decoy types were redacted. With values, the missed values and
// the redacted decoys themselves follow — for an operator's terminal only.
func (r Report) PrintMisses(w io.Writer, values bool) error {
	fmt.Fprintln(w, "missed (not covered), most common shapes:")
	for _, t := range r.Types {
		if len(t.Missed) == 0 {
			continue
		}
		var parts []string
		for _, m := range topShapes(t.Missed, MissShapesPerType) {
			parts = append(parts, fmt.Sprintf("%d× %s", m.Count, m.Shape))
		}
		fmt.Fprintf(w, "  %-9s %3d: %s\n", t.Type, len(t.Missed), strings.Join(parts, " · "))
		if values {
			for _, v := range t.Missed {
				fmt.Fprintf(w, "      %q\n", shortValue(v))
			}
		}
	}
	if len(r.DecoyHits) > 0 {
		fmt.Fprintln(w, "decoys redacted, by type:")
		for _, typ := range slices.Sorted(maps.Keys(r.DecoyHits)) {
			hits := r.DecoyHits[typ]
			fmt.Fprintf(w, "  %-14s %3d\n", typ, len(hits))
			if values {
				for _, v := range hits {
					fmt.Fprintf(w, "      %q\n", shortValue(v))
				}
			}
		}
	}
	return nil
}

// JSONReport is the report as the operator command's -o json prints it: figures and miss
// shapes, never values.
type JSONReport struct {
	Items        int            `json:"items"`
	FullyCovered int            `json:"fully_covered"`
	Decoys       int            `json:"decoys"`
	DecoysHit    int            `json:"decoys_redacted"`
	DecoysHitBy  map[string]int `json:"decoys_redacted_by_type"`
	Types        []JSONType     `json:"types"`
}

// JSONType is one entity type's row of JSONReport.
type JSONType struct {
	Type       string      `json:"type"`
	Gold       int         `json:"gold"`
	Predicted  int         `json:"predicted"`
	Precision  float64     `json:"precision"`
	Recall     float64     `json:"recall"`
	Covered    float64     `json:"covered"`
	Missed     int         `json:"missed"`
	MissShapes []MissShape `json:"miss_shapes,omitempty"`
}

// JSON returns the report without values.
func (r Report) JSON() JSONReport {
	out := JSONReport{Items: r.Items, FullyCovered: r.FullyCaught, Decoys: r.Decoys, DecoysHit: r.DecoysHit,
		DecoysHitBy: map[string]int{}, Types: []JSONType{}}
	for typ, hits := range r.DecoyHits {
		out.DecoysHitBy[typ] = len(hits)
	}
	for _, t := range r.Types {
		out.Types = append(out.Types, JSONType{Type: t.Type, Gold: t.Gold, Predicted: t.Predicted,
			Precision: t.Precision(), Recall: t.Recall(), Covered: ratio(t.Covered, t.Gold), Missed: len(t.Missed),
			MissShapes: topShapes(t.Missed, MissShapesPerType)})
	}
	return out
}
