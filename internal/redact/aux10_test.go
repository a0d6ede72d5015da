package redact

import (
	"strings"
	"testing"
)

// Tenth round of issue #13, addresses, passports, phones and card details: the families the
// three newest blind sets (realistic-dev14/15/17, now tuning data) still missed. Their own
// items were not special-cased: realistic-dev18-aux.jsonl (ids 4601…4657) was written first,
// for each family in other wordings, names, languages and layouts — Belgian, Romanian, Italian,
// Portuguese, German and Dutch streets, a town before its street, British flats and house
// names with a village before the post town, floors glued to their door or said first, saint
// streets with s/n, English home cues before a known town, Italian, German, Mexican and
// Russian documents and a generic doc/documento column, phones with an O for a zero, odd
// groupings, a Basque case ending or read out in words, a card's expiry and code read aloud —
// with office, company, order, invoice, reference and place decoys, before the rules.
//
// Before the round's rules (d45fda6):
//   - dev18-aux: 31 of 57 items fully covered, 1 of 44 decoys redacted
//   - dev14: 270 of 300, ADDRESS 0.973, PASSPORT 0.950, 18 of 429 decoys
//   - dev15: 270 of 300, ADDRESS 1.000, PASSPORT 0.980, PHONE 0.983, 15 of 415 decoys
//   - dev17: 267 of 300, ADDRESS 0.929, PASSPORT 0.957, PHONE 0.992, CARD_EXP 0.933, CVV 0.889, 6 of 326 decoys
//   - dev10: 273 of 300, 18 of 529 decoys; dev12: 293 of 300, 12 of 560 decoys
//
// After: dev18-aux 57 of 57, 0 decoys (a court's address, redacted before, is now read as a
// venue's); dev14 273, ADDRESS 0.991, PASSPORT 1.000, 18 decoys; dev15 273, PASSPORT and PHONE
// 1.000, 15 decoys; dev17 277, ADDRESS, PASSPORT, PHONE, CARD_EXP and CVV 1.000, 6 decoys; dev10
// 274 (18 decoys), dev12 293 (12) and every other realistic file unchanged. New predictions on
// the older files that are not labelled: two towns after an English home cue ("living in
// Alicante", "his flat in Marbella"), which those files leave unlabelled. Left: a lower-case
// area with an unknown town and no postcode ("lugar de cabanas 4 pontedeume"), a floor said
// first in figures ("la del 3º B de …").
var aux10Floor = map[string]struct {
	covered     map[string]float64
	fullyItems  int
	maxDecoyHit int
}{
	"realistic-dev18-aux.jsonl": {map[string]float64{"ADDRESS": 0.96, "PASSPORT": 0.9, "PHONE": 0.83}, 55, 0},
	"realistic-dev14.jsonl":     {map[string]float64{"ADDRESS": 0.98, "PASSPORT": 0.97}, 272, 18},
	"realistic-dev15.jsonl":     {map[string]float64{"ADDRESS": 0.99, "PASSPORT": 0.97, "PHONE": 0.99}, 272, 15},
	"realistic-dev17.jsonl":     {map[string]float64{"ADDRESS": 0.98, "PASSPORT": 0.97, "PHONE": 0.99, "CARD_EXP": 0.99, "CVV": 0.99}, 276, 6},
}

// TestAux10Floor holds the default policy (rules only) to aux10Floor.
func TestAux10Floor(t *testing.T) {
	r := newTestRedactor(t, DefaultConfig())
	for _, name := range []string{"realistic-dev18-aux.jsonl", "realistic-dev14.jsonl", "realistic-dev15.jsonl", "realistic-dev17.jsonl"} {
		t.Run(strings.TrimSuffix(name, ".jsonl"), func(t *testing.T) {
			floor := aux10Floor[name]
			rep := evaluate(t, r, loadItems(t, name))
			checkFloor(t, rep, floor.covered, floor.fullyItems, floor.maxDecoyHit)
		})
	}
}

// TestRealisticDev18AuxShape: the round's dev file keeps to its id range, with unique ids.
func TestRealisticDev18AuxShape(t *testing.T) {
	loadDevItems(t, "realistic-dev18-aux.jsonl", 4601, 4699, 40)
}

