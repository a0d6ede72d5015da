package redact

import (
	"context"
	"strings"
	"testing"
)

// TestAddressOfficeGuard: an office's, firm's, hotel's or venue's address is kept; a person's
// is redacted whole even with an office, firm or venue word near it.
func TestAddressOfficeGuard(t *testing.T) {
	r := newTestRedactor(t, DefaultConfig())
	for _, c := range []struct {
		text, addr string
		redact     bool
	}{
		{"Saludos,\nPilar Gómez\nAbogada\nCalle Mayor 20, 28013 Madrid", "Calle Mayor 20, 28013 Madrid", false},
		{"Un saúdo,\n> Xoán Pena\n> Xestor, oficina 1200\n> Rúa Nova 3, Lugo", "Rúa Nova 3, Lugo", false},
		{"Gracias,\nJuan Pérez\nCalle Mayor 20, 28013 Madrid", "Calle Mayor 20, 28013 Madrid", true},
		{"Domicilio:\nCalle Mayor 20, 28013 Madrid", "Calle Mayor 20, 28013 Madrid", true},
		{"Seguro: Mapfre. Hotel Sol, Calle Mayor 20, Madrid.", "Calle Mayor 20, Madrid", false},
		{"Turista alojado en el Hotel Sol, Calle Mayor 20, 28013 Madrid.", "Calle Mayor 20, 28013 Madrid", true},
		{"vive junto al Ayuntamiento, calle Mayor 20, 28013 Madrid", "calle Mayor 20, 28013 Madrid", true},
		{"firmado ante el notario de calle Mayor 20, Madrid", "calle Mayor 20, Madrid", false},
		{"Comparece Ana Ruiz, abogada, con domicilio en calle Mayor 20, 28013 Madrid", "calle Mayor 20, 28013 Madrid", true},
		{"nos vemos en calle Mayor 20, Madrid, a las 10", "calle Mayor 20, Madrid", false},
		{"the patient, a hotel porter, lives at 4 Elm Road, Leeds LS6 2AB", "4 Elm Road, Leeds LS6 2AB", true},
		{"Es propietario de la plaza de garaje número 12 del edificio", "plaza de garaje número 12", false},
		{"Puede pasar por calle Mayor 20, 28013 Madrid, centralita 91 000 00 00.", "calle Mayor 20, 28013 Madrid", false},
		{"Mi madre está en calle Mayor 20, 28013 Madrid y llamó a la centralita.", "calle Mayor 20, 28013 Madrid", true},
		{"Reside en calle Mayor 20, 28013 Madrid, centralita de su empresa 91 000 00 00.", "calle Mayor 20, 28013 Madrid", true},
		{"lives at 42 willow close, norwich nr4 7hj", "42 willow close, norwich nr4 7hj", true},
		{"address ul. Piękna 7/12, 00-549 Warszawa, passport", "ul. Piękna 7/12, 00-549 Warszawa", true},
		{"viu al carrer nou 12 de la bisbal.", "carrer nou 12 de la bisbal", true},
		{"His GP is at The Old Rectory, 5 Church Walk, Malvern WR14 2AB.", "The Old Rectory, 5 Church Walk, Malvern WR14 2AB", true},
	} {
		spans, err := r.Detect(context.Background(), c.text)
		if err != nil {
			t.Fatal(err)
		}
		s := strings.Index(c.text, c.addr)
		e := s + len(c.addr)
		whole, hit := false, false
		for _, sp := range spans {
			if sp.Type != TypeAddress {
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
			t.Errorf("case %q: the address is not redacted whole", c.text[:min(len(c.text), 24)])
		}
		if !c.redact && hit {
			t.Errorf("case %q: the office's address is redacted", c.text[:min(len(c.text), 24)])
		}
	}
}

// TestAddress5PrefixesSuffixes runs the address pass on every prefix and suffix of this round's
// texts (the new forms end early: "ul. X 14/", "de la", "le2 1x", "plaza de gar").
func TestAddress5PrefixesSuffixes(t *testing.T) {
	texts := []string{"ul. Piękna 7/12, 00-549 Warszawa", "42 willow close, norwich nr4 7hj", "carrer nou 12 de la bisbal",
		"Abogada\n> Calle Mayor 20, 28013 Madrid", "la plaza de garaje 4", "at The Old Rectory, 5 Church Walk, Malvern WR14 2AB"}
	for _, it := range loadItems(t, "realistic-dev7-addr.jsonl") {
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
			}
		}
	}
}
