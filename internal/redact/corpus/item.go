package corpus

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Item is one prompt with its labels. Offsets are byte offsets into Text.
type Item struct {
	ID       string  `json:"id"`
	Lang     string  `json:"lang"`   // es | en
	Domain   string  `json:"domain"` // bank | clinic | law
	Text     string  `json:"text"`
	Entities []Label `json:"entities"`
	Decoys   []Label `json:"decoys,omitempty"`
}

// Label is one labelled value: personal data in Entities, look-alike non-personal data in Decoys
// (amounts, order and case numbers, meeting dates, product codes).
type Label struct {
	Type  string `json:"type"`
	Value string `json:"value"`
	Start int    `json:"start"`
	End   int    `json:"end"`
	// Valid is false for a value typed with a wrong check digit: still personal data.
	Valid *bool `json:"valid,omitempty"`
}

// ErrBadItem marks a corpus line whose labels do not match its text.
var ErrBadItem = errors.New("corpus: bad item")

// Check verifies that every label selects exactly its value.
func (it Item) Check() error {
	var errs []error
	for _, group := range [][]Label{it.Entities, it.Decoys} {
		for _, l := range group {
			if l.Start < 0 || l.End > len(it.Text) || l.Start >= l.End || it.Text[l.Start:l.End] != l.Value || l.Type == "" {
				errs = append(errs, fmt.Errorf("%w: %s: label %s [%d,%d) does not select its value", ErrBadItem, it.ID, l.Type, l.Start, l.End))
			}
		}
	}
	return errors.Join(errs...)
}

// WriteJSONL writes one item per line.
func WriteJSONL(w io.Writer, items []Item) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, it := range items {
		if err := enc.Encode(it); err != nil {
			return fmt.Errorf("corpus: write %s: %w", it.ID, err)
		}
	}
	return nil
}

// ReadJSONL reads items, one JSON object per line, and checks every label.
func ReadJSONL(r io.Reader) ([]Item, error) {
	var items []Item
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	line := 0
	for sc.Scan() {
		line++
		b := strings.TrimSpace(sc.Text())
		if b == "" {
			continue
		}
		var it Item
		dec := json.NewDecoder(strings.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&it); err != nil {
			return nil, fmt.Errorf("corpus: line %d: %w", line, err)
		}
		if err := it.Check(); err != nil {
			return nil, fmt.Errorf("corpus: line %d: %w", line, err)
		}
		items = append(items, it)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("corpus: read: %w", err)
	}
	return items, nil
}
