package redact

import (
	"context"
	"strings"
	"testing"
)

// realisticAddrFloor is what the default policy (rules only, no NER) must keep on addresses
// (issue #13, fourth round): on the spent second held-out set (realistic-dev4.jsonl) and on this
// round's address items (realistic-dev5-addr.jsonl, written in batches, each before the rules for
// its forms): the covered share of ADDRESS values, and the decoys an ADDRESS span overlaps
// (offices, streets as landmarks, room and table numbers, codes), at most.
// maxDecoyHit counts every type's decoys; on dev4 they are the other recognizers', held elsewhere.
var realisticAddrFloor = map[string]struct {
	covered      float64
	fullyItems   int
	maxDecoyHit  int
	maxAddrDecoy int
}{
	"realistic-dev4.jsonl":      {covered: 1, fullyItems: 0, maxDecoyHit: 440, maxAddrDecoy: 0}, // ADDRESS only: the rest is the other rounds'
	"realistic-dev5-addr.jsonl": {covered: 1, fullyItems: 197, maxDecoyHit: 0, maxAddrDecoy: 0},
}

// TestRealisticAddresses holds the default policy to realisticAddrFloor. REDACT_DEV_VALUES=1 also
// logs the missed values (invented data; for a developer's terminal).
func TestRealisticAddresses(t *testing.T) {
	r := newTestRedactor(t, DefaultConfig())
	for _, file := range []string{"realistic-dev4.jsonl", "realistic-dev5-addr.jsonl"} {
		t.Run(strings.TrimSuffix(file, ".jsonl"), func(t *testing.T) {
			floor := realisticAddrFloor[file]
			items := loadItems(t, file)
			rep := evaluate(t, r, items)
			checkFloor(t, rep, map[string]float64{"ADDRESS": floor.covered}, floor.fullyItems, floor.maxDecoyHit)
			n := 0
			for _, it := range items {
				spans, err := r.Detect(context.Background(), it.Text)
				if err != nil {
					t.Fatal(err)
				}
				for _, d := range it.Decoys {
					for _, sp := range spans {
						if sp.Type == TypeAddress && sp.Start < d.End && d.Start < sp.End {
							n++
							break
						}
					}
				}
			}
			if n > floor.maxAddrDecoy {
				t.Errorf("decoys redacted as ADDRESS: %d, want at most %d", n, floor.maxAddrDecoy)
			}
		})
	}
}

// TestRealisticAddrItems checks the address round's file as its generator promises: ids in
// rl-<lang>-<domain>-4401..4599, and every text restored exactly from its redaction, whole and
// streamed in 3-byte chunks.
func TestRealisticAddrItems(t *testing.T) {
	items := loadItems(t, "realistic-dev5-addr.jsonl")
	if len(items) < 197 {
		t.Fatalf("%d items, want at least 197", len(items))
	}
	r := newTestRedactor(t, DefaultConfig())
	for _, it := range items {
		parts := strings.Split(it.ID, "-")
		if len(parts) != 4 || parts[0] != "rl" || parts[1] != it.Lang || parts[2] != it.Domain || parts[3] < "4401" || parts[3] > "4599" {
			t.Errorf("%s: id not rl-<lang>-<domain>-4401..4599", it.ID)
		}
		checkRestores(t, r, it)
	}
}

// TestAddressStreetNamedAfterPerson: a street named after a person is read whole as one address,
// number, floor, postcode and town included, and no PERSON span is left inside or across it.
func TestAddressStreetNamedAfterPerson(t *testing.T) {
	r := newTestRedactor(t, DefaultConfig())
	for _, c := range []struct{ text, addr string }{
		{"vive en Avenida de Manuel Azaña 7, 2º B, 28033 Madrid", "Avenida de Manuel Azaña 7, 2º B, 28033 Madrid"},
		{"la clienta vive en Doctor Esquerdo 120, 4º izq, 28007 Madrid", "Doctor Esquerdo 120, 4º izq, 28007 Madrid"},
		{"He lives at 14 Winston Churchill Avenue, Portsmouth PO1 2DJ", "14 Winston Churchill Avenue, Portsmouth PO1 2DJ"},
		{"vive en Rosalía de Castro 14 2º dcha, 15004 A Coruña", "Rosalía de Castro 14 2º dcha, 15004 A Coruña"},
		{"vive en Juan de Austria 5, bajo B, 28010 Madrid", "Juan de Austria 5, bajo B, 28010 Madrid"},
	} {
		spans, err := r.Detect(context.Background(), c.text)
		if err != nil {
			t.Fatal(err)
		}
		s := strings.Index(c.text, c.addr)
		e := s + len(c.addr)
		whole := false
		for _, sp := range spans {
			if sp.Type == TypeAddress && sp.Start <= s && e <= sp.End {
				whole = true
			}
			if sp.Type == TypePerson && sp.Start < e && s < sp.End {
				t.Errorf("%q: a PERSON span at [%d,%d) inside the address", c.text, sp.Start, sp.End)
			}
		}
		if !whole {
			t.Errorf("%q: the address is not one ADDRESS span", c.text)
		}
	}
}

