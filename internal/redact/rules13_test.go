package redact

import (
	"context"
	"strings"
	"testing"
)

// The issue #13 rules, form by form: what each must take (whole, as one span) and what it must
// leave alone. The phrases are written here for the test, not taken from the realistic corpus.

type ruleCase struct {
	name, text string
	want       []string // values that must each lie inside one detected span
	not        []string // substrings no detected span may overlap
}

func checkRuleCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	r := newTestRedactor(t, DefaultConfig())
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			spans, err := r.Detect(context.Background(), tc.text)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				at := strings.Index(tc.text, w)
				if v, ok := strings.CutSuffix(w, "#2"); ok { // the second occurrence
					w = v
					at = strings.Index(tc.text, w)
					if at >= 0 {
						if k := strings.Index(tc.text[at+len(w):], w); k >= 0 {
							at += len(w) + k
						} else {
							at = -1
						}
					}
				}
				if at < 0 {
					t.Fatalf("bad case: %q not in the text", w)
				}
				covered := false
				for _, s := range spans {
					covered = covered || s.Start <= at && at+len(w) <= s.End
				}
				if !covered {
					t.Errorf("%q not covered by one span; spans %v", w, spanTexts(spans))
				}
			}
			for _, n := range tc.not {
				at := strings.Index(tc.text, n)
				if at < 0 {
					t.Fatalf("bad case: %q not in the text", n)
				}
				for _, s := range spans {
					if s.Start < at+len(n) && at < s.End {
						t.Errorf("%q overlapped by %s span %q", n, s.Type, s.Text)
					}
				}
			}
		})
	}
}

func spanTexts(spans []Span) []string {
	out := make([]string, len(spans))
	for i, s := range spans {
		out[i] = s.Type + ":" + s.Text
	}
	return out
}

func TestNameRules(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{name: "lower case after a cue", text: "hoy ha venido la clienta, habla con leocadia por favor",
			want: []string{"leocadia"}},
		{name: "lower-case full name", text: "tengo aqui a francisco javier beltran con la libreta",
			want: []string{"francisco javier beltran"}},
		{name: "everyday word alone", text: "compré una rosa para la mesa", not: []string{"rosa"}},
		{name: "everyday word after a cue", text: "dile a rosa que pase", want: []string{"rosa"}},
		{name: "SURNAMES, Name in capitals", text: "De una parte, ECHEVARRÍA SOLANA, Maite, mayor de edad",
			want: []string{"ECHEVARRÍA SOLANA, Maite"}},
		{name: "SURNAMES, Name after a capitals particle", text: "De otra, EL IDRISSI, Hamza, con NIE",
			want: []string{"EL IDRISSI, Hamza"}},
		{name: "name in capitals", text: "TRANSF. DE CARRASCO LEDESMA ADOLFO  +120,00",
			want: []string{"CARRASCO LEDESMA ADOLFO"}},
		{name: "repeat of an unknown part", text: "La clienta Ilinca Zamfirache llamó. Zamfirache dice que vuelve.",
			want: []string{"Ilinca Zamfirache", "Zamfirache#2"}},
		{name: "chat handle", text: "pepe_77: hola\nagente: dígame\npepe_77: quiero el saldo",
			want: []string{"pepe_77"}},
		{name: "abbreviated given name", text: "a nombre de Mª Dolores Jiménez, por favor",
			want: []string{"Mª Dolores Jiménez"}},
		{name: "foreign given name alone", text: "Please call Siobhan back about the loan.",
			want: []string{"Siobhan"}},
		{name: "mail separator and law citation", text: "-----Original Message-----\nVer el Real Decreto Legislativo 1/2015 y la Ley Orgánica 7/2021.",
			not: []string{"Original Message", "Real Decreto Legislativo", "Ley Orgánica"}},
		{name: "company with suffix", text: "La sociedad Marina Fuentes SL pide un préstamo.",
			not: []string{"Marina Fuentes"}},
		{name: "public figure in news", text: "Según dijo Pedro Sánchez en el Congreso, habrá ayudas.",
			not: []string{"Pedro Sánchez"}},
		{name: "public figure elsewhere is a name", text: "El cliente Pedro Sánchez pide su saldo.",
			want: []string{"Pedro Sánchez"}},
		{name: "sentence word alone", text: "Bueno, el cliente dice que vuelve mañana.", not: []string{"Bueno"}},
		{name: "sentence word inside a name", text: "El cliente Tomás Bueno Ariza firma hoy.", want: []string{"Tomás Bueno Ariza"}},
		{name: "pronoun is no lower-case name", text: "quiere saber el saldo de ella, dice", not: []string{"ella"}},
		{name: "e-mail keeps its type", text: "Nieves Olano escribe desde nieves.olano@example.com hoy",
			want: []string{"Nieves Olano", "nieves.olano@example.com"}},
		{name: "saint in a place", text: "Ingresado en el Hospital de Sant Pau desde ayer.",
			not: []string{"Pau"}},
	})
}

