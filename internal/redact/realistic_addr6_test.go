package redact

import (
	"context"
	"strings"
	"testing"
)

// realisticAddrRoundsFloor (issue #13, fifth and sixth rounds: address shapes and office
// precision): on each round's own items (realistic-dev7-addr.jsonl, realistic-dev9-addr.jsonl,
// each written in two batches, each batch run before the rules for its forms) and on the spent
// held-out sets (dev6, the third; dev8, the fourth). covered is the ADDRESS share; maxAddrDecoy
// counts decoys an ADDRESS span overlaps (offices, hotels, venues, parking spaces); maxOffice
// counts OFFICE decoys any span overlaps (addresses, switchboards, shared mailboxes).
var realisticAddrRoundsFloor = []struct {
	file         string
	covered      float64
	fullyItems   int
	maxDecoyHit  int
	maxAddrDecoy int
	maxOffice    int
}{
	{"realistic-dev6.jsonl", 1, 278, 6, 0, 0},
	{"realistic-dev7-addr.jsonl", 1, 49, 0, 0, 0},
	{"realistic-dev8.jsonl", 0.969, 286, 7, 0, 0},      // before the sixth round: 0.888, 248 items, 25 decoys (15 OFFICE)
	{"realistic-dev9-addr.jsonl", 0.966, 91, 0, 0, 0},  // before the sixth round: 0.583, 68 items, 20 decoys
	{"realistic-dev10.jsonl", 0.96, 236, 20, 4, 4},     // before the seventh round: 0.916, 229 items, 25 decoys (9 OFFICE)
	{"realistic-dev11-addr.jsonl", 0.945, 41, 3, 0, 1}, // before the seventh round: 0.622, 28 items, 9 decoys
}

func TestRealisticAddressRounds(t *testing.T) {
	r := newTestRedactor(t, DefaultConfig())
	for _, floor := range realisticAddrRoundsFloor {
		t.Run(strings.TrimSuffix(floor.file, ".jsonl"), func(t *testing.T) {
			items := loadItems(t, floor.file)
			rep := evaluate(t, r, items)
			checkFloor(t, rep, map[string]float64{"ADDRESS": floor.covered}, floor.fullyItems, floor.maxDecoyHit)
			addr, office := 0, 0
			for _, it := range items {
				spans, err := r.Detect(context.Background(), it.Text)
				if err != nil {
					t.Fatal(err)
				}
				for _, d := range it.Decoys {
					a, o := false, false
					for _, sp := range spans {
						if sp.Start < d.End && d.Start < sp.End {
							a = a || sp.Type == TypeAddress
							o = o || d.Type == "OFFICE"
						}
					}
					if a {
						addr++
					}
					if o {
						office++
					}
				}
			}
			if addr > floor.maxAddrDecoy {
				t.Errorf("decoys redacted as ADDRESS: %d, want at most %d", addr, floor.maxAddrDecoy)
			}
			if office > floor.maxOffice {
				t.Errorf("OFFICE decoys redacted: %d, want at most %d", office, floor.maxOffice)
			}
		})
	}
}

// TestRealisticAddrRoundItems: each round's address file has ids rl-<lang>-<domain>-lo..hi, unique,
// and labels no value with a check digit that would fail it.
func TestRealisticAddrRoundItems(t *testing.T) {
	for _, f := range []struct{ file, lo, hi string }{
		{"realistic-dev7-addr.jsonl", "6401", "6599"}, {"realistic-dev9-addr.jsonl", "8401", "8599"}} {
		seen := map[string]bool{}
		for _, it := range loadItems(t, f.file) {
			k := strings.LastIndexByte(it.ID, '-')
			if !strings.HasPrefix(it.ID, "rl-") || k < 0 || it.ID[k+1:] < f.lo || it.ID[k+1:] > f.hi || len(it.ID[k+1:]) != 4 {
				t.Errorf("id %q outside rl-<lang>-<domain>-%s..%s", it.ID, f.lo, f.hi)
			}
			if seen[it.ID] {
				t.Errorf("id %q twice", it.ID)
			}
			seen[it.ID] = true
			for _, e := range it.Entities {
				switch e.Type {
				case "DNI", "NIE":
					if !validDNI(e.Value) {
						t.Errorf("%s: %s fails its letter", it.ID, e.Type)
					}
				case "NSS":
					if !validNSS(e.Value) {
						t.Errorf("%s: NSS fails its check", it.ID)
					}
				case "IBAN":
					if !validIBAN(e.Value) {
						t.Errorf("%s: IBAN fails its check", it.ID)
					}
				}
			}
		}
	}
}

