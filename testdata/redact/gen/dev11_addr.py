#!/usr/bin/env python3
"""Generator of realistic-dev11-addr.jsonl (issue #13, seventh round: addresses, office decoys and
phone look-alikes). Same inline markup as dev5_addr.py: [[TYPE|value]] for personal data,
{{TYPE|value}} for decoys. Written before the rules for these forms, as general shapes a branch
employee types (not copies of the spent fifth held-out set's misses): a floor and door written as
bare numbers or as "2º 4" / "3.B" / "4 B" after the street's number, then a postcode and a town in
any case; the postcode alone as the value of a labelled field (JSON, YAML, CSV, "C.P."); lower-case
street types the grammar lacked (riera, travessera, passatge, camiño, travessa); and, for precision,
a firm's or clinic's switchboard with the institution in brackets or before "llame al", a bank's
own address after its name in a signature, a notary's address, and account numbers with a wrong
control digit that are said not to be the customer's.
All people, numbers and addresses are invented (offices' addresses are invented too).

    python3 testdata/redact/gen/dev11_addr.py > testdata/redact/realistic-dev11-addr.jsonl
"""

ITEMS = [
    # --- number, then floor and door as bare numbers or "2º 4", then postcode and town ---
    ("rl-es-bank-9601", "el titular vive en [[ADDRESS|calle Olmo 12 3 2, 28005 madrid]] y no tiene fijo"),
    ("rl-es-law-9602", "con domicilio en [[ADDRESS|calle del Pez 14, 3º 1, 28004 Madrid]], mayor de edad."),
    ("rl-gl-bank-9603", "mora na [[ADDRESS|rúa do Vilar 22 1º 3, 15705 santiago]] coa súa nai"),
    ("rl-ca-bank-9604", "ara viu al [[ADDRESS|carrer de Sants 140 5 2, 08014 barcelona]] des de setembre"),
    ("rl-es-clinic-9605", "paciente con domicilio en [[ADDRESS|avda. de la Libertad 33 2 1 30009 murcia]], acude sola"),
    ("rl-en-bank-9606", "customer says home is [[ADDRESS|c/ San Vicente 7 4 3, 46002 valencia]], spanish resident"),
    ("rl-pt-bank-9607", "a cliente mora na [[ADDRESS|Rua do Almada 210 3 esq, 4050-032 Porto]] desde 2020"),
    # decoys: bare numbers after a street in a sentence that is no address's floor
    ("rl-es-bank-9608", "en la {{STREET_GENERIC|calle Mayor}} hay 3 2 cajeros, uno roto"),
    # --- Basque floor notation 3.B / 2.A / 4 B, with or without a postcode ---
    ("rl-eu-bank-9609", "bezeroaren helbidea: [[ADDRESS|Olaguibel kalea 9, 2.B, Gasteiz]]"),
    ("rl-eu-clinic-9610", "gaixoa [[ADDRESS|Urbieta kalea 12 5.C 20006 Donostia]] helbidean bizi da"),
    ("rl-es-bank-9611", "q vive en [[ADDRESS|Askatasun etorbidea 18 1 A durango]] con su aita"),
    ("rl-eu-law-9612", "jabea: [[PERSON|Mikel Etxeberria]], [[ADDRESS|San Frantzisko kalea 3, 4.D, 48003 Bilbo]]"),
    ("rl-es-bank-9613", "vive en [[ADDRESS|Zumalakarregi kalea 21 2.izq Tolosa]] desde el verano"),
    # decoy: a Basque hospital's switchboard with the hospital in brackets
    ("rl-eu-clinic-9614", "deitu [[PHONE|688 41 20 93]] zenbakira edo {{OFFICE|944 00 60 00}} (Basurtuko Ospitalea)"),
    # --- the postcode alone as a labelled field's value ---
    ("rl-es-clinic-9615", "{\"resourceType\":\"Patient\",\"address\":[{\"line\":[\"[[ADDRESS|Calle Cervantes 8, 1º]]\"],\"city\":\"[[ADDRESS|Huesca]]\",\"postalCode\":\"[[ADDRESS|22002]]\"}]}"),
    ("rl-es-bank-9616", "nombre;direccion;cp;poblacion\n[[PERSON|Rosa Vidal]];[[ADDRESS|C/ Alta 3]];[[ADDRESS|39001]];[[ADDRESS|Santander]]"),
    ("rl-en-bank-9617", "customer:\n  name: [[PERSON|Declan Moran]]\n  street: [[ADDRESS|Calle Sol 5]]\n  zip: \"[[ADDRESS|29601]]\"\n  city: [[ADDRESS|Marbella]]"),
    ("rl-es-law-9618", "Domicilio: [[ADDRESS|Travesía del Carmen 4]]. C.P.: [[ADDRESS|33201]]. Localidad: [[ADDRESS|Gijón]]."),
    ("rl-ca-clinic-9619", "codi postal del pacient: [[ADDRESS|17004]], població [[ADDRESS|Girona]]"),
    # decoys: a five-digit number in other fields, an office's postcode
    ("rl-es-bank-9620", "{\"oficina\":\"{{REFERENCE|28014}}\",\"importe\":\"1250.00\",\"canal\":\"web\"}"),
    ("rl-es-clinic-9621", "{\"resourceType\":\"Organization\",\"name\":\"Hospital San Jorge\",\"address\":[{\"city\":\"Huesca\",\"postalCode\":\"{{OFFICE|22004}}\"}]}"),
    # --- lower-case street types the grammar lacked ---
    ("rl-ca-bank-9622", "viu a la [[ADDRESS|riera de Sant Miquel 5, Gràcia]] amb la parella"),
    ("rl-ca-law-9623", "domicili: [[ADDRESS|travessera de les Corts 210, 3r 1a, 08028 Barcelona]]"),
    ("rl-ca-bank-9624", "viu al [[ADDRESS|passatge Permanyer 6, 08009 barcelona]] de lloguer"),
    ("rl-gl-clinic-9625", "domicilio: [[ADDRESS|camiño do Souto 14, 36211 Vigo]], vive co fillo"),
    ("rl-pt-bank-9626", "morada: [[ADDRESS|Travessa do Fala-Só 9, 1250-109 Lisboa]]"),
    # decoys: those words in generic phrases
    ("rl-ca-bank-9627", "la {{STREET_GENERIC|riera}} baixava plena després de la tempesta de dijous"),
    # --- an area first: barriada, urbanización, edificio, bloque ---
    ("rl-es-bank-9628", "vive en [[ADDRESS|Bda. San José, bloque 2 4ºB, 41005 Sevilla]] con su madre"),
    ("rl-es-clinic-9629", "domicilio: [[ADDRESS|Urbanización El Pinar, calle Tejo 4, Boadilla del Monte]]"),
    ("rl-en-bank-9630", "new address is [[ADDRESS|edificio Miramar, bloque B 3º izq, 03181 Torrevieja]] from May"),
    # --- precision: a bank's or firm's own address after its name in a signature ---
    ("rl-en-bank-9631", "Kind regards,\n[[PERSON|Tomás Arregui]]\nWealth Management, Kutxabank, Gran Vía 30, 48009 Bilbao\n\nPlease update the client's address to [[ADDRESS|calle Iparraguirre 5, 2º, 48009 Bilbao]]."),
    ("rl-es-bank-9632", "Un saludo,\n[[PERSON|Beatriz Ochoa]]\nBanca Privada · Ibercaja · {{OFFICE|Plaza de Basilio Paraíso 2, 50008 Zaragoza}}"),
    ("rl-ca-law-9633", "Signat davant la Notària: {{OFFICE|Via Augusta 15, 08006 Barcelona}}. Compradors: [[PERSON|Pau Serra]], amb domicili a [[ADDRESS|carrer Verdi 20, 08012 Barcelona]]."),
    ("rl-es-law-9634", "Notario autorizante: {{OFFICE|calle Colón 12, 46004 Valencia}}. Vendedora con domicilio en [[ADDRESS|calle Cuba 7, 46006 Valencia]]."),
    # --- precision: switchboards of clinics, courts, firms ---
    ("rl-es-clinic-9635", "Su cita en el Centro de Salud Torrero es el 12/01. Para anular llame al {{OFFICE|976 25 14 00}}. Su móvil de contacto: [[PHONE|611 23 45 87]]."),
    ("rl-gl-clinic-9636", "para cambiar a cita no Centro de Saúde de Sar chame ao {{OFFICE|981 95 10 00}}; o teu móbil é o [[PHONE|622 11 09 33]]"),
    ("rl-en-law-9637", "--\nHarcourt & Lyle LLP, 3 Bridge Street, Leeds LS2 7RU | {{OFFICE|0113 496 0123}}\nclient mobile: [[PHONE|07700 900 412]]"),
    ("rl-es-bank-9638", "Atentamente,\n[[PERSON|Ramón Ferrer]]\nAsesoría Ferrer SL · Av. Blasco Ibáñez 20, 46010 Valencia · Tel. {{OFFICE|963 39 20 10}}\nMóvil del cliente: [[PHONE|655 10 44 21]]"),
    ("rl-ca-clinic-9639", "truqui al {{OFFICE|93 227 54 00}} (Hospital Clínic) o al mòbil de la filla, [[PHONE|699 30 12 45]]"),
    ("rl-es-law-9640", "El juzgado atiende en el {{OFFICE|91 493 10 00}} (Juzgado de lo Social nº 5); el demandante en el [[PHONE|634 55 21 09]]."),
    # --- precision: account numbers with a wrong control said not to be the customer's ---
    ("rl-es-bank-9641", "su cuenta es [[CCC|2100 0418 45 0200051332]]; la {{CHECKSUM|2100 0418 41 0200051399}} que sale en el recibo no es suya"),
    ("rl-es-bank-9642", "ojo: {{CHECKSUM|0182-2370-11-0201503434}} es la cuenta de la comunidad, no del cliente"),
]

# the markup and byte offsets are dev5_addr.py's
from dev5_addr import emit  # noqa: E402

if __name__ == "__main__":
    emit(ITEMS)