// TestAddressGrammarForms: forms of this round read whole, and look-alikes left alone.
func TestAddressGrammarForms(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{name: "no street-type word, floor and door, town", text: "direccion nueva: Velázquez 88 2º izq madrid",
			want: []string{"Velázquez 88 2º izq madrid"}},
		{name: "number-first one-word road, UK postcode", text: "new address is 14 Broadway, Cheltenham GL52 3HT, thanks",
			want: []string{"14 Broadway, Cheltenham GL52 3HT"}},
		{name: "Irish Eircode", text: "lives at Flat 7, 19 Merrion Square, Dublin D02 VF65 and", want: []string{"Flat 7, 19 Merrion Square, Dublin D02 VF65"}},
		{name: "postcode and lower-case town after a home word", text: "vive en 35001 las palmas de gran canaria y no puede",
			want: []string{"35001 las palmas de gran canaria"}},
		{name: "known town then postcode", text: "Vive con su hija en Cáceres 10003. Acude", want: []string{"Cáceres 10003"}},
		{name: "town before the street", text: "vecino de Mieres, calle Numa Guilhou 5, 3º C, según", want: []string{"Mieres, calle Numa Guilhou 5, 3º C"}},
		{name: "compound German street", text: "domicilio en Hauptstraße 17, 80331 München.", want: []string{"Hauptstraße 17, 80331 München"}},
		{name: "Dutch postcode", text: "address (Prinsengracht 263, 1016 GV Amsterdam), file", want: []string{"Prinsengracht 263, 1016 GV Amsterdam"}},
		{name: "floor first", text: "viene del 3º B del número 21 de la calle Lepanto, según", want: []string{"3º B del número 21 de la calle Lepanto"}},
		{name: "door word alone after a number", text: "Mesa 5 dcha, al lado del Box 4 izq. y el Golf 7 bajo consumo",
			not: []string{"Mesa 5", "Box 4", "Golf 7"}},
		{name: "a time after a street", text: "Quedamos en la Plaza Mayor a las 10; pagó 12000 euros", not: []string{"Plaza Mayor", "12000"}},
		{name: "a code word before a postcode-like number", text: "ver el pedido 28012 Madrid-Norte", not: []string{"28012"}},
		{name: "an amount after a home word", text: "vive con 2 hijos y cobra 15000 euros al año", not: []string{"15000"}},
		{name: "an office's address", text: "La seu central és a Avinguda Diagonal 621, 08028 Barcelona.", not: []string{"Diagonal"}},
	})
}

// TestAddressProbes: 25 addresses written as probes after dev5-addr was full (its id range
// spent), run before the rules for them: 19 of 25 read whole. Each must be one span.
func TestAddressProbes(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{name: "probe: calle Real 14, 3º izda., 15003 A Coruña", text: "vive en calle Real 14, 3º izda., 15003 A Coruña", want: []string{"calle Real 14, 3º izda., 15003 A Coruña"}},
		{name: "probe: avda america 45 4c", text: "la dire es avda america 45 4c", want: []string{"avda america 45 4c"}},
		{name: "probe: Cl. Larios 5, 29005 Málaga", text: "manda la carta a Cl. Larios 5, 29005 Málaga", want: []string{"Cl. Larios 5, 29005 Málaga"}},
		{name: "probe: Ronda de Sant Pere 11, principal 2a, 080", text: "Residencia: Ronda de Sant Pere 11, principal 2a, 08010 Barcelona", want: []string{"Ronda de Sant Pere 11, principal 2a, 08010 Barcelona"}},
		{name: "probe: calle San Roque nº 3, 1º, en Jaén", text: "vive en calle San Roque nº 3, 1º, en Jaén", want: []string{"calle San Roque nº 3, 1º, en Jaén"}},
		{name: "probe: 5 Queen's Gate, London SW7 5EH", text: "He moved to 5 Queen's Gate, London SW7 5EH", want: []string{"5 Queen's Gate, London SW7 5EH"}},
		{name: "probe: 17 St. John's Road, Sevenoaks TN13 3LR", text: "address: 17 St. John's Road, Sevenoaks TN13 3LR", want: []string{"17 St. John's Road, Sevenoaks TN13 3LR"}},
		{name: "probe: Apt. 12B, 400 West 57th Street, New York", text: "Her address is Apt. 12B, 400 West 57th Street, New York, NY 10019", want: []string{"Apt. 12B, 400 West 57th Street, New York, NY 10019"}},
		{name: "probe: 3 place Bellecour, 69002 Lyon", text: "adresse: 3 place Bellecour, 69002 Lyon", want: []string{"3 place Bellecour, 69002 Lyon"}},
		{name: "probe: Rua da Prata 80, 2.º Dto., 1100-420 Lisb", text: "Morada: Rua da Prata 80, 2.º Dto., 1100-420 Lisboa", want: []string{"Rua da Prata 80, 2.º Dto., 1100-420 Lisboa"}},
		{name: "probe: via Garibaldi 12, 16124 Genova", text: "indirizzo: via Garibaldi 12, 16124 Genova", want: []string{"via Garibaldi 12, 16124 Genova"}},
		{name: "probe: travesía del Carmen 2, bajo izquierda", text: "vive en la travesía del Carmen 2, bajo izquierda", want: []string{"travesía del Carmen 2, bajo izquierda"}},
		{name: "probe: Camiño Real 22, Vilaboa", text: "vive en Camiño Real 22, Vilaboa", want: []string{"Camiño Real 22, Vilaboa"}},
		{name: "probe: Gran Vía 45, 5. eskuma, 48011 Bilbo", text: "Helbidea: Gran Vía 45, 5. eskuma, 48011 Bilbo", want: []string{"Gran Vía 45, 5. eskuma, 48011 Bilbo"}},
		{name: "probe: Zumalakarregi etorbidea 8an", text: "bizi da Zumalakarregi etorbidea 8an", want: []string{"Zumalakarregi etorbidea 8an"}},
		{name: "probe: Calle de la Iglesia s/n, 24400 Ponferrad", text: "la paciente reside en Calle de la Iglesia s/n, 24400 Ponferrada (León)", want: []string{"Calle de la Iglesia s/n, 24400 Ponferrada (León)"}},
		{name: "probe: Av. Reina Victoria 6-8, 28003 Madrid", text: "el cliente: Av. Reina Victoria 6-8, 28003 Madrid", want: []string{"Av. Reina Victoria 6-8, 28003 Madrid"}},
		{name: "probe: Ctra. de Toledo km 12,300, 28906 Getafe", text: "Domicilio: Ctra. de Toledo km 12,300, 28906 Getafe", want: []string{"Ctra. de Toledo km 12,300, 28906 Getafe"}},
		{name: "probe: Sant Cugat, c/ Major 4", text: "vive en Sant Cugat, c/ Major 4", want: []string{"Sant Cugat, c/ Major 4"}},
		{name: "probe: carrer Balmes 150 entresol 1a", text: "vive al carrer Balmes 150 entresol 1a", want: []string{"carrer Balmes 150 entresol 1a"}},
		{name: "probe: Paseo Marítimo 22, bloque 2, 3ºA, 11010 ", text: "su domicilio: Paseo Marítimo 22, bloque 2, 3ºA, 11010 Cádiz", want: []string{"Paseo Marítimo 22, bloque 2, 3ºA, 11010 Cádiz"}},
		{name: "probe: 8/2 Marchmont Road, Edinburgh EH9 1HZ", text: "she lives at 8/2 Marchmont Road, Edinburgh EH9 1HZ", want: []string{"8/2 Marchmont Road, Edinburgh EH9 1HZ"}},
		{name: "probe: c/ Doctor Fleming, 34, esc. dcha., 2º C,", text: "vive en c/ Doctor Fleming, 34, esc. dcha., 2º C, 28036 Madrid", want: []string{"c/ Doctor Fleming, 34, esc. dcha., 2º C, 28036 Madrid"}},
		{name: "probe: C/ Ramón y Cajal 7, 2ºB, 30204 Cartagena", text: "Dirección: C/ Ramón y Cajal 7, 2ºB, 30204 Cartagena (Murcia)", want: []string{"C/ Ramón y Cajal 7, 2ºB, 30204 Cartagena (Murcia)"}},
		{name: "probe: calle de Bravo Murillo 300 5 izquierda", text: "mi nueva direccion: calle de Bravo Murillo 300 5 izquierda", want: []string{"calle de Bravo Murillo 300 5 izquierda"}},
	})
}