// TestAddressOffice6: this round's office and switchboard guard, and its recall shapes, as rules.
func TestAddressOffice6(t *testing.T) {
	r := newTestRedactor(t, DefaultConfig())
	for _, c := range []struct {
		text, value string
		typ         string
		redact      bool
	}{
		// institutions and employers before the address
		{"Derivado a Centro de Salud Delicias, calle Mayor 3, 50010 Zaragoza.", "calle Mayor 3, 50010 Zaragoza", TypeAddress, false},
		{"Referred to St Anne's Hospital, 4 Elm Road, Leeds LS6 2AB.", "4 Elm Road, Leeds LS6 2AB", TypeAddress, false},
		{"Vive en calle Luna 3, 28004 Madrid. Aseguradora: Seguros Sol, S.A., Avenida Norte 5, 28020 Madrid.", "Avenida Norte 5, 28020 Madrid", TypeAddress, false},
		{"vive en calle Luna 3, 28004 Madrid y trabaja en Talleres Gil S.L., calle Sur 8, 28020 Madrid", "calle Luna 3, 28004 Madrid", TypeAddress, true},
		{"Ana Gil | Gestora de clientes | Calle Mayor 2, 28013 Madrid", "Calle Mayor 2, 28013 Madrid", TypeAddress, false},
		{"La firma de la escritura será en calle Colón 2, 46004 Valencia.", "calle Colón 2, 46004 Valencia", TypeAddress, false},
		{"Banco Sol\nOficina 0049\nPaseo Real 7\n47006 Valladolid\n\nSra. Eva Gil\nCalle Toro 3, 4º A\n47007 Valladolid", "Calle Toro 3, 4º A\n47007 Valladolid", TypeAddress, true},
		{"Oficio al Ayuntamiento; notificación a Luis Gil en C/ Toro 9, 3º, 47001 Valladolid", "C/ Toro 9, 3º, 47001 Valladolid", TypeAddress, true},
		{"vive cerca del Hospital Clínico, calle Mayor 5, 28013 Madrid", "calle Mayor 5, 28013 Madrid", TypeAddress, true},
		{"vive en calle Luna 3, 46001 Valencia y trabaja en Mercadona, calle Sur 8, 46001 Valencia", "calle Sur 8, 46001 Valencia", TypeAddress, false},
		{"vive en calle Luna 3, 46001 Valencia y trabaja en Mercadona, calle Sur 8, 46001 Valencia", "calle Luna 3, 46001 Valencia", TypeAddress, true},
		{"Trabaja en Correos. Domicilio: calle Mayor 3, 50001 Zaragoza", "calle Mayor 3, 50001 Zaragoza", TypeAddress, true},
		// switchboards
		{"Farmacia López, tel. 976 12 34 56", "976 12 34 56", TypePhone, false},
		{"Un abrazo,\nCova\n--\nAstur Legal Abogados\nC/ Fruela 5, 33007 Oviedo · 985 20 11 40", "985 20 11 40", TypePhone, false},
		{"Saludos,\nMarta Ruiz\nCalle Mayor 20, 28013 Madrid · 91 555 12 34", "91 555 12 34", TypePhone, true},
		{"Abogada\nCliente: Luis Gil · 91 555 12 34", "91 555 12 34", TypePhone, true},
		{"Un saludo,\nIker Gil\nOficina 2095 · 943 00 12 34", "943 00 12 34", TypePhone, false},
		{"Despacho: Calle Toro 7, 28004 Madrid, tel. 91 310 00 00.", "91 310 00 00", TypePhone, false},
		{"Cita en Hospital de Cruces; avisar al 946 00 60 00 si no puede.", "946 00 60 00", TypePhone, false},
		{"Ingresado en el Hospital de Cruces; su hija llama desde casa, 944 12 34 56.", "944 12 34 56", TypePhone, true},
		{"Oficina 0301. Cliente: Marc Soler, teléfono 93 211 22 33", "93 211 22 33", TypePhone, true},
		{"Hospital de Cruces, paciente, móvil 612 34 56 78", "612 34 56 78", TypePhone, true},
		// recall shapes
		{"vive en 28014 madrid centro, no sabe el portal", "28014 madrid centro", TypeAddress, true},
		{"el inquilino vive en ronda de atocha 15 3 izq y debe 3 meses", "ronda de atocha 15 3 izq", TypeAddress, true},
		{"ella vive en av. de la paz 22 4º d, 41010 sevilla y trabaja fuera", "av. de la paz 22 4º d, 41010 sevilla", TypeAddress, true},
		{"vive en calle mayor 8 bajo a desde 2019", "calle mayor 8 bajo a", TypeAddress, true},
		{"she lives at Prinsengracht 263-H, 1016 GV Amsterdam", "Prinsengracht 263-H, 1016 GV Amsterdam", TypeAddress, true},
		{"a flat at Carrer des Moll 8, 07157 Port d'Andratx", "Carrer des Moll 8, 07157 Port d'Andratx", TypeAddress, true},
		{"vive en Hermanos Machado 14 con su hermana", "Hermanos Machado 14", TypeAddress, true},
		{"vive en calle la palma 12 puerto de la cruz. su dni", "calle la palma 12 puerto de la cruz", TypeAddress, true},
		{"new address 14 Ranelagh Road, Dublin 6, D06 C9X4 from Monday", "14 Ranelagh Road, Dublin 6, D06 C9X4", TypeAddress, true},
		{"D. Luis Gil\nAvda. de Portugal 31\n3º D\n37006 Salamanca", "Avda. de Portugal 31\n3º D\n37006 Salamanca", TypeAddress, true},
		// look-alikes
		{"vive en Móstoles 15 años y trabaja en Madrid", "Móstoles 15", TypeAddress, false},
		{"el 2º a la derecha", "2º a", TypeAddress, false},
		{"la calle Mayor está cortada por obras", "calle Mayor", TypeAddress, false},
	} {
		spans, err := r.Detect(context.Background(), c.text)
		if err != nil {
			t.Fatal(err)
		}
		s := strings.Index(c.text, c.value)
		e := s + len(c.value)
		whole, hit := false, false
		for _, sp := range spans {
			if sp.Type != c.typ {
				continue
			}
			if sp.Start < e && s < sp.End {
				hit = true
			}
			if sp.Start <= s && e <= sp.End {
				whole = true
			}
		}
		if c.redact && !whole {
			t.Errorf("case %q: the %s is not redacted whole", c.text[:min(len(c.text), 28)], c.typ)
		}
		if !c.redact && hit {
			t.Errorf("case %q: the %s is redacted", c.text[:min(len(c.text), 28)], c.typ)
		}
	}
}

