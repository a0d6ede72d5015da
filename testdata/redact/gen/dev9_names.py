#!/usr/bin/env python3
"""Generator of realistic-dev9-names.jsonl (issue #13, sixth names round). Same markup, offset and
DNI-letter conventions as dev5_names.py: [[TYPE|value]] for personal data, {{TYPE|value}} for
decoys (WORD: an everyday word that is also a given name). All people, numbers and addresses are
invented; public institutions, companies and public figures are decoys. Written before any rule
of the round, for general forms (a lone name after a kinship or role word, a field key, a chat
handle, a greeting or sign-off, a verb that takes a person, a list of names, the lower-case repeat
of a name found once), each with a decoy form next to it; figures before and after are in the
round's commit messages.

    python3 testdata/redact/gen/dev9_names.py > testdata/redact/realistic-dev9-names.jsonl
"""

ITEMS = [
    # --- kinship words before a lone lower-case given name, five languages ---
    ("rl-ca-clinic-8001", "ha trucat la filla, diu que el seu marit [[PERSON|ramon]] no pot venir dijous i que la [[PERSON|txell]] el portarà"),
    ("rl-es-clinic-8002", "viene con su mujer [[PERSON|encarni]] y su hijo [[PERSON|dani]], le duele la rodilla desde el lunes"),
    ("rl-en-clinic-8003", "her husband [[PERSON|gethin]] rang, says she is feeling worse; daughter [[PERSON|cerys]] will bring the meds"),
    ("rl-gl-clinic-8004", "vén acompañada da súa nai, [[PERSON|carmiña]], e do seu home [[PERSON|xosé]]"),
    ("rl-eu-clinic-8005", "bere alaba [[PERSON|nahia]] etorriko da bihar, ama ospitalean dago"),
    ("rl-es-bank-8006", "la hija mayor quiere abrir una cuenta; el marido también firma, pero su hermana no"),
    ("rl-es-clinic-8007", "refiere {{WORD|dolores}} articulares; la madre de la paciente vino con la {{WORD|luz}} apagada del móvil"),
    # --- field keys: given name and surname in forms, lower case or unknown to the lists ---
    ("rl-es-bank-8008", "nombre: [[PERSON|Yurena]]\napellidos: [[PERSON|Bilbao Ugarte]]\ndni: [[DNI|#52817364]]"),
    ("rl-es-bank-8009", "me dice el apellido [[PERSON|zubizarreta]] y el dni [[DNI|#40918273]], pero no aparece en el sistema"),
    ("rl-ca-bank-8010", "Nom: [[PERSON|Nuri]]\nCognoms: [[PERSON|Comas Vidal]]\nProducte: {{PRODUCT|Compte Expansió}}"),
    ("rl-gl-bank-8011", "Nome: [[PERSON|Uxía]]\nApelidos: [[PERSON|Rial Soneira]]\nOficina: {{OFFICE|Vigo-Urzaiz}}"),
    ("rl-eu-bank-8012", "Izena: [[PERSON|Maddi]]\nAbizenak: [[PERSON|Etxeberria Goikoetxea]]"),
    ("rl-en-bank-8013", "First name: [[PERSON|Tamsin]]\nSurname: [[PERSON|Polglase]]\nProduct name: {{PRODUCT|Easy Saver}}"),
    ("rl-es-bank-8014", "nombre del producto: {{PRODUCT|Cuenta Online Plus}}, nombre comercial {{COMPANY|Bodegas Otero}}"),
    # --- chat handles and users in logs that are no given name ---
    ("rl-es-bank-8015", "[11:02] [[PERSON|jlgarrido_77]]: buenas, no me llega el sms\n[11:03] Agente: ¿me confirma el dni?\n[11:03] [[PERSON|jlgarrido_77]]: [[DNI|#33421908]]"),
    ("rl-ca-bank-8016", "2026-12-01 08:14:02 oficina=0412 usuari=[[PERSON|nfarre]] op=transferencia import={{AMOUNT|1.200,00}}"),
    ("rl-es-clinic-8017", "{\"ts\":\"2026-12-01T10:00:00Z\",\"user\":\"[[PERSON|mherrador]]\",\"action\":\"ver_historia\"}"),
    ("rl-en-bank-8018", "[09:40] bot_help: how can I help?\n[09:41] [[PERSON|kwalsh88]]: my card got blocked\n[09:41] system: transferring"),
    ("rl-es-bank-8019", "{\"user\":\"admin\",\"usuario\":\"sistema\",\"level\":\"warn\",\"msg\":\"reintento\"}"),
    # --- greetings and sign-offs with a lone lower-case or unknown name ---
    ("rl-es-bank-8020", "buenas [[PERSON|maite]], me pasas el saldo del cliente de ayer?"),
    ("rl-en-bank-8021", "hey [[PERSON|kez]], can you check the standing order for the Leeds client"),
    ("rl-gl-bank-8022", "bos días [[PERSON|xurxo]], mándoche o extracto"),
    ("rl-fr-law-8023", "Merci pour votre retour.\nCordialement,\n[[PERSON|L. Fontaine]]"),
    ("rl-es-law-8024", "quedo pendiente.\nUn saludo,\n[[PERSON|Marisol]]"),
    ("rl-es-bank-8025", "buenas tardes a todos, hoy cerramos a las 14h.\nUn saludo,\n{{INSTITUTION|Dirección Territorial}}"),
    # --- verbs that take a person: a lone name ---
    ("rl-es-bank-8026", "ha venido [[PERSON|Eleuterio]] a preguntar por el recibo de la luz"),
    ("rl-es-bank-8027", "he hablado con [[PERSON|Wenceslao]] y dice que pasa mañana"),
    ("rl-ca-bank-8028", "he parlat amb la [[PERSON|Montse]] i diu que ja ho ha pagat"),
    ("rl-en-law-8029", "I spoke to [[PERSON|Ottilie]] this morning; she wants the deed by Friday"),
    ("rl-es-bank-8030", "he hablado con {{INSTITUTION|Hacienda}} y con {{COMPANY|Iberdrola}}, ninguno sabe nada"),
    ("rl-es-bank-8031", "pregunta por [[PERSON|Eutimio]] una señora que dice ser su vecina"),
    # --- lists of names ---
    ("rl-es-bank-8032", "los titulares son [[PERSON|ana]], [[PERSON|pedro]] y [[PERSON|luis]], los tres firman"),
    ("rl-ca-bank-8033", "Cotitulars: [[PERSON|Arnau]] i [[PERSON|Queralt]], tots dos amb DNI"),
    ("rl-en-bank-8034", "the joint holders are [[PERSON|Hamish]] and [[PERSON|Morag]], both in branch today"),
    # --- a name found once with a cue, then repeated in lower case ---
    ("rl-es-clinic-8035", "Paciente: [[PERSON|Anacleto Urbieta]]. Acompaña el hijo de [[PERSON|anacleto]], dice que [[PERSON|urbieta]] no come"),
    ("rl-en-bank-8036", "Customer: [[PERSON|Ffion Penhaligon]]. later [[PERSON|penhaligon]] rang again about the fee"),
    # --- roles with a colon in several languages ---
    ("rl-eu-clinic-8037", "Gaixoa: [[PERSON|Unai Lasarte]]. Medikua: [[PERSON|Garazi Agirre]]."),
    ("rl-es-bank-8038", "Gestor: [[PERSON|Anselmo Kurz]]. Tomador: [[PERSON|Bartomeu]]. Producto: {{PRODUCT|Hogar Plus}}"),
    ("rl-es-bank-8039", "Tomador: {{COMPANY|Transportes Ribera}}. Gestor: {{OFFICE|Oficina 0412}}"),
    # --- foreign given names alone with an apposition ---
    ("rl-es-bank-8040", "una clienta colombiana, [[PERSON|Yesenia]], quiere abrir cuenta"),
    ("rl-en-clinic-8041", "the patient ([[PERSON|Bogdan]]) says he lost his card"),
    # --- decoys: institutions and companies with a given name, famous people in the news, streets ---
    ("rl-es-clinic-8042", "derivado al {{INSTITUTION|Hospital Virgen del Rocío}}; la aseguradora es {{COMPANY|Santa Lucía}}"),
    ("rl-es-bank-8043", "en la radio decía {{FAMOUS|Pedro Sánchez}} que suben las pensiones"),
    ("rl-es-bank-8044", "vive en la calle {{STREET_GENERIC|Pilar}} pero el recibo va a la oficina de {{OFFICE|Plaza Mayor}}"),
    ("rl-ca-bank-8045", "diu que la {{WORD|rosa}} del jardí, no ho sé; demà és {{WORD|Sant Jordi}}"),
    ("rl-en-bank-8046", "the {{WORD|victory}} was on the news; {{COMPANY|Victoria Plum}} paid by card"),
    ("rl-gl-clinic-8047", "tranquila, en {{WORD|paz}}; o {{WORD|mar}} estaba bravo"),
    ("rl-es-bank-8048", "transferencia a {{COMPANY|Banco Santander}} por la obra de {{COMPANY|Construcciones Amparo}}"),
]

# the markup, byte offsets and id checks are dev3_names.py's
from dev3_names import emit  # noqa: E402

if __name__ == "__main__":
    emit(ITEMS, 8001, 8199)
