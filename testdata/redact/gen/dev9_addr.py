#!/usr/bin/env python3
"""Generator of realistic-dev9-addr.jsonl (issue #13, sixth round: addresses and office decoys).
Same inline markup as dev5_addr.py: [[TYPE|value]] for personal data, {{TYPE|value}} for decoys.
Written before the rules for these forms, as general shapes a branch employee types (not copies of
the spent fourth held-out set's misses): a postcode and a lower-case town of several words, the
`Av/`, `C/` abbreviations with a floor and postcode, British flats first, Dutch and Belgian house
numbers with a suffix, Catalan towns with `Sant … de …` and `l'`, a street with no street-type word
after a home verb, a lower-case floor and door after the number, an Irish district and Eircode,
multi-line letters, other European streets; and, for precision, the published addresses and
switchboards of clinics, hospitals, courts, insurers, employers and branches (an institution's
name right before, a `Name | Job | address` signature, a signing venue, `Oficina NNNN · phone`),
next to customers' homes and phones in the same texts, and streets in generic phrases.
All people, numbers and addresses are invented (offices' addresses are invented too).

    python3 testdata/redact/gen/dev9_addr.py > testdata/redact/realistic-dev9-addr.jsonl
"""

ITEMS = [
    # --- postcode + a lower-case town of several words, after a home word ---
    ("rl-es-bank-8401", "el cliente dice que vive en [[ADDRESS|28014 madrid centro]], no sabe el portal"),
    ("rl-ca-clinic-8402", "viuen al [[ADDRESS|08830 sant boi de llobregat]] des de l'estiu"),
    ("rl-es-clinic-8403", "domicilio: [[ADDRESS|38400 puerto de la cruz]], vive sola"),
    ("rl-gl-bank-8404", "vive en [[ADDRESS|15895 ames]] co seu fillo"),
    ("rl-es-bank-8405", "ahora reside en [[ADDRESS|29680 estepona pueblo]] todo el año"),
    # decoys: a postcode-sized number in an amount or a branch code before a town
    ("rl-es-bank-8406", "le transfirió {{AMOUNT|28014 euros}} a una cuenta de madrid centro"),
    ("rl-es-bank-8407", "la oficina {{REFERENCE|0830}} de sant boi cierra por obras"),
    # --- Av/, C/ with a floor and a postcode ---
    ("rl-ca-bank-8408", "Adreça: [[ADDRESS|Av/ Meridiana 12, 3a, 08027 Barcelona]]"),
    ("rl-es-bank-8409", "su dirección es [[ADDRESS|C/ Doctor Esquerdo 45, 2ºB, 28028 Madrid]]"),
    ("rl-es-law-8410", "Notifíquese a [[PERSON|Eusebio Campos]] en [[ADDRESS|C/ Santiago 19, 3º, 47001 Valladolid]]."),
    ("rl-es-law-8411", "Se cita a [[PERSON|Ramona Izquierdo]] en su domicilio, [[ADDRESS|Av/ de la Constitución 8, 1º, 18012 Granada]]."),
    # decoy: the court's own address in the same kind of sentence
    ("rl-es-law-8412", "Se cita a las partes en la sede del Juzgado nº 3, {{OFFICE|C/ Real 19, 47001 Valladolid}}."),
    # --- British flat first, with a postcode ---
    ("rl-en-bank-8413", "Address: [[ADDRESS|Flat 2B, 14 Marlborough Road, Bristol BS6 5NP]]"),
    ("rl-en-clinic-8414", "pt lives at [[ADDRESS|flat 7 32 kingsway cardiff cf10 3ad]], lives alone"),
    ("rl-en-bank-8415", "customer moved to [[ADDRESS|Apartment 4, 9 Queen's Road, Brighton BN1 3XE]] last month"),
    # decoy: a bank's own floor and building
    ("rl-en-bank-8416", "Regards,\n[[PERSON|Colin Frew]]\nMortgage Adviser, Northgate Bank plc\n{{OFFICE|Floor 3, 20 Canada Square, London E14 5NN}}"),
    # --- Dutch and Belgian house numbers with a suffix ---
    ("rl-en-bank-8417", "his sister lives at [[ADDRESS|Prinsengracht 263-H, 1016 GV Amsterdam]] (no phone)"),
    ("rl-es-bank-8418", "cliente neerlandés, dirección [[ADDRESS|Oudegracht 123-A, 3511 AK Utrecht]]"),
    ("rl-en-law-8419", "the tenant's home is [[ADDRESS|Kerkstraat 45 bis, 2000 Antwerpen]]"),
    ("rl-en-bank-8420", "she lives at [[ADDRESS|Lange Voorhout 9-II, 2514 EA Den Haag]]"),
    # decoy: a firm's Dutch office
    ("rl-en-law-8421", "Our Amsterdam office: {{OFFICE|Herengracht 450, 1017 CA Amsterdam}}."),
    # --- Catalan streets and towns with Sant … de …, l', d' ---
    ("rl-ca-bank-8422", "viu al [[ADDRESS|carrer de la Riera 12, 08830 Sant Boi de Llobregat]]"),
    ("rl-ca-clinic-8423", "domicili: [[ADDRESS|carrer Major 5, 2n 1a, 08720 Vilafranca del Penedès]]"),
    ("rl-ca-law-8424", "resideix a [[ADDRESS|carrer de Sant Pere 3, 17220 Sant Feliu de Guíxols]]"),
    ("rl-ca-bank-8425", "viu a [[ADDRESS|carrer del Mar 7, 17130 l'Escala]] amb el seu fill"),
    ("rl-en-law-8426", "purchase of a flat at [[ADDRESS|Carrer des Moll 8, 07157 Port d'Andratx]] by our client"),
    ("rl-ca-bank-8427", "ella viu a [[ADDRESS|Rambla de Catalunya 40, 08970 Sant Joan Despí]]"),
    # decoy: the CAP's address next to the patient's
    ("rl-ca-clinic-8428", "Pacient derivat al CAP Sant Andreu, {{OFFICE|carrer de Joan Torras 45, 08030 Barcelona}}; viu a [[ADDRESS|carrer de Malats 7, 08030 Barcelona]]."),
    # --- a street with no street-type word after a home verb ---
    ("rl-es-bank-8429", "vive en [[ADDRESS|Hermanos Machado 14]] con su hermana"),
    ("rl-es-law-8430", "el demandado reside en [[ADDRESS|Virgen de la Cabeza 7, 2º izquierda]]"),
    ("rl-gl-clinic-8431", "vive en [[ADDRESS|Pintor Laxeiro 8]] desde xaneiro"),
    ("rl-ca-bank-8432", "viu a [[ADDRESS|Sant Antoni Maria Claret 167]] amb la seva mare"),
    ("rl-en-bank-8433", "he lives at [[ADDRESS|Marqués de Larios 4]], near the port"),
    # decoys: a town and a time, a street in a generic phrase
    ("rl-es-bank-8434", "vive en Móstoles desde hace {{REFERENCE|15 años}} y trabaja en Madrid"),
    ("rl-es-bank-8435", "la {{STREET_GENERIC|calle Mayor}} está cortada por obras hasta el 12"),
    ("rl-en-bank-8436", "traffic on {{STREET_GENERIC|Oxford Street}} was terrible, 20 minutes late"),
    # --- a floor and door in lower case after the number, and a town without a comma ---
    ("rl-es-law-8437", "el inquilino vive en [[ADDRESS|ronda de atocha 15 3 izq]] y debe 3 meses"),
    ("rl-es-bank-8438", "ella vive en [[ADDRESS|av. de la paz 22 4º d, 41010 sevilla]] y trabaja fuera"),
    ("rl-es-bank-8439", "vive en [[ADDRESS|calle mayor 8 bajo a]] desde 2019"),
    ("rl-es-law-8440", "vive en [[ADDRESS|calle olivo 5 puerto real]]. su dni lo trae mañana"),
    ("rl-es-clinic-8441", "domicilio [[ADDRESS|c/ san juan 4 villanueva de la serena]], acompañado de su hija"),
    # --- an Irish district and Eircode ---
    ("rl-en-bank-8442", "new address [[ADDRESS|14 Ranelagh Road, Dublin 6, D06 C9X4]] from Monday"),
    ("rl-en-law-8443", "executor: [[PERSON|Niamh Kelly]], [[ADDRESS|Apt 3, 8 Howth Road, Dublin 5, D05 K2P7]]"),
    # --- multi-line letters and envelopes ---
    ("rl-es-bank-8444", "Sr. D. [[PERSON|Anselmo Prieto Gil]]\n[[ADDRESS|Calle Real 14, 2º\n11001 Cádiz]]"),
    ("rl-en-bank-8445", "Mrs [[PERSON|Joan Whitaker]]\n[[ADDRESS|27 Meadow Lane\nHarrogate\nHG1 4PQ]]"),
    ("rl-es-law-8446", "A/A: D. [[PERSON|Ulises Barrio]]\n[[ADDRESS|Avda. de Portugal 31\n3º D\n37006 Salamanca]]"),
    ("rl-ca-bank-8447", "Destinatari: [[PERSON|Jana Pons]]\n[[ADDRESS|c/ Girona 8, 1r 2a\n17001 Girona]]"),
    # decoy: a bank's letterhead over the customer's
    ("rl-es-bank-8448", "Banco del Duero\nOficina 0049\n{{OFFICE|Paseo de Zorrilla 7\n47006 Valladolid}}\n\nSra. [[PERSON|Celia Manso]]\n[[ADDRESS|Calle Gabilondo 3, 4º A\n47007 Valladolid]]"),
    # --- other European streets ---
    ("rl-en-bank-8449", "moved to [[ADDRESS|Via Roma 14, 20121 Milano]] in June"),
    ("rl-es-bank-8450", "vive en [[ADDRESS|Rua Augusta 120, 2º Esq., 1100-053 Lisboa]]"),
    ("rl-en-clinic-8451", "lives at [[ADDRESS|Lindenstraße 5, 10969 Berlin]] with her son"),
    ("rl-es-bank-8452", "dirección en Francia: [[ADDRESS|15 avenue Jean Jaurès, 69007 Lyon]]"),
    ("rl-eu-bank-8453", "helbidea: [[ADDRESS|Zumalakarregi kalea 9, 2. ezk., 48200 Durango]]"),
    ("rl-gl-bank-8454", "enderezo: [[ADDRESS|rúa da Raíña 6, 2º, 27001 lugo]]"),
    # --- precision: an institution's name right before the address ---
    ("rl-es-clinic-8455", "Derivado a Centro de Salud Torrero, {{OFFICE|calle Monzón 1, 50007 Zaragoza}}, para curas."),
    ("rl-es-clinic-8456", "Cita en el Hospital Clínico San Carlos, {{OFFICE|calle Profesor Martín Lagos s/n, 28040 Madrid}}."),
    ("rl-en-clinic-8457", "Referred to St Mary's Hospital, {{OFFICE|Praed Street, London W2 1NY}}, for imaging."),
    ("rl-es-law-8458", "Juzgado de Primera Instancia nº 4 de Sevilla, {{OFFICE|Avda. Menéndez Pelayo 2, 41071 Sevilla}}"),
    ("rl-es-clinic-8459", "Paciente [[PERSON|Hugo Ferrer]], con domicilio en [[ADDRESS|calle Tapia 4, 2º, 50001 Zaragoza]]. Remitente: Centro de Salud Arrabal, {{OFFICE|calle Nuestra Señora de Lourdes 2, 50015 Zaragoza}}."),
    # an insurer or employer with its legal form, after the customer's home in the text
    ("rl-es-bank-8460", "Titular: [[PERSON|Laura Sáez]], con domicilio en [[ADDRESS|calle Cervantes 4, 3º, 30001 Murcia]]. Aseguradora: Mapfre España, S.A., {{OFFICE|Carretera de Pozuelo 50, 28222 Majadahonda}}."),
    ("rl-es-bank-8461", "vive en [[ADDRESS|calle Luna 3, 28004 Madrid]] y trabaja en Indra Sistemas S.A., {{OFFICE|Avenida de Bruselas 35, 28108 Alcobendas}}"),
    # a one-line signature: name | job | address
    ("rl-es-bank-8462", "[[PERSON|Leire Mendía]] | Directora de oficina | {{OFFICE|Calle Mayor 20, 31001 Pamplona}}"),
    ("rl-en-bank-8463", "> [[PERSON|Tom Ashdown]] | Relationship Manager | {{OFFICE|1 Churchill Place, London E14 5HP}}"),
    # a signing venue
    ("rl-en-law-8464", "Completion: our client [[PERSON|Rafael Soto]] signs on 4 March at {{OFFICE|Calle Serrano 41, 28001 Madrid}}."),
    ("rl-es-law-8465", "La firma de la escritura será en {{OFFICE|calle Colón 12, 46004 Valencia}} el día 3."),
    # --- precision: branch and clinic switchboards, and customers' own lines ---
    ("rl-es-bank-8466", "Un saludo,\n[[PERSON|Iker Salaberria]]\nOficina 2095 · {{OFFICE|943 00 12 34}}"),
    ("rl-ca-bank-8467", "Salutacions,\n[[PERSON|Pol Roca]]\nOficina 0301 - {{OFFICE|93 200 45 67}}"),
    ("rl-es-clinic-8468", "Cita en consultas externas, planta 1, Hospital Universitario de Cruces; avisar al {{OFFICE|946 00 60 00}} si no puede acudir."),
    ("rl-es-law-8469", "Despacho: {{OFFICE|Calle Génova 7, 28004 Madrid}}, tel. {{OFFICE|91 310 00 00}}. Cliente: [[PERSON|Rosa Lindo]], tel. [[PHONE|91 422 31 07]]."),
    ("rl-es-clinic-8470", "Centro de Salud Arrabal, teléfono {{OFFICE|976 00 11 22}}, de 8 a 15."),
    ("rl-es-clinic-8471", "Ingresado en el Hospital de Cruces; su hija [[PERSON|Nerea]] llama desde casa, [[PHONE|944 12 34 56]]."),
    ("rl-ca-bank-8472", "Oficina 0301. Client: [[PERSON|Marc Soler]], telèfon de casa [[PHONE|93 211 22 33]]"),
    ("rl-es-bank-8473", "[[PERSON|Amparo Giner]], tel. [[PHONE|963 44 55 66]], vive en [[ADDRESS|calle Sueca 8, 46006 Valencia]]"),
    # --- batch 2: written after batch 1's rules and run before any change for it, to see how far
    # those rules generalise (same forms, new surfaces and languages) ---
    ("rl-es-bank-8474", "nos dice que ahora vive en [[ADDRESS|03502 benidorm playa]]. ok"),
    ("rl-gl-clinic-8475", "reside en [[ADDRESS|Curros Enríquez 12, 2º dereita]] coa súa nai"),
    ("rl-es-bank-8476", "vivo en [[ADDRESS|Reyes Católicos 9]] desde marzo"),
    ("rl-en-bank-8477", "she is living at [[ADDRESS|Jan Luijkenstraat 12-III, 1071 CN Amsterdam]] now"),
    ("rl-es-law-8478", "el arrendatario vive en [[ADDRESS|c/ feria 33 2 b]] y no contesta"),
    ("rl-ca-clinic-8479", "viu al [[ADDRESS|carrer ample 4 sant cugat del valles]]. ve amb la filla"),
    ("rl-en-law-8480", "Client: [[PERSON|Orla Byrne]], [[ADDRESS|22 Grove Park, Dublin 6W, D6W K1T2]]"),
    ("rl-es-bank-8481", "D.ª [[PERSON|Pilar Ruano]]\n[[ADDRESS|Calle Mayor 7\nbajo B\n28013 Madrid]]"),
    ("rl-es-law-8482", "Notifíquese a [[PERSON|Genaro Pla]] en su domicilio de [[ADDRESS|Avda. Aragón 30, 5º, 46021 Valencia]], con copia al Ayuntamiento."),
    ("rl-ca-law-8483", "domicili a [[ADDRESS|carrer de la Font 2, 17310 Lloret de Mar]]"),
    # decoys for the same forms
    ("rl-es-clinic-8484", "Remitido desde la Clínica Dental Sonrisa, {{OFFICE|calle Uría 40, 33003 Oviedo}}."),
    ("rl-en-clinic-8485", "Seen at Riverside Health Centre, {{OFFICE|2 Mill Lane, Leeds LS2 7EW}}; follow-up in 6 weeks."),
    ("rl-es-bank-8486", "[[PERSON|Ander Zabala]] | Gestor comercial | {{OFFICE|Gran Vía 12, 48001 Bilbao}}"),
    ("rl-es-bank-8487", "Un saludo,\n[[PERSON|Noelia Vidal]]\nOficina 3012 - Tel. {{OFFICE|976 71 00 00}}"),
    ("rl-es-clinic-8488", "Consultas en el Hospital Reina Sofía, centralita aparte; cita previa {{OFFICE|957 01 00 00}}."),
    ("rl-es-law-8489", "La firma será en la Notaría de Bilbao, {{OFFICE|calle Ercilla 20, 48009 Bilbao}}."),
    ("rl-es-bank-8490", "lleva viviendo en Alcorcón {{REFERENCE|20 años}} y no quiere mudarse"),
    ("rl-en-bank-8491", "he lives at home, {{STREET_GENERIC|2 miles}} from the branch"),
    ("rl-es-clinic-8492", "Paciente de la Mutua Universal; su teléfono de casa [[PHONE|976 33 21 10]]."),
    ("rl-es-bank-8493", "[[PERSON|Lucía Ferrer]], tel. fijo [[PHONE|964 22 11 00]], cliente de la oficina 0120."),
]

# the markup and byte offsets are dev5_addr.py's
from dev5_addr import emit  # noqa: E402

if __name__ == "__main__":
    emit(ITEMS)
