package testmodel

import (
	"slices"
	"testing"
)

func TestAgreement(t *testing.T) {
	base := Alphabet()
	for _, tc := range []struct {
		fraction float64
		seed     int64
	}{{0, 1}, {0.2, 1}, {0.5, 3}, {1, 1}} {
		drafter, changed := Perturbed(base, tc.fraction, tc.seed)
		got := drafter.Agreement(base, "a", 100)
		// Along a→b→…→z→</s>, position i follows letter i (a is the prompt's last token).
		letters := "abcdefghijklmnopqrstuvwxyz"
		if len(got) != len(letters) {
			t.Fatalf("fraction %v: %d positions, want %d", tc.fraction, len(got), len(letters))
		}
		for i, ok := range got {
			want := !slices.Contains(changed, letters[i:i+1])
			if ok != want {
				t.Errorf("fraction %v: position %d (after %q) agreement %v, want %v", tc.fraction, i, letters[i:i+1], ok, want)
			}
		}
	}
	if got := base.Agreement(base, "x", 2); !slices.Equal(got, []bool{true, true}) {
		t.Errorf("self-agreement capped at 2 = %v", got)
	}
	if got := Sentence("Hi", "there").Agreement(base, "a", 3); !slices.Equal(got, []bool{false, false, false}) {
		t.Errorf("unrelated model agreement = %v", got)
	}
}
