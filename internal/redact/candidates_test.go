package redact

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
)

// exemplars hold at least one match of every built-in pattern, in the forms the patterns
// allow; randomShapes mutates them into near misses and glues them to each other and to
// pieces, which reaches far more pattern paths than random bytes do.
var exemplars = []string{
	"12345678Z", "12.345.678-Z", "12 345 678 z", "X1234567L", "y-1234567.x", "Z 1234567 R", "B-1234567-J",
	"a1234567 4", "28/12345678/40", "28 12345678 40", "281234567840", "ES91 2100 0418 4502 0005 1332",
	"es9121000418450200051332", "GB82 WEST 1234 5698 7654 32", "4111 1111 1111 1111", "4111-1111-1111-1111 2025",
	"+34 600 123 456", "+ 34 600123456", "0034 600 12 34 56", "91 123 45 67", "600.123.456", "+44 20 7946 0958",
	"+1-212-555-0100", "ana.b%c+d-e@x-y.example.es", "10.0.0.1", "fe80::1", "2001:db8:0:0:0:0:2:1", "::1",
	"3 de mayo de 1980", "3º de Septiembre del 1980", "4° de junio, 1975", "12 MAY. 1980", "1980-02-29", "1/2/1980", "01.02.1999",
	"May 12th, 1980", "sept. 3 2001", "Calle Mayor 5, 2º B, 28013 Madrid", "c/ de la Paz 12, bajo A",
	"Avda. Diagonal 640, piso 3, 08017 Barcelona", "Pº de Gracia 10", "\u212Aalea Nagusia 5", "TRAVESİA del Carmen 3",
	"ABC123456", "abc123456",
	"6267181A", "7.858.089-R", "1234567 Z", "ES36774263T", "es-12345678z", "ES 91 2100 0418 4502 0005 1332",
	"2100 6160 4144 4732 6038", "2038-2963-07-6914389562", "00817036718687316093", "4409KWX", "1122-BBK", "0458 FRT",
	"M-4512-XZ", "GR 4421 AV", "07700 900123", "020 7946 0321", "01632 960123", "0161 496 0000", "+1 (217) 555-0143",
	"(415) 555-0198", "version 4.12.0.3", "900 102 801", "+34 902 123 456",
}

var pieces = []string{
	"X", "Z", "y", "B", "ES", "GB", "abc", "_", "+", "@", ".", ":", "º", "°", " de ", ", ", ". ", "İ", "á", "Ñ",
	"×", "nacido el ", "born ", "DOB ", "pasaporte ", "DNI ", "tarjeta ", "tel ", "IBAN ", "\n", "\u00a0",
	" ", " ", " ", "-", "/", "1980", "19", "6",
}

const mutationAlphabet = "0123456789 .-/+@:XZBaºĪ_"

func mutate(r *rand.Rand, s string) string {
	b := []rune(s)
	for n := r.IntN(3); n > 0 && len(b) > 0; n-- {
		i := r.IntN(len(b))
		c := []rune(mutationAlphabet)[r.IntN(len([]rune(mutationAlphabet)))]
		switch r.IntN(5) {
		case 0: // delete
			b = append(b[:i], b[i+1:]...)
		case 1: // duplicate
			b = append(b[:i+1], b[i:]...)
		case 2: // replace
			b[i] = c
		case 3: // insert
			b = append(b[:i], append([]rune{c}, b[i:]...)...)
		default: // swap case
			if unicode.IsUpper(b[i]) {
				b[i] = unicode.ToLower(b[i])
			} else {
				b[i] = unicode.ToUpper(b[i])
			}
		}
	}
	return string(b)
}

func randomShapes(r *rand.Rand) string {
	var b strings.Builder
	for n := 1 + r.IntN(8); n > 0; n-- {
		if r.IntN(3) == 0 {
			b.WriteString(pieces[r.IntN(len(pieces))])
		} else {
			b.WriteString(mutate(r, exemplars[r.IntN(len(exemplars))]))
		}
		b.WriteString([]string{" ", "", ",", "-", "x", " y ", "."}[r.IntN(7)])
	}
	return b.String()
}

