#!/usr/bin/env python3
"""Generator of testdata/redact/realistic-dev11-ids.jsonl (issue #13, seventh round: dates of
birth and identifiers).

The markup, the check digits and the checks are those of dev3_ids.py (emit): [[TYPE|value]] for
personal data, {{TYPE|value}} for decoys; offsets computed, DNI letters mod 23, IBAN mod 97 with
the CCC control digits, Luhn; every decoy shaped like a DNI or a card checked to fail. All
people, numbers and addresses are invented; written for forms (never a held-out text): a bare
two-digit year (digits or words) after a birth verb in five languages, a month and a two-digit
year after a birth verb, day/month/two-digit-year and two-digit-year-first dates after a birth
cue, dates in words with a two-digit year or "do 1 do", an e-mail whose at-sign is a word in
brackets or braces or "AT ... DOT", an IBAN with doubled spaces; and a decoy for each (a year
that is not a birth, an invalid account number said to be wrong, a lot number).

Run: python3 testdata/redact/gen/dev11_ids.py > testdata/redact/realistic-dev11-ids.jsonl
"""
from dev3_ids import emit


def define(item, h):
    dni, ES, group, card_bad = h["dni"], h["ES"], h["group"], h["card_bad"]

    # ---- a bare two-digit year after a birth verb ---------------------------------------------
    item("rl-es-bank-9501", "es", "bank",
         "el titular, un señor que nació en el [[DOB|49]], quiere cancelar el plazo fijo; la oficina abrió en el {{DATE|86}}")
    item("rl-ca-bank-9502", "ca", "bank",
         "la senyora [[PERSON|Roser]] va néixer el [[DOB|53]] i té el compte des del {{DATE|91}}")
    item("rl-gl-bank-9503", "gl", "bank",
         "o cliente [[PERSON|Anxo Figueiras]] naceu no [[DOB|71]]; a hipoteca asinouse no {{DATE|2004}}")
    item("rl-en-law-9504", "en", "law",
         "witness was born in '[[DOB|63]]', retired since {{DATE|2019}}, lives alone")
    item("rl-es-clinic-9505", "es", "clinic",
         "paciente nacida en el [[DOB|cuarentaiuno]], viuda, vive con la hija; revisión en {{DATE|enero}}")
    item("rl-gl-clinic-9506", "gl", "clinic",
         "a paciente, nada no [[DOB|trinta e nove]], vén soa; consulta o {{DATE|martes}}")
    # ---- month + two-digit year after a birth verb ---------------------------------------------
    item("rl-es-clinic-9507", "es", "clinic",
         "dice la hija que su madre nació en [[DOB|agosto del 29]], que no se acuerda bien; la cita es en {{DATE|febrero del 27}}")
    item("rl-ca-clinic-9508", "ca", "clinic",
         "l'avi va néixer al [[DOB|març del 36]]; l'operació va ser a {{DATE|juny del 24}}")
    item("rl-gl-bank-9509", "gl", "bank",
         "a titular naceu en [[DOB|outubro do 44]]. o depósito vence en {{DATE|xaneiro do 27}}")
    # ---- d/m/yy and yy/mm/dd after a birth cue ------------------------------------------------
    item("rl-eu-bank-9510", "eu", "bank",
         "bezeroa: [[PERSON|Unai Goikoetxea]], jaiotza data [[DOB|79/11/03]], kontua ireki {{DATE|26/11/30}}")
    item("rl-en-clinic-9511", "en", "clinic",
         "pt [[PERSON|Mia Kovacs]], d.o.b. [[DOB|03/11/88]], seen {{DATE|01/12/26}} for sore throat")
    item("rl-es-law-9512", "es", "law",
         "demandante nacido el [[DOB|5-7-61]], notificado el {{DATE|2-12-26}}")
    # ---- dates in words with a two-digit year ---------------------------------------------------
    item("rl-es-bank-9513", "es", "bank",
         "la fecha de nacimiento que me da es el [[DOB|veinte del nueve del sesenta y dos]], la apunto; firma el {{DATE|día quince}}")
    item("rl-ca-clinic-9514", "ca", "clinic",
         "va néixer el [[DOB|dos de febrer del cinquanta-vuit]], diu el fill; visita el {{DATE|dilluns}}")
    item("rl-gl-law-9515", "gl", "law",
         "o testemuña naceu o [[DOB|3 do 5 do 1957]] e declarou o {{DATE|2 do 12}}")
    item("rl-es-clinic-9516", "es", "clinic",
         "fecha nac. [[DOB|once de junio del ochenta y tres]]. Alergias: no. Próxima cita {{DATE|once de enero}}")
    # ---- obfuscated e-mails ---------------------------------------------------------------------
    item("rl-es-bank-9517", "es", "bank",
         "correo del cliente: [[EMAIL|marta.solis [at] telefonica . net]] (lo escribe así para que no le llegue spam)")
    item("rl-en-law-9518", "en", "law",
         "you can reach the claimant at [[EMAIL|t.okafor(at)outlook.com]] or through us; our site is {{URL|www.lawsociety.org.uk}}")
    item("rl-ca-bank-9519", "ca", "bank",
         "el correu és [[EMAIL|jordi_pons{arroba}gmail{punt}com]], l'ha escrit així al formulari")
    item("rl-eu-bank-9520", "eu", "bank",
         "emaila: [[EMAIL|mikel.aranburu AT yahoo DOT es]] | bulegoa: {{OFFICE|Donostia Erdialdea}}")
    item("rl-gl-clinic-9521", "gl", "clinic",
         "o seu correo [[EMAIL|uxia77 (arroba) mundo-r . com]]; o do centro é o xeral")
    item("rl-en-bank-9522", "en", "bank",
         "customer email is [[EMAIL|sam dot whitley 82 at gmail dot com]], wants e-statements")
    # ---- an IBAN with doubled spaces ------------------------------------------------------------
    iban1 = ES("2085", "0103", "0330097781")
    iban2 = ES("0182", "5322", "0201503362")
    item("rl-es-bank-9523", "es", "bank",
         "cuenta para la devolución: [[IBAN|" + iban1[:4] + "  " + group(iban1[4:]) + "]] (copiada del móvil)")
    # ---- invalid account numbers said to be wrong (decoys) ---------------------------------------
    item("rl-es-bank-9524", "es", "bank",
         "el número {{CHECKSUM|2085-0103-11-0330097781}} que trae el recibo no existe, está mal copiado; pedirle el bueno")
    item("rl-en-bank-9525", "en", "bank",
         "test card on the ticket {{CHECKSUM|" + group(card_bad("411111222233334")) + "}} is not the customer's")
    item("rl-ca-bank-9526", "ca", "bank",
         "el compte {{CHECKSUM|ES12 2100 0418 4502 0005 1332}} està malament, no passa la validació")
    # ---- lot numbers and company ids (decoys) -----------------------------------------------------
    item("rl-es-clinic-9527", "es", "clinic",
         "vacuna gripe, lote {{REFERENCE|K4471-B}}, caducidad {{DATE|03/2027}}; paciente [[PERSON|Emilio]] sin reacciones")
    # ---- DNI with a country prefix and dots -------------------------------------------------------
    item("rl-es-law-9528", "es", "law",
         "comparece con documento [[DNI|ES-" + dni(7308115, "{n7}{l}")[:1] + "." + dni(7308115, "{n7}")[1:4] + "." + dni(7308115, "{n7}")[4:] + "-" + dni(7308115, "{l}") + "]]")
    # ---- passports after a nationality ------------------------------------------------------------
    item("rl-en-law-9529", "en", "law",
         "the buyer holds a Ukrainian passport [[PASSPORT|FE 482193]] and a residence card in process")

    # ---- a regional health card code typed in groups (letters, birth date, digit, region) ---------
    item("rl-es-clinic-9530", "es", "clinic",
         "la tarjeta de mi padre pone [[MRN|GRLO 410623 8 AND]], no sé si hace falta el CIP también; el centro es el de siempre")
    item("rl-ca-clinic-9531", "ca", "clinic",
         "CIP de la pacient: [[MRN|PUFE 520914 0 CAT]]. Visita de control el {{DATE|dijous}}")
    item("rl-gl-clinic-9532", "gl", "clinic",
         "tarxeta: [[MRN|CAVI 470301 2 GAL]] - a consulta é en {{OFFICE|Vigo}}")
    item("rl-en-clinic-9533", "en", "clinic",
         "Spanish health card on file: [[MRN|LOSA 690817 3 MAD]]; NHS number not given")
    item("rl-es-bank-9534", "es", "bank",
         "pedido {{REFERENCE|PACK 240517 2 ESP}} enviado; el cliente pregunta por el seguimiento")
    item("rl-en-law-9535", "en", "law",
         "the IBAN in the claim form is [[IBAN|" + iban2[:4] + "  " + group(iban2[4:]) + "]] and the court ref is {{REFERENCE|CV-2026-0441}}")

    # ---- a foreigner's passport under a generic document key or column -------------------------
    item("rl-es-bank-9536", "es", "bank",
         "titular;documento;oficina\n[[PERSON|Olena Kovalenko]];[[PASSPORT|FK917204]];{{OFFICE|3021}}\n[[PERSON|Mateo Ruiz]];[[DNI|" + dni(50331876) + "]];{{OFFICE|3021}}")
    item("rl-en-clinic-9537", "en", "clinic",
         '{"patient":"[[PERSON|Sven Lindqvist]]","doc":"[[PASSPORT|AB4471902]]","ward":"{{REFERENCE|B2}}"}')


emit(define, 9501, 9599)