// TestAddressMiddles: 22 addresses whose middle segments vary (dashes between floor and door,
// stairs, blocks, premises, a country after the town, ';' before the postcode), written as probes
// and run before the rules for them: 14 of 22 read whole.
func TestAddressMiddles(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{name: "middle: C/ Mayor 5, escalera izquierda, 3º B, 28", text: "vive en C/ Mayor 5, escalera izquierda, 3º B, 28013 Madrid desde 2020.", want: []string{"C/ Mayor 5, escalera izquierda, 3º B, 28013 Madrid"}},
		{name: "middle: Calle Mayor 5, 2º B (interior), 28013 Ma", text: "vive en Calle Mayor 5, 2º B (interior), 28013 Madrid desde 2020.", want: []string{"Calle Mayor 5, 2º B (interior), 28013 Madrid"}},
		{name: "middle: Calle Mayor 5, ático, 28013 Madrid", text: "vive en Calle Mayor 5, ático, 28013 Madrid desde 2020.", want: []string{"Calle Mayor 5, ático, 28013 Madrid"}},
		{name: "middle: C/ Mayor 5, 1º 2ª, 28013 Madrid", text: "vive en C/ Mayor 5, 1º 2ª, 28013 Madrid desde 2020.", want: []string{"C/ Mayor 5, 1º 2ª, 28013 Madrid"}},
		{name: "middle: Calle Mayor 5, Bloque A, Escalera 2, 4ºD", text: "vive en Calle Mayor 5, Bloque A, Escalera 2, 4ºD, 28013 Madrid desde 2020.", want: []string{"Calle Mayor 5, Bloque A, Escalera 2, 4ºD, 28013 Madrid"}},
		{name: "middle: Calle Mayor 5, esc. 2, piso 3, pta. 4, 2", text: "vive en Calle Mayor 5, esc. 2, piso 3, pta. 4, 28013 Madrid desde 2020.", want: []string{"Calle Mayor 5, esc. 2, piso 3, pta. 4, 28013 Madrid"}},
		{name: "middle: Calle Mayor, nº 5, 3º-B, 28013 Madrid", text: "vive en Calle Mayor, nº 5, 3º-B, 28013 Madrid desde 2020.", want: []string{"Calle Mayor, nº 5, 3º-B, 28013 Madrid"}},
		{name: "middle: C/ Mayor 5, 2-1ª, 08001 Barcelona", text: "vive en C/ Mayor 5, 2-1ª, 08001 Barcelona desde 2020.", want: []string{"C/ Mayor 5, 2-1ª, 08001 Barcelona"}},
		{name: "middle: C/ Mayor 5 3-B 28013 Madrid", text: "vive en C/ Mayor 5 3-B 28013 Madrid desde 2020.", want: []string{"C/ Mayor 5 3-B 28013 Madrid"}},
		{name: "middle: Calle Mayor 5, 3ºB dcha, 28013 Madrid", text: "vive en Calle Mayor 5, 3ºB dcha, 28013 Madrid desde 2020.", want: []string{"Calle Mayor 5, 3ºB dcha, 28013 Madrid"}},
		{name: "middle: C/ Major 5, 2n-1a, 08001 Barcelona", text: "vive en C/ Major 5, 2n-1a, 08001 Barcelona desde 2020.", want: []string{"C/ Major 5, 2n-1a, 08001 Barcelona"}},
		{name: "middle: c/ mayor 5, 3º, 2ª, 28013 madrid", text: "vive en c/ mayor 5, 3º, 2ª, 28013 madrid desde 2020.", want: []string{"c/ mayor 5, 3º, 2ª, 28013 madrid"}},
		{name: "middle: Avda. Europa 10, portal 3, 1º izda., 282", text: "vive en Avda. Europa 10, portal 3, 1º izda., 28224 Pozuelo de Alarcón (Madrid) desde 2020.", want: []string{"Avda. Europa 10, portal 3, 1º izda., 28224 Pozuelo de Alarcón (Madrid)"}},
		{name: "middle: C/ Mayor 5, Esc. B, 4º D, 28013 Madrid", text: "vive en C/ Mayor 5, Esc. B, 4º D, 28013 Madrid desde 2020.", want: []string{"C/ Mayor 5, Esc. B, 4º D, 28013 Madrid"}},
		{name: "middle: Pza. Mayor 1, entreplanta, 37002 Salaman", text: "vive en Pza. Mayor 1, entreplanta, 37002 Salamanca desde 2020.", want: []string{"Pza. Mayor 1, entreplanta, 37002 Salamanca"}},
		{name: "middle: C/ Mayor 5, local 2, 28013 Madrid", text: "vive en C/ Mayor 5, local 2, 28013 Madrid desde 2020.", want: []string{"C/ Mayor 5, local 2, 28013 Madrid"}},
		{name: "middle: C/ Mayor nº 5, 5ºA, 28013 Madrid, España", text: "vive en C/ Mayor nº 5, 5ºA, 28013 Madrid, España desde 2020.", want: []string{"C/ Mayor nº 5, 5ºA, 28013 Madrid, España"}},
		{name: "middle: C/ Mayor 5, 4ª planta, puerta 12, 28013 ", text: "vive en C/ Mayor 5, 4ª planta, puerta 12, 28013 Madrid desde 2020.", want: []string{"C/ Mayor 5, 4ª planta, puerta 12, 28013 Madrid"}},
		{name: "middle: Calle Mayor 5 - 2º Izq - 28013 - Madrid", text: "vive en Calle Mayor 5 - 2º Izq - 28013 - Madrid desde 2020.", want: []string{"Calle Mayor 5 - 2º Izq - 28013 - Madrid"}},
		{name: "middle: Calle Mayor, 5. 28013 Madrid", text: "vive en Calle Mayor, 5. 28013 Madrid desde 2020.", want: []string{"Calle Mayor, 5. 28013 Madrid"}},
		{name: "middle: Calle Mayor 5; 28013 Madrid", text: "vive en Calle Mayor 5; 28013 Madrid desde 2020.", want: []string{"Calle Mayor 5; 28013 Madrid"}},
		{name: "middle: C/Mayor 5-2ºA, Madrid 28013", text: "vive en C/Mayor 5-2ºA, Madrid 28013 desde 2020.", want: []string{"C/Mayor 5-2ºA, Madrid 28013"}},
	})
}

