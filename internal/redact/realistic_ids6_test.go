package redact

import (
	"context"
	"strings"
	"testing"
)

// Sixth and seventh rounds of issue #13 (dates of birth and identifiers): realistic-dev8.jsonl and
// realistic-dev10.jsonl (the spent fourth and fifth held-out sets, tuning data now) and each
// round's dev items (realistic-dev9-ids.jsonl, realistic-dev11-ids.jsonl, written for the forms
// before the rules for them); dev6 as the sixth round left it. The types of this round are held at what
// they reach now; items and decoys with a margin, because names and addresses count in them too.
var realisticIDsRoundsFloor = map[string]struct {
	covered     map[string]float64
	fullyItems  int
	maxDecoyHit int
}{
	"realistic-dev8.jsonl": {
		covered: map[string]float64{
			"DOB": 0.99, "CVV": 1, "PASSPORT": 1, "PLATE": 1, "MRN": 1, "EMAIL": 1, "DNI": 1, "NIE": 1, "NSS": 1,
			"IBAN": 1, "CARD": 1, "CARD_EXP": 1, "CCC": 1, "PHONE": 1, "IP": 1,
		},
		fullyItems:  255, // 259 of 300 at 2026-12-02 16:55 UTC (248 before this round); DOB 161 of 161
		maxDecoyHit: 24,  // 23 of 483 (25 before)
	},
	"realistic-dev6.jsonl": {
		covered: map[string]float64{
			"DOB": 0.99, "MRN": 1, "CVV": 1, "PASSPORT": 1, "PLATE": 1, "EMAIL": 1, "DNI": 1, "NIE": 1, "NSS": 1,
			"IBAN": 1, "CARD": 1, "CARD_EXP": 1, "CCC": 1, "IP": 1,
		},
		fullyItems:  273, // 277 of 300 (274 before this round)
		maxDecoyHit: 11,  // 10 of 500
	},
	"realistic-dev9-ids.jsonl": {
		covered: map[string]float64{
			"DOB": 0.96, "CVV": 1, "PASSPORT": 1, "PLATE": 1, "MRN": 1, "EMAIL": 1, "DNI": 1, "CARD": 1, "CARD_EXP": 1,
		},
		fullyItems:  25, // 26 of 27 (6 before this round's rules)
		maxDecoyHit: 1,  // 0 of 32 (3 before)
	},
	"realistic-dev10.jsonl": {
		covered: map[string]float64{
			"DOB": 0.97, "EMAIL": 1, "DNI": 1, "IBAN": 0.92, "MRN": 0.9, "CARD": 0.91, "PASSPORT": 0.97,
			"NIE": 1, "NSS": 1, "CVV": 1, "CARD_EXP": 1, "CCC": 1, "IP": 1,
		},
		fullyItems:  235, // 240 of 300 at 2026-12-02 18:05 UTC (229 before this round)
		maxDecoyHit: 25,  // 24 of 529 (25 before)
	},
	"realistic-dev11-ids.jsonl": {
		covered: map[string]float64{
			"DOB": 1, "EMAIL": 1, "MRN": 1, "IBAN": 1, "PASSPORT": 1,
		},
		fullyItems:  35, // 36 of 37 (17 before this round's rules)
		maxDecoyHit: 3,  // 3 of 30 (3 before)
	},
}

// TestRealisticIDsRounds holds the default policy (rules only) to realisticIDsRoundsFloor.
func TestRealisticIDsRounds(t *testing.T) {
	r := newTestRedactor(t, DefaultConfig())
	for _, name := range []string{"realistic-dev6.jsonl", "realistic-dev8.jsonl", "realistic-dev9-ids.jsonl",
		"realistic-dev10.jsonl", "realistic-dev11-ids.jsonl"} {
		t.Run(strings.TrimSuffix(name, ".jsonl"), func(t *testing.T) {
			floor := realisticIDsRoundsFloor[name]
			rep := evaluate(t, r, loadItems(t, name))
			checkFloor(t, rep, floor.covered, floor.fullyItems, floor.maxDecoyHit)
		})
	}
}

