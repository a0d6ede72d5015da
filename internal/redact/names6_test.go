package redact

import "testing"

// TestNames6Forms holds the round's forms one by one with values no dev file holds, and the
// non-names of the same shape next to them.
func TestNames6Forms(t *testing.T) {
	cases := []struct {
		text string
		want []string // PERSON spans, in order
	}{
		// a kinship word after a determiner, then a lower-case name
		{"ha venido con su marido benito y la niña", []string{"benito"}},
		{"ha venido con su marido también y la niña", nil},
		{"el seu pare quimet no pot venir", []string{"quimet"}},
		{"el seu pare no pot venir", nil},
		{"my son jayden said the card is lost", []string{"jayden"}},
		// apposition to a role or kinship word
		{"un cliente peruano, Yonatan, pide cita", []string{"Yonatan"}},
		{"un cliente peruano, muy amable, pide cita", nil},
		{"la paciente (rosalba) no entiende", []string{"rosalba"}},
		{"url del cliente: https://example.org/x", nil},
		// field keys
		{"Nombre: Zuriñe\nApellidos: Olano Garmendia\nProducto: Cuenta Joven", []string{"Zuriñe", "Olano Garmendia"}},
		{"Product name: Smart Saver\nTier: gold", nil},
		{"nombre del fichero: extracto.pdf", nil},
		{"el apellido olabarrieta, con dos erres", []string{"olabarrieta"}},
		{"el apellido de soltera no lo sé", nil},
		{"{\"user\":\"pgaztelu\",\"op\":\"alta\"}", []string{"pgaztelu"}},
		{"{\"user\":\"admin\",\"op\":\"alta\"}", nil},
		// chat labels after a time stamp
		{"[12:01] rsaez_84: hola\n[12:02] Agente: dígame", []string{"rsaez_84"}},
		{"[12:01] visitor: hola\n[12:02] bot_info: dígame", nil},
		// greetings and sign-offs
		{"hola yeni, ¿me mandas el recibo?", []string{"yeni"}},
		{"hola chicos, ¿me mandáis el recibo?", nil},
		{"Dear colleague,\nplease find attached", nil},
		{"Gracias por todo. Un saludo, T. Albizu", []string{"T. Albizu"}},
		{"Un saludo, Departamento de Riesgos", nil},
		// verbs and possessives
		{"I spoke to Ruairi this morning", []string{"Ruairi"}},
		{"I spoke to Barclays this morning", nil},
		{"Oisin's mobile is off", []string{"Oisin"}},
		{"Monday's meeting is off", nil},
		{"evolució: la gemma refereix dolor", []string{"gemma"}},
		{"a la pantalla diu error", nil},
		// precision: what a greeting, a kinship word, a role's colon or a chat line's time is followed by
		{"hello world, this is a test", nil},
		{"su marido igual.", nil},
		{"el seu fill gran, que viu a Reus", nil},
		{"la paciente, estable, sin cambios", nil},
		{"10:00 Reunión: presupuesto\n11:00 Comité: riesgos", nil},
		{"[10:00] ERR_TIMEOUT: retry", nil},
		{"surname please, and the dni", nil},
		{"Nombre: Hospital Comarcal", nil},
		{"her passport, and her home address.", nil},
		{"o seu home xurxo non pode vir", []string{"xurxo"}},
		{"i el seu marit alemany, passaport", nil},
		{"la prima riesgo.", nil},
		{"nota: la paciente lucía ferrándiz dni 12345678Z", []string{"lucía ferrándiz"}},
		{"gp note: gareth prydderch dob 1956", []string{"gareth prydderch"}},
		{"habla con lucía mañana dni pendiente", []string{"lucía"}},
		// surnames with an Arabic, Berber or Irish particle in Title case
		{"transferencia de Karima Ben Youssef, cliente", []string{"Karima Ben Youssef"}},
		{"pay Siobhán Ní Dhomhnaill today", []string{"Siobhán Ní Dhomhnaill"}},
		{"Visitó a Karima. El lunes vuelve", []string{"Karima"}},
		// the lower-case repeat of a name found once
		{"Paciente: Eustaquio Larrañeta. dice larrañeta que no", []string{"Eustaquio Larrañeta", "larrañeta"}},
		{"Tomador: Transportes Ribera. Gestor: Oficina 0412", nil},
	}
	checkNameForms(t, cases)
}
