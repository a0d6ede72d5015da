#!/usr/bin/env python3
"""Generator of testdata/redact/realistic-dev9-ids.jsonl (issue #13, sixth round: dates of birth
and the small identifier forms).

The markup, the check digits and the checks are those of dev3_ids.py (emit): [[TYPE|value]] for
personal data, {{TYPE|value}} for decoys; offsets computed, DNI/NIE letters mod 23, Luhn; every
decoy shaped like a DNI or a card checked to fail. All people, numbers and addresses are
invented; written for forms (never a held-out text): a date before a birthday phrase, US
month-first dates, the second date of a birth list, two-digit years after "los dos del", "(n.
61)", unaccented Galician "e do 68", a bare year as a record field after a name, a table whose
header is above blank lines or a page break, dates in words with "día", a "sec code", a
passport next to a foreign nationality, foreign plates after a vehicle word, a European health
card number, an e-mail spelled with Spanish letter names; and a decoy for each.

Run: python3 testdata/redact/gen/dev9_ids.py > testdata/redact/realistic-dev9-ids.jsonl
"""
from dev3_ids import emit


def define(item, h):
    dni, card = h["dni"], h["card"]

    # ---- a date, then the birthday it is ------------------------------------------------------
    item("rl-es-bank-8201", "es", "bank",
         "ojo q la sra [[PERSON|Maribel]] dice q el [[DOB|14 de marzo de 1983]] es su cumple, no el {{DATE|21 de marzo}} como pone en la ficha")
    item("rl-en-bank-8202", "en", "bank",
         "quick one - [[DOB|12/03/1979]] is his birthday, the {{DATE|12/03/2026}} is just when he rang us")
    item("rl-ca-bank-8203", "ca", "bank",
         "la senyora diu que el [[DOB|4 de juliol de 1966]] és el seu aniversari, i que la cita és el {{DATE|9 de desembre}}")
    # ---- month-first dates (US) after a birth cue ---------------------------------------------
    item("rl-en-law-8204", "en", "law",
         "Our client [[PERSON|Dwayne Kowalski]] (born [[DOB|10/27/1984]], per his Illinois licence) signed on {{DATE|11/14/2026}}.")
    item("rl-en-bank-8205", "en", "bank",
         "[web chat]\nbot: Please confirm your date of birth.\nkaren_88: [[DOB|4/30/1972]]\nbot: Thanks. Your next statement is due {{DATE|12/15/2026}}.")
    # ---- the second date of a birth list ------------------------------------------------------
    item("rl-es-bank-8206", "es", "bank",
         "fechas de nacimiento: él el [[DOB|3 de abril de 1950]], ella el [[DOB|22/09/1953]]. cuenta abierta el {{DATE|14/02/1991}}")
    item("rl-en-bank-8207", "en", "bank",
         "DOB: me [[DOB|1980-02-11]], my wife [[DOB|1982-07-30]] - joint account opened {{DATE|2003-05-19}}")
    item("rl-ca-clinic-8208", "ca", "clinic",
         "data de naixement [[DOB|02.11.1941]], ingrés {{DATE|28.11.2026}}, alta prevista {{DATE|03.12.2026}}")
    # ---- two-digit years ----------------------------------------------------------------------
    item("rl-es-bank-8209", "es", "bank",
         "los titulares son [[PERSON|Eusebio]] y [[PERSON|Amparo]], los dos del [[DOB|47]]. la libreta es del {{DATE|98}}")
    item("rl-es-bank-8210", "es", "bank",
         "el abuelo es del [[DOB|39]] y ella del [[DOB|44]], vienen los dos del {{DATE|3 al 5}} a firmar")
    item("rl-es-law-8211", "es", "law",
         "Comparecen D. [[PERSON|Ramón Ferrer Vidal]] (n. [[DOB|61]]) y su hermano [[PERSON|Lluís]] (n. [[DOB|'64]]), véase la nota (n. {{REFERENCE|3}})")
    item("rl-gl-clinic-8212", "gl", "clinic",
         "vén o señor [[PERSON|Xosé]] con febre. e do [[DOB|52]]. a filla queda ata as 8. o ingreso e do {{DATE|12 ao 15}}")
    # ---- a bare year as a record field after a name -----------------------------------------
    item("rl-eu-clinic-8213", "eu", "clinic",
         "NHC [[MRN|0051234]] - [[PERSON|ETXEBERRIA, Miren]] - [[DOB|1941]] - alta {{DATE|02/12/2026}}\nNHC [[MRN|0051299]] - [[PERSON|LARRAÑAGA, Josu]] - [[DOB|1936]] - alta {{DATE|01/12/2026}}")
    item("rl-es-bank-8214", "es", "bank",
         "| titular | año | oficina |\n|---|---|---|\n| [[PERSON|Ruiz Peña, Tomás]] | [[DOB|1944]] | {{OFFICE|0182}} |\n| [[PERSON|Gil Soto, Nieves]] | [[DOB|1951]] | {{OFFICE|0182}} |")
    item("rl-es-bank-8215", "es", "bank",
         "[[PERSON|Campos Vidal, Rosa]] - cliente desde {{DATE|1998}} - tarjeta bloqueada")
    # ---- a table whose header is above blank lines or a page break --------------------------
    item("rl-es-bank-8216", "es", "bank",
         "fecha_nacimiento;nombre;f_alta\n\n--- página 2 ---\n[[DOB|12/06/1958]];[[PERSON|Pilar Ortega]];{{DATE|03/04/2024}}\n[[DOB|30/01/1962]];[[PERSON|Iñaki Sola]];{{DATE|17/10/2025}}")
    item("rl-en-clinic-8217", "en", "clinic",
         "mrn\tname\tdob\tadmitted\n\nexport run 2026-12-01\n[[MRN|4471203]]\t[[PERSON|Harper, Leonie]]\t[[DOB|1949-03-08]]\t{{DATE|2026-11-28}}\n[[MRN|4471266]]\t[[PERSON|Osei, Kwame]]\t[[DOB|1977-10-21]]\t{{DATE|2026-11-30}}")
    # ---- dates in words with "día", a single-digit day ---------------------------------------
    item("rl-es-law-8218", "es", "law",
         "Prestatario: [[PERSON|ALBERTO SANZ MORO]], nacido el [[DOB|día cinco de marzo de mil novecientos setenta y seis]], con DNI [[DNI|" + dni(51238406) + "]]. Firmado el {{DATE|día dos de diciembre de dos mil veintiséis}}.")
    item("rl-en-bank-8219", "en", "bank",
         "customer born on the [[DOB|3rd of May 1980]], wants the direct debit moved to the {{DATE|5th of January}}")
    item("rl-ca-law-8220", "ca", "law",
         "La senyora [[PERSON|Montserrat Bosch]], nascuda el [[DOB|5 de març del 76]], signa el {{DATE|7 de gener del 2027}}.")
    # ---- ages stay ---------------------------------------------------------------------------
    item("rl-es-clinic-8221", "es", "clinic",
         "pac. [[PERSON|Baltasar]], tiene {{AGE|76}} años, del [[DOB|49]] dice él; ingresa por disnea")
    # ---- security code, passport, plates, health card, spelled e-mail -------------------------
    item("rl-en-bank-8222", "en", "bank",
         "deposit on card [[CARD|" + card('492181730091845') + "]], exp [[CARD_EXP|Jun 2029]], sec code [[CVV|538]]. Room code {{REFERENCE|4471}}.")
    item("rl-es-law-8223", "es", "law",
         "el poder lo firma [[PERSON|Zhang Wei]] ([[PASSPORT|E72019384]], china) ante notario; la sociedad es {{COMPANY|Inversiones Alba SL}}, CIF {{CHECKSUM|B12345674}}")
    item("rl-en-law-8224", "en", "law",
         "the tenant's car ([[PLATE|KDR-4471]], Ohio) is parked at the back; the lease ref is {{REFERENCE|LSE-2291}}")
    item("rl-es-bank-8225", "es", "bank",
         "el cliente tiene un coche portugués, matrícula [[PLATE|45-QX-18]], y una furgoneta con placa [[PLATE|AB-12-CD]]. pedido {{ORDER|45-11-18}}")
    item("rl-ca-clinic-8226", "ca", "clinic",
         "Pacient irlandès, TSE europea [[MRN|80372 0000 4418 2207 9931]]. Expedient {{REFERENCE|80123 0000 1111 2222 3333}}")
    item("rl-es-bank-8227", "es", "bank",
         "me dicta el correo: [[EMAIL|ele u pe e ere te o punto tres dos arroba gmail punto com]]. lo dejo anotado, el de la oficina es el de siempre")


emit(define, 8201, 8399)
