package redact

import (
	"slices"
	"testing"
)

func TestFindNames(t *testing.T) {
	tests := []struct {
		text string
		want []string // names found with a score at or above the default threshold
	}{
		{"Hola, soy el Sr. Juan Pérez García.", []string{"Juan Pérez García"}},
		{"soy maría josé fernández y quiero", []string{"maría josé fernández"}},
		{"Soy Ignacio Beltrán de Heredia, titular", []string{"Ignacio Beltrán de Heredia"}},
		{"hi, this is tom baker, my card", []string{"tom baker"}},
		{"Patient DOB 1979-11-03, name Grace Holloway", []string{"Grace Holloway"}},
		{"La Dra. Montse Puig i Ferrer firma", []string{"Montse Puig i Ferrer"}},
		{"Contacto: Leocadia Albarracín, móvil", []string{"Leocadia Albarracín"}},
		{"El número de la Seguridad Social y el Banco de España", nil},
		{"Me duele la cabeza y tengo dolores de espalda", nil},
		{"The DNI and the IBAN are in the form", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, s := range findNames(tt.text) {
			if s.Score >= DefaultConfig().Threshold {
				got = append(got, s.Text)
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("findNames(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// FuzzWordFold: a word folded from the text's one lower-cased copy is exactly fold(word).
func FuzzWordFold(f *testing.F) {
	for _, s := range []string{"Hola, soy el Sr. Juan PÉREZ García-Ñúñez", "ÀÉÎÕÜ ÇØÞß ÿ × Ł Œ İstanbul \u212A", "l·l O'Brien D’Arcy", "\xff\xc3X"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		fc := &folder{lower: appendLowerSameLength(nil, text)}
		for _, w := range splitWords(nil, text) {
			if got, want := string(w.fold(fc)), fold(w.text); got != want {
				t.Fatalf("word %q folds to %q, want %q", w.text, got, want)
			}
		}
	})
}
