package redact

import (
	"context"
	"slices"
	"testing"
)

// The passes that run after the names (a date of birth on a record line, an identifier in
// brackets after a name) each keep to their own type's Disable: disabling DOB used to switch the
// bracketed passport off too, and disabling PASSPORT left it on.
func TestPassesAfterNamesKeepToTheirDisable(t *testing.T) {
	const text = "Cliente: Callum Reid (529184736), alta revisada."
	types := func(cfg Config) []string {
		t.Helper()
		spans, err := newTestRedactor(t, cfg).Detect(context.Background(), text)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range spans {
			out = append(out, s.Type)
		}
		return out
	}
	if got := types(DefaultConfig()); !slices.Contains(got, TypePassport) {
		t.Fatalf("default policy: types %v, want a %s in the brackets", got, TypePassport)
	}
	noDOB := DefaultConfig()
	noDOB.Disable = append(noDOB.Disable, TypeDOB)
	if got := types(noDOB); !slices.Contains(got, TypePassport) {
		t.Errorf("DOB disabled: types %v, want the %s still found", got, TypePassport)
	}
	noPassport := DefaultConfig()
	noPassport.Disable = append(noPassport.Disable, TypePassport)
	if got := types(noPassport); slices.Contains(got, TypePassport) {
		t.Errorf("PASSPORT disabled: types %v, want no %s", got, TypePassport)
	}
}

// Two forms the dev files showed wrong, written here in other words: a surname-comma-name
// reading must not start inside a plate or a code, and a code whose "country" issues no IBANs
// and whose check fails is not an IBAN typo.
func TestPlateBeforeANameAndCodesThatAreNoIBAN(t *testing.T) {
	checkRuleCases(t, []ruleCase{
		{name: "old plate, comma, name", text: "El turismo GR-4417-PZ, Marina Oyarzun lo aparcó mal.",
			want: []string{"GR-4417-PZ", "Marina Oyarzun"}, not: []string{", "}},
		{name: "invoice code", text: "Adjunto la factura QX31-00452219 del mes pasado.",
			not: []string{"QX31-00452219"}},
	})
}
