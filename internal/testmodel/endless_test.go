package testmodel

import (
	"strings"
	"testing"
)

func TestEndless(t *testing.T) {
	for _, tc := range []struct{ marker, prefix, loop string }{
		{"", `{"entities":[{"text":"`, "ab"},
		{"\n[x]", "say ", "la "},
		{"", "", "z"},
	} {
		s := Endless(tc.marker, tc.prefix, tc.loop)
		if err := s.Validate(); err != nil {
			t.Fatal(err)
		}
		for _, prompt := range []string{"hola.", "¿qué?", "x" + tc.marker} {
			got := s.Greedy(prompt+tc.marker, 40)
			rest, ok := strings.CutPrefix(got, tc.prefix)
			if !ok || len(s.GreedyPieces(prompt+tc.marker, 40)) != 40 || strings.ReplaceAll(rest, tc.loop, "") != "" {
				t.Errorf("Endless(%q, %q, %q) after %q answers %q", tc.marker, tc.prefix, tc.loop, prompt, got)
			}
		}
	}
}