// TestAddressPrefixes: the address grammar reads every prefix of this round's texts (cut at any
// byte, as a stream or a truncated paste would) without a panic, and its spans stay inside the text.
func TestAddressPrefixes(t *testing.T) {
	texts := []string{"x Zurbano 45, 28010", "C/Mayor 5-2ºA, Madrid 28013", "8/2 Marchmont Road, Edinburgh EH9 1HZ"}
	for _, it := range loadItems(t, "realistic-dev5-addr.jsonl") {
		texts = append(texts, it.Text)
	}
	for _, text := range texts {
		for n := 0; n <= len(text); n++ {
			s := text[:n]
			ws := splitWords(nil, s)
			fc := &folder{lower: appendLowerSameLength(nil, s)}
			for _, sp := range appendAddresses(nil, s, ws, fc) {
				if sp.Start < 0 || sp.End > len(s) || sp.Start > sp.End || sp.Text != s[sp.Start:sp.End] {
					t.Fatalf("span [%d,%d) out of a %d-byte prefix", sp.Start, sp.End, len(s))
				}
			}
		}
	}
}

// TestAddressProbes2: 25 more probes (an English sentence around a Spanish address, JSON and log
// values, quick typing, streets named after dates, PO boxes, a postcode and town before the
// street), run before the rules for them: 21 of 25 read whole.
func TestAddressProbes2(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{name: "more: Calle Mayor 5, Madrid", text: "she lives in Calle Mayor 5, Madrid", want: []string{"Calle Mayor 5, Madrid"}},
		{name: "more: Calle Mayor 5, 2º B", text: "\"address\": {\"line\": [\"Calle Mayor 5, 2º B\"], \"city\": \"Madrid\", \"postalCode\": \"28013\"}", want: []string{"Calle Mayor 5, 2º B"}},
		{name: "more: 28013", text: "\"address\": {\"line\": [\"Calle Mayor 5, 2º B\"], \"city\": \"Madrid\", \"postalCode\": \"28013\"}", want: []string{"28013"}},
		{name: "more: C/ Luna 3, 28004 Madrid", text: "address=\"C/ Luna 3, 28004 Madrid\" status=ok", want: []string{"C/ Luna 3, 28004 Madrid"}},
		{name: "more: Avda. del Mar 12, 03001 Alicante", text: "direccion: \"Avda. del Mar 12, 03001 Alicante\"", want: []string{"Avda. del Mar 12, 03001 Alicante"}},
		{name: "more: C/ Mayor 5, Madrid", text: "(domicilio: C/ Mayor 5, Madrid)", want: []string{"C/ Mayor 5, Madrid"}},
		{name: "more: calle mayor 5", text: "vive x la calle mayor 5, cerca del mercado", want: []string{"calle mayor 5"}},
		{name: "more: c mayor 5 madrid", text: "viv en c mayor 5 madrid", want: []string{"c mayor 5 madrid"}},
		{name: "more: calle Gral. Ricardos 120, 3ºB, Madrid", text: "su direccion: calle Gral. Ricardos 120, 3ºB, Madrid", want: []string{"calle Gral. Ricardos 120, 3ºB, Madrid"}},
		{name: "more: calle del Dr. Castelo 10, 1º dcha", text: "vive en la calle del Dr. Castelo 10, 1º dcha", want: []string{"calle del Dr. Castelo 10, 1º dcha"}},
		{name: "more: Av. de los Reyes Católicos 3, Esc. 1, 5º", text: "Domicilio: Av. de los Reyes Católicos 3, Esc. 1, 5ºB, 18009 Granada", want: []string{"Av. de los Reyes Católicos 3, Esc. 1, 5ºB, 18009 Granada"}},
		{name: "more: calle Santa María de la Cabeza 44", text: "vive en la calle Santa María de la Cabeza 44", want: []string{"calle Santa María de la Cabeza 44"}},
		{name: "more: c/ 1º de Mayo 15, 30003 Murcia", text: "domicilio en c/ 1º de Mayo 15, 30003 Murcia", want: []string{"c/ 1º de Mayo 15, 30003 Murcia"}},
		{name: "more: Avenida 28 de Febrero 10, Sevilla", text: "vive en Avenida 28 de Febrero 10, Sevilla", want: []string{"Avenida 28 de Febrero 10, Sevilla"}},
		{name: "more: calle 12 de Octubre 5", text: "vive en la calle 12 de Octubre 5", want: []string{"calle 12 de Octubre 5"}},
		{name: "more: Flat 4, Block C, Marina Court, Gibraltar", text: "Address: Flat 4, Block C, Marina Court, Gibraltar GX11 1AA", want: []string{"Flat 4, Block C, Marina Court, Gibraltar GX11 1AA"}},
		{name: "more: P.O. Box 123, Miami, FL 33101", text: "mailing address: P.O. Box 123, Miami, FL 33101", want: []string{"P.O. Box 123, Miami, FL 33101"}},
		{name: "more: plaza del Pilar n.º 2, 3.º izda., 50003 ", text: "vive en la plaza del Pilar n.º 2, 3.º izda., 50003 Zaragoza", want: []string{"plaza del Pilar n.º 2, 3.º izda., 50003 Zaragoza"}},
		{name: "more: Av. Meridiana 350, 7è 2a, 08027 Barcelon", text: "Adreça: Av. Meridiana 350, 7è 2a, 08027 Barcelona", want: []string{"Av. Meridiana 350, 7è 2a, 08027 Barcelona"}},
		{name: "more: Avda. de Vigo 14, 3º dta., 36003 Ponteve", text: "Enderezo: Avda. de Vigo 14, 3º dta., 36003 Pontevedra", want: []string{"Avda. de Vigo 14, 3º dta., 36003 Pontevedra"}},
		{name: "more: Foru kalea 4, 1.a, 48990 Getxo", text: "Helbidea: Foru kalea 4, 1.a, 48990 Getxo", want: []string{"Foru kalea 4, 1.a, 48990 Getxo"}},
		{name: "more: C/ Alcalde Sainz de Baranda 55, 28009", text: "dirección: C/ Alcalde Sainz de Baranda 55, 28009", want: []string{"C/ Alcalde Sainz de Baranda 55, 28009"}},
		{name: "more: calle Real 8", text: "vive en San Sebastián de los Reyes, en la calle Real 8", want: []string{"calle Real 8"}},
		{name: "more: Paseo de la Habana 12, 6ºD", text: "su piso está en Paseo de la Habana 12, 6ºD", want: []string{"Paseo de la Habana 12, 6ºD"}},
		{name: "more: 28013 Madrid, C/ Arenal 4", text: "manda todo a: 28013 Madrid, C/ Arenal 4", want: []string{"28013 Madrid, C/ Arenal 4"}},
		{name: "a lone c in prose", text: "tomar vitamina c dos veces 5 días y vitamina c 1000 mg", not: []string{"vitamina"}},
		{name: "a lone c then a count", text: "el grupo c 3 personas", not: []string{"grupo c"}},
	})
}

