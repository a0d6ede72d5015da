package corpus

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/redact/corpus.jsonl from the generator")

// Seed and Size of the checked-in corpus.
const (
	Seed = 20261129
	Size = 240
)

var corpusFile = filepath.Join("..", "..", "..", "testdata", "redact", "corpus.jsonl")

// TestCorpusFileIsGenerated keeps the checked-in corpus honest: it must be exactly what the
// generator makes, so an edit to either shows up here.
func TestCorpusFileIsGenerated(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteJSONL(&buf, Generate(Seed, Size)); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.MkdirAll(filepath.Dir(corpusFile), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(corpusFile, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(corpusFile)
	if err != nil {
		t.Fatalf("%v (run: go test ./internal/redact/corpus -run TestCorpusFileIsGenerated -update)", err)
	}
	if !bytes.Equal(got, buf.Bytes()) {
		t.Fatalf("%s differs from Generate(%d, %d); regenerate with -update and review the diff", corpusFile, Seed, Size)
	}
	items, err := ReadJSONL(bytes.NewReader(got))
	if err != nil {
		t.Fatal(err)
	}
	if len(items) < 200 {
		t.Fatalf("corpus has %d items, want at least 200", len(items))
	}
}

func TestCorpusShape(t *testing.T) {
	items := Generate(Seed, Size)
	langs, domains, types, decoys, invalid := map[string]int{}, map[string]int{}, map[string]int{}, map[string]int{}, 0
	for _, it := range items {
		if err := it.Check(); err != nil {
			t.Fatal(err)
		}
		langs[it.Lang]++
		domains[it.Domain]++
		for _, e := range it.Entities {
			types[e.Type]++
			if e.Valid != nil && !*e.Valid {
				invalid++
			}
		}
		for _, d := range it.Decoys {
			decoys[d.Type]++
		}
	}
	for _, want := range []string{"es", "en"} {
		if langs[want] < 80 {
			t.Errorf("only %d %s items", langs[want], want)
		}
	}
	for _, want := range []string{"bank", "clinic", "law"} {
		if domains[want] < 50 {
			t.Errorf("only %d %s items", domains[want], want)
		}
	}
	for _, want := range []string{"PERSON", "DNI", "NIE", "CIF", "NSS", "IBAN", "CARD", "PHONE", "EMAIL", "DOB", "ADDRESS", "PASSPORT", "IP"} {
		if types[want] < 5 {
			t.Errorf("only %d %s entities", types[want], want)
		}
	}
	for _, want := range []string{"AMOUNT", "ORDER", "MEETING", "CASE", "PRODUCT"} {
		if decoys[want] < 5 {
			t.Errorf("only %d %s decoys", decoys[want], want)
		}
	}
	if invalid < 5 {
		t.Errorf("only %d values with a wrong check digit", invalid)
	}
}

// TestCheckDigits verifies the generator's check digits against published example values, so
// that the corpus does not merely agree with itself.
func TestCheckDigits(t *testing.T) {
	tests := []struct{ name, got, want string }{
		{"IBAN ES (ECBS example ES9121000418450200051332)", ibanCheck("ES", "21000418450200051332"), "91"},
		{"IBAN GB (GB82WEST12345698765432)", ibanCheck("GB", "WEST12345698765432"), "82"},
		{"IBAN DE (DE89370400440532013000)", ibanCheck("DE", "370400440532013000"), "89"},
		{"CCC office digit of 2100 0418 (45)", cccDigit("0021000418"), "4"},
		{"CCC account digit of 0200051332 (45)", cccDigit("0200051332"), "5"},
		{"Luhn 4111 1111 1111 111?", luhnDigit("411111111111111"), "1"},
		{"Luhn 7992739871?", luhnDigit("7992739871"), "3"},
		{"NIF 12345678", string(nifTable[12345678%23]), "Z"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.name, tt.got, tt.want)
		}
	}
}

func TestLeaks(t *testing.T) {
	it := Item{ID: "t", Text: "x", Entities: []Label{
		{Type: "IBAN", Value: "ES91 2100 0418 4502 0005 1332"},
		{Type: "DNI", Value: "12.345.678-Z"},
		{Type: "PERSON", Value: "Juan Pérez García"},
		{Type: "ADDRESS", Value: "Calle Mayor 5, 28013 Madrid"},
		{Type: "PHONE", Value: "+34 600 123 456"},
	}}
	tests := []struct {
		name, captured string
		want           []string // substrings of the reports, in order
	}{
		{"clean", "Hola @@PERSON-1@@, su cuenta @@IBAN-1@@ y la calle 5 de 28013 gente", nil},
		{"as typed", "cuenta ES91 2100 0418 4502 0005 1332", []string{"entity 0 (IBAN) leaked as typed"}},
		{"no separators, lower case", "es9121000418450200051332", []string{"entity 0 (IBAN) leaked without separators"}},
		{"digits only", "dni 12345678", []string{"entity 1 (DNI) leaked digits only"}},
		{"other separators", "12 345 678 z", []string{"entity 1 (DNI) leaked without separators"}},
		{"case-folded name", "JUAN PÉREZ GARCÍA", []string{"entity 2 (PERSON) leaked case-folded"}},
		{"accents dropped", "juan perez garcia", []string{"entity 2 (PERSON) leaked without separators"}},
		{"surname alone", "el sr. García vino", []string{"entity 2 (PERSON) leaked name part 2"}},
		{"surname inside a longer word is not a leak", "Garcíaz", nil},
		{"address", "calle mayor 5 28013 madrid", []string{"entity 3 (ADDRESS) leaked without separators"}},
		{"phone without its country code", "llame al 600-12-34-56", []string{"entity 4 (PHONE) leaked nine or more of its digits"}},
		{"account number without the IBAN head", "cuenta 0418 4502 0005 1332", []string{"entity 0 (IBAN) leaked nine or more of its digits"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Leaks(tt.captured, it)
			if len(got) != len(tt.want) {
				t.Fatalf("got %q, want %d reports like %q", got, len(tt.want), tt.want)
			}
			for i := range got {
				if !strings.Contains(got[i], tt.want[i]) {
					t.Errorf("report %d = %q, want it to contain %q", i, got[i], tt.want[i])
				}
				for _, e := range it.Entities {
					if strings.Contains(got[i], e.Value) {
						t.Errorf("report %q contains the value itself", got[i])
					}
				}
			}
		})
	}
}

func FuzzReadJSONL(f *testing.F) {
	var buf bytes.Buffer
	_ = WriteJSONL(&buf, Generate(1, 3))
	f.Add(buf.String())
	f.Add(`{"id":"x","lang":"es","domain":"bank","text":"ab","entities":[{"type":"DNI","value":"b","start":1,"end":2}]}`)
	f.Add(`{"id":"x","text":"ab","entities":[{"type":"DNI","value":"b","start":5,"end":-2}]}`)
	f.Fuzz(func(t *testing.T, in string) {
		items, err := ReadJSONL(strings.NewReader(in))
		if err != nil {
			return
		}
		for _, it := range items {
			if err := it.Check(); err != nil {
				t.Fatalf("ReadJSONL accepted an item that fails Check: %v", err)
			}
		}
		var out bytes.Buffer
		if err := WriteJSONL(&out, items); err != nil {
			t.Fatal(err)
		}
		again, err := ReadJSONL(&out)
		if err != nil || len(again) != len(items) {
			t.Fatalf("round trip: %d items, then %d (%v)", len(items), len(again), err)
		}
	})
}

// TestEvaluatePlaceholderTypes: a detector that reports CARDEXP (the placeholder's spelling) is
// scored against CARD_EXP labels.
func TestEvaluatePlaceholderTypes(t *testing.T) {
	text := "caduca 09/27"
	items := []Item{{ID: "x", Text: text, Entities: []Label{{Type: "CARD_EXP", Value: "09/27", Start: 7, End: 12}}}}
	rep, err := Evaluate(context.Background(), items, func(context.Context, string) ([]Found, error) {
		return []Found{{Type: "CARDEXP", Start: 7, End: 12}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Types) != 1 || rep.Types[0].Type != "CARD_EXP" || rep.Types[0].Found != 1 || rep.Types[0].TruePred != 1 {
		t.Errorf("types = %+v, want one CARD_EXP row found and predicted", rep.Types)
	}
}
