#!/usr/bin/env python3
"""Generator of realistic-dev3-names.jsonl (issue #13, third dev round: names, addresses and
non-name precision). Each item is written in an inline markup, [[TYPE|value]] for personal data
and {{TYPE|value}} for decoys; this script strips the markup, computes byte offsets and the check
letters of DNIs written as [[DNI|#12345678]] (mod 23). All people, numbers and addresses are
invented; public institutions, companies, public figures and office addresses are decoys.

    python3 testdata/redact/gen/dev3_names.py > testdata/redact/realistic-dev3-names.jsonl
"""
import json
import re
import sys

ITEMS = [
    # --- names after an introduction phrase, the gazetteer not knowing them ---
    ("rl-es-clinic-2001", "Nota de admisión: la paciente viene acompañada. Se llama [[PERSON|Leandra Cuadrillero]] y trae el informe del {{INSTITUTION|Hospital Clínico San Carlos}}."),
    ("rl-ca-bank-2002", "Hola, truco per un client nou: es diu [[PERSON|Bartomeu Frontera]] i vol obrir un compte."),
    ("rl-gl-clinic-2003", "A usuaria chámase [[PERSON|Xesusa Bouzamayor]] e ten cita o martes."),
    ("rl-en-bank-2004", "New joiner at the branch desk, he is called [[PERSON|Tobias Wrenfield]] and needs a current account."),
    ("rl-es-bank-2005", "la señora se llama [[PERSON|yolima cárdenas ospina]], colombiana, y quiere enviar dinero a su madre"),
    ("rl-es-law-2006", "me llamo [[PERSON|dariusz kowalczyk]] y le escribo por el contrato de alquiler"),
    ("rl-en-clinic-2007", "hi, my name is [[PERSON|tunde adeyemi]], i'm calling about my blood test results"),
    ("rl-ca-clinic-2008", "bon dia, em dic [[PERSON|biel ferragut]], tinc hora amb la infermera"),
    # --- a lower-case given name and an unknown surname after a role word, before punctuation ---
    ("rl-es-bank-2009", "ojo: el cliente [[PERSON|ramón bustillo]] (el de la ferretería) pide aplazar la cuota"),
    ("rl-es-clinic-2010", "la paciente [[PERSON|aurora peñalver]], de 81 años, refiere mareos desde ayer"),
    ("rl-gl-bank-2011", "bos días, a clienta [[PERSON|uxía formoso]], da oficina de Ourense, quere cambiar a conta"),
    ("rl-ca-bank-2012", "la titular [[PERSON|montse vilardell]]; cal revisar la domiciliació"),
    # --- a known name then a surname that is also a month, a place or an everyday word ---
    ("rl-es-bank-2013", "Transferencia rechazada. Ordenante: [[PERSON|Teodoro Mayo]]."),
    ("rl-es-law-2014", "Comparece [[PERSON|Rosalía Huesca Marín]], mayor de edad, con DNI [[DNI|#50118243]]."),
    ("rl-en-bank-2015", "Please call back the customer, [[PERSON|Eugenio Barrio]], about the overdraft."),
    ("rl-es-clinic-2016", "Derivado por su médico de cabecera: paciente [[PERSON|Marcelino Granada]], alérgico a la penicilina."),
    ("rl-es-bank-2017", "Autorizada en la cuenta: [[PERSON|Nieves Ribera Campo]]."),
    # --- 'la señora de X', hyphenated surnames after a title ---
    ("rl-es-clinic-2018", "Llamó la señora de [[PERSON|Ordóñez]] para decir que su marido no vendrá a la revisión."),
    ("rl-es-law-2019", "En representación de la actora, la Letrada Sra. [[PERSON|Gómez-Acebo]], solicita la suspensión."),
    ("rl-en-law-2020", "Counsel for the claimant, Mr. [[PERSON|Clarke-Hughes]], asked for an adjournment."),
    # --- key: value pairs inside a line, in French, Italian, Basque, English ---
    ("rl-en-bank-2021", "KYC form from the French branch, please check: Nom: [[PERSON|Lefebvre]], Prénom: [[PERSON|Camille]], Né le: [[DOB|02/11/1979]]."),
    ("rl-es-bank-2022", "Datos del formulario italiano — Cognome: [[PERSON|Esposito]]; Nome: [[PERSON|Gennaro]]; importe {{AMOUNT|2.300 €}}"),
    ("rl-eu-bank-2023", "Bezeroaren datuak. Izena: [[PERSON|Ane]], Abizenak: [[PERSON|Etxarri Lasa]], kontua zabalik."),
    ("rl-en-law-2024", "Applicant details as typed: Surname: [[PERSON|Okafor]], Forename: [[PERSON|Chidi]], nationality Nigerian"),
    # --- SURNAMES, NAME in capitals with a particle in the given name; initials with a dot ---
    ("rl-es-clinic-2025", "Paciente: [[PERSON|PÉREZ GIL, ANA DE LOS ÁNGELES]]   Cama: 214   Servicio: Medicina Interna"),
    ("rl-es-law-2026", "Demandado: [[PERSON|RIUS BOSCH, MARIA DEL MAR]], con domicilio a efectos de notificaciones en el despacho."),
    ("rl-es-bank-2027", "Cualquier cosa me decís. Un saludo, [[PERSON|Marta R.]]"),
    ("rl-eu-bank-2028", "Eskerrik asko, [[PERSON|Iñigo L.]]"),
    # --- hypocorisms and Chinese names in lower case after a cue ---
    ("rl-es-bank-2029", "viene la hija de [[PERSON|maripaz]] a firmar lo del aval"),
    ("rl-es-bank-2030", "hay que dar de alta a [[PERSON|zhang min]] y a su mujer [[PERSON|liu yan]], traen pasaporte"),
    # --- decoys: institutions and companies whose names hold a person's name ---
    ("rl-es-clinic-2031", "Informe remitido por la {{INSTITUTION|Fundación Juan March}} y por el {{INSTITUTION|Hospital Universitario Marqués de Valdecilla}}. Paciente: [[PERSON|Esteban Lamadrid]]."),
    ("rl-gl-clinic-2032", "Traslado ao {{INSTITUTION|Hospital Álvaro Cunqueiro}} da paciente [[PERSON|Rosalía Vilaboa]]."),
    ("rl-es-law-2033", "Escritura otorgada ante la {{INSTITUTION|Notaría de Benidorm}} el {{DATE|12/03/2024}}; comprador [[PERSON|Anselmo Giner]]."),
    ("rl-es-clinic-2034", "Presupuesto de la {{COMPANY|Clínica Dental Ortiz}} para la prótesis de [[PERSON|Celestino Arranz]]: {{AMOUNT|1.850 €}}."),
    ("rl-ca-clinic-2035", "Derivació a la {{INSTITUTION|Fundació Josep Carreras}} de la pacient [[PERSON|Mireia Oliveras]]."),
    ("rl-es-bank-2036", "Recibo de la {{COMPANY|Farmacia Lorenzo Díaz}} pagado con la tarjeta del titular [[PERSON|Bonifacio Rey]]."),
    ("rl-es-clinic-2037", "CENTRO DE SALUD {{INSTITUTION|DOCTOR CASTROVIEJO}}\nPaciente: [[PERSON|LLORENTE PAZ, JULIANA]]   Edad: 74"),
    ("rl-en-bank-2038", "Invoice from {{COMPANY|Construções Ferreira Lda}} for the client [[PERSON|Duarte Nogueira]], paid from his euro account."),
    ("rl-es-law-2039", "Parte demandada: {{COMPANY|Telefónica de España S.A.U.}}; parte actora: [[PERSON|Hortensia Lobo]]."),
    ("rl-es-clinic-2040", "Viene de la {{INSTITUTION|Residencia Virgen de Lourdes}}; la acompaña su sobrina [[PERSON|Begoña]]."),
    # --- decoys: public office holders in a news sentence (not in any list) ---
    ("rl-es-bank-2041", "Contexto para el cliente: el ministro {{FAMOUS|Óscar Puente}} anunció ayer cambios en las ayudas al transporte."),
    ("rl-en-bank-2042", "Background: the Chancellor {{FAMOUS|Rachel Reeves}} said the tax rules would change in April."),
    ("rl-ca-bank-2043", "Segons va declarar la consellera {{FAMOUS|Alícia Romero}}, el pressupost arribarà al gener."),
    # --- decoys: codes glued to digits ---
    ("rl-es-bank-2044", "Reclamación de la factura {{INVOICE|FE24-00877120}} y del pedido {{ORDER|PV25-118822}} del cliente [[PERSON|Fermín Ochando]]."),
    ("rl-en-bank-2045", "Ref {{REFERENCE|MX2025AB12}} for the payment of [[PERSON|Owen Pritchard]]."),
    # --- decoys: registered offices ---
    ("rl-es-law-2046", "Sociedad: {{COMPANY|Maderas Olmo SL}}. Domicilio social: {{OFFICE|Calle Serrano 41, 28001 Madrid}}. Administrador: [[PERSON|Gregorio Ruiz Olmedo]]."),
    ("rl-ca-law-2047", "amb domicili social a {{OFFICE|Avinguda Diagonal 640, 08017 Barcelona}}, representada per [[PERSON|Pol Casademunt]]"),
    ("rl-gl-law-2048", "con sede social en {{OFFICE|Rúa do Vilar 12, 15705 Santiago}}, representada por [[PERSON|Antía Seoane]]"),
    # --- addresses: stair/portal/block between number and floor, bare floor and door ---
    ("rl-es-bank-2049", "viven en [[ADDRESS|calle san juan 8 portal 2 1ºa 41010 sevilla]] desde hace años"),
    ("rl-es-bank-2050", "mi direccion es [[ADDRESS|avda de américa 12 esc 2 3ºb 28028 madrid]] por si me mandan la tarjeta"),
    ("rl-es-bank-2051", "la clienta vive en [[ADDRESS|calle sol 4 2 a 18001 granada]] y trabaja en el centro"),
    ("rl-en-bank-2052", "customer says \"i live at [[ADDRESS|calle goya 77 3c]], can you send the card there\""),
    ("rl-ca-bank-2053", "viu al [[ADDRESS|carrer nou 15 2 b 17001 girona]] amb la seva filla"),
    # --- addresses: CP before a postcode, s/n and km on roads, no 'de' after the street word ---
    ("rl-es-bank-2054", "Manda la carta a [[ADDRESS|C.P. 46001 Valencia]]; el resto de la dirección lo confirma mañana."),
    ("rl-es-bank-2055", "Dirección fiscal: [[ADDRESS|Carretera de Toledo km 12, s/n, 28905 Getafe]]."),
    ("rl-es-law-2056", "la finca está en [[ADDRESS|camino el pozo sn 30500 molina]] y linda con la acequia"),
    ("rl-es-clinic-2057", "domicilio: [[ADDRESS|paseo las palmeras s/n 11001 cádiz]], vive sola"),
    # --- addresses: a building's name with a block, floor, postcode and town ---
    ("rl-es-bank-2058", "Vive en [[ADDRESS|Edificio Miramar, portal 4, 2ºC, 03503 Benidorm]] con su pareja."),
    ("rl-en-clinic-2059", "She lives at [[ADDRESS|Residencial Las Dunas, bloque 2, 1A, 29660 Marbella]] with her husband."),
    # --- decoys: generic streets ---
    ("rl-es-bank-2060", "Hoy la {{STREET_GENERIC|calle Mayor}} estaba cortada por obras, así que el cliente [[PERSON|Gaspar Ibarrola]] llegó tarde."),
    # --- batch 2 (written after batch 1's rules, before the rules for these forms) ---
    # British addresses led by a house's name, then a road without a number, a town, a postcode
    ("rl-en-law-2061", "Deed of gift: the donor, [[PERSON|Eleanor Pryce]], of [[ADDRESS|Rose Cottage, Mill Lane, Tetbury GL8 8AB]], gives the painting to her niece."),
    ("rl-en-bank-2062", "Change of address received. New address: [[ADDRESS|The Old Vicarage, Station Road, Thame OX9 3AA]]. Old one closed."),
    ("rl-es-bank-2063", "El cliente británico [[PERSON|Hugh Lambton]] vive en [[ADDRESS|Ivy House, Church Street, Kendal LA9 4DL]] y pide la tarjeta allí."),
    ("rl-en-bank-2064", "Note: {{STREET_GENERIC|Station Road}} is closed for works, so the branch van will be late."),
    # Chinese names in pinyin, lower case, after a cue
    ("rl-es-bank-2065", "mañana viene a firmar con [[PERSON|huang lei]] el contrato de la tienda, y luego a su casa"),
    ("rl-ca-bank-2066", "el titular és en [[PERSON|zhao ming]]; la seva dona, [[PERSON|sun li]], també signa"),
    ("rl-es-clinic-2067", "la paciente [[PERSON|chen jing]] no habla castellano, viene con tan poco tiempo que no trae el informe"),
    # an unknown lower-case surname before a bracket or dash, after a role word
    ("rl-es-bank-2068", "la clienta [[PERSON|rosario villaplana]] (la del estanco) quiere cancelar el seguro"),
    ("rl-gl-clinic-2069", "o paciente [[PERSON|xosé ourense]] — non, perdón, [[PERSON|xosé outón]] — ten cita mañá"),
    # a town after 'de' at the end of a lower-case address
    ("rl-es-bank-2070", "vive en [[ADDRESS|la calle mayor 14 de fuentelapeña]], en zamora, y cobra la pensión aquí"),
    ("rl-es-law-2071", "la finca de [[ADDRESS|camino real 3 de villanueva del pardillo]] está a nombre de los dos"),
    # apartments and blocks before a floor and a postcode
    ("rl-en-clinic-2072", "Home visit: [[ADDRESS|Apartamentos Miramar, bloque 4, 3C, 03590 Altea]], ring twice."),
    # --- batch 3 (written after batch 2's rules, before any rule for these forms): names the lists
    # do not know in mail headers, signatures, before an identifier or an age; and their decoys ---
    ("rl-es-bank-2073", "Resume este correo:\nDe: [[PERSON|Leocadia Albarrán]] <[[EMAIL|leo.albarran@gmail.com]]>\nPara: {{COMPANY|Atención al Cliente}} <atencion@banco.es>\nAsunto: comisiones\n\nNo entiendo el cargo."),
    ("rl-en-bank-2074", "Summarise:\nFrom: [[PERSON|Oluwaseun Adebayo]] <[[EMAIL|seun.adebayo@outlook.com]]>\nTo: {{COMPANY|Mortgage Team}}\nSubject: offer letter\n\nPlease resend the offer."),
    ("rl-ca-bank-2075", "De: [[PERSON|Quirze Vilalta]]\nPer a: {{COMPANY|Oficina 0412}}\nAssumpte: rebut retornat\n\nBon dia, em van tornar el rebut."),
    ("rl-es-law-2076", "Quedo a la espera.\n\nUn saludo,\n[[PERSON|Casilda Moratalla]]\nAbogada"),
    ("rl-en-clinic-2077", "Thanks for seeing her so quickly.\n\nKind regards,\n[[PERSON|Ffion Gwilliam]]"),
    ("rl-gl-bank-2078", "Moitas grazas pola axuda.\n\nSaúdos,\n[[PERSON|Ledicia Barbeito]]"),
    ("rl-eu-bank-2079", "Eskerrik asko.\n\nOndo izan,\n[[PERSON|Garazi Urbieta]]"),
    ("rl-es-bank-2080", "Kind regards,\n{{COMPANY|The Mortgage Team}}"),
    ("rl-es-bank-2081", "Alta de titular: [[PERSON|Wenceslao Picó]], con DNI [[DNI|#40912267]], y su esposa [[PERSON|Adoración Bellver]], con NIE [[NIE|X1234567L]]."),
    ("rl-es-clinic-2082", "Ingresa [[PERSON|Nazaret Cobeño]], 34 años, por dolor abdominal."),
    ("rl-en-law-2083", "The lessee, [[PERSON|Bartholomew Quayle]] (passport [[PASSPORT|533219870]]), will pay monthly."),
    ("rl-es-law-2084", "Según el {{LAW|Real Decreto 1/2025}} y la {{LAW|Ley Orgánica 3/2018}}, el {{INSTITUTION|Tribunal Supremo}} ya se pronunció; la parte actora es [[PERSON|Eufrasia Lucientes]]."),
    ("rl-es-bank-2085", "Cliente: [[PERSON|Agnieszka Wiśniewska]]. Nacionalidad polaca. Pide tarjeta de débito."),
    ("rl-en-bank-2086", "Customer [[PERSON|Nguyen Van Minh]] asked about a transfer to Vietnam; his wife [[PERSON|Tran Thi Lan]] is co-holder."),
    ("rl-es-bank-2087", "Reunión con {{COMPANY|Maderas Quintanar SL}} sobre la póliza de crédito de {{AMOUNT|60.000 €}}."),
    # --- batch 4 (written after batch 3's rules, before any rule for these forms): chat lines,
    # names with particles, names joined by 'y', European street forms; and institution decoys ---
    ("rl-es-bank-2088", "Te paso el chat:\n[10:32] [[PERSON|Leire Urkiza]]: buenas, no me deja entrar en la app\n[10:33] {{COMPANY|Soporte}}: ¿qué error le sale?"),
    ("rl-es-clinic-2089", "Conversación de WhatsApp:\n[[PERSON|Maripili]]: q hora tengo mañana??\nRecepción: a las 9:30 con la dra"),
    ("rl-es-bank-2090", "Titular: [[PERSON|Begoña de la Fuente Ordás]]; autorizada: su hija [[PERSON|Irati]]."),
    ("rl-es-bank-2091", "Vienen [[PERSON|Ximena]] y [[PERSON|Bruno Castañares]] a firmar la hipoteca."),
    ("rl-en-bank-2092", "Payee: [[PERSON|Lukas Baumgartner]], [[ADDRESS|Hauptstraße 5, 10115 Berlin]]."),
    ("rl-es-bank-2093", "Transferencia a Italia: beneficiario [[PERSON|Gennaro Esposito]], [[ADDRESS|Via Roma 10, 00184 Roma]]."),
    ("rl-es-bank-2094", "Nueva dirección: [[ADDRESS|Avda. Constitución, 5 - 3º B - 41001 Sevilla]]."),
    ("rl-es-law-2095", "vive en [[ADDRESS|avenida de la constitucion numero 5 2 izquierda]], lo pone en el padrón"),
    ("rl-es-clinic-2096", "Derivada al {{INSTITUTION|Hospital 12 de Octubre}} desde el {{INSTITUTION|Hospital San Juan de Dios}}; paciente [[PERSON|Rufina Valcárcel]]."),
    ("rl-es-bank-2097", "Recibos domiciliados: {{COMPANY|Mercadona}}, {{COMPANY|El Corte Inglés}}, {{COMPANY|Santa Lucía Seguros}} y {{INSTITUTION|Cruz Roja}}; titular [[PERSON|Herminio Garcés]]."),
    ("rl-es-law-2098", "La {{LAW|Ley 49/1960, de Propiedad Horizontal}} obliga a la comunidad; el presidente es [[PERSON|Ceferino Alcántara]]."),
    ("rl-ca-bank-2099", "Xat amb el client:\n[[PERSON|Pau Rovirosa]]: bon dia, vull canviar el PIN\n{{COMPANY|Agent}}: d'acord"),
    ("rl-en-clinic-2100", "Patient list for today: [[PERSON|Siobhan McAteer]] (10:00), [[PERSON|Oisin Breathnach]] (10:30) and [[PERSON|Dervla Ní Bhriain]] (11:00)."),
    ("rl-es-bank-2101", "La clienta dice que su exmarido, [[PERSON|Anacleto Sigüenza]], ya no es cotitular."),
    # --- batch 5 (written after batch 4's rules, before any rule for these forms): 'to the attention
    # of' forms, signatures after 'Signed'/'Asinado', everyday-word given names before a birth cue ---
    ("rl-es-bank-2102", "Enviar a: A/A [[PERSON|Gumersindo Tabuenca]], departamento de riesgos."),
    ("rl-en-bank-2103", "Attn: [[PERSON|Philippa Oakes-Barnard]] — please countersign the form."),
    ("rl-es-law-2104", "A la atención de [[PERSON|Leovigildo Carrascosa]]: adjunto la escritura."),
    ("rl-en-law-2105", "Signed: [[PERSON|Tamsin Penhaligon]]\nDate: {{DATE|3 March 2025}}"),
    ("rl-gl-law-2106", "Asinado: [[PERSON|Uxío Cerviño]]\nData: {{DATE|04/03/2025}}"),
    ("rl-en-bank-2107", "Please post the card c/o [[PERSON|Morwenna Trevithick]] at the branch."),
    ("rl-es-clinic-2108", "paciente de 70 años, [[PERSON|consuelo]], nacida en [[DOB|1955]], hipertensa"),
    ("rl-es-bank-2109", "la señora, [[PERSON|rosario]], de 82 años, viene con su nieto"),
    ("rl-eu-bank-2110", "Sinatua: [[PERSON|Itziar Olaizola]]"),
    ("rl-ca-bank-2111", "Signat: [[PERSON|Bernat Puigcercós]]"),
    ("rl-es-bank-2112", "Hoy es día de {{DATE|Santa Rosa}} y la oficina abre a las 9; la {{STREET_GENERIC|calle Rosario}} está en obras."),
    # --- batch 6 (written after batch 5's rules, before any rule for these forms): addresses with
    # a town before its postcode, a dash or brackets around the town, a province in brackets ---
    ("rl-es-bank-2113", "Domicilio: [[ADDRESS|Av. Diagonal 123, ático 2ª, Barcelona 08018]]."),
    ("rl-es-bank-2114", "Dirección del titular: [[ADDRESS|Plaza del Ayuntamiento nº 3, 2º, 46002 - Valencia]]."),
    ("rl-es-law-2115", "el arrendatario vive en [[ADDRESS|calle Real, número 15, piso 2, puerta 4, Getafe (Madrid)]] desde 2019"),
    ("rl-gl-bank-2116", "Enderezo: [[ADDRESS|Lugar de Cortiñas 7, 15886 Teo (A Coruña)]]."),
    ("rl-gl-clinic-2117", "vive na [[ADDRESS|rúa do Franco 22 baixo, Santiago de Compostela]] coa súa filla"),
    ("rl-es-clinic-2118", "Domicilio: [[ADDRESS|Avda. de la Paz s/n (edificio B), 26004 Logroño]]."),
    ("rl-ca-bank-2119", "L'adreça és [[ADDRESS|Camí de Vera s/n, València]], al costat de la universitat."),
    ("rl-en-bank-2120", "Correspondence address: [[ADDRESS|221B Baker Street, London NW1 6XE]]."),
    ("rl-es-bank-2121", "vivo en Leganés, [[ADDRESS|calle Río Duero 14]], y trabajo en Madrid"),
    ("rl-es-bank-2122", "nuestra oficina de {{OFFICE|Gran Vía 30}} cierra a las 14:00; el {{LAW|artículo 14 de la Ley 5/2019}} obliga a informar al cliente [[PERSON|Teófilo Arjona]]."),
    ("rl-es-law-2123", "En el {{REFERENCE|km 5 de la A-6}} hubo un accidente; el conductor, [[PERSON|Rigoberto Sancho]], vive en [[ADDRESS|calle Pez 3, 28004 Madrid]]."),
    # --- batch 7 (written after batch 6's rules, before any rule for these forms): places, brands
    # and institutions named after people, in prose without a number; a client among them ---
    ("rl-es-bank-2124", "El cargo es de {{COMPANY|Massimo Dutti}} y otro de {{COMPANY|Rosa Clará}}; la clienta [[PERSON|Remedios Carbonell]] no los reconoce."),
    ("rl-es-clinic-2125", "Trasladado al {{INSTITUTION|Hospital Doctor Negrín}}; su hija [[PERSON|Yaiza]] lo acompaña."),
    ("rl-es-bank-2126", "Beca del {{INSTITUTION|Instituto Cervantes}} y de la {{INSTITUTION|Universidad Carlos III}} para [[PERSON|Abril Santacruz]]."),
    ("rl-es-bank-2127", "Hoy la {{STREET_GENERIC|Avenida Juan Carlos I}} está cortada; el cliente [[PERSON|Marcial Quirós]] llegará tarde."),
    ("rl-es-law-2128", "Vuelo desde el {{INSTITUTION|Aeropuerto Adolfo Suárez}}; el demandante, [[PERSON|Froilán Cuesta]], reclama el retraso."),
    ("rl-en-bank-2129", "The payment went to {{COMPANY|Marks and Spencer}} and {{COMPANY|John Lewis}}; the customer [[PERSON|Ianto Prosser]] disputes the second."),
    ("rl-ca-bank-2130", "Entrades del {{INSTITUTION|Teatre Joan Brossa}} pagades per la clienta [[PERSON|Mercè Vilanova]]."),
    ("rl-es-bank-2131", "Ticket del {{INSTITUTION|Estadio Santiago Bernabéu}} cobrado dos veces a [[PERSON|Ulises Mateu]]."),
    ("rl-es-clinic-2132", "Cita en el {{INSTITUTION|Centro de Salud Isabel II}} para [[PERSON|Pascuala Redondo]]."),
    ("rl-gl-bank-2133", "Recibo do {{INSTITUTION|Colexio Rosalía de Castro}} a nome de [[PERSON|Brais Lorenzo]]."),
    # --- batch 8 (written after batch 7's rules, before any rule for these forms): sloppy lower case
    # and Basque case endings on names ---
    ("rl-es-bank-2134", "vino un tal [[PERSON|ramiro]] preguntando por la cuenta de su padre"),
    ("rl-es-bank-2135", "llamó [[PERSON|joaquín]] para lo del recibo, que se lo devuelvan"),
    ("rl-es-clinic-2136", "esta mañana estuvo aquí [[PERSON|fermín]] con su mujer"),
    ("rl-eu-bank-2137", "[[PERSON|Mikelek]] deitu du kontuagatik, eta [[PERSON|Aneri]] txartela bidali behar zaio."),
    ("rl-eu-clinic-2138", "[[PERSON|Jon Etxeberriaren]] ama etorri da; [[PERSON|Maite-rekin]] hitz egin dut."),
    ("rl-es-bank-2139", "firmado: [[PERSON|j. martínez]], el de la gestoría"),
    ("rl-en-bank-2140", "spoke to [[PERSON|gareth]] about it, he'll come in on monday with his sister [[PERSON|bethan]]"),
    ("rl-ca-bank-2141", "ha vingut la [[PERSON|montse]] a demanar pel rebut de l'aigua"),
    ("rl-es-clinic-2142", "una tal [[PERSON|nieves]] ha llamado para anular la cita"),
    # --- batch 9 (written after batch 8's rules, before any rule for these forms): names in tables,
    # CSV and JSON under headers in several languages; company rows as decoys ---
    ("rl-es-bank-2143", "Exportación:\nnombre_completo;dni;saldo\n[[PERSON|Eleuterio Manzanares Pozo]];[[DNI|#71234561]];1.200,50\n[[PERSON|Zoraida Bermejo]];[[DNI|#52331907]];88,10"),
    ("rl-en-bank-2144", "first_name,last_name,balance\n[[PERSON|Thaddeus]],[[PERSON|Blackwood]],1200.50\n[[PERSON|Imogen]],[[PERSON|Featherstone]],88.10"),
    ("rl-es-law-2145", "| Parte | Nombre y apellidos | Rol |\n|---|---|---|\n| 1 | [[PERSON|Sabina Oyarzábal]] | demandante |\n| 2 | {{COMPANY|Seguros Bilbao}} | demandada |"),
    ("rl-es-bank-2146", "{\"full_name\": \"[[PERSON|Anselmo Cifuentes]]\", \"segment\": \"premium\", \"branch\": \"0412\"}"),
    ("rl-ca-bank-2147", "nom i cognoms\tsaldo\n[[PERSON|Eulàlia Roigé]]\t340,00\n[[PERSON|Pol Sitjà]]\t12,00"),
    ("rl-gl-clinic-2148", "nome;apelidos;cama\n[[PERSON|Xiana]];[[PERSON|Pazos Outeiro]];12\n[[PERSON|Antón]];[[PERSON|Rei Doval]];14"),
    ("rl-eu-bank-2149", "izen-abizenak,saldoa\n[[PERSON|Unai Aranburu]],100\n[[PERSON|Nahia Goikoetxea]],250"),
    ("rl-es-bank-2150", "{\"titular\": {\"nombre\": \"[[PERSON|Genoveva]]\", \"apellidos\": \"[[PERSON|Larrañaga Bilbao]]\"}, \"empresa\": \"{{COMPANY|Construcciones Bilbao SL}}\"}"),
    # --- batch 10 (written after the rules for these forms, which the ids helper's dev file showed;
    # its before figure is from the rules one commit earlier): a sentence's dot after a role word,
    # codes with a dash, 'recibo de luz', a month ending a sentence, an id's label as a value,
    # clinical ids after a name, 'los señores X' ---
    ("rl-es-clinic-2151", "Vive con su nieta. Revisión el jueves con analítica; la nieta se llama [[PERSON|Aitana]]."),
    ("rl-en-bank-2152", "Please check with the customer. Ref ABC-88213 is still open for [[PERSON|Hywel Bevan]]."),
    ("rl-es-bank-2153", "Domiciliar el recibo de luz y el del gas en la cuenta de [[PERSON|Porfirio Lastra]]."),
    ("rl-ca-clinic-2154", "Propera visita el 22 de març. La pacient, [[PERSON|Roser Alsina]], porta l'informe."),
    ("rl-es-law-2155", "Datos de la compradora: NIF [[DNI|#33445566]], domicilio en Burgos; se llama [[PERSON|Eloísa Rebollo]]."),
    ("rl-en-clinic-2156", "Referral for [[PERSON|Aled Pughe]], NHS no. [[MRN|401 023 2137]], and for [[PERSON|Carys Meredith]], NHS no. [[MRN|401 023 2145]]."),
    ("rl-es-law-2157", "Comparecen los señores [[PERSON|Lefèvre]], de nacionalidad francesa, para firmar la compraventa."),
    # --- batch 11 (written after the rule, from the helper's own probes, not from a dev2 miss):
    # initials inside and before a name ---
    ("rl-es-bank-2158", "Hablé con [[PERSON|Ana M. García]] sobre la cancelación del préstamo."),
    ("rl-es-law-2159", "Lo firmó [[PERSON|José A. Romero]] en presencia del notario."),
    ("rl-en-bank-2160", "The account holder is [[PERSON|J. Pritchard-Evans]], as per the mandate."),
    ("rl-ca-bank-2161", "Ho va signar la [[PERSON|Maria C. Puigdollers]] divendres."),
    # --- batch 12 (written after batch 11, before any rule for this form): a greeting then a name
    # no list knows; greetings to a team or a department as decoys ---
    ("rl-es-bank-2162", "Hola [[PERSON|Yurena]], te confirmo que el recibo ya está devuelto."),
    ("rl-en-bank-2163", "Dear [[PERSON|Tadhg]],\nthanks for the documents."),
    ("rl-ca-bank-2164", "Bon dia [[PERSON|Quirze]], ja tens la targeta a l'oficina."),
    ("rl-eu-bank-2165", "Kaixo [[PERSON|Oihane]], zure txartela prest dago."),
    ("rl-gl-clinic-2166", "Bos días [[PERSON|Xesús Pampín]], a súa cita é o martes."),
    ("rl-en-bank-2167", "Dear {{COMPANY|Sir or Madam}},\nplease find the statement attached."),
    ("rl-es-bank-2168", "Hola {{COMPANY|Equipo}}, ¿alguien sabe por qué no entra la transferencia?"),
]