// TestAddressProbes3: 24 probes in French, Portuguese, Italian, German, British, Irish, Basque,
// Galician, Catalan and Spanish forms with less common street types and units (Bât., Appt,
// Hauptstr., zumarkalea, Carrera, Glorieta, Pasaje), run before the rules for them: 20 of 24 whole.
func TestAddressProbes3(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{name: "eu: 14 bis avenue Jean Jaurès, Bât. B, 69007", text: "Adresse: 14 bis avenue Jean Jaurès, Bât. B, 69007 Lyon", want: []string{"14 bis avenue Jean Jaurès, Bât. B, 69007 Lyon"}},
		{name: "eu: Appt 12, 5 rue des Fleurs, 31000 Toulous", text: "adresse : Appt 12, 5 rue des Fleurs, 31000 Toulouse", want: []string{"Appt 12, 5 rue des Fleurs, 31000 Toulouse"}},
		{name: "eu: Rua de Santa Catarina, nº 120, 3º Esq, 4", text: "Morada: Rua de Santa Catarina, nº 120, 3º Esq, 4000-447 Porto", want: []string{"Rua de Santa Catarina, nº 120, 3º Esq, 4000-447 Porto"}},
		{name: "eu: Via Roma, 10 - 00184 Roma (RM)", text: "Indirizzo: Via Roma, 10 - 00184 Roma (RM)", want: []string{"Via Roma, 10 - 00184 Roma (RM)"}},
		{name: "eu: Hauptstr. 5a, 10115 Berlin", text: "Anschrift: Hauptstr. 5a, 10115 Berlin", want: []string{"Hauptstr. 5a, 10115 Berlin"}},
		{name: "eu: 742 Evergreen Terrace Apt #4, Springfiel", text: "address: 742 Evergreen Terrace Apt #4, Springfield, OR 97477", want: []string{"742 Evergreen Terrace Apt #4, Springfield, OR 97477"}},
		{name: "eu: Flat 1/2, 33 Hyndland Road, Glasgow G12 ", text: "address: Flat 1/2, 33 Hyndland Road, Glasgow G12 9UX", want: []string{"Flat 1/2, 33 Hyndland Road, Glasgow G12 9UX"}},
		{name: "eu: Urkixo zumarkalea 10, 48008 Bilbo", text: "Helbidea: Urkixo zumarkalea 10, 48008 Bilbo", want: []string{"Urkixo zumarkalea 10, 48008 Bilbo"}},
		{name: "eu: Zabalbide kalea, 3, 2.ezk, Bilbo", text: "helbidea: Zabalbide kalea, 3, 2.ezk, Bilbo", want: []string{"Zabalbide kalea, 3, 2.ezk, Bilbo"}},
		{name: "eu: Rúa de San Pedro, nº 14, baixo, 15703 Sa", text: "Enderezo: Rúa de San Pedro, nº 14, baixo, 15703 Santiago de Compostela", want: []string{"Rúa de San Pedro, nº 14, baixo, 15703 Santiago de Compostela"}},
		{name: "eu: C/ de Sants, 79, 4t 1a, 08014 Barcelona", text: "Adreça: C/ de Sants, 79, 4t 1a, 08014 Barcelona", want: []string{"C/ de Sants, 79, 4t 1a, 08014 Barcelona"}},
		{name: "eu: Pl. de la Vila 2, 17001 Girona", text: "Adreça: Pl. de la Vila 2, 17001 Girona", want: []string{"Pl. de la Vila 2, 17001 Girona"}},
		{name: "eu: Unit 5, 2 Harbour Way, Cork T23 AB12", text: "address: Unit 5, 2 Harbour Way, Cork T23 AB12", want: []string{"Unit 5, 2 Harbour Way, Cork T23 AB12"}},
		{name: "eu: Rambla de Catalunya 88, 2n, Barcelona", text: "vive en la Rambla de Catalunya 88, 2n, Barcelona", want: []string{"Rambla de Catalunya 88, 2n, Barcelona"}},
		{name: "eu: Av. Diagonal 500 08006", text: "vive en Av. Diagonal 500 08006", want: []string{"Av. Diagonal 500 08006"}},
		{name: "eu: Glorieta de Bilbao 1, 28004 Madrid", text: "Domicilio: Glorieta de Bilbao 1, 28004 Madrid", want: []string{"Glorieta de Bilbao 1, 28004 Madrid"}},
		{name: "eu: Camino de Santiago 33, Urb. El Bosque, 4", text: "Domicilio: Camino de Santiago 33, Urb. El Bosque, 47008 Valladolid", want: []string{"Camino de Santiago 33, Urb. El Bosque, 47008 Valladolid"}},
		{name: "eu: Calle Cuesta de San Vicente 4, 28008 Mad", text: "Domicilio: Calle Cuesta de San Vicente 4, 28008 Madrid", want: []string{"Calle Cuesta de San Vicente 4, 28008 Madrid"}},
		{name: "eu: Carrera de San Jerónimo 15", text: "vive en Carrera de San Jerónimo 15", want: []string{"Carrera de San Jerónimo 15"}},
		{name: "eu: Pasaje de la Alhambra 3, 18009 Granada", text: "Dirección: Pasaje de la Alhambra 3, 18009 Granada", want: []string{"Pasaje de la Alhambra 3, 18009 Granada"}},
		{name: "eu: Paseo del Prado, 20, 5º", text: "vive en el Paseo del Prado, 20, 5º", want: []string{"Paseo del Prado, 20, 5º"}},
		{name: "eu: Avenida Menéndez Pelayo 67, escalera B, ", text: "Domicilio: Avenida Menéndez Pelayo 67, escalera B, 7º izda, 28009 Madrid", want: []string{"Avenida Menéndez Pelayo 67, escalera B, 7º izda, 28009 Madrid"}},
		{name: "eu: C/ del Pintor Sorolla 9 pta 14 46002 Val", text: "vive en C/ del Pintor Sorolla 9 pta 14 46002 Valencia", want: []string{"C/ del Pintor Sorolla 9 pta 14 46002 Valencia"}},
		{name: "eu: Calle Ribera del Loira 8, 28042 Madrid", text: "domicilio fiscal: Calle Ribera del Loira 8, 28042 Madrid", want: []string{"Calle Ribera del Loira 8, 28042 Madrid"}},
	})
}

