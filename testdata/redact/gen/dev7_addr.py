#!/usr/bin/env python3
"""Generator of realistic-dev7-addr.jsonl (issue #13, fifth round: addresses). Same inline markup as
dev5_addr.py: [[TYPE|value]] for personal data, {{TYPE|value}} for decoys. Written before the rules
for these forms: offices', firms', hotels' and venues' addresses (decoys) in the contexts that say
so (a firm's signature block, a hotel or company name right before, venue and meeting words), next
to customers' homes in the same texts (home words must keep winning); and the recall shapes the
spent third held-out set showed (a house or practice name first, British lower case with a
postcode, Polish ul./al./os., a street name holding a title, a lower-case town after de la/del).
All people, numbers and addresses are invented.

    python3 testdata/redact/gen/dev7_addr.py > testdata/redact/realistic-dev7-addr.jsonl
"""

ITEMS = [
    # --- batch 1: written before any rule of this round ---
    # a firm's signature block: firm name, job title or office line right above the address
    ("rl-es-law-6401", "Quedo a la espera.\n\nSaludos,\n[[PERSON|Remedios Alcaraz]]\nAlcaraz & Quesada Abogados\n{{OFFICE|C/ Colón 14, 46004 Valencia}}\nTel. 963 10 20 30"),
    ("rl-es-bank-6402", "Un saludo,\n[[PERSON|Fermín Olano]]\nGestor de empresas\n{{OFFICE|Avenida de la Libertad 8, 30009 Murcia}}"),
    ("rl-ca-law-6403", "Salutacions,\n[[PERSON|Pere Vilaró]]\nAdvocat\n{{OFFICE|Passeig de Gràcia 71, 08008 Barcelona}}"),
    ("rl-en-law-6404", "Best regards,\n[[PERSON|Helen Crowther]]\nSolicitor, Crowther & Lyle LLP\n{{OFFICE|18 King Street, Manchester M2 4LQ}}"),
    ("rl-gl-bank-6405", "Un saúdo,\n[[PERSON|Iria Varela]]\nDirectora, oficina 0871\n{{OFFICE|Rúa Nova 40, 15705 Santiago de Compostela}}"),
    # a hotel, company or venue name right before
    ("rl-es-clinic-6406", "Paciente alemana de vacaciones, alojada en el Hotel Las Gaviotas, [[ADDRESS|Paseo de Poniente 8, Benidorm]]. Dolor torácico."),
    ("rl-en-clinic-6407", "Tourist, staying at the Hotel Colón, [[ADDRESS|Avenida de la Catedral 7, Barcelona]]; travel insurance on file."),
    ("rl-es-bank-6408", "La empresa Transportes Ulloa SL, {{OFFICE|calle Industria 22, 15008 A Coruña}}, pide un aval."),
    ("rl-es-law-6409", "La vista será en la sede de la Audiencia, {{OFFICE|Plaza de la Merced 1, 18071 Granada}}."),
    ("rl-es-bank-6410", "La reunión en {{OFFICE|calle Alfonso I 17, Zaragoza}} es a las 11, en nuestras oficinas."),
    ("rl-en-bank-6411", "Our head office is at {{OFFICE|Calle Serrano 88, 28006 Madrid}}; registered office likewise."),
    ("rl-es-bank-6412", "Evento para clientes: nos vemos en el Hotel Palafox, {{OFFICE|calle Marceliano Isábal 2, Zaragoza}}, el jueves."),
    ("rl-en-law-6413", "signed before [[PERSON|Marta Ruiz]], notary, of {{OFFICE|Calle Larios 4, Málaga}}, on the date above."),
    # a guest's stay is labelled as the person's address (as realistic-dev4 does: "alojado en el
    # Hotel …"); a hotel named in a record field with no stay word is the hotel's (as dev6 does)
    ("rl-es-clinic-6430", "Turista. Seguro: Europ Assistance. Hotel Reconquista, {{OFFICE|calle Gil de Jaz 16, Oviedo}}. Fiebre."),
    ("rl-en-clinic-6431", "Hotel: Hotel Meliá Sevilla, {{OFFICE|Calle Doctor Pedro de Castro 1, 41004 Sevilla}}\nAdmitted 30.11.2026"),
    # homes next to office words: the home word must win
    ("rl-es-bank-6414", "El cliente [[PERSON|Leandro Pazos]], empleado de la oficina de Correos, vive en [[ADDRESS|calle Río Miño 9, 2º B, 27002 Lugo]]."),
    ("rl-es-law-6415", "Comparece [[PERSON|Valentina Ochoa]], abogada, con domicilio en [[ADDRESS|calle Bailén 31, 3º, 48003 Bilbao]]."),
    ("rl-en-clinic-6416", "The patient, a hotel receptionist, lives at [[ADDRESS|27 Orchard Way, Taunton TA1 3PL]]."),
    ("rl-es-clinic-6417", "Reside en el Hotel Central desde hace un mes, su domicilio es [[ADDRESS|calle Tejares 5, 02002 Albacete]]."),
    ("rl-es-bank-6418", "Saludos,\n[[PERSON|Elvira Montes]]\n[[ADDRESS|C/ Almendro 3, 1º A, 28005 Madrid]]"),
    # a house or practice name first
    ("rl-en-clinic-6419", "Registered with [[ADDRESS|The Old Rectory, 5 Church Walk, Malvern WR14 2AB]] as her home address."),
    ("rl-en-bank-6420", "New address: [[ADDRESS|Rose Cottage, 12 Station Road, Kendal LA9 6BT]]."),
    # British lower case with a postcode
    ("rl-en-bank-6421", "hi, new addr is [[ADDRESS|42 willow close, norwich nr4 7hj]] cheers"),
    ("rl-en-clinic-6422", "mum lives at [[ADDRESS|9 hazel grove, york yo10 3dd]] if you need to post it"),
    # Polish
    ("rl-en-bank-6423", "Polish customer, address [[ADDRESS|ul. Piękna 7/12, 00-549 Warszawa]]."),
    ("rl-es-bank-6424", "El cliente polaco vive en [[ADDRESS|al. Jerozolimskie 65/79, 00-697 Warszawa]]."),
    ("rl-es-clinic-6425", "Domicilio en Polonia: [[ADDRESS|os. Centrum 14/3, 31-929 Kraków]]"),
    # a street name holding a title (the type word before it may be "Gran Vía") or a street-type word
    ("rl-es-bank-6426", "Vive en [[ADDRESS|Avenida Doctor Fleming 15, 30003 Murcia]]."),
    ("rl-es-clinic-6427", "domicilio: [[ADDRESS|Plaza Pintor Sorolla 3, 46002 Valencia]]"),
    # a lower-case town after de la / del
    ("rl-ca-bank-6428", "viu al [[ADDRESS|carrer nou 12 de la bisbal]], ens ha dit"),
    ("rl-es-bank-6429", "vive en [[ADDRESS|calle real 8 de la carolina]] con su madre"),
    # --- batch 2: written before the rules for these forms (after batch 1's rules) ---
    # more office words and languages; a switchboard after the address
    ("rl-es-law-6432", "Nuestra sede: {{OFFICE|calle Marqués de Larios 9, 29005 Málaga}} (centralita 952 00 11 22)."),
    ("rl-ca-bank-6433", "La seu de l'entitat és a {{OFFICE|Avinguda Diagonal 621, 08028 Barcelona}}."),
    ("rl-gl-bank-6434", "O enderezo da oficina é {{OFFICE|Rúa Real 33, 15003 A Coruña}}."),
    ("rl-en-law-6435", "Registered office: {{OFFICE|4 Temple Row, Birmingham B2 5HG}}."),
    ("rl-en-bank-6436", "Meeting at {{OFFICE|25 Canada Square, London E14 5LQ}} with the client's advisers on Friday."),
    ("rl-es-law-6437", "Bufete Lozano y Asociados, {{OFFICE|calle Colón 2, 3º, 46004 Valencia}}, le comunica el cambio de horario."),
    ("rl-eu-bank-6438", "Gure bulegoa: {{OFFICE|Kale Nagusia 12, 20500 Arrasate}}"),
    # a guest's stay: the hotel's name is no part of the address
    ("rl-es-clinic-6439", "Paciente [[PERSON|Ramiro Ledesma]], alojado en el {{COMPANY|Hotel Las Arenas}}, [[ADDRESS|Avda. del Puerto 5, 46011 Valencia]]."),
    ("rl-en-clinic-6440", "tourist staying at {{COMPANY|Hotel Marbella Playa}}, [[ADDRESS|Calle Ancha 3, 29602 Marbella]], insurance pending"),
    # parking and storage spaces are no addresses
    ("rl-es-law-6441", "Es propietario de la {{REFERENCE|plaza de garaje número 12}} del edificio."),
    ("rl-es-bank-6442", "el cliente alquila la {{REFERENCE|plaza de aparcamiento 33}} en el sótano"),
    # homes next to public bodies and venues
    ("rl-es-bank-6443", "Dña. [[PERSON|Inés Robles]], vecina de [[ADDRESS|calle Jardines 4, 2º, 10001 Cáceres]], trabaja en el Ayuntamiento."),
    ("rl-es-bank-6444", "vive enfrente del Ayuntamiento, en [[ADDRESS|plaza Mayor 2, 3º, 37002 Salamanca]]"),
    ("rl-es-bank-6445", "vive en la [[ADDRESS|Gran Vía Marqués del Turia 49, 46005 Valencia]] desde 2019"),
    # --- batch 3: written before the rule for a switchboard or opening hours after the address ---
    ("rl-es-bank-6446", "Puede pasar por {{OFFICE|Avenida Europa 19, 28224 Pozuelo}}, centralita 91 000 12 12, de 9 a 14."),
    ("rl-en-law-6447", "Documents can be left at {{OFFICE|Calle Alcalá 95, 28009 Madrid}} (switchboard +34 910 000 111)."),
    ("rl-es-clinic-6448", "Recogida de resultados en {{OFFICE|calle Pintor Rosales 6, 28008 Madrid}}, horario de atención de 8 a 15."),
    ("rl-es-bank-6449", "El cliente vive en [[ADDRESS|calle Pintor Rosales 9, 28008 Madrid]], centralita de su empresa 91 000 13 13."),
]

# the markup and byte offsets are dev5_addr.py's
from dev5_addr import emit  # noqa: E402

if __name__ == "__main__":
    emit(ITEMS)
