package redact

import (
	"context"
	"strings"
	"testing"
)

// Shared mailboxes of a bank, insurer or firm are not a person's: role words run together
// ("atencionclientes", "customerservice", "atencionalcliente") and a role word before a desk
// ("international.desk", "treasury.ops") are kept; a person's mailbox at the same domain, and
// a firm's mailbox whose domain is a surname written as a name in the text, are still redacted.
func TestRoleMailboxes(t *testing.T) {
	r := newTestRedactor(t, DefaultConfig())
	cases := []struct {
		text, value string
		kept        bool
	}{
		{"reclamad en atencionclientes@ibercaja.es o en la oficina", "atencionclientes@ibercaja.es", true},
		{"write to customerservice@bbva.es for a copy", "customerservice@bbva.es", true},
		{"escriu a atencioalclient@bancsabadell.com", "atencioalclient@bancsabadell.com", true},
		{"la mesa: international.desk@sabadell.com, ref 4471", "international.desk@sabadell.com", true},
		{"pagos a treasury.ops@pinecrest-holdings.com", "treasury.ops@pinecrest-holdings.com", true},
		{"hipoteques@bancsabadell.com us respondrà", "hipoteques@bancsabadell.com", true},
		{"Aviso de CaixaBank: verifique en seguridad@caixabank-verificacion.top", "seguridad@caixabank-verificacion.top", true},
		// a person's mailbox, at a bank's domain
		{"mi gestora es marta.ruiz@bbva.es", "marta.ruiz@bbva.es", false},
		{"escribe a lcastro@ibercaja.es", "lcastro@ibercaja.es", false},
		// not role words run together
		{"su correo: atenea.cliente2@gmail.com", "atenea.cliente2@gmail.com", false},
		// the firm bears its owner's name, written in the text
		{"copia a legal@bufete-ferrer.com y a Jordi Ferrer", "legal@bufete-ferrer.com", false},
	}
	for _, c := range cases {
		spans, err := r.Detect(context.Background(), c.text)
		if err != nil {
			t.Fatal(err)
		}
		hit := false
		for _, s := range spans {
			if s.Type == TypeEmail && c.text[s.Start:s.End] == c.value {
				hit = true
			}
		}
		if hit == c.kept {
			t.Errorf("%q in %q: redacted=%v, want %v", c.value, c.text, hit, !c.kept)
		}
	}
	for _, s := range []string{"atencionclientes", "atencionalcliente", "customerservice", "bancaprivada"} {
		if !roleLocal(s) {
			t.Errorf("roleLocal(%q) = false", s)
		}
	}
	for _, s := range []string{"atenea", "infante", "marta", "clientela", "adminx"} {
		if roleLocal(s) {
			t.Errorf("roleLocal(%q) = true", s)
		}
	}
}

// A month's abbreviation that is also a given name, right before a year, is the month.
func TestMonthBeforeYearIsNotAName(t *testing.T) {
	r := newTestRedactor(t, DefaultConfig())
	for _, c := range []struct {
		text, word string
		name       bool
	}{
		{"next dose Jan 2027, then yearly", "Jan", false},
		{"renewal due Dec. 2026 at the latest", "Dec", false},
		{"spoke to Jan about the loan", "Jan", true},
		{"Jan 20271 is a reference", "Jan", true},
	} {
		spans, err := r.Detect(context.Background(), c.text)
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, s := range spans {
			if s.Type == TypePerson && strings.Contains(c.text[s.Start:s.End], c.word) {
				got = true
			}
		}
		if got != c.name {
			t.Errorf("%q: %q as a name = %v, want %v", c.text, c.word, got, c.name)
		}
	}
}

// Plural birth verbs are year cues like the singular ones ("nacieron en el 52").
func TestPluralBirthVerbsCueAYear(t *testing.T) {
	r := newTestRedactor(t, DefaultConfig())
	for _, c := range []struct {
		text, year string
		dob        bool
	}{
		{"mis padres nacieron en el 52, los dos en Lugo", "52", true},
		{"els meus avis són nascuts el 31", "31", true},
		{"nacimos en el 88 y vinimos en el 95", "88", true},
		{"nacieron el mismo día; la cuenta es del 2019", "2019", false},
	} {
		spans, err := r.Detect(context.Background(), c.text)
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, s := range spans {
			if s.Type == TypeDOB && strings.Contains(c.text[s.Start:s.End], c.year) {
				got = true
			}
		}
		if got != c.dob {
			t.Errorf("%q: %q as a date of birth = %v, want %v", c.text, c.year, got, c.dob)
		}
	}
}