// TestAddressCommonNouns: street-type words used as common nouns before a number ("un paseo de 20
// minutos", "la carrera de San Silvestre 2024"), written as probes: the rules at the start of the
// round read 7 of these 16 as addresses, the first version of this round's 8. None is one now.
func TestAddressCommonNouns(t *testing.T) {
	checkNoAddress(t, []string{
		"ganó la carrera de San Silvestre 2024 en Vallecas",
		"dimos un paseo de 20 minutos por el parque",
		"la ronda de 2023 fue mejor",
		"el camino de 5 km hasta la ermita",
		"la avenida de 3 carriles estaba cortada",
		"hizo la travesía de 12 horas",
		"la plaza de 300 metros cuadrados",
		"cruzamos la calle de 4 carriles",
		"the road 5 times faster",
		"la via 2 es la correcta",
		"via email 3 veces",
		"Pagó en la Rambla 20 euros",
		"Vive en España, Madrid 2 años",
		"el piso 3 de la oficina, 28001 clientes",
		"Sevilla, 28 de enero de 2025",
		"Jugó en Getafe 3 temporadas, Madrid",
	})
}

// TestAddressNamedStreets: 15 streets named after people, saints, kings and popes, with and
// without a street-type word, next to a customer's name; run before the rule for them: 14 of 15
// whole. Each is one span.
func TestAddressNamedStreets(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{name: "named: calle Juan de Juanes 12 3º 46007", text: "[09:14] cliente: vivo en calle Juan de Juanes 12 3º 46007", want: []string{"calle Juan de Juanes 12 3º 46007"}},
		{name: "named: C/ Isabel la Católica 4, 2ºD, 47001 Vall", text: "Rosa Martín, C/ Isabel la Católica 4, 2ºD, 47001 Valladolid, DNI en trámite", want: []string{"C/ Isabel la Católica 4, 2ºD, 47001 Valladolid"}},
		{name: "named: Avenida Alfonso X el Sabio 20, 30008 Mur", text: "vive en Avenida Alfonso X el Sabio 20, 30008 Murcia", want: []string{"Avenida Alfonso X el Sabio 20, 30008 Murcia"}},
		{name: "named: Calle Pío XII 7, 31008 Pamplona", text: "domicilio: Calle Pío XII 7, 31008 Pamplona", want: []string{"Calle Pío XII 7, 31008 Pamplona"}},
		{name: "named: Plaza Juan Pablo II 3, 1º", text: "vive en Plaza Juan Pablo II 3, 1º", want: []string{"Plaza Juan Pablo II 3, 1º"}},
		{name: "named: Calle Marqués de Larios 4, 29005 Málaga", text: "Dña. Carmen Ortiz, con domicilio en Calle Marqués de Larios 4, 29005 Málaga", want: []string{"Calle Marqués de Larios 4, 29005 Málaga"}},
		{name: "named: calle de Fray Luis de León 11, 4ºA", text: "vive en la calle de Fray Luis de León 11, 4ºA", want: []string{"calle de Fray Luis de León 11, 4ºA"}},
		{name: "named: C/ Sor Ángela de la Cruz 22", text: "vive en C/ Sor Ángela de la Cruz 22", want: []string{"C/ Sor Ángela de la Cruz 22"}},
		{name: "named: Hermanos Machado 14, 2º B, 28017 Madrid", text: "vive en Hermanos Machado 14, 2º B, 28017 Madrid", want: []string{"Hermanos Machado 14, 2º B, 28017 Madrid"}},
		{name: "named: Reyes Católicos 5, bajo, Granada", text: "vive en Reyes Católicos 5, bajo, Granada", want: []string{"Reyes Católicos 5, bajo, Granada"}},
		{name: "named: Maestro Rodrigo 44, 46015 Valencia", text: "vive en Maestro Rodrigo 44, 46015 Valencia", want: []string{"Maestro Rodrigo 44, 46015 Valencia"}},
		{name: "named: 3 Lady Margaret Road, Cambridge CB3 0BU", text: "My address: 3 Lady Margaret Road, Cambridge CB3 0BU", want: []string{"3 Lady Margaret Road, Cambridge CB3 0BU"}},
		{name: "named: Virgen de la Esperanza 3 1 izq sevilla", text: "vive en Virgen de la Esperanza 3 1 izq sevilla", want: []string{"Virgen de la Esperanza 3 1 izq sevilla"}},
		{name: "named: Doctor Areilza 12, 48011 Bilbao", text: "Jon vive en Doctor Areilza 12, 48011 Bilbao", want: []string{"Doctor Areilza 12, 48011 Bilbao"}},
		{name: "named: Avda. Pablo Iglesias 5, 28003 Madrid", text: "Cliente Pepe Gómez - Avda. Pablo Iglesias 5, 28003 Madrid - tlf", want: []string{"Avda. Pablo Iglesias 5, 28003 Madrid"}},
	})
}

