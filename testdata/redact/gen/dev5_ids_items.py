# Items of realistic-dev5-ids.jsonl (see dev5_ids.py). Fourth round of issue #13: the identifier
# forms the spent second held-out set (realistic-dev4.jsonl) reported as missed, by shape and
# type only, written in new words and in ES/EN/CA/GL/EU: dates of birth in words and ordinals,
# record numbers with letter prefixes and regional health-card codes, foreign plates, IBANs with
# dots and slashes, ES-prefixed NIFs with dots, passports after long phrases, and their decoys
# (sample numbers on forms, file numbers shaped like a DNI, a passport's expiry date).


def define(item, h):
    dni, dni_bad, nie, nss, ccc, iban, ES, group, card, card_bad = (
        h["dni"], h["dni_bad"], h["nie"], h["nss"], h["ccc"], h["iban"], h["ES"], h["group"], h["card"], h["card_bad"])

    # ---- dates of birth in words, ordinals, languages ------------------------------------
    item("rl-es-law-4201", "es", "law",
         "Redacta el poder: comparece D. [[PERSON|Anselmo Quirós Bedia]], nacido el [[DOB|veintiocho de julio de mil novecientos cincuenta y cuatro]], "
         f"con DNI [[DNI|{dni(30418857)}]], en nombre propio. Madrid, a {{{{DATE|diez de noviembre de dos mil veinticinco}}}}.")
    item("rl-es-clinic-4202", "es", "clinic",
         "Paciente [[PERSON|Rocío Almagro]]. Refiere que nació el [[DOB|primero de mayo de 1961]] y que la operaron en {{DATE|2019}}.")
    item("rl-es-bank-4203", "es", "bank",
         "la señora dice q es del [[DOB|4 de julio de 1990]] y q no le llega la tarjeta, q se la manden a la oficina {{OFFICE|0049-1182}}")
    item("rl-es-law-4204", "es", "law",
         "Datos del testigo: [[PERSON|Fermín Arroyo Sanz]], nacido el [[DOB|tercer día de marzo de 1966]], vecino de Soria.")
    item("rl-en-clinic-4205", "en", "clinic",
         "Summary for GP: [[PERSON|Gwen Pryce]], born on [[DOB|the second of June 1974]], attended on {{DATE|12 November 2025}} with chest pain.")
    item("rl-en-bank-4206", "en", "bank",
         "Customer verified: [[PERSON|Rhys Morgan]], date of birth [[DOB|the 1st of March, 1969]], account opened {{DATE|3 May 2021}}.")
    item("rl-en-law-4207", "en", "law",
         "The deponent, [[PERSON|Harriet Cole]], was born on [[DOB|the twenty-first of August 1948]] in Leeds.")
    item("rl-en-clinic-4208", "en", "clinic",
         "pt [[PERSON|maria okafor]] says she was born [[DOB|twelfth of May 1950]], next review {{DATE|3/2/2026}}")
    item("rl-ca-law-4209", "ca", "law",
         "Compareix el senyor [[PERSON|Pere Vilaró i Soler]], nascut a Manresa el [[DOB|vint-i-tres de novembre de mil nou-cents seixanta-cinc]], "
         f"amb DNI [[DNI|{dni(39155027)}]].")
    item("rl-ca-clinic-4210", "ca", "clinic",
         "La pacient [[PERSON|Núria Casals]], nascuda el [[DOB|5 d'octubre de 1955]], ingressa el {{DATE|2 de desembre de 2025}}.")
    item("rl-ca-bank-4211", "ca", "bank",
         "data de naixement del titular: [[DOB|dos de febrer de mil nou-cents vuitanta-vuit]]. Alta al banc: {{DATE|14/01/2020}}.")
    item("rl-gl-law-4212", "gl", "law",
         "Comparece dona [[PERSON|Uxía Pereiro Lema]], que naceu o [[DOB|vinte e un de xaneiro de mil novecentos oitenta]], veciña de Lugo.")
    item("rl-gl-clinic-4213", "gl", "clinic",
         "Paciente [[PERSON|Manuel Outeiral]], nado o [[DOB|catorce de marzo de mil novecentos corenta e sete]]. Consulta o {{DATE|3 de decembro de 2025}}.")
    item("rl-gl-bank-4214", "gl", "bank",
         "o cliente [[PERSON|brais]] dixo que a súa data de nacemento é [[DOB|3 de setembro de 1949]]")
    item("rl-eu-clinic-4215", "eu", "clinic",
         "Gaixoa: [[PERSON|Itziar Goikoetxea]]\nJaiotza data: [[DOB|1977ko abenduaren 2a]]\nKontsulta: {{DATE|2025/12/01}}")
    item("rl-eu-bank-4216", "eu", "bank",
         "bezeroa [[PERSON|Unai]] da, jaiotza urtea: [[DOB|1963]]. kontua {{DATE|2020an}} ireki zuen.")
    item("rl-es-clinic-4217", "es", "clinic",
         "Fecha de nacimiento: [[DOB|trece de diciembre del setenta y dos]]. Alergias: ninguna.")
    item("rl-en-bank-4218", "en", "bank",
         "Caller [[PERSON|Tom Bayliss]], DOB [[DOB|fourth of October, 1958]], card stopped on {{DATE|1 Dec 2025}}.")

    # ---- medical record numbers ------------------------------------------------------------
    item("rl-gl-clinic-4219", "gl", "clinic",
         "a paciente [[PERSON|rosalía]] trae a tarxeta sanitaria [[MRN|TSI RORE 5803120044]] e vive en Vigo")
    item("rl-es-clinic-4220", "es", "clinic",
         "2025-12-01T09:12:44Z INFO citas.sync paciente_id=[[MRN|HCU0041877]] estado=confirmada servicio=trauma build={{VERSION|7.3.1}}")
    item("rl-ca-clinic-4221", "ca", "clinic",
         "[11:02] Infermera: em pots dir el CIP de l'avi?\n[11:03] [[PERSON|Jordi]]: [[MRN|PUMA 0 350211 09 4]]\n[11:03] [[PERSON|Jordi]]: ja t'ho he enviat")
    item("rl-ca-clinic-4222", "ca", "clinic",
         "| Nom | Cognoms | TSI |\n|---|---|---|\n| [[PERSON|Arnau]] | [[PERSON|Puig Mas]] | [[MRN|PUMA 1890514 01]] |\n| [[PERSON|Laia]] | [[PERSON|Roca Vidal]] | [[MRN|ROVI 0920302 00]] |")
    item("rl-eu-clinic-4223", "eu", "clinic",
         "Gaixoa: [[PERSON|Koldo Etxeberria]]\nHK zk.: [[MRN|3311820]]\nOharra: kontrola {{DATE|2026/01/15}}")
    item("rl-eu-clinic-4224", "eu", "clinic",
         "nire ama [[PERSON|Arantxa]] da, Osakidetzako TIS zk. [[MRN|ETAR510923]] du.")
    item("rl-en-clinic-4225", "en", "clinic",
         "| patient | hospital no. | ward |\n|---|---|---|\n| [[PERSON|Ada Finch]] | [[MRN|KH2210934]] | {{REFERENCE|B4}} |\n| [[PERSON|Leo Marsh]] | [[MRN|KH2211870]] | {{REFERENCE|C2}} |")
    item("rl-es-clinic-4226", "es", "clinic",
         "Paciente [[PERSON|Celia Navas]], NHC [[MRN|HUV00734512]], cama {{REFERENCE|312-B}}.")
    item("rl-es-clinic-4227", "es", "clinic",
         "Asturias: el CIPA de la paciente es [[MRN|ASMR 640211 0 7]], pídele cita.")
    item("rl-en-clinic-4228", "en", "clinic",
         "Referral: [[PERSON|Owen Hale]], NHS number [[MRN|485 777 3456]], hospital number [[MRN|RTH0092215]].")

    # ---- plates ----------------------------------------------------------------------------
    item("rl-es-law-4229", "es", "law",
         "El otro vehículo llevaba matrícula francesa [[PLATE|EF-732-HJ]] y el nuestro la [[PLATE|5521 KDT]]. Atestado nº {{CASE|2025/118}}.")
    item("rl-en-law-4230", "en", "law",
         "Client's car, UK reg [[PLATE|YR63 FNZ]], was hit by a van with German plates [[PLATE|HH-AB 1234]].")
    item("rl-es-bank-4231", "es", "bank",
         "seguro del coche: matricula portuguesa [[PLATE|45-LK-88]], titular [[PERSON|Duarte Lopes]]")
    item("rl-ca-law-4232", "ca", "law",
         "el cotxe del senyor té matrícula italiana [[PLATE|AB 123CD]], i la moto la [[PLATE|C-7720-BGS]]")
    item("rl-en-bank-4233", "en", "bank",
         "Car finance: vehicle registration [[PLATE|GT-119-LM]] (French), contract {{REFERENCE|CF-2025-00431}}.")
    item("rl-es-law-4234", "es", "law",
         "vehículo antiguo matrícula [[PLATE|M-7742-ZK]], kennzeichen del alemán [[PLATE|B-MK 3317]]")

    # ---- IBAN, DNI, passport forms -----------------------------------------------------------
    de = iban("DE", "370400440532013000")
    fr = iban("FR", "30006000011234567890189")
    es1 = ES("2100", "4512", "0201234567")
    es2 = ES("0081", "0216", "7300012345")
    item("rl-es-bank-4235", "es", "bank",
         f"ingresa en la cuenta de [[PERSON|Lidia]]: [[IBAN|{group(es1, 4, '.')}]] antes del {{{{DATE|viernes}}}}")
    item("rl-en-bank-4236", "en", "bank",
         f"His German account: [[IBAN|{group(de, 4, '.')}]]; his French one: [[IBAN|{group(fr, 4, ' / ')}]].")
    item("rl-gl-bank-4237", "gl", "bank",
         f"A conta é a [[IBAN|{es2[:4]} / {es2[4:8]} / {es2[8:12]} / {es2[12:14]} / {es2[14:]}]], a nome de [[PERSON|Antía]].")
    item("rl-es-law-4238", "es", "law",
         f"NIF del arrendatario: [[DNI|{dni(51234099, 'ES-{a}.{b}.{c}-{l}')}]]; NIF de la arrendadora: [[DNI|{dni(22870415, 'ES{a}.{b}.{c}{l}')}]].")
    item("rl-en-bank-4239", "en", "bank",
         f"KYC: Spanish tax id [[DNI|{dni(47120933, 'ES {n}{l}')}]] for [[PERSON|Marta Gil]].")
    item("rl-es-law-4240", "es", "law",
         "el pasaporte de la señora alemana que firma es [[PASSPORT|C7X2N4K9T]] y el de su marido [[PASSPORT|CF3H8L1P2]]")
    item("rl-en-law-4241", "en", "law",
         "The Italian buyer's passport, as shown at signing, is [[PASSPORT|YA4417290]].")

    # ---- decoys ----------------------------------------------------------------------------
    item("rl-es-bank-4242", "es", "bank",
         f"el cliente [[PERSON|Iván]] tiene la cuenta [[IBAN|{group(ES('2038', '1010', '6000123456'))}]]; en el folleto sale de ejemplo {{{{CHECKSUM|ES00 1234 5678 0000 0000 0000}}}}")
    item("rl-en-bank-4243", "en", "bank",
         "Form guidance: write your DNI like the sample {{CHECKSUM|12345678B}} and your IBAN like {{CHECKSUM|GB00 BANK 0000 0000 0000 00}}.")
    item("rl-es-law-4244", "es", "law",
         f"Expediente {{{{CASE|{dni_bad(33120877)[:8]}-{dni_bad(33120877)[8]}}}}}: el DNI del cliente es [[DNI|{dni(33120876)}]].")
    item("rl-es-bank-4245", "es", "bank",
         "pasaporte de [[PERSON|Elena Ruiz]]: [[PASSPORT|PAB551023]], caduca el {{DATE|07/2031}}. la tarjeta no la trae")
    item("rl-en-bank-4246", "en", "bank",
         f"The card [[CARD|{group(card('492000123456789'))}]], exp [[CARD_EXP|09/28]]. A gift card {{{{REFERENCE|6035 1100 2233 4410}}}} was also presented.")
    item("rl-en-bank-4247", "en", "bank",
         f'{{"event":"auth","pan":"[[CARD|{card("545454123456789")}]]","exp":"[[CARD_EXP|1027]]","build":"{{{{VERSION|2.4.1}}}}"}}')

    # ---- batch 2 (written after the first batch's rules, run once before any rule for it) ----
    item("rl-es-clinic-4248", "es", "clinic",
         "Pcte. [[MRN|HGU0093377]], varón de 71 años, ingresa por disnea. Control el {{DATE|04/12/2025}}.")
    item("rl-en-clinic-4249", "en", "clinic",
         "Patient: [[MRN|RTX0048812]]\nName: [[PERSON|Gareth Evans]]\nDOB: [[DOB|May the 3rd, 1944]]")
    item("rl-es-bank-4250", "es", "bank",
         f"NIE del titular: [[NIE|{nie('Y', 4412093, '{p}.{n}.{l}')}]], nacido el [[DOB|12 IV 1983]]")
    item("rl-ca-bank-4251", "ca", "bank",
         f"El senyor [[PERSON|Oriol Camps]] té el DNI [[DNI|{dni(47722316, '{a} {b} {c}-{l}')}]] i va néixer el [[DOB|3/V/62]].")
    item("rl-gl-clinic-4252", "gl", "clinic",
         "Paciente [[PERSON|Xurxo Vilas]], data de nac. [[DOB|02-XI-1951]], número de historia clínica [[MRN|CHUAC-0477120]].")
    item("rl-en-law-4253", "en", "law",
         "The claimant (Ms [[PERSON|Aoife Brennan]]), born [[DOB|nineteen sixty-two]], holds Irish passport [[PASSPORT|PX4471203]].")
    item("rl-es-law-4254", "es", "law",
         "comparece doña [[PERSON|Rosa Ibáñez]], con pasaporte colombiano núm. [[PASSPORT|AO548812]] y fecha de nacimiento el [[DOB|9 de noviembre del 88]]")
    item("rl-en-bank-4255", "en", "bank",
         f"transfer to [[IBAN|{group(iban('IT', 'X0542811101000000123456'), 4, '-')}]] for [[PERSON|Giulia Romano]], ref {{{{REFERENCE|INV-2025-0932}}}}")
    item("rl-eu-law-4256", "eu", "law",
         f"[[PERSON|Ane Zubiaurre]], NAN [[DNI|{dni(72455019)}]], [[DOB|1979ko azaroaren 30ean]] jaioa, Donostian bizi da.")
    item("rl-es-clinic-4257", "es", "clinic",
         "| Paciente | NUHSA | F. nac. |\n|---|---|---|\n| [[PERSON|Luis Prieto]] | [[MRN|AN0712345678]] | [[DOB|03/08/1950]] |")
    item("rl-en-clinic-4258", "en", "clinic",
         "Pt [[PERSON|Ken Osei]] (MRN [[MRN|00-48-1177]]) seen in clinic, next appointment {{DATE|14 Jan 2026}}.")
    item("rl-es-bank-4259", "es", "bank",
         "el coche q quiere asegurar es un golf con matricula [[PLATE|8841 hzd]] y el de su hijo [[PLATE|3320-JKL]]")
    item("rl-en-law-4260", "en", "law",
         "Accident report: the lorry ([[PLATE|WX19 OPL]]) struck a parked car, index [[PLATE|LK-442-MZ]], at {{DATE|08:40}}.")
    item("rl-ca-clinic-4261", "ca", "clinic",
         "Pacient: [[PERSON|Montse Prat]]\nCIP: [[MRN|PRMO 0 561130 04 8]]\nData de naixement: [[DOB|trenta de novembre de mil nou-cents cinquanta-sis]]")
    item("rl-es-bank-4262", "es", "bank",
         f"ojo, la cuenta q puso en el formulario es [[IBAN!|ES12 2100 0418 4502 0005 1333]] y el DNI [[DNI!|{dni_bad(51002937)}]], revísalo con él")
    item("rl-en-bank-4263", "en", "bank",
         "Tracking {{REFERENCE|1Z999AA10123456784}} and order {{ORDER|4012 8888 8888 1882}} for [[PERSON|Sam Poole]].")
    item("rl-es-law-4264", "es", "law",
         "Auto {{CASE|123/2025}}. Vistos los autos del procedimiento {{CASE|00123456-K}}, el demandado [[PERSON|Tomás Gil]] con DNI [[DNI|{dni}]].".replace("{dni}", dni(60114482)))
    item("rl-gl-bank-4265", "gl", "bank",
         f"o meu DNI é o [[DNI|{dni(36120455, '{a}.{b}.{c}-{l}')}]] e nacín o [[DOB|vinte e oito de febreiro do 79]]")

    # ---- batch 3 (written after batch 2's rules, run once before any rule for it) ----------
    item("rl-es-bank-4266", "es", "bank",
         f"afiliación a la seguridad social nº [[NSS|{nss(28, 12345678, '{p}/{n}/{c}')}]], trabajador [[PERSON|Marcos Vela]]")
    item("rl-es-law-4267", "es", "law",
         f"el NIE del demandado es [[NIE|{nie('x', 2233145, '{p}-{n}-{l}').lower()}]] y su teléfono [[PHONE|600-123-457]]")
    item("rl-es-bank-4268", "es", "bank",
         f"me dicta el dni letra a letra: [[DNI|{' '.join(dni(45123988))}]]. ok")
    item("rl-en-bank-4269", "en", "bank",
         "Moroccan passport [[PASSPORT|UV1234567]] and Chinese passport [[PASSPORT|E12345678]] for the two directors.")
    item("rl-es-clinic-4270", "es", "clinic",
         "[[PERSON|Yuliia Kravets]], pasaporte ucraniano [[PASSPORT|FE123456]], F.N.: [[DOB|03.05.85]], tel [[PHONE|+380 67 123 4567]]")
    item("rl-en-clinic-4271", "en", "clinic",
         "DOB [[DOB|5th Jan 1980]]; US passport #[[PASSPORT|561048377]]; seen {{DATE|2 Dec 2025}}")
    item("rl-eu-clinic-4272", "eu", "clinic",
         "[[PERSON|Mikel Arana]] [[DOB|1980-05-03an]] jaio zen; TIS: [[MRN|ARMI800503]]")
    item("rl-ca-bank-4273", "ca", "bank",
         f"compte antic (CCC) [[CCC|{ccc('2100', '0418', '0200051332')[:4]} {ccc('2100', '0418', '0200051332')[4:8]} {ccc('2100', '0418', '0200051332')[8:10]} {ccc('2100', '0418', '0200051332')[10:]}]] a nom de [[PERSON|Berta]]")
    item("rl-gl-law-4274", "gl", "law",
         f"o demandado, con pasaporte romanés núm. [[PASSPORT|05123456]] e NIE [[NIE|{nie('Z', 1187342)}]], naceu en [[DOB|1975]]")
    item("rl-es-law-4275", "es", "law",
         "matrícula del turismo: [[PLATE|GC-4521-BK]]; remolque [[PLATE|R-2271-BBF]]. Siniestro {{CASE|SIN-2025-88123}}.")
    item("rl-en-bank-4276", "en", "bank",
         "Please update the DOB on file to [[DOB|07/11/1963]] (was {{DATE|07/11/2023}} by mistake).")
    item("rl-es-clinic-4277", "es", "clinic",
         "Informe: paciente de 54 años (n. [[DOB|14/02/1971]]), NHC [[MRN|0091822]], ingreso el {{DATE|01/12/2025}}.")
    item("rl-ca-law-4278", "ca", "law",
         f"Dades: [[PERSON|Gemma Roig]], DNI [[DNI|{dni(43556712)}]], nascuda el [[DOB|1r de maig de 1979]].")
    item("rl-en-bank-4279", "en", "bank",
         "Sort code and account for [[PERSON|Liam Byrne]]: IBAN [[IBAN|" + group(iban("IE", "AIBK93115212345678")) + "]], BIC {{BIC|AIBKIE2D}}.")
    item("rl-es-bank-4280", "es", "bank",
         f"Código de cliente {{{{REFERENCE|CL-00912874}}}}, póliza {{{{REFERENCE|55100233}}}}, DNI [[DNI|{dni(7451236, '{n7}{l}')}]].")

    # ---- batch 4 (written after batch 3's rules, run once before any rule for it) ----------
    item("rl-es-bank-4281", "es", "bank",
         f"te paso el escaneo: /docs/clientes/escaneo_DNI_[[DNI|{dni(52118830)}]].pdf, de [[PERSON|Lorena]]")
    item("rl-de-bank-4282".replace("de-", "en-"), "en", "bank",
         "German customer [[PERSON|Jonas Weber]], geb. [[DOB|14.03.1977]], Reisepass [[PASSPORT|C4F7H2K9L]].")
    item("rl-es-clinic-4283", "es", "clinic",
         "fecha de nacimiento [[DOB|03 05 1980]], peso 71 kg, TA 120/80")
    item("rl-en-law-4284", "en", "law",
         "French national, passeport n° [[PASSPORT|18AV12345]], born [[DOB|3rd May '79]] in Lyon.")
    item("rl-es-bank-4285", "es", "bank",
         f"D.N.I. nº [[DNI|{dni(12877345, '{a}.{b}.{c} - {l}')}]] y N.S.S. [[NSS|{nss(8, 40123456, '{p} {n} {c}')}]]")
    item("rl-es-law-4286", "es", "law",
         "pasaporte español [[PASSPORT|PAA 482917]] expedido en {{DATE|2019}}")
    item("rl-ca-bank-4287", "ca", "bank",
         "el correu de la clienta és [[EMAIL|marta.soler(arroba)gmail.com]] i el mòbil [[PHONE|+34 622 41 87 90]]")
    item("rl-en-bank-4288", "en", "bank",
         "customer email: [[EMAIL|k.obrien [at] eircom [dot] net]], mobile [[PHONE|+353 87 123 4567]]")
    item("rl-gl-bank-4289", "gl", "bank",
         f"IBAN da clienta: [[IBAN|{ES('2080', '5000', '6130012345')[:4]} {ES('2080', '5000', '6130012345')[4:12]} {ES('2080', '5000', '6130012345')[12:]}]], titular [[PERSON|Sabela]]")
    item("rl-es-clinic-4290", "es", "clinic",
         "Paciente nacida el [[DOB|3-5-1980]]; NHC: [[MRN|HC-2024-118823]]; cita {{DATE|3-12-2025}}")
    item("rl-eu-bank-4291", "eu", "bank",
         f"bezeroaren NANa: [[DNI|{dni(72119034)}]], jaiotze data [[DOB|1969/02/11]]")
    item("rl-en-clinic-4292", "en", "clinic",
         "Amex on file [[CARD|" + (lambda c: c[:4] + " " + c[4:10] + " " + c[10:])(card("37828224631000")) + "]], CID [[CVV|4412]].")
    item("rl-es-bank-4293", "es", "bank",
         "El titular, [[PERSON|Hamza El Idrissi]], NIE [[NIE|" + nie("Y", 3301928, "{p} {n} {l}") + "]], DOB [[DOB|1 Jan 1990]].")

    # ---- batch 5 (look-alikes near this round's cues; run once before any rule for it) ------
    item("rl-es-bank-4294", "es", "bank",
         "el cliente [[PERSON|Rubén]] quiere asegurar su coche, un {{PRODUCT|BMW X5}} de {{DATE|2019}} con matrícula [[PLATE|6612 LMP]]")
    item("rl-en-clinic-4295", "en", "clinic",
         "Patient transferred by ambulance unit {{REFERENCE|AMB-2231}}; NHS number [[MRN|401 023 2137]]; bed {{REFERENCE|4B}}.")
    item("rl-es-clinic-4296", "es", "clinic",
         "NHC pendiente de asignar; la paciente [[PERSON|Encarna Ruiz]] nació en [[DOB|1944]] y trae informe de {{DATE|2019}}.")
    item("rl-en-bank-4297", "en", "bank",
         "Your passport expires on {{DATE|2031-05-01}}; please bring it with the card ending {{REFERENCE|4417}}.")
    item("rl-es-bank-4298", "es", "bank",
         "El recibo del seguro del coche vence el {{DATE|05/04}} y el importe es {{AMOUNT|312,40 €}}.")
    item("rl-es-law-4299", "es", "law",
         "Vehículo implicado: furgoneta de la empresa Transportes Lema SL, CIF {{REFERENCE|B15234567}}, y turismo del cliente [[PLATE|4410 GHT]].")
    item("rl-en-bank-4300", "en", "bank",
         "Car loan for [[PERSON|Nia Hughes]], born [[DOB|3 March 1988]]; loan ref {{REFERENCE|CL-449-TR}}, vehicle on order.")
    item("rl-es-bank-4301", "es", "bank",
         "DNI del titular [[DNI|" + dni(22143987) + "]]; en el formulario de muestra pone {{CHECKSUM|00000000A}}.")
    item("rl-ca-clinic-4302", "ca", "clinic",
         "La pacient [[PERSON|Aina Serra]] (CIP [[MRN|SEAI 0 760622 01 2]]) té cita el {{DATE|12 de gener de 2026}} a les 9.")
    item("rl-en-law-4303", "en", "law",
         "Claim {{CASE|HC-2024-000918}}: the claimant's vehicle, a {{PRODUCT|Ford S-MAX}}, was parked at bay {{REFERENCE|B-12}}.")
    item("rl-es-clinic-4304", "es", "clinic",
         "Cita de la paciente con historia clínica [[MRN|552183]] el {{DATE|3 de marzo de 2026}}; nacida el [[DOB|2 de julio de 1950]].")

    # ---- batch 6 (regional cue words and public codes; run once before any rule for it) -----
    item("rl-ca-clinic-4305", "ca", "clinic",
         "Número d'història clínica: [[MRN|5512873]]. Pacient: [[PERSON|Quim Ferrer]], data de naixement [[DOB|3-4-1951]].")
    item("rl-gl-clinic-4306", "gl", "clinic",
         "Número de historia clínica [[MRN|HC 7781204]]; doente [[PERSON|Carme Novo]], nada o [[DOB|3 de abril de 1950]].")
    item("rl-eu-clinic-4307", "eu", "clinic",
         "Historia klinikoaren zenbakia: [[MRN|1187234]]\nGaixoa: [[PERSON|Josu Ibarra]]\nJaiotze data: [[DOB|1950-04-03]]")
    item("rl-eu-law-4308", "eu", "law",
         "Pasaportea: [[PASSPORT|AB1234567]]; matrikula: [[PLATE|4471 KLM]]; NAN: [[DNI|" + dni(44771203) + "]].")
    item("rl-en-clinic-4309", "en", "clinic",
         "Scottish patient, CHI [[MRN|0101501234]], MRN# [[MRN|12345678]], patient ID: [[MRN|P-0012345]].")
    item("rl-en-bank-4310", "en", "bank",
         "Vehicle finance: number plate [[PLATE|KX70 BFD]], licence plate of the second car [[PLATE|LR17 WTE]].")
    item("rl-es-law-4311", "es", "law",
         "Inmueble con referencia catastral {{REFERENCE|9872023VH5797S0001WX}}, CUPS {{REFERENCE|ES0021000001234567AB}}, propiedad de [[PERSON|Ángel Ribas]], DNI [[DNI|" + dni(50912334) + "]].")
    item("rl-es-law-4312", "es", "law",
         "NIG {{CASE|28079 1 0012345/2025}}; letrada [[PERSON|Paula Sanz]], colegiada {{REFERENCE|ICAM 98123}}.")
    item("rl-en-bank-4313", "en", "bank",
         "Order {{ORDER|EAN 8412345678905}} shipped; customer [[PERSON|Dev Patel]], DOB [[DOB|12/06/1990]], ISBN {{REFERENCE|978-84-376-0494-7}}.")
    item("rl-gl-bank-4314", "gl", "bank",
         "O cliente [[PERSON|Iago]] ten o coche con matrícula [[PLATE|0092 JWR]] e pasaporte n.º [[PASSPORT|PAD772190]].")
    item("rl-ca-bank-4315", "ca", "bank",
         "passaport núm. [[PASSPORT|YB9912044]] de la clienta italiana [[PERSON|Chiara Conti]], nascuda el [[DOB|7 de juliol de 1991]]")
    item("rl-es-clinic-4316", "es", "clinic",
         "Lote de la vacuna {{REFERENCE|L2025-11A}}, caducidad {{DATE|03/2027}}; paciente [[PERSON|Nerea Gil]], SIP [[MRN|12345678]].")

    # ---- batch 7 (core types in chats, JSON, logs and quoted mail; run once before any rule) --
    item("rl-es-bank-4317", "es", "bank",
         "[10:01] Cliente: hola, mi nie es el " + nie("Z", 7712034, "{p}{n}-{l}") .join(["[[NIE|", "]]"]) + "\n[10:02] Agente: gracias, ¿y su fecha de nacimiento?\n[10:02] Cliente: [[DOB|quince del ocho del setenta y siete]]")
    item("rl-en-bank-4318", "en", "bank",
         '{"customer":{"name":"[[PERSON|Priya Shah]]","dob":"[[DOB|1984-07-19]]","passport":"[[PASSPORT|532198774]]","iban":"[[IBAN|' + iban("GB", "NWBK60161331926819") + '"]]}}'.replace('"]]}}', ']]"}}'))
    item("rl-es-clinic-4319", "es", "clinic",
         "> El 2 dic 2025, a las 9:14, [[PERSON|Lucía Torres]] escribió:\n> os paso los datos de mi madre: [[PERSON|Amparo Gil]], dni [[DNI|" + dni(19877345) + "]], nacida el [[DOB|1/2/1941]], tarjeta sanitaria [[MRN|GLAM410201]]")
    item("rl-ca-bank-4320", "ca", "bank",
         f"titular;dni;compte\n[[PERSON|Jordi Puig]];[[DNI|{dni(40122987)}]];[[IBAN|{ES('2100', '3001', '0123456789')}]]")
    item("rl-en-clinic-4321", "en", "clinic",
         "2025-12-01 10:22:11 INFO triage patient=[[MRN|RJZ4410923]] dob=[[DOB|1956-02-11]] nhs=[[MRN|9434765919]] bay={{REFERENCE|A3}}")
    item("rl-gl-bank-4322", "gl", "bank",
         "chamou o cliente dende o [[PHONE|+351 912 345 678]], di que o seu correo é [[EMAIL|xoan.pena@sapo.pt]] e a conta [[IBAN|" + group(iban("PT", "000201231234567890154")) + "]]")
    item("rl-eu-bank-4323", "eu", "bank",
         f"Bezeroa: [[PERSON|Maite Etxeberria]]. NAN zenbakia: [[DNI|{dni(30678124, '{a}.{b}.{c}-{l}')}]]. Gizarte Segurantza: [[NSS|{nss(48, 10203040, '{p}/{n}/{c}')}]].")
    item("rl-es-law-4324", "es", "law",
         "El arrendatario abonará la renta en la cuenta [[IBAN|" + group(ES("0182", "1234", "0201234567")) + "]] titularidad de D. [[PERSON|Marcos Ruiz]], con pasaporte [[PASSPORT|XDB331209]], domiciliado en {{STREET_GENERIC|la calle de su elección}}.")
    item("rl-en-bank-4325", "en", "bank",
         "card no: [[CARD|" + group(card("453201511283036"), 4, "-") + "]] exp [[CARD_EXP|11/2027]] security code [[CVV|874]], cardholder [[PERSON|Tom Reed]]")
    item("rl-es-clinic-4326", "es", "clinic",
         "Datos: [[PERSON|Aurora Vidal]] | [[DOB|05/11/1939]] | NHC [[MRN|778123]] | tlf [[PHONE|965 12 34 56]] | ingreso {{DATE|01/12/2025}}")
    item("rl-en-law-4327", "en", "law",
         "Witness statement of [[PERSON|Sean Murphy]] (date of birth [[DOB|14/02/1981]]; Irish passport no. [[PASSPORT|PA1234567]]; mobile [[PHONE|+353 86 765 4321]]).")
    item("rl-ca-clinic-4328", "ca", "clinic",
         "nen de 3 anys, [[PERSON|Pau]], nascut el [[DOB|2 de gener del 2022]], CIP [[MRN|FEPA 1220102 00]], mare [[PERSON|Laia Ferrer]] tel. [[PHONE|677 88 99 00]]")