// TestRound10Forms pins each family of this round, and its look-alikes, on short invented texts
// (other words, names and languages than the dev files').
func TestRound10Forms(t *testing.T) {
	checkIDForms(t, []idForm{
		// phones
		{"O for a zero", "whatsapp: 6O5 33 21 09 por la tarde", TypePhone, []string{"6O5 33 21 09"}, nil},
		{"one and two", "su móvil 7 11 22 33 44, llamar mañana", TypePhone, []string{"7 11 22 33 44"}, nil},
		{"odd grouping without a phone word", "pedido 6 12 34 56 78 enviado", TypePhone, nil, []string{"6 12 34 56 78"}},
		{"Basque ending", "mesedez deitu 688210473ra bihar", TypePhone, []string{"688210473"}, nil},
		{"digits in English words", "my mobile is six one two, three four five, six seven eight, call after lunch", TypePhone,
			[]string{"six one two, three four five, six seven eight"}, nil},
		{"digits in Spanish words", "el teléfono de su hija es el siete uno dos, catorce, cincuenta y cinco, veinte", TypePhone,
			[]string{"siete uno dos, catorce, cincuenta y cinco, veinte"}, nil},
		{"digits in Galician words", "o móbil da filla é o seis sete catro, dezaoito, trinta e dous, noventa e un", TypePhone,
			[]string{"seis sete catro, dezaoito, trinta e dous, noventa e un"}, nil},
		{"digits in Catalan words", "el mòbil de la Laia és el sis sis u, vint-i-dos, quaranta-tres, zero nou", TypePhone,
			[]string{"sis sis u, vint-i-dos, quaranta-tres, zero nou"}, nil},
		{"digits in Basque words", "mugikorra: sei bat zazpi bost lau hiru bi bat zortzi", TypePhone,
			[]string{"sei bat zazpi bost lau hiru bi bat zortzi"}, nil},
		{"counted things are not", "tengo seis hijos, cuatro nietos y nueve bisnietos, y mi teléfono no lo sé", TypePhone, nil, []string{"seis hijos"}},
		// documents
		{"German ID card number word", "Personalausweis-Nr.: T22000129, ausgestellt in Köln", TypePassport, []string{"T22000129"}, nil},
		{"Italian ID, old shape", "documento de identidad italiano AY1234567 a nombre de la clienta", TypePassport, []string{"AY1234567"}, nil},
		{"Russian further along", "el pasaporte ruso del cliente es el 71 2093384, válido", TypePassport, []string{"71 2093384"}, nil},
		{"a verification code is not", "the identity verification code 4X7Y9Z2W expired", TypePassport, nil, []string{"4X7Y9Z2W"}},
		{"an invoice is not", "factura CA18274PX pendiente", TypePassport, nil, []string{"CA18274PX"}},
		// card read aloud
		{"expiry and code read aloud", "Visa 4111 1111 1111 1111, vale hasta 08/29 y el cvv 123", TypeCardExp, []string{"08/29"}, nil},
		{"expiry read aloud in Catalan", "m'ha llegit la targeta 4539 1488 0343 6467 que val fins al 11/28 i el codi de darrere és 402",
			TypeCardExp, []string{"11/28"}, nil},
		{"its code after the card's back", "m'ha llegit la targeta 4539 1488 0343 6467 que val fins al 11/28 i el codi de darrere és 402",
			TypeCVV, []string{"402"}, nil},
		// addresses
		{"Belgian box", "Rue du Marché 12, bte 3, 1000 Bruxelles es su domicilio", TypeAddress, []string{"Rue du Marché 12, bte 3, 1000 Bruxelles"}, nil},
		{"Romanian code after the town", "she lives at Strada Mihai Eminescu 5, Brașov 500019 with her mother", TypeAddress,
			[]string{"Strada Mihai Eminescu 5, Brașov 500019"}, nil},
		{"British village", "Apple Tree Cottage, Back Lane, Over, Cambridge CB24 5NF is the property", TypeAddress,
			[]string{"Apple Tree Cottage, Back Lane, Over, Cambridge CB24 5NF"}, nil},
		{"confirm is no firm", "can you confirm it's Flat 2, 14 Queen Street, Bristol BS8 1QU please", TypeAddress,
			[]string{"Flat 2, 14 Queen Street, Bristol BS8 1QU"}, nil},
		{"English home cue", "she's been living in Jávea for years", TypeAddress, []string{"Jávea"}, nil},
		{"a court's address is not", "Filed at the Crown Court, Exeter Justice Centre, 9 Southernhay Gardens, Exeter EX1 1UH, claim K00EX412", TypeAddress,
			nil, []string{"9 Southernhay Gardens"}},
		{"a meeting's town is not", "we had a meeting in Valencia and she lives in the UK", TypeAddress, nil, []string{"Valencia"}},
		{"floor first", "soy la del cuarto derecha de Alcalá 120, 28009 Madrid", TypeAddress, []string{"cuarto derecha de Alcalá 120, 28009 Madrid"}, nil},
		{"a date is no floor first", "el uno de mayo es el primero de Mayo 2025", TypeAddress, nil, []string{"Mayo 2025"}},
		{"floor first in Catalan", "sóc la del segon primera de Provença 200, us truco per la comunitat", TypeAddress,
			[]string{"segon primera de Provença 200"}, nil},
		{"floor first in Galician", "o veciño do segundo esquerda de Rosalía de Castro 12 non paga", TypeAddress,
			[]string{"segundo esquerda de Rosalía de Castro 12"}, nil},
		{"a month is no street", "da igual el segundo de Mayo 12 veces", TypeAddress, nil, []string{"Mayo 12"}},
		{"glued floor and door", "nueva dirección: c/ san vicente 31 2izda 46002 valencia", TypeAddress, []string{"c/ san vicente 31 2izda 46002 valencia"}, nil},
		{"conjunction after the number", "vive en calle Olmo 5 y trabaja en el mercado", TypeAddress, []string{"calle Olmo 5"}, []string{"y trabaja"}},
		{"saint street with s/n", "a casa está en San Roque s/n, 27400 Monforte", TypeAddress, []string{"San Roque s/n, 27400 Monforte"}, nil},
	})
}