// TestRealisticIDsRoundShape: each round's identifiers file has unique ids in its range
// (rl-<lang>-<domain>-lo…hi), its values with a check digit pass it (a DNI also with its ES
// prefix), and its DNI-, card- and IBAN-shaped decoys fail it.
func TestRealisticIDsRoundShape(t *testing.T) {
	check := map[string]func(string) bool{"DNI": validDNI, "NIE": validNIE, "CARD": validLuhn, "IBAN": validIBAN}
	for _, f := range []struct {
		file              string
		lo, hi            int
		minItems, minVals int
	}{{"realistic-dev9-ids.jsonl", 8201, 8399, 25, 2}, {"realistic-dev11-ids.jsonl", 9501, 9599, 37, 4}} {
		n := 0
		items := loadDevItems(t, f.file, f.lo, f.hi, f.minItems)
		for _, it := range items {
			for _, e := range it.Entities {
				if fn, ok := check[e.Type]; ok {
					v := compactValue(e.Value)
					if e.Type == TypeDNI {
						v = strings.TrimPrefix(v, "ES")
					}
					if !fn(v) {
						t.Errorf("%s: %s value (%d bytes) fails its check", it.ID, e.Type, len(e.Value))
					}
					n++
				}
			}
			for _, d := range it.Decoys {
				v := compactValue(d.Value)
				if len(v) >= 13 && len(v) <= 19 && allDigits(v) && validLuhn(v) || len(v) == 9 && allDigits(v[:8]) && validDNI(v) ||
					strings.HasPrefix(v, "ES") && len(v) == 24 && validIBAN(v) {
					t.Errorf("%s: decoy %s passes its check", it.ID, d.Type)
				}
			}
		}
		if n < f.minVals {
			t.Errorf("%s: %d items, %d values with a check digit", f.file, len(items), n)
		}
	}
}