func TestTableRules(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{name: "CSV header types its column", text: "nombre;apellidos;f_nacimiento;importe\nEulogio;Barrachina Sanz;04/11/1962;300,00\n",
			want: []string{"Eulogio", "Barrachina Sanz", "04/11/1962"}, not: []string{"300,00"}},
		{name: "Markdown table", text: "| Paciente | NHC | Fecha alta |\n|---|---|---|\n| Ramírez Cuesta, Ovidio | 00912233 | 02/02/2025 |\n",
			want: []string{"Ramírez Cuesta, Ovidio", "00912233"}, not: []string{"02/02/2025"}},
		{name: "TSV in capitals", text: "NOMBRE\tMÓVIL\nCASILDA ORTUÑO\t611 22 33 44\n",
			want: []string{"CASILDA ORTUÑO"}},
		{name: "JSON keys", text: `{"given":["Fermina"],"family":"Ocaña Ruiz","birthDate":"1950-02-17","status":"active"}`,
			want: []string{"Fermina", "Ocaña Ruiz", "1950-02-17"}, not: []string{"active"}},
		{name: "key: value lines", text: "Titular: Anacleto Vives\nData de naixement: 12/12/1960\nEstat: actiu",
			want: []string{"Anacleto Vives", "12/12/1960"}, not: []string{"actiu"}},
		{name: "chat line is not a name", text: "Cliente: quiero saber mi saldo\nAgente: un momento",
			not: []string{"quiero saber mi saldo"}},
		{name: "company in a person column", text: "deudor;importe\nASOC. CULTURAL LA ERA;25,00\n",
			not: []string{"ASOC. CULTURAL LA ERA"}},
	})
}

func TestAddressRules(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{name: "street, floor, postcode, town", text: "vive en Calle de Embajadores 101, 4º dcha., 28012 Madrid desde 2019",
			want: []string{"Calle de Embajadores 101, 4º dcha., 28012 Madrid"}},
		{name: "lower case, no commas", text: "el piso de c/ pare jofre 8 2 izq 46021 valencia lo alquila",
			want: []string{"c/ pare jofre 8 2 izq 46021 valencia"}},
		{name: "s/n and area", text: "domicilio en Lugar de Barreiro s/n, 27100 Fonsagrada.",
			want: []string{"Lugar de Barreiro s/n, 27100 Fonsagrada"}},
		{name: "Basque postfix", text: "Helbidea: Txurruka kalea 6, 3. ezk., 20500 Arrasate.",
			want: []string{"Txurruka kalea 6, 3. ezk., 20500 Arrasate"}},
		{name: "Catalan floor and door", text: "Adreça: Carrer de Balmes 77, 3r 2a, 08007 Barcelona.",
			want: []string{"Carrer de Balmes 77, 3r 2a, 08007 Barcelona"}},
		{name: "postcode and town alone", text: "se muda a 37002 Salamanca el mes que viene",
			want: []string{"37002 Salamanca"}},
		{name: "UK", text: "of 9 Mill Lane, Ludlow SY8 1BB, the seller",
			want: []string{"9 Mill Lane, Ludlow SY8 1BB"}},
		{name: "US", text: "ship it to 77 Pine Street, Apt 2C, Portland, OR 97205 please",
			want: []string{"77 Pine Street, Apt 2C, Portland, OR 97205"}},
		{name: "French", text: "mon adresse : 5 rue Victor Hugo, 33000 Bordeaux",
			want: []string{"5 rue Victor Hugo, 33000 Bordeaux"}},
		{name: "street without a number", text: "La Gran Vía estará cortada y la calle Mayor también.",
			not: []string{"Gran Vía", "calle Mayor"}},
		{name: "office address", text: "Nuestra oficina está en Calle Alcalá 49, 28014 Madrid.",
			not: []string{"Calle Alcalá 49, 28014 Madrid"}},
	})
}