MARK = re.compile(r"\[\[([A-Z_]+)\|(.+?)\]\]|\{\{([A-Z_]+)\|(.+?)\}\}")
DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"


def expand(value):
    if value.startswith("#"):
        n = value[1:]
        return n + DNI_LETTERS[int(n) % 23]
    return value


def build(item_id, marked):
    lang, domain = item_id.split("-")[1], item_id.split("-")[2]
    out, ents, decoys = b"", [], []
    pos = 0
    for m in MARK.finditer(marked):
        out += marked[pos:m.start()].encode()
        typ, val, is_decoy = (m.group(3), m.group(4), True) if m.group(3) else (m.group(1), m.group(2), False)
        val = expand(val)
        start = len(out)
        out += val.encode()
        lab = {"type": typ, "value": val, "start": start, "end": len(out)}
        (decoys if is_decoy else ents).append(lab)
        pos = m.end()
    out += marked[pos:].encode()
    text = out.decode()
    # offsets are byte offsets (corpus.Item)
    for lab in ents + decoys:
        assert out[lab["start"]:lab["end"]].decode() == lab["value"], (item_id, lab)
    it = {"id": item_id, "lang": lang, "domain": domain, "text": text, "entities": ents}
    if decoys:
        it["decoys"] = decoys
    return it


def emit(items, lo, hi):
    """Builds items (id, marked text), checks their ids (lo..hi), prints JSON lines."""
    seen = set()
    for item_id, marked in items:
        assert item_id not in seen, item_id
        seen.add(item_id)
        n = int(item_id.rsplit("-", 1)[1])
        assert lo <= n <= hi, item_id
        sys.stdout.write(json.dumps(build(item_id, marked), ensure_ascii=False) + "\n")


if __name__ == "__main__":
    emit(ITEMS, 2001, 2299)
