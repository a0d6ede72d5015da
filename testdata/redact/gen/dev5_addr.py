#!/usr/bin/env python3
"""Generator of realistic-dev5-addr.jsonl (issue #13, fourth round: addresses). Each item is
written in an inline markup, [[TYPE|value]] for personal data and {{TYPE|value}} for decoys; this
script strips the markup and computes byte offsets. Written before the rules for these forms (the
general shapes the spent held-out set dev4 showed missed, in new words and places): number-first
British/Irish/US/French addresses, a postcode and a lower-case town, streets without a street-type
word, a town before the street, houses' and buildings' names, lower-case areas, European street
forms, floor and door abbreviations; and office addresses and streets as landmarks as decoys.
All people, numbers and addresses are invented.

    python3 testdata/redact/gen/dev5_addr.py > testdata/redact/realistic-dev5-addr.jsonl
"""
import json
import re
import sys

ITEMS = [
    # --- batch 1: written before any rule of this round ---
    # number-first, a one-word road, a British or Irish postcode
    ("rl-en-bank-4401", "Customer moved, new address is [[ADDRESS|14 Broadway, Cheltenham GL52 3HT]], please update the statement address."),
    ("rl-en-law-4402", "Witness: Mrs [[PERSON|Paula Jennings]] of [[ADDRESS|3 Millbank, Norwich NR3 1QT]], who saw the collision."),
    ("rl-en-bank-4403", "Client lives at [[ADDRESS|Flat 7, 19 Merrion Square, Dublin D02 VF65]] and wants a euro account."),
    ("rl-en-clinic-4404", "pt address: [[ADDRESS|8 Parkgate, Chester CH1 4DE]]. next of kin is her son."),
    # a postcode and a lower-case town, several words
    ("rl-es-bank-4405", "apunta que el titular vive en [[ADDRESS|35001 las palmas de gran canaria]] y no puede venir"),
    ("rl-es-clinic-4406", "la paciente se ha mudado a [[ADDRESS|29601 marbella]], enviar informe por correo"),
    ("rl-es-bank-4407", "el cliente reside en [[ADDRESS|46980 paterna]] desde el verano"),
    ("rl-gl-bank-4408", "a clienta vive agora en [[ADDRESS|36202 vigo]], mandarlle a tarxeta alí"),
    # a town then its postcode
    ("rl-es-clinic-4409", "Vive con su hija en [[ADDRESS|Cáceres 10003]]. Acude por dolor lumbar."),
    ("rl-es-bank-4410", "Nos dice que ahora está en [[ADDRESS|Lugo 27002]], que le mandemos la carta allí."),
    # no street-type word: name, number, floor and door, town
    ("rl-eu-bank-4411", "[10:02] [[PERSON|Maite Goikoetxea]]: [[ADDRESS|Prim 12 3 dcha donostia]]\n[10:03] Agente: eskerrik asko"),
    ("rl-es-bank-4412", "direccion nueva: [[ADDRESS|Velázquez 88 2º izq madrid]]"),
    ("rl-es-law-4413", "notificar al demandado en [[ADDRESS|Arturo Soria 140, 5º B, 28043 Madrid]], por burofax"),
    ("rl-es-clinic-4414", "domicilio: [[ADDRESS|Cuba 7 bajo b, 36204 vigo]]"),
    # no street-type word: name, number, a foreign postcode, a town
    ("rl-en-bank-4415", "Proof of address received ([[ADDRESS|Prinsengracht 263, 1016 GV Amsterdam]]), file it with the KYC pack."),
    ("rl-es-bank-4416", "El cliente alemán tiene su domicilio en [[ADDRESS|Hauptstraße 17, 80331 München]]."),
    ("rl-en-bank-4417", "Her Belgian address is [[ADDRESS|Rue Haute 42, 1000 Bruxelles]] and her phone is on file."),
    # European street forms
    ("rl-es-bank-4418", "la dirección italiana es [[ADDRESS|Corso Vittorio Emanuele 54, 10121 Torino]]"),
    ("rl-en-law-4419", "Service address: [[ADDRESS|Lindenallee 9, 50968 Köln]], Germany."),
    ("rl-gl-clinic-4420", "Enderezo: [[ADDRESS|Praza do Obradoiro 3, 2º, 15705 Santiago de Compostela]]"),
    ("rl-en-bank-4421", "Send the cards to [[ADDRESS|27 bis rue Lepic, 75018 Paris]], she's there until March."),
    # a town before the street
    ("rl-es-law-4422", "con domicilio en [[ADDRESS|Alcobendas (Madrid), avenida de España número 12, código postal 28100]], y DNI en vigor"),
    ("rl-es-bank-4423", "vecino de [[ADDRESS|Mieres, calle Numa Guilhou 5, 3º C]], según el padrón"),
    # a house's or building's name before the street
    ("rl-en-bank-4424", "Mr and Mrs [[PERSON|Holt]] now live at [[ADDRESS|Villa Rosalinda, Camino del Faro 9, 07460 Pollença]], so post goes there."),
    ("rl-en-law-4425", "Letter to Ms [[PERSON|Eira Morgan]], [[ADDRESS|Bryn Awel, Heol y Dderwen, Aberaeron SA46 0BD]]."),
    ("rl-en-bank-4426", "She lives at [[ADDRESS|Casa Olivo, Urb. Los Almendros s/n, 03590 Altea]]."),
    # lower-case areas and buildings
    ("rl-es-bank-4427", "vive en [[ADDRESS|edificio mirador, piso 4b, 03502 benidorm]], y trabaja en el puerto"),
    ("rl-gl-clinic-4428", "vive en [[ADDRESS|lugar de penas 12 15680 ordes]], coa súa nora"),
    ("rl-es-clinic-4429", "dirección: [[ADDRESS|urbanización los pinos 23 28670 villaviciosa de odón]]"),
    # 'c.' for carrer, Catalan floors and doors
    ("rl-ca-bank-4430", "viu a [[ADDRESS|c. del pou 6 1r 2a 08800 vilanova]], ens ha dit"),
    ("rl-ca-bank-4431", "Adreça: [[ADDRESS|Ptge. de Permanyer 4, entl. 1a, 08009 Barcelona]]"),
    ("rl-ca-clinic-4432", "Domicili: [[ADDRESS|Carrer Gran 33, àtic 2a, 17300 Blanes]]"),
    ("rl-ca-law-4433", "amb domicili al [[ADDRESS|Passeig de Sant Joan 120, pral. 1a, 08037 Barcelona]]"),
    # a floor first, then the number and the street
    ("rl-es-law-4434", "la humedad viene del [[ADDRESS|3º B del número 21 de la calle Lepanto]], según el perito"),
    # lower case, no commas, floor and town
    ("rl-es-law-4435", "deudor: [[PERSON|julian robles]], [[ADDRESS|avenida de la constitucion 45 3 a sevilla]], debe dos mensualidades"),
    ("rl-es-bank-4436", "[[ADDRESS|calle rio segura 8 4 d murcia]] es la direccion que da"),
    # US
    ("rl-en-bank-4437", "US mailing address: [[ADDRESS|5521 Oak Hollow Drive, Austin, TX 78749]]."),
    ("rl-en-law-4438", "defendant resides at [[ADDRESS|77 Pine St Apt 4C, Brooklyn, NY 11201]]"),
    # decoys: office addresses, streets as landmarks, numbers that look like postcodes
    ("rl-es-bank-4439", "Nuestra oficina de {{OFFICE|Gran Vía 32, 28013 Madrid}} abre de 8:30 a 14:00; el cliente [[PERSON|Emilio Sanz]] pasará el lunes."),
    ("rl-en-law-4440", "The company's registered office is at {{OFFICE|100 Liverpool Street, London EC2M 2RH}}; the claimant lives at [[ADDRESS|12 Ferndale Road, Leeds LS6 3AB]]."),
    ("rl-es-law-4441", "Sede social en {{OFFICE|Paseo de la Castellana 81, 28046 Madrid}}. Firma el apoderado."),
    ("rl-es-clinic-4442", "Hay obras en la {{STREET_GENERIC|calle Alcalá}}, llegará tarde. Pagó {{AMOUNT|12000 euros}} el año pasado."),
    ("rl-es-law-4443", "Según el {{LAW|artículo 14, 2º párrafo}}, el plazo es de 20 días."),
    ("rl-en-clinic-4444", "Take the {{STREET_GENERIC|A40}} and park on {{STREET_GENERIC|Church Road}}; the clinic is on the 2nd floor."),
    ("rl-es-bank-4445", "el despacho del notario está en {{OFFICE|calle Colón 12, 46004 Valencia}}"),
    ("rl-en-bank-4446", "Our branch at {{OFFICE|25 Cabot Square, London E14 4QA}} handles the account."),
    # --- batch 2: written after batch 1's rules, before running them on these items ---
    # Portuguese, Italian, French, US, Canadian forms
    ("rl-en-bank-4447", "Her Portuguese address: [[ADDRESS|Travessa do Carmo 14, 3º Esq., 1200-095 Lisboa]]"),
    ("rl-es-bank-4448", "el cliente portugués vive en [[ADDRESS|Rua de Cedofeita 212, 4050-174 Porto]]"),
    ("rl-en-law-4449", "Serve the papers at [[ADDRESS|Viale Monza 88, 20127 Milano]] before Friday."),
    ("rl-es-bank-4450", "Residencia fiscal en Francia: [[ADDRESS|8, allée des Tilleuls, 69003 Lyon]]"),
    ("rl-en-bank-4451", "mailing address is [[ADDRESS|1904 W Belmont Ave, Chicago, IL 60657]], account in his name"),
    ("rl-en-clinic-4452", "Patient's home: [[ADDRESS|Unit 3, 41 Seaview Terrace, Portobello, Edinburgh EH15 2HQ]]"),
    # Spanish, lower case and sloppy
    ("rl-es-bank-4453", "ok pues ponle de direccion [[ADDRESS|c/ san vicente martir 112 pta 9 46007 valencia]] y ya"),
    ("rl-es-clinic-4454", "pac. vive sola en [[ADDRESS|avda. de america 33, esc. B, 4º D]], sin ascensor"),
    ("rl-es-law-4455", "el inquilino ([[PERSON|Tomás Bernal]]) está en [[ADDRESS|Pº de la Estación 7, bj, 37004 Salamanca]]"),
    ("rl-es-bank-4456", "mandar la tarjeta a [[ADDRESS|ctra. de extremadura km 14,5 nave 3, 28935 mostoles]]"),
    ("rl-es-clinic-4457", "Domicilio: [[ADDRESS|Camino Viejo de Simancas s/n, 47008 Valladolid]]"),
    ("rl-es-bank-4458", "vive en [[ADDRESS|plaza mayor 3 entlo. dcha]] desde 2019"),
    ("rl-es-law-4459", "domiciliado en [[ADDRESS|Ronda de Triana 15, 2º, puerta 3, 41010 Sevilla]]"),
    ("rl-es-bank-4460", "su direccion es [[ADDRESS|travesía de la paz nº 4, 1º izda, 30001 murcia]]"),
    # Catalan, Galician, Basque
    ("rl-ca-bank-4461", "el client viu al [[ADDRESS|carrer del Bruc 72, 3r 1a, 08009 Barcelona]] i vol domiciliar la nòmina"),
    ("rl-ca-clinic-4462", "adreça: [[ADDRESS|rambla nova 40 àtic, 43004 tarragona]]"),
    ("rl-gl-bank-4463", "Enderezo da clienta: [[ADDRESS|Rúa do Franco 21, 2º esquerda, 15705 Santiago]]"),
    ("rl-gl-clinic-4464", "vive na [[ADDRESS|avenida de castelao 9 baixo dereita 36209 vigo]]"),
    ("rl-eu-bank-4465", "Helbidea: [[ADDRESS|San Frantzisko kalea 23, 4. ezk., 48003 Bilbo]]"),
    ("rl-eu-clinic-4466", "bizi da [[ADDRESS|Askatasun etorbidea 11, 2. esk., 20500 Arrasate]]"),
    # no street-type word
    ("rl-es-bank-4467", "Remitir a [[ADDRESS|Fuencarral 125, 1º C, 28010 Madrid]] a la atención del titular."),
    ("rl-es-clinic-4468", "vive en [[ADDRESS|Colón 14 3º izq]], con su marido"),
    ("rl-ca-bank-4469", "l'adreça nova és [[ADDRESS|Aragó 245 2n 3a, 08007 Barcelona]]"),
    ("rl-en-bank-4470", "She rents at [[ADDRESS|Mühlenweg 4, 22085 Hamburg]] during the week."),
    # postcode and town alone, or the town first
    ("rl-es-bank-4471", "la carta volvió, ahora está en [[ADDRESS|03710 calpe]], dice"),
    ("rl-es-clinic-4472", "Procede de [[ADDRESS|Teruel 44001]], vive con su hermana."),
    ("rl-en-bank-4473", "he moved to [[ADDRESS|Tenerife, 38670 Adeje]] last year"),
    # numbers after the street's name and a building
    ("rl-es-law-4474", "notificaciones en [[ADDRESS|Edificio Torre Sur, planta 3, puerta B, Avenida de Europa 24, 28108 Alcobendas]]"),
    ("rl-en-law-4475", "The tenant lives at [[ADDRESS|Apartment 12, Riverside House, 9 Wharf Street, Leeds LS2 7EQ]]."),
    # decoys: offices, landmarks, codes
    ("rl-es-bank-4476", "La {{OFFICE|oficina 0234 de Alcalá 120}} cierra por obras; atiende la de {{OFFICE|Goya 45}}. Cliente: [[PERSON|Rosa Pardo]]."),
    ("rl-es-law-4477", "Despacho: {{OFFICE|c/ Velázquez 50, 3º, 28001 Madrid}}. Cliente: [[PERSON|Ignacio Sauras]], con domicilio en [[ADDRESS|calle Toledo 88, 28005 Madrid]]."),
    ("rl-en-law-4478", "Registered office: {{OFFICE|5 Churchill Place, London E14 5HP}}. Company number {{REFERENCE|02366995}}."),
    ("rl-es-clinic-4479", "Quedamos en la {{STREET_GENERIC|Plaza Mayor}} a las 10; el hospital está en la {{STREET_GENERIC|avenida de Córdoba}}."),
    ("rl-es-bank-4480", "El {{LAW|Real Decreto 1093/1997}} regula la inscripción; el pedido {{REFERENCE|28012 Madrid-Norte}} sigue pendiente."),
    ("rl-es-bank-4481", "Transferencia de {{AMOUNT|15000 euros}}; la cuota es de {{AMOUNT|320 €}} al mes durante {{AMOUNT|24 meses}}."),
    ("rl-en-clinic-4482", "Ward {{REFERENCE|7B}}, bed {{REFERENCE|12}}, 3rd floor of the {{INSTITUTION|Royal Infirmary}}; visiting 2-4pm."),
    ("rl-es-clinic-4483", "Paciente en la {{REFERENCE|habitación 412, 4ª planta}}; el familiar es [[PERSON|Julio Baena]]."),
    ("rl-ca-bank-4484", "La seu central és a {{OFFICE|Avinguda Diagonal 621, 08028 Barcelona}}; la clienta és [[PERSON|Neus Camps]]."),
    ("rl-es-law-4485", "Capítulo 3, {{LAW|artículo 12 bis}}, apartado 2 b del convenio."),
    # --- batch 3: probes written after batch 2's rules; run before the next rules: 21 of 25
    # addresses fully covered, 3 of the sentences without an address had one read ---
    ("rl-es-bank-4486", "vive en [[ADDRESS|calle del olmo 5 2 izq 28012 madrid]]"),
    ("rl-es-bank-4487", "Dirección: [[ADDRESS|Av. Blasco Ibáñez 112, 6ª, pta. 23, 46022 Valencia]]"),
    ("rl-es-bank-4488", "[[ADDRESS|c/ Mayor, 14 - 3º B - 28013 Madrid]]"),
    ("rl-es-bank-4489", "mi direccion es [[ADDRESS|plaza de la villa 2 bajo, alcala de henares]]"),
    ("rl-es-law-4490", "Domicilio: [[ADDRESS|C/ Real nº 45, 1º Dcha., 11100 San Fernando (Cádiz)]]"),
    ("rl-en-bank-4491", "Send it to [[ADDRESS|221B Baker Street, London NW1 6XE]]"),
    ("rl-en-bank-4492", "he lives at [[ADDRESS|4 Oakfield Close, Harrogate, North Yorkshire HG2 8QP]]"),
    ("rl-en-law-4493", "address: [[ADDRESS|350 Fifth Avenue, New York, NY 10118]]"),
    ("rl-en-bank-4494", "Adresse : [[ADDRESS|15 boulevard Voltaire, 75011 Paris]]"),
    ("rl-en-bank-4495", "Morada: [[ADDRESS|Avenida da Liberdade 245, 4º Dto, 1250-143 Lisboa]]"),
    ("rl-en-law-4496", "Indirizzo: [[ADDRESS|Piazza Navona 12, 00186 Roma]]"),
    ("rl-en-bank-4497", "Anschrift: [[ADDRESS|Goethestraße 22, 60313 Frankfurt am Main]]"),
    ("rl-eu-bank-4498", "Helbidea: [[ADDRESS|Kale Nagusia 14, 3. eskuina, 20800 Zarautz]]"),
    ("rl-gl-clinic-4499", "Enderezo: [[ADDRESS|Rúa Nova 33, 1º A, 15705 Santiago de Compostela]]"),
    ("rl-ca-bank-4500", "Adreça: [[ADDRESS|Carrer Major 10, baixos, 25001 Lleida]]"),
    ("rl-es-bank-4501", "me mudé a [[ADDRESS|50009 zaragoza]]"),
    ("rl-es-bank-4502", "vive en [[ADDRESS|Pintor Rosales 32, 28008 Madrid]]"),
    ("rl-es-bank-4503", "el titular reside en [[ADDRESS|Gran Vía 41, 3º dcha]]"),
    ("rl-es-bank-4504", "vive en [[ADDRESS|urb. las lomas 14 29660 marbella]]"),
    ("rl-es-clinic-4505", "Paciente domiciliada en [[ADDRESS|Lugar de Vilar s/n, 27400 Monforte de Lemos (Lugo)]]"),
    ("rl-es-bank-4506", "Dirección de envío: [[ADDRESS|Polígono Industrial El Cerro, nave 14, 40006 Segovia]]"),
    ("rl-en-bank-4507", "address is [[ADDRESS|Flat 2B, 17 Queens Road, Brighton BN1 3XA]]"),
    ("rl-es-law-4508", "[[ADDRESS|Calle Alfonso XII 28, 4º izq, Madrid]]"),
    ("rl-es-bank-4509", "residente en [[ADDRESS|Paseo de Gracia 55 pral 2a 08007 Barcelona]]"),
    ("rl-en-bank-4510", "she's at [[ADDRESS|12 Rue de la Paix, Apt 3, 75002 Paris]]"),
    ("rl-es-law-4511", "Según el {{REFERENCE|Anexo 2 B}} del contrato, el pago se hará en 3 plazos."),
    ("rl-es-clinic-4512", "La {{REFERENCE|Tabla 4 A}} muestra los resultados del {{REFERENCE|Grupo 3 B}}."),
    ("rl-es-clinic-4513", "El paciente del {{REFERENCE|Box 4 izq.}} pasa a planta."),
    ("rl-es-bank-4514", "El modelo {{REFERENCE|Golf 7 bajo}} consumo es muy popular."),
    ("rl-es-clinic-4515", "{{REFERENCE|Mesa 5 dcha}}, al lado de la ventana."),
    ("rl-es-law-4516", "{{LAW|Capítulo 5, 2º párrafo}} del informe."),
    ("rl-es-bank-4517", "Tenemos {{AMOUNT|30000 clientes}} en Valencia y {{AMOUNT|20000}} en Murcia."),
    ("rl-es-bank-4518", "Nuestra oficina de {{OFFICE|Goya 45, 28001 Madrid}} abre el sábado."),
    ("rl-es-bank-4519", "Quedamos en la {{STREET_GENERIC|Plaza de España}} a las 18h."),
    ("rl-es-bank-4520", "Tiene {{AMOUNT|28001 puntos}} en el programa de fidelización."),
    ("rl-en-clinic-4521", "{{REFERENCE|Room 12 B}} is booked for the meeting with Mr [[PERSON|Smith]]."),
    ("rl-es-clinic-4522", "{{REFERENCE|Planta 3 izquierda}}: pediatría; planta 2: traumatología."),
    ("rl-es-bank-4523", "Lote {{REFERENCE|12 A}} caducado, ver albarán {{REFERENCE|46002 Valencia-Sur}}."),
    # --- batch 4: probes written after batch 3's rules; run before the next rules: 13 of 20
    # addresses fully covered ---
    ("rl-es-bank-4524", "DOMICILIO: [[ADDRESS|CALLE MAYOR 5, 2º B, 28013 MADRID]]"),
    ("rl-es-law-4525", "DIRECCIÓN: [[ADDRESS|AVDA. DE LA CONSTITUCIÓN 12 - 41001 SEVILLA]]"),
    ("rl-es-bank-4526", "Dirección postal: [[ADDRESS|Apartado de Correos 1234, 29080 Málaga]]"),
    ("rl-es-law-4527", "vive en el [[ADDRESS|nº 7 de la calle San Juan, en Toledo]]"),
    ("rl-es-bank-4528", "Su casa está en [[ADDRESS|P.º de la Castellana 200, 28046 Madrid]]"),
    ("rl-es-clinic-4529", "vive en [[ADDRESS|Bloque 3, portal 2, 5º A, Barrio del Pilar, 28029 Madrid]]"),
    ("rl-en-bank-4530", "address: [[ADDRESS|PO Box 4521, Austin, TX 78765]]"),
    ("rl-en-law-4531", "Address: [[ADDRESS|10 Downing Street, London, SW1A 2AA]]"),
    ("rl-es-bank-4532", "cliente: [[PERSON|Pedro Gil]]; dirección: [[ADDRESS|Plaza del Ayuntamiento 1 puerta 5 46002 Valencia]]; tel [[PHONE|600 000 000]]"),
    ("rl-es-law-4533", "vive en [[ADDRESS|calle San Bernardo número 61, piso 3º, puerta 2, de Madrid]]"),
    ("rl-es-clinic-4534", "la señora vive en [[ADDRESS|calle Ancha, 3, en Cádiz]]"),
    ("rl-en-bank-4535", "residente em [[ADDRESS|Rua Garrett 50, 1200-204 Lisboa]], Portugal"),
    ("rl-es-bank-4536", "direccion: [[ADDRESS|Avenida Libertador 1234, piso 5, depto B, Buenos Aires]]"),
    ("rl-es-bank-4537", "su dirección es [[ADDRESS|C/ Pez 12 3ºB 28004]]"),
    ("rl-es-law-4538", "Domicilio: [[ADDRESS|Urbanización Montepríncipe, calle Las Encinas 4, 28660 Boadilla del Monte]]"),
    ("rl-es-law-4539", "vive en el [[ADDRESS|4ºC de Alberto Aguilera 20]]"),
    ("rl-es-bank-4540", "su casa: [[ADDRESS|Carretera de Valencia km 7, Chiva]]"),
    ("rl-es-bank-4541", "enviar a [[ADDRESS|Ctra. N-340, km 1.025, 04620 Vera (Almería)]]"),
    ("rl-en-bank-4542", "he resides at [[ADDRESS|88 Elm Grove, Apartment 3, Cork T12 X8Y2]]"),
    ("rl-ca-bank-4543", "domicili: [[ADDRESS|C/ Sant Pere Més Alt 31-33, 1r 2a, 08003 Barcelona]]"),
    # --- batch 5: look-alikes probed after batch 4's rules; run before the next rules: 2 of
    # these 6 had an address read ---
    ("rl-es-bank-4544", "vive con 2 hijos y cobra {{AMOUNT|15000 euros}} al año"),
    ("rl-es-bank-4545", "{{REFERENCE|código de cliente 08001 Barcelona-Centro}}"),
    ("rl-es-bank-4546", "{{REFERENCE|Pedido 46001 Valencia}} enviado por MRW en 3 días."),
    ("rl-es-bank-4547", "Sección 3 B, fila 12, {{REFERENCE|asiento 4 izq.}} del Teatro Real."),
    ("rl-es-bank-4548", "Paga {{AMOUNT|450 €}} de alquiler; reside en España desde hace {{AMOUNT|12 años}}, en 3 ciudades distintas."),
    ("rl-es-clinic-4549", "Hay 3 vacantes en la {{REFERENCE|planta 2}} del hospital de Getafe."),
    # --- batch 6: address blocks over several lines in letters, probed before the rule for
    # them: 0 of 4 covered as one value ---
    ("rl-es-law-4550", "Sr. D. [[PERSON|Julián Ortega]]\n[[ADDRESS|C/ Mayor 5, 2º B\n28013 Madrid]]\n\nMuy señor mío:"),
    ("rl-en-law-4551", "Mr [[PERSON|Tom Baker]]\n[[ADDRESS|12 Church Lane\nLedbury\nHR8 1DT]]\n\nDear Mr [[PERSON|Baker]],"),
    ("rl-es-bank-4552", "Dirección:\n[[ADDRESS|Plaza de España 3, 4º izq\n50001 Zaragoza]]"),
    ("rl-es-bank-4553", "envíalo a: [[ADDRESS|Calle del Prado 12\n28014 Madrid]]\ny avísame cuando salga"),
    # --- batch 7: quick typing (no space after c/, avda., pza.), English, Basque and Galician in
    # lower case, a unit before 'de' and a street; run before the rules for them: 14 of 20
    # covered. The look-alikes after them were written with the lower-case English rule, whose
    # first version read 2 of them ---
    ("rl-es-bank-4554", "vivo en [[ADDRESS|c/mayor 5 2b madrid]]"),
    ("rl-es-bank-4555", "mi dirección es [[ADDRESS|C/Mayor,5 3ºA 28013 Madrid]]"),
    ("rl-es-bank-4556", "enviar a [[ADDRESS|Avda.Andalucía 3, 29006 Málaga]]"),
    ("rl-es-bank-4557", "vive en [[ADDRESS|pza.españa 2 1 izq, 50001 zaragoza]]"),
    ("rl-es-law-4558", "[[ADDRESS|cl alcala 100 4 d 28009 madrid]]"),
    ("rl-en-bank-4559", "i live at [[ADDRESS|23 baker st london nw1 6xe]]"),
    ("rl-en-bank-4560", "my address is [[ADDRESS|flat 3, 12 park rd, london]]"),
    ("rl-en-bank-4561", "send it to [[ADDRESS|123 main st apt 4b springfield il 62704]]"),
    ("rl-en-bank-4562", "adresse: [[ADDRESS|12 rue de la paix 75002 paris]]"),
    ("rl-eu-bank-4563", "bizi naiz [[ADDRESS|Kale Nagusia 3an, Bilbon]]"),
    ("rl-eu-clinic-4564", "helbidea: [[ADDRESS|nagusia kalea 12 3 ezk 48005 bilbo]]"),
    ("rl-gl-clinic-4565", "vive na [[ADDRESS|rúa do hórreo 40 1º 15702 santiago]]"),
    ("rl-es-law-4566", "el [[ADDRESS|portal 3 de Fuencarral 20]]"),
    ("rl-es-bank-4567", "vivimos en [[ADDRESS|calle de la Luna 7 duplicado 3 dcha]]"),
    ("rl-es-bank-4568", "residencia: [[ADDRESS|Avenida Diagonal 640, 6ª planta, 08017 Barcelona]]"),
    ("rl-en-bank-4569", "pls update address to [[ADDRESS|45 high st, oxford ox1 4ap]]"),
    ("rl-en-bank-4570", "new addr: [[ADDRESS|9 Rose Lane Hove BN3 2AB]]"),
    ("rl-es-bank-4571", "Mi casa: [[ADDRESS|Calle Real 12, Boadilla del Monte (Madrid)]]"),
    ("rl-es-law-4572", "Domicilio: [[ADDRESS|C/ Goya 24, Madrid]]"),
    ("rl-es-bank-4573", "vive en la [[ADDRESS|avenida de los Toreros 7]]"),
    ("rl-en-clinic-4574", "it's a {{STREET_GENERIC|5 minute walk}} from the station, {{STREET_GENERIC|2 hour drive}} to leeds"),
    ("rl-en-bank-4575", "we crossed {{STREET_GENERIC|3 main roads}} and 2 side streets"),
    ("rl-en-bank-4576", "turn left after {{STREET_GENERIC|2 big st signs}}"),
    ("rl-en-bank-4577", "the clinic is {{STREET_GENERIC|3 blocks down the road}}"),
    ("rl-en-bank-4578", "we sold {{STREET_GENERIC|12 high street shops}} in 2024 in london"),
    ("rl-en-law-4579", "he scored 2 goals in 15 minutes at {{REFERENCE|il 2000}}"),
    ("rl-en-bank-4580", "i paid {{AMOUNT|40 rd tax}} last year"),
    # --- batch 8: tables whose town has a column of its own, run before the rule: the street and
    # postcode cells covered, 0 of 3 town cells ---
    ("rl-es-bank-4581", "nombre;direccion;cp;ciudad\n[[PERSON|Rocío Llamas]];[[ADDRESS|calle Pez 9 1ºC]];[[ADDRESS|28004]];[[ADDRESS|Madrid]]\n[[PERSON|Gil Abad]];[[ADDRESS|Av. Ronda 5]];[[ADDRESS|41001]];[[ADDRESS|Sevilla]]\n"),
    ("rl-es-clinic-4582", "| Paciente | Domicilio | CP | Localidad |\n|---|---|---|---|\n| [[PERSON|Teresa Vidal]] | [[ADDRESS|C/ Olmo 14]] | [[ADDRESS|46002]] | [[ADDRESS|Valencia]] |\n"),
    # --- batch 9: deeds and notes in full sentences (a town first, 'número', 'piso', 'letra', a
    # remark in brackets, rural plots, a numbered street in an estate, NBSP and tabs); run before
    # the rules for them: 12 of 15 covered ---
    ("rl-es-law-4583", "vecino de Madrid, con domicilio en la [[ADDRESS|calle de Alcalá, número 120, piso 3º, letra B]], y con DNI en vigor"),
    ("rl-es-law-4584", "domiciliada en [[ADDRESS|Valencia, Avenida del Puerto, nº 14, puerta 7, C.P. 46021]]."),
    ("rl-es-law-4585", "con domicilio a efectos de notificaciones en la [[ADDRESS|calle Mayor número 3, de Getafe (Madrid)]]"),
    ("rl-ca-law-4586", "residente en [[ADDRESS|Barcelona, carrer de Provença 214, 3r 2a]]."),
    ("rl-es-bank-4587", "vive en la [[ADDRESS|C/ Mayor 5,\u00a028013 Madrid]]"),
    ("rl-es-clinic-4588", "Domicilio:\t[[ADDRESS|C/ San Juan 4, 2º\t28001 Madrid]]"),
    ("rl-es-bank-4589", "Dirección: [[ADDRESS|Calle Toledo, 88 (esquina con Ronda de Segovia), 28005 Madrid]]"),
    ("rl-es-law-4590", "El inmueble sito en la [[ADDRESS|calle Ancha número 12, bajo, de Cádiz]], propiedad de D. [[PERSON|Pedro Ruiz]]"),
    ("rl-es-law-4591", "finca sita en [[ADDRESS|Partida Benimaquia, polígono 5, parcela 120, 03700 Dénia]]"),
    ("rl-es-bank-4592", "tiene su vivienda en [[ADDRESS|Urbanización Los Olivos, calle 4, número 17, 28692 Villafranca del Castillo]]"),
    ("rl-es-bank-4593", "vive en el [[ADDRESS|barrio de Gracia, calle Verdi 10]]"),
    ("rl-es-clinic-4594", "vive en Lavapiés, en la [[ADDRESS|calle Argumosa 12, 2º]]"),
    ("rl-gl-clinic-4595", "paciente con domicilio en [[ADDRESS|Rúa Real 5 - 1º D, Ourense]]"),
    ("rl-es-bank-4596", "Dirección: [[ADDRESS|Plaza de Cataluña, s/n, Barcelona]]"),
    ("rl-es-bank-4597", "[[ADDRESS|Av. Constitución, 12 - 4ºB\n41001 Sevilla]]"),
]

