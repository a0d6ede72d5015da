package redact

import "testing"

// TestRound7Forms pins each form of this round, and its look-alikes, on a short invented text.
func TestRound7Forms(t *testing.T) {
	checkIDForms(t, []idForm{
		{"ca verb two-digit year", "el senyor va néixer el 47 i té el compte des del 91", TypeDOB, []string{"47"}, []string{"91"}},
		{"gl nado no", "o paciente, nado no 55, vén co fillo", TypeDOB, []string{"55"}, nil},
		{"no es nada: nothing", "no pasó nada en el 2020 con la cuenta", TypeDOB, nil, []string{"2020"}},
		{"month two-digit year", "su madre nació en agosto del 29, la cita es en febrero del 27", TypeDOB, []string{"agosto del 29"}, []string{"febrero del 27"}},
		{"gl month two-digit year", "a titular naceu en outubro do 44. o depósito vence en xaneiro do 27", TypeDOB, []string{"outubro do 44"}, []string{"xaneiro do 27"}},
		{"fused words year", "paciente nacida en el cuarentaiuno, viuda", TypeDOB, []string{"cuarentaiuno"}, nil},
		{"gl words year", "a paciente, nada no trinta e nove, vén soa", TypeDOB, []string{"trinta e nove"}, nil},
		{"no words year: a day", "nacido el veinte de mayo de 1950", TypeDOB, []string{"veinte de mayo de 1950"}, nil},
		{"eu year first", "bezeroa jaio 84/02/11. kontua ireki 26/11/30", TypeDOB, []string{"84/02/11"}, []string{"26/11/30"}},
		{"gl do do", "o testemuña naceu o 3 do 5 do 1957 e declarou", TypeDOB, []string{"3 do 5 do 1957"}, nil},
		{"spaced dot e-mail", "correo: marta.solis [at] telefonica . net (así)", TypeEmail, []string{"marta.solis [at] telefonica . net"}, nil},
		{"braced punt e-mail", "el correu és jordi_pons{arroba}gmail{punt}com, l'ha escrit així", TypeEmail, []string{"jordi_pons{arroba}gmail{punt}com"}, nil},
		{"digits dictated e-mail", "customer email is sam dot whitley 82 at gmail dot com, wants", TypeEmail, []string{"sam dot whitley 82 at gmail dot com"}, nil},
		{"country tld e-mail", "his email is georgi.dimitrov{at}abv.bg, phone", TypeEmail, []string{"georgi.dimitrov{at}abv.bg"}, nil},
		{"no e-mail: prose at", "we met at the office. com", TypeEmail, nil, []string{"at the office"}},
		{"es- dni", "Paciente con DNI ES-4.501.227-N, nacido", TypeDNI, []string{"ES-4.501.227-N"}, nil},
		{"grouped health card", "la tarjeta pone GRLO 410623 8 AND, no sé", TypeMRN, []string{"GRLO 410623 8 AND"}, nil},
		{"no health card: order", "pedido PACK 240517 2 ESP enviado", TypeMRN, nil, []string{"PACK 240517 2 ESP"}},
		{"no health card: no date", "modelo ABCD 123456 7 XYZ en stock", TypeMRN, nil, []string{"ABCD 123456 7 XYZ"}},
		// (after "cuenta" the 20-digit account recognizer claims the same span, as a CCC)
		{"doubled space iban", "para la devolución: ES03  2085 0103 9303 3009 7781 (copiada)", TypeIBAN, []string{"ES03  2085 0103 9303 3009 7781"}, nil},
		{"passport under doc column", "titular;documento\nOlena Kovalenko;FK917204\nMateo Ruiz;50331876X", TypePassport, []string{"FK917204"}, nil},
		{"es nif under doc stays a dni", "titular;documento\nMateo Ruiz;ES50331876X", TypeDNI, []string{"ES50331876X"}, nil},
		{"denied card", "Tarjeta del ticket anterior 4111 2222 3333 4440 no es suya.", TypeCard, nil, []string{"4111 2222 3333 4440"}},
	})
}
