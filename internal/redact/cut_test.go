package redact

import (
	"context"
	"strings"
	"testing"
)

// TestDetectOnCutTexts: a prompt can end (or start) anywhere — a user stops typing, a client
// splits a long text — so every recognizer must cope with a text cut right after a cue word. Each
// realistic text of the last held-out sets is cut at every space and both halves are detected;
// a rule that reads past the end panics here ("… el 4 del" once did, in the date parser).
func TestDetectOnCutTexts(t *testing.T) {
	r := newTestRedactor(t, DefaultConfig())
	ctx := context.Background()
	cuts := 0
	for _, f := range []string{"realistic-dev4.jsonl", "realistic-dev6.jsonl"} {
		for _, it := range loadItems(t, f) {
			for i := strings.IndexByte(it.Text, ' '); i >= 0; {
				for _, s := range []string{it.Text[:i], strings.TrimSpace(it.Text[:i]), it.Text[i:], strings.TrimSpace(it.Text[i:])} {
					func() {
						defer func() {
							if p := recover(); p != nil {
								t.Errorf("%s: Detect panicked on a text of %d bytes cut at byte %d: %v", it.ID, len(s), i, p)
							}
						}()
						if _, err := r.Detect(ctx, s); err != nil {
							t.Errorf("%s: %v", it.ID, err)
						}
					}()
				}
				cuts++
				j := strings.IndexByte(it.Text[i+1:], ' ')
				if j < 0 {
					break
				}
				i += 1 + j
			}
		}
	}
	t.Logf("%d cuts, 4 texts each", cuts)
}