// TestCandidatesAgreeWithWholeText: for every built-in recognizer, trying the anchored pattern
// at the candidate starts finds exactly the matches a whole-text scan finds (no context gate
// here, so every start condition is tested on its own), and detection with candidates and
// context gates equals detection with whole-text scans, for the default policy and for
// policies that gate other types or add context words with spaces (or an empty one).
func TestCandidatesAgreeWithWholeText(t *testing.T) {
	gatedPhone := DefaultConfig()
	gatedPhone.Thresholds = map[string]float64{TypePhone: 0.8, TypeCard: 0.9, TypeIBAN: 0.95}
	spaced := DefaultConfig()
	spaced.ContextWords = map[string][]string{TypeDOB: {" nac", "fecha de", "X y"}, TypePassport: {"doc num "}}
	empty := DefaultConfig()
	empty.ContextWords = map[string][]string{TypeDOB: {""}}
	policies := []struct {
		name string
		cfg  Config
	}{{"default", DefaultConfig()}, {"gated phone, card, iban", gatedPhone}, {"spaced context words", spaced}, {"empty context word", empty}}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, pol := range policies {
		r := newTestRedactor(t, pol.cfg)
		whole := newTestRedactor(t, pol.cfg)
		whole.wholeText = true
		for n := 0; n < 4000; n++ {
			text := randomShapes(rng)
			if pol.name == "default" {
				sameMatches(t, r, text)
			}
			a, errA := r.Detect(context.Background(), text)
			b, errB := whole.Detect(context.Background(), text)
			if errA != nil || errB != nil {
				t.Fatal(errA, errB)
			}
			if len(a) != len(b) {
				t.Fatalf("%s, on %q: %d spans with candidates, %d with whole-text scans", pol.name, text, len(a), len(b))
			}
			for i := range a {
				if a[i].Start != b[i].Start || a[i].End != b[i].End || a[i].Type != b[i].Type {
					t.Fatalf("%s, on %q: span %d is %+v with candidates, %+v with whole-text scans", pol.name, text, i, a[i], b[i])
				}
			}
		}
	}
}

func sameMatches(t *testing.T, r *Redactor, text string) {
	st := r.getText(text)
	defer r.putText(st)
	st.prepare(text)
	for _, rec := range r.recs {
		var want [][2]int
		m, err := rec.re.FindRunesMatch(st.runes)
		for ; m != nil && err == nil; m, err = rec.re.FindNextMatch(m) {
			want = append(want, [2]int{m.Index, m.Index + m.Length})
		}
		if err != nil {
			t.Fatal(err)
		}
		got := anchoredMatches(t, rec, st)
		if len(got) != len(want) {
			t.Fatalf("%s on %q: candidates find %v, whole text %v", rec.name, text, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s on %q: candidates find %v, whole text %v", rec.name, text, got, want)
			}
		}
	}
}

func anchoredMatches(t *testing.T, rec *recognizer, st *scanText) [][2]int {
	var out [][2]int
	next := 0
	for _, c := range st.candidates(rec, false, 0) {
		if c < next {
			continue
		}
		m, err := rec.anchored.FindRunesMatchStartingAt(st.runes, c)
		if err != nil {
			t.Fatal(err)
		}
		if m != nil {
			out = append(out, [2]int{m.Index, m.Index + m.Length})
			next = m.Index + max(m.Length, 1)
		}
	}
	return out
}

// TestAnchoredPatternTriesOnePosition: a miss at a candidate must not turn into a scan of the
// rest of the text (that would bring back the cost candidates remove, and find matches at
// positions that are not candidates).
func TestAnchoredPatternTriesOnePosition(t *testing.T) {
	r := newTestRedactor(t, DefaultConfig())
	for _, rec := range r.recs {
		if rec.anchored == nil {
			continue
		}
		runes := []rune("x 12345678Z y@z.es 600 123 456 ES91 2100 0418 4502 0005 1332 Calle Mayor 5")
		m, err := rec.anchored.FindRunesMatchStartingAt(runes, 0)
		if err != nil || m != nil {
			t.Errorf("%s: anchored at a position where nothing starts found %v, %v", rec.name, m, err)
		}
	}
}