// TestAddressProbes4: 15 probes from clinic and bank notes (lower case, arrows, Basque 'eskuma',
// 'el 3 de la calle …', a town in brackets after the number), run before the rules for them: 12
// of 15 whole.
func TestAddressProbes4(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{name: "sloppy: c/ ancha 14 bajo", text: "pac. 82a, vive sola en c/ ancha 14 bajo, sin ascensor", want: []string{"c/ ancha 14 bajo"}},
		{name: "sloppy: calle nueva 3, 2º, de villarrobledo", text: "aviso: el sr. vive ahora en la calle nueva 3, 2º, de villarrobledo", want: []string{"calle nueva 3, 2º, de villarrobledo"}},
		{name: "sloppy: avda de la paz 27 5ºc 26004 logroño", text: "dice q le mandemos todo a avda de la paz 27 5ºc 26004 logroño", want: []string{"avda de la paz 27 5ºc 26004 logroño"}},
		{name: "sloppy: Travessera de Gràcia 255, 4t 3a, 08025 B", text: "Domicilio actual: Travessera de Gràcia 255, 4t 3a, 08025 Barcelona", want: []string{"Travessera de Gràcia 255, 4t 3a, 08025 Barcelona"}},
		{name: "sloppy: Errekalde kalea 14, 3. eskuma", text: "vive en Errekalde kalea 14, 3. eskuma", want: []string{"Errekalde kalea 14, 3. eskuma"}},
		{name: "sloppy: 27 Rua do Carmo, Lisboa", text: "Address on file: 27 Rua do Carmo, Lisboa", want: []string{"27 Rua do Carmo, Lisboa"}},
		{name: "sloppy: C/ Olivar 9, 3ºD, 28012 Madrid", text: "nueva direccion → C/ Olivar 9, 3ºD, 28012 Madrid", want: []string{"C/ Olivar 9, 3ºD, 28012 Madrid"}},
		{name: "sloppy: c/ San Vicente Mártir, 85 - pta. 12 - 46", text: "dirección: c/ San Vicente Mártir, 85 - pta. 12 - 46007 Valencia", want: []string{"c/ San Vicente Mártir, 85 - pta. 12 - 46007 Valencia"}},
		{name: "sloppy: 3 de la calle Toledo", text: "vive en el 3 de la calle Toledo", want: []string{"3 de la calle Toledo"}},
		{name: "sloppy: Avenida de Burgos, 12 (Madrid)", text: "el domicilio es Avenida de Burgos, 12 (Madrid)", want: []string{"Avenida de Burgos, 12 (Madrid)"}},
		{name: "sloppy: Calle Mayor n° 14 de Alcalá de Henares", text: "Vive en la Calle Mayor n° 14 de Alcalá de Henares", want: []string{"Calle Mayor n° 14 de Alcalá de Henares"}},
		{name: "sloppy: Vigo, Rúa Urzaiz 40, 6º", text: "se ha mudado a Vigo, Rúa Urzaiz 40, 6º", want: []string{"Vigo, Rúa Urzaiz 40, 6º"}},
		{name: "sloppy: Sant Joan Despí, c/ Major 12", text: "su casa está en Sant Joan Despí, c/ Major 12", want: []string{"Sant Joan Despí, c/ Major 12"}},
		{name: "sloppy: Pza. del Ayuntamiento nº 1, 2ª planta, 4", text: "Domicilio: Pza. del Ayuntamiento nº 1, 2ª planta, 46002 Valencia", want: []string{"Pza. del Ayuntamiento nº 1, 2ª planta, 46002 Valencia"}},
		{name: "sloppy: Polígono Cobo Calleja, C/ Fundidores 12,", text: "dirección de entrega: Polígono Cobo Calleja, C/ Fundidores 12, nave 5, 28947 Fuenlabrada", want: []string{"Polígono Cobo Calleja, C/ Fundidores 12, nave 5, 28947 Fuenlabrada"}},
	})
}

