#!/usr/bin/env python3
"""Generator of realistic-dev11-names.jsonl (issue #13, seventh names round). Same markup, offset and
DNI-letter conventions as dev5_names.py: [[TYPE|value]] for personal data, {{TYPE|value}} for
decoys (WORD: an everyday word that is also a given name). All people, numbers and addresses are
invented; public institutions, companies and public figures are decoys. Written before any rule
of the round, for the forms the fifth blind set (dev10) left uncovered — never its texts: a name's
parts said again in another case, an inverted "SURNAMES, Given" list entry after a key, a chat
speaker's "Name:" at a line's start with no time stamp, the Catalan elided article before a given
name ("l'Enric"), a closing and a lone name on one line ("Cheers, Rob"), a capitals name with an
honorific and an initial, a cue before lower-case surname particles ("Mr van der Berg"), a name in
brackets after a pronoun or a name, a kinship word, a comma and a lower-case name. Each form has a
decoy form next to it; figures before and after are in the round's commit messages.

    python3 testdata/redact/gen/dev11_names.py > testdata/redact/realistic-dev11-names.jsonl
"""

ITEMS = [
    # --- a name's parts said again, in another case or alone ---
    ("rl-es-bank-9401", "Titulares:\n- [[PERSON|MENÉNDEZ OLIVARES, Herminia]], DNI [[DNI|#30522871]]\nLlamó ayer [[PERSON|Herminia]] preguntando por el expediente [[PERSON|Menéndez]]"),
    ("rl-ca-law-9402", "Part actora: [[PERSON|QUINTANA FERRER, Eudald]]. El senyor [[PERSON|Quintana]] demana ajornament; [[PERSON|Eudald]] no pot venir dimarts"),
    ("rl-en-bank-9403", "Account holder: [[PERSON|PENROSE, Tamsin]]\nNote: [[PERSON|Tamsin]] called twice about the [[PERSON|Penrose]] mortgage"),
    ("rl-gl-clinic-9404", "Paciente: [[PERSON|VARELA CASTIÑEIRA, Sabela]]. Chamou [[PERSON|Sabela]] pola cita; o expediente [[PERSON|Varela]] está incompleto"),
    ("rl-es-bank-9405", "Cliente: {{COMPANY|GRUPO MERIDIANO, S.L.}}. El expediente Meridiano sigue abierto"),
    # --- inverted list entries after a key, a role or inside quotes ---
    ("rl-ca-law-9406", "Citació a: [[PERSON|CASALS PUIGDOLLERS, Montserrat]], amb domicili conegut"),
    ("rl-en-law-9407", "Executor: [[PERSON|WHITAKER, Agnes Maud]]; witness: [[PERSON|OYELARAN, Tunde]]"),
    ("rl-eu-law-9408", "Deitua: [[PERSON|ZUBELDIA ARRIETA, Nerea]]\nHelbidea: ezezaguna"),
    ("rl-es-clinic-9409", "ERROR sync: paciente=\"[[PERSON|Gallardo Piqueras, Remigio]]\" nhc=[[MRN|7730188]] duplicado"),
    ("rl-es-bank-9410", "Destino: \"MADRID, Centro\"; sucursal {{OFFICE|VALENCIA, Ruzafa}}"),
    # --- chat speakers at a line's start, no time stamp ---
    ("rl-eu-bank-9411", "[[PERSON|Maialen]]: kaixo, bezero batek transferentzia bat eskatu du\n[[PERSON|Oier]]: ados, bidali zenbakia"),
    ("rl-ca-clinic-9412", "[[PERSON|jordi]]: tens l'informe de la senyora del 12?\n[[PERSON|mireia]]: sí, te'l passo ara"),
    ("rl-es-bank-9413", "[[PERSON|Leire]]: ¿alguien sabe si ha salido la transferencia?\n[[PERSON|Asier]]: salió ayer"),
    ("rl-es-bank-9414", "Nota: pendiente de firma\nAsunto: renovación\nEstado: abierto"),
    # --- the Catalan elided article before a given name ---
    ("rl-ca-bank-9415", "digues-li a l'[[PERSON|Oriol]] que truqui a la clienta, i que l'[[PERSON|Estefania]] revisi el rebut"),
    ("rl-ca-clinic-9416", "ha vingut l'[[PERSON|Andreu]] amb la seva mare; l'[[PERSON|Ignasi]] no"),
    ("rl-ca-bank-9417", "he anat a l'{{INSTITUTION|Ajuntament}} i a l'{{INSTITUTION|Hospital de Sant Pau}}; l'oficina obre a les 8"),
    # --- a closing and a lone name on one line ---
    ("rl-en-bank-9418", "Statement attached as requested. Thanks, [[PERSON|Gav]]"),
    ("rl-es-bank-9419", "te lo dejo en la bandeja. Un abrazo, [[PERSON|Chus]]"),
    ("rl-ca-bank-9420", "ja està enviat. Salut, [[PERSON|Quim]]"),
    ("rl-en-law-9421", "will chase the land registry tomorrow. cheers, [[PERSON|Moz]]"),
    ("rl-en-bank-9422", "the branch closes at 3 on Friday. Thanks, Team"),
    # --- capitals names with an honorific and an initial ---
    ("rl-en-bank-9423", "Cheque payee: MR [[PERSON|T OKONKWO]], sort code {{REFERENCE|20-45-77}}"),
    ("rl-en-bank-9424", "Incoming SWIFT from [[PERSON|HALVORSEN INGRID M]] ref INV-2207"),
    ("rl-en-bank-9425", "name on card MISS [[PERSON|R FAIRWEATHER]]; expiry check only"),
    ("rl-en-bank-9426", "FORM P60 PART B attached; see SECTION C"),
    # --- a cue, then lower-case surname particles ---
    ("rl-en-bank-9427", "Dear Mrs [[PERSON|van Leeuwen]],\nyour card is ready"),
    ("rl-es-law-9428", "comparece la Sra. [[PERSON|de la Vega]] con su abogado"),
    ("rl-en-law-9429", "we act for Mr [[PERSON|de Souza]] in the sale"),
    ("rl-es-bank-9430", "vive en la calle {{STREET_GENERIC|de la Vega}}, junto a la plaza {{STREET_GENERIC|del Olmo}}"),
    # --- a name in brackets after a pronoun or a name ---
    ("rl-es-law-9431", "el marido no viene y ella ([[PERSON|candelaria]]) firma sola"),
    ("rl-en-clinic-9432", "she ([[PERSON|maureen]]) says the GP changed the dose"),
    ("rl-es-law-9433", "el detenido, [[PERSON|Iker]] (alias \"[[PERSON|txapas]]\"), no tenía carnet"),
    ("rl-en-clinic-9434", "her son [[PERSON|Kieran]] ([[PERSON|kieran doyle]]) will collect the prescription"),
    ("rl-es-clinic-9435", "el paciente (sin cita) y ella (hija) esperan; él (DNI en vigor) pasa primero"),
    # --- a kinship word, a comma, a lower-case name ---
    ("rl-en-clinic-9436", "ringing for my dad, [[PERSON|des mccarthy]], he's on ward 3"),
    ("rl-es-clinic-9437", "llamo por mi suegra, [[PERSON|remedios]], que tiene cita el lunes"),
    ("rl-gl-clinic-9438", "veño por meu avó, [[PERSON|manuel]], que non pode camiñar"),
    ("rl-ca-clinic-9439", "truco per la meva mare, [[PERSON|roser]], que té hora dilluns"),
    ("rl-en-clinic-9440", "calling about my mum, again, she can't make Tuesday"),
    # --- a lower-case name, then a phone or an id ---
    ("rl-ca-law-9441", "et passo el client: [[PERSON|pere vinyoles]], [[PHONE|638 41 22 90]]"),
    ("rl-es-bank-9442", "apunta: [[PERSON|rocio berenguel]], [[PHONE|611 20 44 87]], llamar tarde"),
    ("rl-es-bank-9443", "apunta: madrid centro, 915 22 10 00, centralita"),
    # --- a vocative lower-case given name at a text's start ---
    ("rl-es-law-9444", "[[PERSON|merche]] q ya ha llegado el del poder notarial"),
    ("rl-ca-bank-9445", "[[PERSON|nuria]], et deixo el rebut a la taula"),
    ("rl-es-bank-9446", "vale, te lo paso luego; rosa la de la carpeta, no la azul"),
    # --- a capitalised given name after "de" and before a time ---
    ("rl-es-bank-9447", "Mensaje de [[PERSON|Nekane]] a las 9:15: que la llames"),
    ("rl-eu-bank-9448", "[[PERSON|Ainhoa]]-ren mezua 10:20an: deitu bezeroari"),
]

# the markup, byte offsets and id checks are dev3_names.py's
from dev3_names import emit  # noqa: E402

if __name__ == "__main__":
    emit(ITEMS, 9401, 9499)