func TestSpelledEmailRules(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{name: "arroba punto", text: "mi correo es lola punto marin arroba hotmail punto es gracias",
			want: []string{"lola punto marin arroba hotmail punto es"}},
		{name: "brackets", text: "write to j.doe[at]example[dot]co.uk today",
			want: []string{"j.doe[at]example[dot]co.uk"}},
		{name: "capitals", text: "es r.vidal AT gmail DOT com, apúntalo",
			want: []string{"r.vidal AT gmail DOT com"}},
		{name: "lower-case at needs spelled dots", text: "we met at noon at gmail's office",
			not: []string{"noon at gmail"}},
	})
}

func TestContextWordAtWordStart(t *testing.T) {
	// "nació" inside "Encarnación" is no birth cue; "nació el" is.
	checkRuleCases(t, []ruleCase{
		{name: "inside a word", text: "Encarnación;Y1234567X;12/05/2025", not: []string{"12/05/2025"}},
		{name: "at a word start", text: "nació el 12/05/1975 en Cuenca", want: []string{"12/05/1975"}},
	})
}

// FuzzRuleSpans: whatever the text, the context, table, address, e-mail and name rules return
// spans inside it whose Text is exactly text[Start:End], and never panic.
func FuzzRuleSpans(f *testing.F) {
	for _, s := range append(fuzzSeeds,
		"nombre;apellidos\nAna;Gil\n", "| a | nhc |\n|--|--|\n| x | 123 |", `{"given":["A"],"address":[{"text":"C/ X 1"}]}`,
		"Flat 1, A Court, 2 B Road, London SW1 1AA", "Kale Nagusia 5, 2. ezk., 20800 Zarautz", "a punto b arroba c punto com",
		"GARCÍA, Ana", "kike_1: hola", "46022 valencia", "c/ x 9 puerta 14 46002", "Nom: , ", "\"nombre\":\"\\u00e9\"") {
		f.Add(s)
	}
	r := newTestRedactor(f, DefaultConfig())
	f.Fuzz(func(t *testing.T, text string) {
		ws := splitWords(nil, text)
		fc := &folder{lower: appendLowerSameLength(nil, text)}
		var out []Span
		out = appendTables(out, text, ws, fc)
		out = appendAddresses(out, text, ws, fc)
		out = appendObfuscatedEmails(out, text, fc.lower)
		out = appendNames(out, ws, fc, text)
		out = r.appendRules(out, text, ws, fc, 0)
		for _, s := range out {
			if s.Start < 0 || s.End > len(text) || s.Start > s.End || s.Text != text[s.Start:s.End] {
				t.Fatalf("span %+v out of the text (%d bytes)", s, len(text))
			}
		}
	})
}