// TestRound6Forms pins each form of this round, and its look-alikes, on a short invented text.
func TestRound6Forms(t *testing.T) {
	checkIDForms(t, []idForm{
		{"us month first", "Our client (born 10/27/1984, per his licence) signed", TypeDOB, []string{"10/27/1984"}, nil},
		{"us chat answer", "bot: Please confirm your date of birth.\nkaren_88: 4/30/1972\nbot: Thanks.", TypeDOB, []string{"4/30/1972"}, nil},
		{"date before cumple", "dice q el 14 de marzo de 1983 es su cumple, no el 21 de marzo como pone", TypeDOB, []string{"14 de marzo de 1983"}, []string{"21 de marzo"}},
		{"date before birthday", "quick one - 12/03/1979 is his birthday, ok", TypeDOB, []string{"12/03/1979"}, nil},
		{"no dob: a recent date after the birthday", "quick one - 12/03/1979 is his birthday, the 12/03/2026 is when he rang", TypeDOB, []string{"12/03/1979"}, []string{"12/03/2026"}},
		{"person is from", "mi madre es de 1948, él de 1950, y quiere abrir cuenta", TypeDOB, []string{"1948", "1950"}, nil},
		{"no person is from: a thing", "la ley es de 1985 y el piso es de 1960, reformado", TypeDOB, nil, []string{"1985", "1960"}},
		{"date before aniversari", "diu que el 4 de juliol de 1966 és el seu aniversari, i", TypeDOB, []string{"4 de juliol de 1966"}, nil},
		{"birth list next", "fechas de nacimiento: él el 3 de abril de 1950, ella el 22/09/1953. cuenta abierta el 14/02/1991", TypeDOB, []string{"3 de abril de 1950", "22/09/1953"}, []string{"14/02/1991"}},
		{"birth list two-digit year", "mi marido nacio el 19.VIII.1979 y yo el 2 de diciembre del 82\n", TypeDOB, []string{"19.VIII.1979", "2 de diciembre del 82"}, nil},
		{"no list: another event", "nacido el 3/4/1950, casado el 5/6/1975 en Soria", TypeDOB, []string{"3/4/1950"}, []string{"5/6/1975"}},
		{"no list: a policy's date", "DOB: 1980-02-11, policy start 2003-05-19", TypeDOB, []string{"1980-02-11"}, []string{"2003-05-19"}},
		{"list: a name between", "nacida el 3/4/1950, Luis el 5/6/1952.", TypeDOB, []string{"3/4/1950", "5/6/1952"}, nil},
		{"record del between commas", "Carmen, del 76, quiere abrir cuenta", TypeDOB, []string{"76"}, nil},
		{"no list: a table's next cell", "nombre,f_nacimiento,f_alta,edad\nPascual Hidalgo,17/03/1961,02/01/2020,\n", TypeDOB, []string{"17/03/1961"}, []string{"02/01/2020"}},
		{"next person's year", "el abuelo es del 39 y ella del 44, vienen los dos del 3 al 5 a firmar", TypeDOB, []string{"39", "44"}, []string{"3 al 5"}},
		{"pair year", "Olegario y Remedios, los dos del 49 y del 52. la cuenta", TypeDOB, []string{"49", "52"}, nil},
		{"no year: a thing's", "los dos del 47. la libreta es del 98", TypeDOB, []string{"47"}, []string{"98"}},
		{"no year: a building's", "nació en 1931 el edificio, y la propietaria", TypeDOB, nil, []string{"1931"}},
		{"born abbrev two digits", "D. Ramón Ferrer Vidal (n. 61) y su hermano (n. '64), véase la nota (n. 3)", TypeDOB, []string{"61", "'64"}, []string{"(n. 3)"}},
		{"gl e do sentence", "vén con febre. e do 52. a filla queda", TypeDOB, []string{"52"}, nil},
		{"record year field", "NHC 0051234 - ETXEBERRIA, Miren - 1941 - alta 02/12/2026", TypeDOB, []string{"1941"}, []string{"02/12/2026"}},
		{"record date first", "- 23/08/1967; Abdelkader Benali; 04700 El Ejido", TypeDOB, []string{"23/08/1967"}, nil},
		{"no record date first: an event", "12/03/2001 - Juan Pérez - apertura cuenta", TypeDOB, nil, []string{"12/03/2001"}},
		{"no record year: an amount", "transferencia a Juan Pérez, 2000,50 € el lunes", TypeDOB, nil, []string{"2000"}},
		{"no record year: since", "Campos Vidal, Rosa - cliente desde 1998 - tarjeta", TypeDOB, nil, []string{"1998"}},
		{"table past a page break", "fecha_nacimiento;nombre;f_alta\n\n--- página 2 ---\n12/06/1958;Pilar Ortega;03/04/2024", TypeDOB, []string{"12/06/1958"}, []string{"03/04/2024"}},
		{"comma table past a page break", "name,dob,country\n\n--- page 2 ---\nAstrid Lind,1962-04-30,SE\nPieter Vries,1957-01-12,NL", TypeDOB, []string{"1962-04-30", "1957-01-12"}, nil},
		{"no comma table past a blank line", "nombre,telefono,ciudad\nAna Gil,600111222,Soria\n\nGracias, un saludo, Marta", TypePhone, nil, []string{"un saludo"}},
		{"new table past a gap", "| titular | ciudad |\n|---|---|\n| Ana Gil | Soria |\n\nOtra tabla:\n| nombre | importe |\n|---|---|\n| Luis Mar | 30 |", TypePerson, nil, []string{"nombre"}},
		{"record del two digits", "- Xuacu Cuervo, DNI 3968657F, del 58\n- Marisol", TypeDOB, []string{"58"}, nil},
		{"cip cell in five groups", "| pacient | CIP | llit |\n|---|---|---|\n| Rafel Solé | SORA 0 361012 00 7 | 214B |", TypeMRN, []string{"SORA 0 361012 00 7"}, nil},
		{"dia before a date", "Prestatario, nacido el día cinco de marzo de 1976, con DNI", TypeDOB, []string{"día cinco de marzo de 1976"}, nil},
		{"sec code", "deposit on card 4921 8173 0091 8450, exp Jun 2029, sec code 538. Room", TypeCVV, []string{"538"}, nil},
		{"no sec code: no card", "the room's sec code 4471 is on the door", TypeCVV, nil, []string{"4471"}},
		{"passport and nationality", "el poder lo firma Zhang Wei (E72019384, china) ante notario", TypePassport, []string{"E72019384"}, nil},
		{"us plate", "the tenant's car (KDR-4471, Ohio) is parked; the lease ref is LSE-2291", TypePlate, []string{"KDR-4471"}, []string{"LSE-2291"}},
		{"uk plate", "her car, AB12 CDE, was towed", TypePlate, []string{"AB12 CDE"}, nil},
		{"ehic", "Pacient irlandès, TSE europea 80372 0000 4418 2207 9931. Expedient 80123 0000 1111 2222 3333", TypeMRN, []string{"80372 0000 4418 2207 9931"}, []string{"80123 0000 1111 2222 3333"}},
		{"no ehic: reference", "referencia 80724 0000 3918 2207 4415", TypeMRN, nil, []string{"80724 0000 3918 2207 4415"}},
		{"dictated e-mail", "me dicta el correo: ele u pe e ere te o punto tres dos arroba gmail punto com. lo", TypeEmail, []string{"ele u pe e ere te o punto tres dos arroba gmail punto com"}, nil},
	})
}

// idForm is one case of a round's forms test: in text, every want value must lie inside a span
// of type typ, and no span may touch a not value.
type idForm = struct {
	name, text, typ string
	want            []string // values of typ that must be found (a span of typ covering each)
	not             []string // values that must not be redacted at all
}

func checkIDForms(t *testing.T, cases []idForm) {
	t.Helper()
	r := newTestRedactor(t, DefaultConfig())
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			spans, err := r.Detect(context.Background(), c.text)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.want {
				at := strings.Index(c.text, w)
				found := false
				for _, sp := range spans {
					found = found || sp.Type == c.typ && sp.Start <= at && at+len(w) <= sp.End
				}
				if !found {
					t.Errorf("%s %q not found", c.typ, w)
				}
			}
			for _, w := range c.not {
				at := strings.Index(c.text, w)
				for _, sp := range spans {
					if sp.Start < at+len(w) && at < sp.End {
						t.Errorf("%q redacted as %s", w, sp.Type)
					}
				}
			}
		})
	}
}
