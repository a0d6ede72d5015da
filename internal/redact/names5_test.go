package redact

import "testing"

// TestNames5Forms holds the round's forms one by one with values no dev file holds, and the
// non-names next to them.
func TestNames5Forms(t *testing.T) {
	cases := []struct {
		text string
		want []string // PERSON spans, in order
	}{
		{"WARN login failed user=leandro.quiroga src=10.0.0.4", []string{"leandro.quiroga"}},
		{"WARN login failed user=root src=10.0.0.4", nil},
		{"paciente=HC-2209187 accion=consulta", nil},
		{"pacs: patient=DOUGLASS^HENRIETTA nhs=1", []string{"DOUGLASS^HENRIETTA"}},
		{"Generado por: jcarrasco\n\nid;saldo", []string{"jcarrasco"}},
		{"Generado por: sistema\n", nil},
		{"Respondent: FAIRWEATHER-COLE, Imogen, of Leeds", []string{"FAIRWEATHER-COLE, Imogen"}},
		{"7 | Berasaluze Etxaniz, Rosario | 81", []string{"Berasaluze Etxaniz, Rosario"}},
		{"Por la presente, BOUAZZAOUI EL IDRISSI, Yasmina, con NIE", []string{"BOUAZZAOUI EL IDRISSI, Yasmina"}},
		{"el interesado Anacleto Urbieta solicita acceso", []string{"Anacleto Urbieta"}},
		{"Ingresa en el CHUAC el lunes", nil},
		{"cita en Osakidetza Cruces a las 9", nil},
		{"Demandada: Mapfre Familiar", nil},
		{"Discharge summary — Royal Brompton Hospital", nil},
		{"en la tele salía Carlos Alcaraz ganando", nil},
		{"Que la señora GEORGESCU está interesada", []string{"GEORGESCU"}},
		{"Que la empresa GEORGESCU está interesada", nil},
		{"joint account for Tadhg and Ailbhe Kinsella", []string{"Tadhg", "Ailbhe Kinsella"}},
		{"fondos de Vanguard and John Smith", []string{"John Smith"}},
		{"[09:12] agent_wojciech: can you confirm the address?", []string{"wojciech"}},
		{"[09:12] agent_support: can you confirm the address?", nil},
		{"[09:12] agent_online: hello", nil},
	}
	checkNameForms(t, cases)
}