// TestAddress6PrefixesSuffixes runs the address pass, and the whole detection for the phone
// guard, on every prefix and suffix of this round's texts (the new forms end early: "263-",
// "d'", "4º ", "Dublin 6", "madrid cen").
func TestAddress6PrefixesSuffixes(t *testing.T) {
	r := newTestRedactor(t, DefaultConfig())
	texts := []string{"Prinsengracht 263-H, 1016 GV Amsterdam", "Carrer des Moll 8, 07157 Port d'Andratx", "av. de la paz 22 4º d, 41010 sevilla y",
		"14 Ranelagh Road, Dublin 6W, D6W K1T2", "vive en 28014 madrid centro", "Floor 3, 20 Canada Square", "Oficina 2095 · 943 00 12 34"}
	for _, it := range loadItems(t, "realistic-dev9-addr.jsonl") {
		texts = append(texts, it.Text)
	}
	for _, text := range texts {
		for n := 0; n <= len(text); n++ {
			for _, s := range []string{text[:n], text[n:]} {
				ws := splitWords(nil, s)
				fc := &folder{lower: appendLowerSameLength(nil, s)}
				for _, sp := range appendAddresses(nil, s, ws, fc) {
					if sp.Start < 0 || sp.End > len(s) || sp.Start > sp.End || sp.Text != s[sp.Start:sp.End] {
						t.Fatalf("span [%d,%d) out of a %d-byte text", sp.Start, sp.End, len(s))
					}
				}
				if n%3 == 0 {
					if _, err := r.Detect(context.Background(), s); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
}