MARK = re.compile(r"\[\[([A-Z_]+)\|(.+?)\]\]|\{\{([A-Z_]+)\|(.+?)\}\}", re.S)


def build(item_id, marked):
    lang, domain = item_id.split("-")[1], item_id.split("-")[2]
    out, ents, decoys = b"", [], []
    pos = 0
    for m in MARK.finditer(marked):
        out += marked[pos:m.start()].encode()
        typ, val, is_decoy = (m.group(3), m.group(4), True) if m.group(3) else (m.group(1), m.group(2), False)
        start = len(out)
        out += val.encode()
        lab = {"type": typ, "value": val, "start": start, "end": len(out)}
        (decoys if is_decoy else ents).append(lab)
        pos = m.end()
    out += marked[pos:].encode()
    item = {"id": item_id, "lang": lang, "domain": domain, "text": out.decode(), "entities": ents}
    if decoys:
        item["decoys"] = decoys
    return item


def emit(items):
    """Builds items (id, marked text) and prints JSON lines."""
    for item_id, marked in items:
        if "[[" not in marked and "{{" not in marked:
            sys.exit(item_id + ": no label")
        json.dump(build(item_id, marked), sys.stdout, ensure_ascii=False, separators=(",", ":"))
        sys.stdout.write("\n")


if __name__ == "__main__":
    emit(ITEMS)