// TestAddressNumbersInNotes: a capitalised word, a number and a floor or door word in clinic and
// bank notes that is no address (wards, cards, phones, lots, scores). None is read as one, before
// this round or after.
func TestAddressNumbersInNotes(t *testing.T) {
	checkNoAddress(t, []string{
		"Paciente de Cardiología 3 B, derivado por Urgencias 2 izq.",
		"Ingreso en Planta 5 dcha, cama 12.",
		"Tarjeta Visa 4 dcha no aplica.",
		"Fuimos en el AVE Madrid 28 min hasta Toledo.",
		"La sucursal de Granada 18001 cierra el viernes.",
		"El equipo de Sevilla, calle arriba, ganó 3 partidos.",
		"Presupuesto Obra 12, 3º fase, 28001 euros.",
		"Ley 7, 2º párrafo, de la Comunidad de Madrid.",
		"Lote A 12 B, caducidad 2026.",
		"El iPhone 15 Pro y el Galaxy 24 Ultra.",
		"En Toledo 45 personas esperan.",
		"Recibí de Madrid, Santander 300 euros.",
		"Renta 2024, casilla 505 B.",
		"Corte Inglés 3ª planta, sección Hogar.",
		"Real Madrid 3 1 Barcelona",
		"Mercadona 5 km, 28001 pasos.",
	})
}

// TestAddressProbes5: the last 10 probes (table cells with pipes, a mail's footer, an apartado,
// a plot, a Galician place, a finca in brackets, Geneva, an Edinburgh flat, a province in lower
// case in brackets), written after every rule of this round: all 10 read whole with no change.
func TestAddressProbes5(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{name: "last: Calle Hileras 4, 1ºB", text: "Titular: Marcos Pino | Dirección: Calle Hileras 4, 1ºB | CP: 28013 | Madrid", want: []string{"Calle Hileras 4, 1ºB"}},
		{name: "last: Calle Arganzuela 3, 28005", text: "— Enviado desde mi iPhone. Mi dirección nueva es Calle Arganzuela 3, 28005.", want: []string{"Calle Arganzuela 3, 28005"}},
		{name: "last: Apartado 45, 15080 A Coruña", text: "la dirección postal es: Apartado 45, 15080 A Coruña", want: []string{"Apartado 45, 15080 A Coruña"}},
		{name: "last: urbanización El Soto, parcela 23, Boadil", text: "vive en urbanización El Soto, parcela 23, Boadilla", want: []string{"urbanización El Soto, parcela 23, Boadilla"}},
		{name: "last: Lugar Outeiro, 5 - Arteixo", text: "vive en Lugar Outeiro, 5 - Arteixo", want: []string{"Lugar Outeiro, 5 - Arteixo"}},
		{name: "last: Camino Viejo 4 (Finca Los Robles), 41500", text: "Domicilio: Camino Viejo 4 (Finca Los Robles), 41500 Alcalá de Guadaíra", want: []string{"Camino Viejo 4 (Finca Los Robles), 41500 Alcalá de Guadaíra"}},
		{name: "last: Apartment 3, 7 Rue du Lac, 1201 Genève", text: "please send to: Apartment 3, 7 Rue du Lac, 1201 Genève", want: []string{"Apartment 3, 7 Rue du Lac, 1201 Genève"}},
		{name: "last: 14/3 Leith Walk, Edinburgh", text: "his flat is at 14/3 Leith Walk, Edinburgh", want: []string{"14/3 Leith Walk, Edinburgh"}},
		{name: "last: c/ la paz 4 1º izda (zaragoza)", text: "c/ la paz 4 1º izda (zaragoza)", want: []string{"c/ la paz 4 1º izda (zaragoza)"}},
		{name: "last: Avenida de Portugal 30, 3º, Móstoles", text: "Dirección: Avenida de Portugal 30, 3º, Móstoles", want: []string{"Avenida de Portugal 30, 3º, Móstoles"}},
	})
}

// checkNoAddress: no span of any text is an address.
func checkNoAddress(t *testing.T, texts []string) {
	t.Helper()
	r := newTestRedactor(t, DefaultConfig())
	for _, text := range texts {
		spans, err := r.Detect(context.Background(), text)
		if err != nil {
			t.Fatal(err)
		}
		for _, sp := range spans {
			if sp.Type == TypeAddress {
				t.Errorf("%q: an address read at [%d,%d)", text, sp.Start, sp.End)
			}
		}
	}
}
