#!/usr/bin/env python3
"""Generator of realistic-dev5-names.jsonl (issue #13, fourth round: names and non-name
precision, general forms: lone names in lower case after a cue, surnames alone before a verb,
initials, three-word names, foreign names; decoys holding a name). Each item is written in an inline markup, [[TYPE|value]] for personal data
and {{TYPE|value}} for decoys; this script strips the markup, computes byte offsets and the check
letters of DNIs written as [[DNI|#12345678]] (mod 23). All people, numbers and addresses are
invented; public institutions, companies, public figures and office addresses are decoys.

    python3 testdata/redact/gen/dev5_names.py > testdata/redact/realistic-dev5-names.jsonl
"""
import json
import re
import sys

ITEMS = [
    # --- batch 1: a lone name in lower case after an addressing verb or an honorific ---
    ("rl-es-bank-4001", "oye pasale a [[PERSON|quintana]] el extracto de marzo q lo ha pedido x telefono"),
    ("rl-es-bank-4002", "pregúntale a [[PERSON|ibáñez]] si ya firmó la renovación del depósito de {{AMOUNT|15.000 €}}"),
    ("rl-es-clinic-4003", "la dra [[PERSON|villaverde]] dice q el paciente de la 12 puede irse mañana"),
    ("rl-en-clinic-4004", "pls remind mrs [[PERSON|okonjo]] her bloods are on thursday at 8"),
    ("rl-es-law-4005", "ha llamado don [[PERSON|anselmo]] por lo de la herencia, q le llames tú"),
    ("rl-ca-clinic-4006", "la senyora [[PERSON|rosalia]] diu que no pot venir dijous, demana hora per a la setmana vinent"),
    ("rl-es-bank-4007", "avisa a [[PERSON|chelo]] q el cajero de la entrada no da billetes"),
    ("rl-gl-bank-4008", "dille a [[PERSON|uxío]] que o préstamo xa está aprobado"),
    ("rl-en-bank-4009", "can you ask [[PERSON|siobhan]] to call the client back before 5"),
    # --- a known given name that is also a word, then a speech verb ---
    ("rl-es-bank-4010", "[[PERSON|pili]] dice q mañana no abre la oficina hasta las 10"),
    ("rl-es-clinic-4011", "[[PERSON|nieves]] comenta que su madre sigue con fiebre"),
    # --- a surname alone at a sentence start, then a clinical or reporting verb ---
    ("rl-es-clinic-4012", "Ingresa por disnea. Acompaña su hijo [[PERSON|Rubén]]. [[PERSON|Olaizola]] refiere dolor torácico opresivo desde las 6:00."),
    ("rl-en-clinic-4013", "Seen on the ward round with her daughter. [[PERSON|Nowak]] denies chest pain and is eating well."),
    ("rl-gl-clinic-4014", "Paciente de 80 anos, vive coa súa filla. [[PERSON|Figueiras]] refire dor lumbar."),
    ("rl-es-clinic-4015", "Control a las 48 h. [[PERSON|Castañeda]] colabora y deambula sin ayuda."),
    # --- three capitalised words after a declaration, a title, a kinship word ---
    ("rl-es-law-4016", "Yo, [[PERSON|Gervasio Llamas Urquiza]], con DNI [[DNI|#30458112]], otorgo poder a favor de mi hermana."),
    ("rl-ca-law-4017", "Jo, [[PERSON|Montserrat Vilanova Prats]], nascuda a Manresa, declaro que aquest és el meu testament."),
    ("rl-es-law-4018", "SEGUNDA.- La ARRENDATARIA, Dña. [[PERSON|Brígida Solana Ochoa]], abonará la renta por meses anticipados."),
    ("rl-es-clinic-4019", "Mujer, [[PERSON|Ana Belén Quiroga]], 54 años, acude por cefalea."),
    ("rl-en-law-4020", "Please translate: my late father [[PERSON|Hans-Dieter Kowalski]] left a flat in Alicante."),
    ("rl-es-law-4021", "DE UNA PARTE, DON [[PERSON|JOSÉ ANTONIO BERMEJO LAFUENTE]], mayor de edad."),
    # --- an initial and a surname ---
    ("rl-es-bank-4022", "en el sistema me aparece como [[PERSON|R. Quintero]] pero firma con otro nombre"),
    ("rl-en-bank-4023", "Thanks, we will send the form.\n> [[PERSON|M. Dubois]]\n> Sent from my phone"),
    # --- foreign names, capitalised or not, with a role word ---
    ("rl-es-bank-4024", "apunta: cliente [[PERSON|mamadou ndiaye]], senegalés, quiere abrir cuenta básica"),
    ("rl-es-bank-4025", "La titular, [[PERSON|Ionela Popescu]], pide el cambio de domicilio."),
    ("rl-en-bank-4026", "our client [[PERSON|aoife brennan]] asks for a statement in english"),
    ("rl-es-clinic-4027", "paciente [[PERSON|imran qureshi]], 41 años, acompañado de su hermano [[PERSON|bilal]]"),
    ("rl-es-bank-4028", "La cuenta es de [[PERSON|Wang Fang]] y su marido [[PERSON|Chen Jie]]."),
    ("rl-es-bank-4029", "viene [[PERSON|bohdan]] el ucraniano a recoger la tarjeta"),
    ("rl-en-law-4030", "Claimant: [[PERSON|ADEYEMI, Oluwaseun Grace]]\nDefendant: {{COMPANY|Vueling Airlines}}"),
    ("rl-eu-bank-4031", "esan [[PERSON|Mireni]] txartela prest dagoela"),
    # --- decoys: public figures in news, companies and laws with a name in them ---
    ("rl-es-bank-4032", "Resume esta noticia para el boletín: «{{FAMOUS|Carlos Alcaraz}} gana en Indian Wells y {{FAMOUS|Ana Botín}} presenta resultados.» El cliente [[PERSON|Fermín Orduña]] la pidió."),
    ("rl-es-clinic-4033", "Accidente laboral. Trabaja en {{COMPANY|Transportes Molina}}, mutua {{COMPANY|Asepeyo}}. Paciente: [[PERSON|Leoncio Ferrán]]."),
    ("rl-gl-law-4034", "As partes acollense á {{LAW|Lei 5/2019, de patrimonio cultural}}; comparece [[PERSON|Xurxo Pazos Lema]]."),
    ("rl-ca-law-4035", "D'acord amb la {{LAW|Llei 10/2008, del llibre quart}}, la causant [[PERSON|Rosalia Pujadas]] deixa hereu el seu fill."),
    ("rl-ca-clinic-4036", "Derivada a l'{{INSTITUTION|Hospital Universitari de Bellvitge}} i després a l'{{INSTITUTION|Hospital de la Santa Creu i Sant Pau}}. Pacient: [[PERSON|Remei Colomer]]."),
    ("rl-es-law-4037", "Carta a la {{COMPANY|Comunidad de Propietarios Velázquez 21}} en nombre de nuestro cliente [[PERSON|Abundio Ramos]]."),
    ("rl-en-law-4038", "Defendant: {{COMPANY|Air Europa Líneas Aéreas}}\nClaimant: [[PERSON|Declan Moriarty]]"),
    ("rl-es-bank-4039", "La noticia dice que «{{FAMOUS|Amancio Ortega}} compra un edificio en Miami». Mi cliente [[PERSON|Eusebio Cárcamo]] pregunta si afecta a su fondo."),
    ("rl-es-bank-4040", "el de {{COMPANY|Talleres Gallego}} ha pagado la factura, dile a [[PERSON|ruiz]] q la archive"),
    # --- batch 2 (written after batch 1's rules, before batch 2's): SURNAMES, Name with an unknown given name ---
    ("rl-es-law-4041", "Parte demandada: [[PERSON|MONTERO SALAS, Yurema]], con domicilio en la misma ciudad."),
    ("rl-en-law-4042", "Respondent: [[PERSON|HARRISON, Kasia Lorelei]]\nSolicitor: {{COMPANY|Slaughter and May}}"),
    ("rl-ca-law-4043", "Part actora: [[PERSON|FERRER BOSCH, Núria Eulàlia]]. Advocat: [[PERSON|Jordi Casals]]."),
    # --- possessive 's, a copula after a role word ---
    ("rl-en-bank-4044", "can you check [[PERSON|gareth]]'s direct debit, he says it bounced twice"),
    ("rl-en-clinic-4045", "the patient is [[PERSON|rhiannon]], 34, booked for a scan on monday"),
    ("rl-es-bank-4046", "el titular es [[PERSON|teodoro]] y la cotitular su mujer [[PERSON|felisa]]"),
    # --- particle-start surnames ---
    ("rl-en-bank-4047", "Letter to [[PERSON|Johannes van der Berg]] about his mortgage in Marbella; [[PERSON|Van der Berg]] prefers English."),
    ("rl-es-bank-4048", "el apellido es [[PERSON|de la Calzada]], con zeta"),
    # --- lone names after role words, lower case, two unknown words ---
    ("rl-es-clinic-4049", "la paciente [[PERSON|yaritza mondragón]], 29 años, viene por control de embarazo"),
    ("rl-es-bank-4050", "cliente [[PERSON|anselma quirós]] pide duplicado de la libreta"),
    # --- chat speaker labels and CSV name columns ---
    ("rl-es-bank-4051", "Resume el chat:\n[09:12] [[PERSON|Ximena Arroyo]]: buenas, no me llega el código\n[09:13] Agente: le reenvío el SMS\n[09:15] [[PERSON|Ximena Arroyo]]: ya está, gracias"),
    ("rl-es-bank-4052", "nombre;apellidos;importe\n[[PERSON|Eustaquio]];[[PERSON|Barragán Poveda]];{{AMOUNT|120,00}}\n[[PERSON|Leocricia]];[[PERSON|Morán Tejedor]];{{AMOUNT|75,50}}"),
    ("rl-en-clinic-4053", "first_name,last_name,ward\n[[PERSON|Oisin]],[[PERSON|Gallagher]],B2\n[[PERSON|Precious]],[[PERSON|Okoro]],C1"),
    # --- kinship then a lower-case name ---
    ("rl-es-clinic-4054", "viene con su hija [[PERSON|yamila]] que hace de intérprete"),
    ("rl-gl-clinic-4055", "acompáñaa o seu fillo [[PERSON|brais]], que vive en Lugo"),
    # --- three capitalised words, unknown given name ---
    ("rl-es-bank-4056", "Autoriza la operación [[PERSON|Yoselin Cárdenas Mejía]], según el documento adjunto."),
    ("rl-en-bank-4057", "Beneficiary: [[PERSON|Tendai Moyo Chikwanha]]"),
    # --- decoys: public figures in news sentences, companies, laws, separators, generic streets ---
    ("rl-es-bank-4058", "Un cliente pregunta por la noticia de que {{FAMOUS|Pedro Sánchez}} anunció ayer una rebaja del IVA. Contesta de forma neutra a [[PERSON|Rosendo Lagos]]."),
    ("rl-en-bank-4059", "According to the BBC, {{FAMOUS|Keir Starmer}} said rates would fall. Our client [[PERSON|Harriet Pemberton]] wants to fix her mortgage."),
    ("rl-ca-bank-4060", "Segons la premsa, {{FAMOUS|Salvador Illa}} va anunciar ajuts a l'habitatge. La clienta [[PERSON|Roser Vilamajó]] en vol informació."),
    ("rl-es-law-4061", "Conforme al {{LAW|Real Decreto Legislativo 1/2010}} y a la {{LAW|Ley 39/2015}}, la socia [[PERSON|Ángeles Barrachina]] impugna el acuerdo."),
    ("rl-es-bank-4062", "-----{{SEPARATOR|Mensaje original}}-----\nDe: [[PERSON|Gumersindo Peláez]]\nEnviado: lunes\nAsunto: recibo de {{COMPANY|El Corte Inglés}}"),
    ("rl-es-bank-4063", "La oficina de {{STREET_GENERIC|calle Alcalá}} cierra en agosto; avisa a [[PERSON|remedios]] de que la cita pasa a la otra oficina."),
    ("rl-es-clinic-4064", "Traslado al {{INSTITUTION|Hospital del Mar}} y luego a la {{INSTITUTION|Clínica Universidad de Navarra}}. Paciente [[PERSON|Isidro Calzada]]."),
    ("rl-es-bank-4065", "Domiciliación de {{COMPANY|Mapfre Vida}} y de {{COMPANY|Seguros Bilbao}} en la cuenta de [[PERSON|Leonila Sarasola]]."),
    ("rl-en-bank-4066", "Payment to {{COMPANY|Marks and Spencer}} and {{COMPANY|John Lewis}} disputed by [[PERSON|Imogen Frayne]]."),
    ("rl-es-law-4067", "Nota: el {{FAMOUS|Rey Felipe VI}} presidió ayer la apertura del año judicial, según la prensa. Nuestro cliente [[PERSON|Bernabé Ulloa]] tiene vista el jueves."),
    ("rl-es-clinic-4068", "Según ha declarado la ministra {{FAMOUS|Mónica García}}, se reducirán las listas de espera. La paciente [[PERSON|Perpetua Arcos]] pregunta por su cita."),
    ("rl-en-law-4069", "Sent from my iPhone\n\n-----{{SEPARATOR|Original Message}}-----\nFrom: [[PERSON|Cormac Devlin]]\nTo: {{COMPANY|Garrigues}}"),
    ("rl-es-bank-4070", "el de {{COMPANY|Muebles Ortega}} y el de {{COMPANY|Autocares Julián}} han pagado; pásale a [[PERSON|montaño]] los justificantes"),
    # --- batch 3 (a mixed check, written before running it: every style, names in any form) ---
    ("rl-es-bank-4071", "buenas, me ha escrito [[PERSON|eloísa]] la de la frutería q no le funciona la app, su marido [[PERSON|sebastián]] tb es cliente"),
    ("rl-es-bank-4072", "De: [[PERSON|Fidel Arrabal Campoy]] <fidel.ac@gmail.com>\nPara: oficina 0412\nAsunto: cambio de titular\n\nBuenos días, quiero quitar a mi ex, [[PERSON|Marisa Lucena]], de la cuenta.\nGracias,\n[[PERSON|Fidel]]"),
    ("rl-en-clinic-4073", "Handover: bed 4, Mrs [[PERSON|Pennington]], 88, UTI. Daughter [[PERSON|Gwendolyn]] visiting at 3. [[PERSON|Pennington]] is confused at night."),
    ("rl-ca-bank-4074", "ha trucat la [[PERSON|rosalia]] del forn, diu que el rebut de l'{{COMPANY|Endesa}} li han cobrat dues vegades"),
    ("rl-gl-bank-4075", "Bo día, son [[PERSON|Xabier Loureiro]], teño conta na oficina de {{INSTITUTION|Abanca}} de Vigo e quero cancelar a tarxeta."),
    ("rl-eu-clinic-4076", "Gaixoa: [[PERSON|Garbiñe Intxausti]]. [[PERSON|Garbiñe]]k mina du bularrean, bihar etorriko da."),
    ("rl-es-law-4077", "En Valencia, a 3 de mayo. REUNIDOS: de una parte, D. [[PERSON|Wenceslao Bellver Roig]], y de otra, Dña. [[PERSON|Araceli Ferrando Mas]], ambos mayores de edad."),
    ("rl-es-clinic-4078", "paciente,edad,motivo\n[[PERSON|Jacinta Rebollo]],82,caída\n[[PERSON|Olegario Pino]],77,disnea\n[[PERSON|Thiago Duarte]],5,fiebre"),
    ("rl-en-bank-4079", "[14:02] [[PERSON|kofi_mensah]]: hi my card got blocked\n[14:03] Agent: hi [[PERSON|Kofi]], can you confirm your date of birth?"),
    ("rl-es-bank-4080", "oye q dice [[PERSON|toñi]] q si le puedes mirar lo del plan de pensiones de su suegro"),
    ("rl-es-law-4081", "Resume: el Juzgado de Primera Instancia nº 4 de {{INSTITUTION|Getafe}} condena a [[PERSON|Evaristo Muñiz]] al pago de {{AMOUNT|3.200 €}} a {{COMPANY|Vodafone España}}."),
    ("rl-en-law-4082", "Dear Mr [[PERSON|Okoye]],\nFurther to our call, please find attached the draft will. Your wife, [[PERSON|Adaeze]], should also sign.\nKind regards,\n[[PERSON|Rupert Ashdown]]\nAssociate"),
    ("rl-es-clinic-4083", "la de la 214 se llama [[PERSON|candelaria]] y dice que no ha dormido nada"),
    ("rl-ca-clinic-4084", "Pacient: [[PERSON|Ton Riera i Vidal]]. Acompanyat per la seva filla [[PERSON|Laia]]. El Sr. [[PERSON|Riera]] refereix dolor abdominal."),
    ("rl-es-bank-4085", "transferencia a favor de [[PERSON|Nicolae Vasilescu]] por {{AMOUNT|450 €}}, concepto alquiler; el IBAN lo tengo en la ficha"),
    ("rl-es-bank-4086", "hablé con la hija de doña [[PERSON|amparo]] y me dijo q su madre está en el hospital"),
    ("rl-en-bank-4087", "note for file: customer [[PERSON|Li Wei]] called re: the transfer to his brother [[PERSON|Li Qiang]] in Shanghai"),
    ("rl-es-law-4088", "Demandante: [[PERSON|Purificación Bernal Nieto]]\nDemandado: {{COMPANY|Banco Santander, S.A.}}\nObjeto: cláusula suelo"),
    ("rl-gl-clinic-4089", "A paciente [[PERSON|Sabela Outeiriño]] ingresa hoxe. O seu home, [[PERSON|Manolo]], trae a medicación."),
    ("rl-es-bank-4090", "Adjunto los movimientos. Firmado: [[PERSON|Teresa Campoamor]], directora de la oficina 3021."),
    ("rl-en-clinic-4091", "Referral from Dr [[PERSON|Anand]] at {{INSTITUTION|St Thomas' Hospital}}: patient [[PERSON|Priya Raman]], 45, for MRI."),
    ("rl-es-bank-4092", "me pasas el saldo de [[PERSON|lucas]]? el hijo de [[PERSON|remedios]], q viene a por el dinero"),
    ("rl-ca-law-4093", "Benvolgut Sr. [[PERSON|Puigvert]],\nLi adjuntem l'escriptura. Atentament,\n[[PERSON|Meritxell Sunyer]]"),
    ("rl-es-clinic-4094", "nota: [[PERSON|Bartolomé]] (el de la 8) no quiere comer, avisa a su sobrina [[PERSON|Nayara]]"),
    ("rl-es-bank-4095", "{{FAMOUS|Amancio Ortega}} y {{FAMOUS|Ana Botín}} salen hoy en la prensa; nada que ver, pero el cliente [[PERSON|Gregorio Pozuelo]] pregunta por sus acciones."),
    ("rl-es-bank-4096", "tiene poderes su cuñado, [[PERSON|rigoberto salazar]], q vive en Lima"),
    ("rl-en-bank-4097", "Please update the address for Ms [[PERSON|Aisling Byrne]] — she moved last month."),
    ("rl-es-law-4098", "Según el {{LAW|artículo 1902 del Código Civil}}, [[PERSON|Anacleto Juárez]] responde del daño."),
    ("rl-eu-bank-4099", "Kaixo [[PERSON|Unai]], [[PERSON|Amaia Etxeberria]]ren kontua blokeatuta dago."),
    ("rl-es-clinic-4100", "Alergias: ninguna. Vive con su pareja, [[PERSON|Yolanda]]. [[PERSON|Quintanar]] fuma 10 cig/día."),
    # --- batch 4 (a second mixed check, written before running it: tables, JSON, statements, greetings, signatures) ---
    ("rl-es-bank-4101", "| nombre | apellidos | saldo |\n|---|---|---|\n| [[PERSON|Ezequiel]] | [[PERSON|Robledo Carrasco]] | {{AMOUNT|1.204,33 €}} |\n| [[PERSON|Yurena]] | [[PERSON|Afonso Betancor]] | {{AMOUNT|88,10 €}} |"),
    ("rl-es-clinic-4102", "{\"paciente\": {\"nombre\": \"[[PERSON|Candela]]\", \"apellidos\": \"[[PERSON|Ruano Pitarch]]\", \"cama\": \"312B\"}, \"medico\": \"Dr. [[PERSON|Valcárcel]]\"}"),
    ("rl-en-bank-4103", "name\tsurname\tbranch\n[[PERSON|Oluwatobi]]\t[[PERSON|Adeniyi]]\tMalaga Centro\n[[PERSON|Saoirse]]\t[[PERSON|Mulcahy]]\tFuengirola"),
    ("rl-es-bank-4104", "Movimientos:\n03/11 TRANSFERENCIA A FAVOR DE [[PERSON|ROSENDO LAFUENTE BARCO]] {{AMOUNT|-300,00}}\n04/11 RECIBO {{COMPANY|IBERDROLA CLIENTES SAU}} {{AMOUNT|-64,12}}\n05/11 BIZUM DE [[PERSON|MARISOL QUEVEDO]] {{AMOUNT|+25,00}}"),
    ("rl-es-bank-4105", "la cuenta está a nombre de [[PERSON|herminia lojo]] y de su hermano, pero firma solo ella"),
    ("rl-es-bank-4106", "Hola [[PERSON|Evelio]], te reenvío lo que me manda la clienta.\n\n-----{{SEPARATOR|Mensaje original}}-----\nDe: [[PERSON|Azucena Grijalba]]\nEnviado el: martes, 3 de noviembre de 2026 9:14\nPara: Oficina 2281\nAsunto: bizum\n\nNo me deja hacer bizum.\n\n{{SEPARATOR|Enviado desde mi iPhone}}"),
    ("rl-en-law-4107", "Hi [[PERSON|Tamsin]],\nThe completion date is fixed. [[PERSON|Hollis]] from the other side will send the deeds.\nBest,\n[[PERSON|Ravi Chandrasekar]]\nTrainee Solicitor"),
    ("rl-ca-bank-4108", "Bon dia [[PERSON|Pol]], la senyora [[PERSON|Ventura]] vol saber si el préstec de l'{{INSTITUTION|Institut Català de Finances}} és compatible."),
    ("rl-gl-law-4109", "Asinado: [[PERSON|Uxío Bermúdez Rial]], avogado. Rexistro: {{INSTITUTION|Xulgado de Primeira Instancia n.º 2 da Coruña}}."),
    ("rl-eu-bank-4110", "Egun on [[PERSON|Itxaso]], [[PERSON|Josu Agirrezabala]] jaunak deitu du, kontua ixteko."),
    ("rl-es-clinic-4111", "chat:\n[[PERSON|maripaz]]: buenas tengo cita con traumatología?\nrecepción: sí, el jueves a las 12\n[[PERSON|maripaz]]: vale gracias"),
    ("rl-es-law-4112", "Conforme al {{LAW|Real Decreto 1093/1997}} y a la {{LAW|Ley Hipotecaria}}, se inscribe a favor de [[PERSON|Hipólito Ezquerra Sanz]]. {{INSTITUTION|Registro de la Propiedad n.º 5 de Zaragoza}}."),
    ("rl-es-bank-4113", "El {{INSTITUTION|Banco de España}} publicó ayer la circular; [[PERSON|tomasa]] la de ventanilla pregunta si afecta a los plazos fijos"),
    ("rl-en-bank-4114", "Customer [[PERSON|Nguyen Thi Lan]] (Vietnamese passport) wants to open a joint account with [[PERSON|Tran Van Minh]]."),
    ("rl-es-clinic-4115", "Exploración normal. Plan: control en 1 mes. Informa: Dra. [[PERSON|Begoña Iturrioz]], {{INSTITUTION|Servicio de Cardiología}}."),
    ("rl-es-bank-4116", "pasame el dni de [[PERSON|wilmer]] el colombiano, q no lo encuentro en el sistema"),
    ("rl-en-clinic-4117", "Discharge summary - [[PERSON|GALLAGHER, Niamh]] - DOB on file. Seen by Dr [[PERSON|Obi]]."),
    ("rl-es-bank-4118", "Según {{COMPANY|Europa Press}}, {{FAMOUS|Ana Botín}} dijo que el crédito crecerá. Redacta un resumen para [[PERSON|Casimira Oyarzun]]."),
    ("rl-es-bank-4119", "Buenos días, me llamo [[PERSON|Joana Quaresma]], portuguesa, clienta de la oficina de Badajoz. Mi marido, [[PERSON|Rui]], también."),
    ("rl-es-bank-4120", "Titular: [[PERSON|ZHOU, Mei]]\nCotitular: [[PERSON|LIN, Hao]]\nProducto: Cuenta Online"),
    ("rl-es-clinic-4121", "mañana viene [[PERSON|eusebia]] a por la receta de su marido, dásela tú"),
    ("rl-en-bank-4122", "Thanks [[PERSON|Deepak]], I'll let [[PERSON|Femi]] know."),
    ("rl-es-law-4123", "La {{INSTITUTION|Audiencia Provincial de Sevilla}} estima el recurso de [[PERSON|Macarena Olmedo]] contra {{COMPANY|Cajasol}}."),
    ("rl-ca-clinic-4124", "La infermera [[PERSON|Queralt]] diu que en [[PERSON|Biel]] ja pot marxar."),
    ("rl-es-bank-4125", "apunta q ha venido [[PERSON|Jhonatan Ospina]] a preguntar por la hipoteca, el de {{COMPANY|Reformas Levante}} no, otro"),
    ("rl-es-bank-4126", "oye y lo de [[PERSON|felisa]]? ya le has mandado el contrato?"),
    ("rl-en-law-4127", "Parties: (1) [[PERSON|Marguerite Delacroix]]; (2) {{COMPANY|Iberdrola Renovables}}. Witness: [[PERSON|Tobias Wren]]."),
    ("rl-es-clinic-4128", "El Dr. [[PERSON|House]] de la serie no, el nuestro: Dr. [[PERSON|Casas Lumbreras]]."),
    ("rl-es-bank-4129", "cliente: [[PERSON|mohamed el fassi]]\nnie: [[NIE|Y5012348H]]\nmotivo: tarjeta bloqueada"),
    ("rl-gl-bank-4130", "Ola, son a filla de [[PERSON|Generosa]], chamo porque a miña nai non pode vir ao banco."),
    # --- batch 5 (a third mixed check, written before running it: weaker cues, lower case, CA/GL/EU) ---
    ("rl-es-bank-4131", "ha llamado [[PERSON|herminio]] otra vez por lo del recibo del agua"),
    ("rl-es-bank-4132", "[[PERSON|eustasio]] ha llamado, q le devuelvas la llamada antes de las 2"),
    ("rl-es-bank-4133", "de parte de [[PERSON|visitación]]: que mañana no puede venir a firmar"),
    ("rl-ca-bank-4134", "ha trucat en [[PERSON|ramon]] de cal Teixidor, diu que passarà dijous"),
    ("rl-ca-clinic-4135", "la [[PERSON|montse]] de la 3a planta pregunta si ja tenim els resultats de la seva mare"),
    ("rl-gl-bank-4136", "chamou a [[PERSON|maruxa]], a de Ribadavia, que lle devolvan o recibo"),
    ("rl-eu-clinic-4137", "[[PERSON|Nekane Arostegi]] etorri da? ez, bihar. [[PERSON|Nekane]]ri deitu behar diot."),
    ("rl-en-bank-4138", "fyi [[PERSON|bronagh]] from the mortgage team says the valuation is in"),
    ("rl-es-clinic-4139", "Pendiente: llamar a la familia de [[PERSON|Teodosia Lozoya]] (hija: [[PERSON|Encarna]], 6XX en la historia)."),
    ("rl-es-law-4140", "CLÁUSULA TERCERA.- Los herederos, D. [[PERSON|Rufino Abascal Olmos]] y D.ª [[PERSON|Clotilde Abascal Olmos]], aceptan la herencia."),
    ("rl-es-bank-4141", "el préstamo es para [[PERSON|yamileth]], la hija de la señora q vino ayer"),
    ("rl-en-clinic-4142", "Spoke to Mr [[PERSON|Brannigan]]'s son on the phone, he will bring the meds list."),
    ("rl-es-bank-4143", "Estimada Sra. [[PERSON|Peñafiel]]:\nLe confirmamos la cancelación de la tarjeta."),
    ("rl-ca-law-4144", "Compareixen: la Sra. [[PERSON|Aina Mascaró Pons]], i el Sr. [[PERSON|Tomeu Bibiloni]], veïns de Manacor."),
    ("rl-gl-clinic-4145", "Usuaria: [[PERSON|CASTIÑEIRAS LOUREIRO, María Xosé]]\nCentro: {{INSTITUTION|CHUAC}}"),
    ("rl-es-bank-4146", "nombre,apellido1,apellido2,telefono\n[[PERSON|leandro]],[[PERSON|ocaña]],[[PERSON|ruiz]],[[PHONE|612 448 301]]\n[[PERSON|brisa]],[[PERSON|mateo]],[[PERSON|sanz]],[[PHONE|699 120 443]]"),
    ("rl-en-law-4147", "From: [[PERSON|Oisin Carragher]]\nSent: 02 December 2026 10:02\nTo: Conveyancing\nSubject: RE: purchase of Calle Mayor flat\n\nAny news? [[PERSON|Oisin]]"),
    ("rl-es-clinic-4148", "Paciente de 67 años. Antecedentes: HTA. Su esposo ([[PERSON|Fulgencio]]) refiere que ronca."),
    ("rl-es-bank-4149", "{{COMPANY|Seguros Ocaso}} ha cobrado dos veces a [[PERSON|Anunciación Bravo]]; el recibo es del {{DATE|01/11/2026}}"),
    ("rl-es-law-4150", "Según la {{LAW|Ley 29/1994 de Arrendamientos Urbanos}}, el arrendador [[PERSON|Efrén Lastra]] no puede subir la renta."),
    ("rl-es-bank-4151", "la titular es doña [[PERSON|Prudencia]], pero quien viene siempre es su sobrino [[PERSON|Iván]]"),
    ("rl-en-bank-4152", "Hi team, [[PERSON|Kwame Asare]] (client since 2019) needs a reference letter."),
    ("rl-es-clinic-4153", "[[PERSON|Rodolfo]], de 90 años, vive solo; su vecina [[PERSON|Amalia]] tiene llave."),
    ("rl-ca-bank-4154", "Hola [[PERSON|Jordina]]! Et passo el contacte de la [[PERSON|Txell Rius]] perquè li truquis."),
    ("rl-es-bank-4155", "El {{INSTITUTION|Tribunal Supremo}} y el {{INSTITUTION|Banco de España}} coinciden; el cliente [[PERSON|Sinforiano Recio]] pregunta qué hacer."),
    ("rl-es-bank-4156", "q tal [[PERSON|jenny]]? te paso lo de la clienta [[PERSON|mabel]], la dominicana"),
    ("rl-gl-law-4157", "Comparece dona [[PERSON|Sabela Iglesias Nogueira]], veciña de Lalín, con DNI [[DNI|#33458120]]."),
    ("rl-en-clinic-4158", "Pt [[PERSON|Wojciech Zielonka]] (Polish, limited English), interpreter requested."),
    ("rl-es-bank-4159", "-----{{SEPARATOR|Original Message}}-----\nFrom: noreply@bancoejemplo.es\nHola [[PERSON|Dorotea]], tu transferencia ha sido rechazada."),
    ("rl-es-law-4160", "Escrito de [[PERSON|Rigoberta Menchaca]] contra {{COMPANY|Construcciones Aranda}} por vicios ocultos."),
    # --- batch 6 (a fourth mixed check, written before running it: English and clinical/legal prose) ---
    ("rl-en-clinic-4161", "79M, [[PERSON|Desmond Achterberg]], admitted with CAP. Wife [[PERSON|Greta]] is NOK. [[PERSON|Desmond]] is DNR."),
    ("rl-en-bank-4162", "pls draft reply to [[PERSON|jacinta o'rourke]] re her complaint, she's furious about the fee"),
    ("rl-en-law-4163", "The deceased, [[PERSON|Harold Pilkington]], left his estate to his niece, [[PERSON|Imelda Frost]]."),
    ("rl-en-bank-4164", "Customer: Mr. [[PERSON|Adebayo Okonkwo]]\nAccount type: Current\nNotes: wants paper statements"),
    ("rl-en-clinic-4165", "Bloods taken by Nurse [[PERSON|Odhiambo]] at 07:40. Results to Dr [[PERSON|Feeney]]."),
    ("rl-en-bank-4166", "Spoke with [[PERSON|Bartholomew]] today; he'll come in Friday with his partner [[PERSON|Lucian Voss]]."),
    ("rl-en-law-4167", "IN THE MATTER OF the estate of [[PERSON|MARGARET ANNE CALLOWAY]], deceased."),
    ("rl-en-bank-4168", "Thanks,\n[[PERSON|Priyanka]]\nBranch 0311 | {{COMPANY|Sucursal Bank}}"),
    ("rl-en-clinic-4169", "hi its [[PERSON|tamara]] from ward 6, can u check if mr [[PERSON|greaves]] had his insulin"),
    ("rl-en-bank-4170", "According to {{COMPANY|Reuters}}, {{FAMOUS|Christine Lagarde}} said rates stay put. Client [[PERSON|Ottilie Marsh]] asks if she should fix."),
    ("rl-es-clinic-4171", "Varón de 58 años remitido por su MAP (Dra. [[PERSON|Echegaray]]). Vive con su mujer, [[PERSON|Felicitas]]. [[PERSON|Echevarne]] niega hábitos tóxicos."),
    ("rl-es-law-4172", "PRIMERO.- Que D. [[PERSON|Secundino Arbeloa Pérez]] es propietario de la finca. SEGUNDO.- Que la {{COMPANY|Comunidad de Propietarios Río Segura 7}} reclama."),
    ("rl-es-bank-4173", "Buenas tardes, le escribe [[PERSON|Almudena]] de la oficina de Ronda. Le adjunto el contrato."),
    ("rl-ca-clinic-4174", "La pacient [[PERSON|Agnès Vilaró]], de 71 anys, viu amb el seu fill [[PERSON|Pere]]. [[PERSON|Vilaró]] refereix dispnea."),
    ("rl-gl-bank-4175", "Asunto: baixa da conta de [[PERSON|Xoana Carballeira]]\nBo día, son o seu fillo, [[PERSON|Brais]]."),
    ("rl-eu-law-4176", "[[PERSON|Iñaki Goikoetxea Zabala]] jaunak eta [[PERSON|Maialen Urkiola]] andreak kontratua sinatu dute."),
    ("rl-es-bank-4177", "oye, lo de la tarjeta de [[PERSON|pepa]]? que dice [[PERSON|ramón]] que no le ha llegado"),
    ("rl-en-law-4178", "Re: [[PERSON|Kowalewski]] v {{COMPANY|Ryanair DAC}} — hearing listed for 14 Jan."),
    ("rl-es-clinic-4179", "Cama 12: Sra. [[PERSON|Inmaculada Pedrosa]]. Cama 14: Sr. [[PERSON|Anselmo Vidaurre]]."),
    ("rl-en-bank-4180", "Sorry [[PERSON|Wiktoria]], the system was down. I'll ping [[PERSON|Callum]] about your card."),
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


def main():
    seen = set()
    for item_id, marked in ITEMS:
        assert item_id not in seen, item_id
        seen.add(item_id)
        n = int(item_id.rsplit("-", 1)[1])
        assert 4001 <= n <= 4199, item_id
        sys.stdout.write(json.dumps(build(item_id, marked), ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