// TestRecordAndCardRules: the forms of the second round of dev items (issue #13): a date of
// birth with no cue after a person or an identifier on the same line, card expiry as MMYY,
// 4-digit security codes, NSS in groups, record numbers with a centre's letters, streets with no
// street-type word, British postcodes alone — and the decoys next to them.
func TestRecordAndCardRules(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{name: "iso dob after a name", text: "Titular: Gema Lorca Ibáñez, 1968-03-14, vino el 2026-10-02.",
			want: []string{"1968-03-14"}, not: []string{"2026-10-02"}},
		{name: "dotted dob in a row", text: "| Iván Soto | 61234987V | 07.07.1977 |", want: []string{"07.07.1977"}},
		{name: "old date with a non-birth word", text: "Gema Lorca Ibáñez, cliente desde 1998-05-12.", not: []string{"1998-05-12"}},
		{name: "old date opened, galician", text: "Titular Gema Lorca Ibáñez, conta aberta o 03.02.2001", not: []string{"03.02.2001"}},
		{name: "old date of a deed", text: "D. Gonzalo Ruiz Paz, en fecha 12.03.2001, otorgó poder", not: []string{"12.03.2001"}},
		{name: "old date on another line", text: "Gema Lorca Ibáñez\n1999-01-20 revisión anual", not: []string{"1999-01-20"}},
		{name: "años as a cue", text: "mujer de 58 años (02/09/1967) que acude", want: []string{"02/09/1967"}},
		{name: "expiry MMYY after cad", text: "tarjeta 4012 8888 8888 1881 cad. 1128", want: []string{"1128"}},
		{name: "expiry MMYY after vto", text: "visa vto 0631 por favor", want: []string{"0631"}},
		{name: "expiry not a month", text: "exp 2931 del juzgado", not: []string{"2931"}},
		{name: "four-digit cid", text: "Amex 3700 000000 00002, CID 9034", want: []string{"9034"}},
		{name: "cvv after count words", text: "el código de seguridad de cuatro cifras es 1175", want: []string{"1175"}},
		{name: "cvv on the back", text: "the code on the back is 402", want: []string{"402"}},
		{name: "nss in groups", text: "NSS 33 1472 5836 29 del trabajador", want: []string{"33 1472 5836 29"}},
		{name: "nss in dashed groups", text: "afiliación 07-9876-5432-17", want: []string{"07-9876-5432-17"}},
		{name: "mrn with centre letters", text: "NHC: TF 1029-384756, planta 3", want: []string{"TF 1029-384756"}},
		{name: "mrn stops before the sentence", text: "hospital number QX 2020-556677 for Ruth Kemp", want: []string{"QX 2020-556677", "Ruth Kemp"},
			not: []string{" for "}},
		{name: "street with no type word", text: "Envíalo a Lagasca 88, 4º dcha., 28001 Madrid, gracias",
			want: []string{"Lagasca 88, 4º dcha., 28001 Madrid"}},
		{name: "street with particles and no type word", text: "reside en Costa de la Luz 7, bajo A, 11001 Cádiz",
			want: []string{"Costa de la Luz 7, bajo A, 11001 Cádiz"}, not: []string{"reside en"}},
		{name: "office after a home word", text: "fija domicilio en el despacho de su abogado, Alcalá 50, 28001 Madrid",
			not: []string{"50, 28001 Madrid"}}, // the street name alone is still read as a surname (see docs/REDACTION.md)
		{name: "uk postcode alone", text: "new postcode NW3 2QG please", want: []string{"NW3 2QG"}},
		{name: "acronym in prose", text: "Derivado desde HUCA por la tarde", not: []string{"HUCA"}},
		{name: "ordinal after a role", text: "el titular segundo firma aquí", not: []string{"segundo"}},
		{name: "catalan l·l", text: "Sol·licitud de la Maria Puig", want: []string{"Maria Puig"}, not: []string{"Sol·licitud"}},
		{name: "hospital named after the virgin", text: "informe del Hospital Virgen de la Macarena", not: []string{"Macarena"}},
	})
}
