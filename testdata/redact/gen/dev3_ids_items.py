# Items of realistic-dev3-ids.jsonl (see dev3_ids.py). Written for the identifier, date-of-birth,
# card, phone and e-mail forms that issue #13 lists, in new words and in ES/EN/CA/GL/EU.


def define(item, h):
    dni, dni_bad, nie, nss, ccc, iban, ES, group, card, card_bad = (
        h["dni"], h["dni_bad"], h["nie"], h["nss"], h["ccc"], h["iban"], h["ES"], h["group"], h["card"], h["card_bad"])

    # ---- dates of birth: cue in a question, answer some lines later -----------------------
    item("rl-es-bank-2301", "es", "bank",
         "Transcripción del chat:\n[09:12] Agente [[PERSON|Noelia]]: Para verificar, dígame su DNI y su fecha de nacimiento, por favor.\n"
         f"[09:13] Cliente: vale\n[09:13] Cliente: [[DNI|{dni(52871934)}]]\n[09:14] Cliente: [[DOB|17.09.1981]]\n"
         "[09:14] Agente [[PERSON|Noelia]]: Perfecto, ya le veo. El recibo del {{DATE|02.03.2025}} está devuelto.")
    item("rl-en-bank-2302", "en", "bank",
         "Call notes. I asked the caller for her date of birth and postcode.\nCaller: hang on\n"
         "Caller: it's [[DOB|1979-11-23]]\nCaller: and the postcode is in the letter\n"
         "Payment of {{AMOUNT|£240.00}} due on {{DATE|2025-04-01}}.")
    item("rl-ca-clinic-2303", "ca", "clinic",
         "Recepció: Em pot dir la data de naixement del nen?\nMare: sí, un moment\n"
         "Mare: [[DOB|09/06/2014]]\nRecepció: Gràcies, li dono hora per al {{DATE|14/03/2025}}.")
    item("rl-gl-clinic-2304", "gl", "clinic",
         "Admisión: Cal é a súa data de nacemento?\nPaciente: [[DOB|3 de xullo de 1958]]\n"
         "Admisión: Ten cita o {{DATE|20 de marzo}} ás 10:30.")
    # ---- dates of birth in words with "del" -----------------------------------------------
    item("rl-es-clinic-2305", "es", "clinic",
         "Llamada de una madre: la niña es [[PERSON|Candela]], nacida el [[DOB|veinte del seis del quince]], "
         "y tiene fiebre desde el {{DATE|lunes}}.")
    item("rl-es-bank-2306", "es", "bank",
         "el señor dice que su fecha de nacimiento es el [[DOB|tres del once del sesenta y dos]] pero en el sistema pone otra cosa, "
         "le digo que pase por la oficina el {{DATE|jueves}}")
    item("rl-es-clinic-2307", "es", "clinic",
         "Paciente: [[PERSON|Rufino Alcaraz]]. Fecha de nacimiento: [[DOB|uno del uno del cuarenta y nueve]]. "
         "Viene por control de tensión; próxima revisión el {{DATE|12/05/2025}}.")
    # ---- Basque: date then cue ---------------------------------------------------------------
    item("rl-eu-clinic-2308", "eu", "clinic",
         "Gaixoa [[PERSON|Itziar Olaizola]] da, [[DOB|1990eko maiatzaren 21ean]] jaioa. Kontsulta {{DATE|2025eko martxoaren 3an}} izan zen.")
    item("rl-eu-bank-2309", "eu", "bank",
         "Bezeroa: [[PERSON|Koldo Etxeberria]], [[DOB|1967ko urriaren 2an]] jaio zen Tolosan. Kontua {{DATE|2003ko ekainaren 10ean}} ireki zuen.")
    item("rl-eu-clinic-2310", "eu", "clinic",
         "Resumen: paciente [[PERSON|Maite Zubizarreta]], jaiotze data [[DOB|1975/02/14]], alergia a penicilina.")
    # ---- two-digit years ---------------------------------------------------------------------
    item("rl-en-clinic-2311", "en", "clinic",
         "Triage: older gentleman, [[PERSON|Desmond]], says he was born in [[DOB|'38]] and lives alone. "
         "Seen at {{DATE|14:20}}.")
    item("rl-en-clinic-2312", "en", "clinic",
         "She told the nurse she's a [[DOB|'52]] baby and has no papers with her. Ward round at 9.")
    item("rl-ca-bank-2313", "ca", "bank",
         "La clienta, la [[PERSON|Montserrat]], diu que és del [[DOB|'61]] i que vol treure el pla de pensions.")
    item("rl-gl-bank-2314", "gl", "bank",
         "O cliente [[PERSON|Xosé Manuel]] naceu no [[DOB|1957]] en Lugo e quere cambiar a conta.")
    # ---- other date of birth forms -----------------------------------------------------------
    item("rl-en-law-2315", "en", "law",
         "Witness statement of [[PERSON|Harold Pym]] (b. [[DOB|14/02/1949]]), taken on {{DATE|3 March 2025}} under {{LAW|section 9 of the Criminal Justice Act 1967}}.")
    item("rl-en-clinic-2316", "en", "clinic",
         "Referral: [[PERSON|Nia Okafor]], born on the [[DOB|21st of June, 1986]], seen on {{DATE|the 4th of March}}.")
    item("rl-es-law-2317", "es", "law",
         "COMPARECE: Don [[PERSON|Evaristo Llorente Pina]], mayor de edad, nacido en Teruel el día [[DOB|treinta de abril de mil novecientos cincuenta y cinco]], "
         f"con DNI [[DNI|{dni(18421736)}]]. Escritura otorgada el {{{{DATE|veinte de enero de dos mil veinticinco}}}}.")
    item("rl-ca-clinic-2318", "ca", "clinic",
         "Pacient: [[PERSON|Pol Vidal]], nascut el [[DOB|2-XI-1993]], ingressa el {{DATE|5-III-2025}} per apendicitis.")
    item("rl-es-bank-2319", "es", "bank",
         "nombre,apellidos,dni,nacimiento,alta\n"
         f"[[PERSON|Lidia]],[[PERSON|Ferrán Ros]],[[DNI|{dni(47382910)}]],[[DOB|1984-03-30]],{{{{DATE|2019-06-01}}}}\n"
         f"[[PERSON|Óscar]],[[PERSON|Pujante Gil]],[[DNI|{dni(23918475)}]],[[DOB|1990-12-07]],{{{{DATE|2021-02-15}}}}")
    item("rl-en-bank-2320", "en", "bank",
         "KYC form: Full name: [[PERSON|Priya Raman]] | Date of Birth: [[DOB|07 Aug 1988]] | Account opened: {{DATE|12 Jan 2024}}")
    # ---- DNI / NIE forms ------------------------------------------------------------------------
    item("rl-es-bank-2321", "es", "bank",
         f"El cliente me ha dado este DNI y el programa lo rechaza por la letra: [[DNI!|{dni_bad(31874962)}]]. ¿Se lo pido otra vez?")
    item("rl-en-bank-2322", "en", "bank",
         f"Spanish ID card number given as [[DNI!|{dni_bad(60218374)}]] — the check letter looks wrong, please confirm with the customer. Ref {{{{REFERENCE|KYC-20931}}}}.")
    item("rl-ca-law-2323", "ca", "law",
         f"El DNI de la part demandant, [[DNI|{dni(4182736, '{n7}-{l}')}]], no coincideix amb el de la demanda. Procediment {{{{CASE|412/2024}}}}.")
    item("rl-es-law-2324", "es", "law",
         f"Datos del arrendatario: NIF [[DNI|{dni(71293846, '{a}.{b}.{c}-{l}')}]], NIE del avalista [[NIE|{nie('Y', 4829173, '{p}-{n}-{l}')}]]. "
         "Contrato de {{DATE|1 de febrero de 2025}}, renta {{AMOUNT|850 €}}.")
    item("rl-gl-bank-2325", "gl", "bank",
         f"O titular ten NIE [[NIE|{nie('x', 3918274, '{p}{n}{l}').lower()}]] e o cotitular DNI [[DNI|{dni(33281947).lower()}]]. Pedido {{{{ORDER|PED-44821}}}}.")
    item("rl-es-bank-2326", "es", "bank",
         f"Factura a nombre de la empresa: NIF {{{{REFERENCE|B-23456780}}}}. El apoderado, [[PERSON|Fermín]], con DNI [[DNI|{dni(29384716, '{n} {l}')}]].")
    # ---- NSS -------------------------------------------------------------------------------------
    item("rl-es-bank-2327", "es", "bank",
         f"Para la pensión necesito el número de la Seguridad Social: [[NSS|{nss(28, 10293847, '{p}/{n}/{c}')}]]. Expediente {{{{CASE|EXP-2025-00318}}}}.")
    item("rl-ca-clinic-2328", "ca", "clinic",
         f"Número d'afiliació a la Seguretat Social: [[NSS|{nss(8, 41827364, '{p}-{n}{c}')}]]. Mútua: {{{{COMPANY|Asepeyo}}}}.")
    item("rl-en-law-2329", "en", "law",
         f"Her Spanish social security number is [[NSS|{nss(46, 12938475, '{p} {n4a} {n4b} {c}')}]], per the payslip of {{{{DATE|February 2025}}}}.")
    # ---- passports -----------------------------------------------------------------------------
    item("rl-es-bank-2330", "es", "bank",
         "alta de dos clientes chinos, pasaportes [[PASSPORT|EK3948271]] y [[PASSPORT|E72819364]], el marido se llama [[PERSON|Zhang Wei]]")
    item("rl-en-law-2331", "en", "law",
         "Passport numbers for the two buyers: [[PASSPORT|548213907]] and [[PASSPORT|561027384]] (both British). Completion on {{DATE|28 March 2025}}.")
    item("rl-en-bank-2332", "en", "bank",
         "Customer: Mr [[PERSON|Callum Reid]] ([[PASSPORT|529184736]]), Scottish, opening a non-resident account. Branch code {{REFERENCE|0182-5521}}.")
    item("rl-es-law-2333", "es", "law",
         "Comparecen los señores [[PERSON|Dubois]], de nacionalidad francesa, con pasaportes números [[PASSPORT|19AB48213]], [[PASSPORT|20CK19384]] y [[PASSPORT|18FD73920]].")
    item("rl-ca-bank-2334", "ca", "bank",
         "La clienta és italiana, passaport [[PASSPORT|YA4829173]], i el seu marit alemany, passaport [[PASSPORT|C4J8X2T91]].")
    item("rl-es-bank-2335", "es", "bank",
         "Cliente marroquí: pasaporte n.º [[PASSPORT|GH4829173]], tarjeta de residencia en trámite. Cita en extranjería el {{DATE|7 de abril}}.")
    item("rl-gl-law-2336", "gl", "law",
         "A compradora é portuguesa, co pasaporte [[PASSPORT|P482917]], e o vendedor ucraíno co pasaporte [[PASSPORT|FK384920]].")
    # ---- plates ---------------------------------------------------------------------------------
    item("rl-es-law-2337", "es", "law",
         "Siniestro: el vehículo asegurado, matrícula [[PLATE|4829 LKM]], fue golpeado por otro con placa [[PLATE|B-3817-XZ]]. Póliza {{REFERENCE|POL-88213}}.")
    item("rl-ca-law-2338", "ca", "law",
         "El cotxe del client té la matrícula [[PLATE|7392-JHT]] i la moto [[PLATE|C1928BCD]]? No, la moto és [[PLATE|2281 MRX]]. Sinistre {{CASE|SIN-2025-4412}}.")
    # ---- MRN -------------------------------------------------------------------------------------
    item("rl-en-clinic-2339", "en", "clinic",
         "Discharge summary for [[PERSON|Ellen Marsh]], NHS no. [[MRN|943 476 5919]], hospital number [[MRN|RX4829173]]. Follow-up in {{DATE|six weeks}}.")
    item("rl-ca-clinic-2340", "ca", "clinic",
         "Pacient amb CIP [[MRN|VIPO 0480312009]] i número d'història clínica [[MRN|3948271]]. Servei: {{INSTITUTION|Hospital del Mar}}.")
    item("rl-eu-clinic-2341", "eu", "clinic",
         "TIS zenbakia: [[MRN|ARR 81920374]]. Historia klinikoa: [[MRN|00938271]]. {{INSTITUTION|Osakidetza}}.")
    # ---- IBAN / CCC -----------------------------------------------------------------------------
    e1 = ES("2100", "0813", "6101234567")
    item("rl-es-bank-2342", "es", "bank",
         f"Me pasa la cuenta así: [[IBAN|ES {e1[2:4]} {group(e1[4:])}]] para domiciliar la nómina, {{{{AMOUNT|1.850,00 €}}}} al mes.")
    e2 = ES("0049", "1500", "0512345678")
    item("rl-es-bank-2343", "es", "bank",
         f"Cuenta para el reintegro:\n[[IBAN|{group(e2)[:17]}\n{group(e2)[17:]}]]\nTitular [[PERSON|Gonzalo]].")
    e3 = ES("0081", "0200", "1234509876")
    item("rl-ca-bank-2344", "ca", "bank",
         f"El compte antic de la llibreta és [[CCC|{e3[4:8]}-{e3[8:12]}-{e3[12:14]}-{e3[14:]}]] i el nou IBAN [[IBAN|{e3.lower()}]].")
    e4 = ES("2080", "0300", "8712345001")
    item("rl-gl-bank-2345", "gl", "bank",
         f"Conta vella: [[CCC|{e4[4:8]} {e4[8:12]} {e4[12:14]} {e4[14:]}]] (Abanca). Referencia {{{{REFERENCE|RC-2025-118}}}}.")
    de = iban("DE", "37040044" + "0532013111")
    fr = iban("FR", "20041010050500013M02606")
    nl = iban("NL", "INGB0001234567")
    be = iban("BE", "539007547034")
    pl = iban("PL", "109010140000071219812874")
    item("rl-en-bank-2346", "en", "bank",
         f"Beneficiaries for the batch: [[IBAN|{group(de)}]] (Germany), [[IBAN|{nl}]] (Netherlands) and [[IBAN|{group(pl)}]] (Poland). "
         "Message type {{REFERENCE|MT103}}, ref {{REFERENCE|FT25071XKQ82}}, BIC {{BIC|COBADEFFXXX}}.")
    item("rl-es-bank-2347", "es", "bank",
         f"Transferencia SWIFT {{{{REFERENCE|MT202}}}} ref {{{{REFERENCE|TRX25A0093KL}}}} a la cuenta belga [[IBAN|{group(be)}]] del hijo.")
    # ---- cards, expiry, CVV ---------------------------------------------------------------------
    c1 = card_bad("454713229384756")
    item("rl-es-bank-2348", "es", "bank",
         f"El cliente me ha leído la tarjeta por teléfono, creo que se ha equivocado en un dígito: [[CARD!|{group(c1)}]], caduca [[CARD_EXP|08/27]].")
    c2 = card("537412983746192")
    item("rl-en-bank-2349", "en", "bank",
         f"Card [[CARD|{group(c2)}]] expiring [[CARD_EXP|11/26]], CVC2 [[CVV|318]], blocked after three failed PINs. Case {{{{CASE|FR-20931}}}}.")
    c3 = card("491628374019283")
    c4 = card("552918374620193")
    item("rl-es-bank-2350", "es", "bank",
         "pan,vencimiento,comercio,importe\n"
         f"[[CARD|{c3}]],[[CARD_EXP|0928]],{{{{COMPANY|ZARA}}}},{{{{AMOUNT|59.95}}}}\n"
         f"[[CARD|{c4}]],[[CARD_EXP|0327]],{{{{COMPANY|RENFE}}}},{{{{AMOUNT|112.40}}}}")
    c5 = card("37291834729183")  # Amex 15
    item("rl-en-bank-2351", "en", "bank",
         f"Amex, full number [[CARD|{c5[:4]} {c5[4:10]} {c5[10:]}]], expires end of [[CARD_EXP|04/2028]], 4-digit CID [[CVV|7731]].")
    c6 = card("402918374629183")
    item("rl-ca-bank-2352", "ca", "bank",
         f"La targeta [[CARD|{group(c6)}]] caduca el [[CARD_EXP|05/27]] i el codi CVV2 és [[CVV|904]].")
    c7 = card("522918374601928")
    item("rl-gl-bank-2353", "gl", "bank",
         f"Tarxeta [[CARD|{group(c7, sep='-')}]], data de caducidade [[CARD_EXP|12/29]], código de seguridade [[CVV|271]].")
    c8 = card("453918273640192")
    item("rl-eu-bank-2354", "eu", "bank",
         f"Txartela: [[CARD|{group(c8)}]], iraungitze data [[CARD_EXP|02/28]], segurtasun kodea [[CVV|660]].")
    item("rl-es-bank-2355", "es", "bank",
         "Aviso: el número de pedido {{ORDER|4000 1234 5678 9011}} no es una tarjeta, es el código de la tienda online. "
         "Importe {{AMOUNT|49,90 €}} el {{DATE|12/03}}.")
    # ---- phones ---------------------------------------------------------------------------------
    item("rl-en-law-2356", "en", "law",
         "Client contact details: home [[PHONE|01632 960 781]], mobile [[PHONE|07700 900 512]], office switchboard {{OFFICE|020 7946 0000}} is the firm's.")
    item("rl-es-bank-2357", "es", "bank",
         "El cliente francés deja su móvil [[PHONE|06 12 48 93 27]] y el de su mujer [[PHONE|+33 7 81 29 40 55]].")
    item("rl-es-bank-2358", "es", "bank",
         "Teléfonos: Marruecos [[PHONE|+212 661 234 578]], Portugal [[PHONE|+351 912 483 917]], Rumanía [[PHONE|0721 348 912]].")
    item("rl-en-bank-2359", "en", "bank",
         "US customer, cell [[PHONE|415-555-0172]], work [[PHONE|(212) 555-0148]]. Wire amount {{AMOUNT|USD 3,200.00}}.")
    item("rl-en-bank-2360", "en", "bank",
         "German client, Handy [[PHONE|0151 2384 9172]], Festnetz [[PHONE|+49 30 8912 3741]]. IBAN to follow.")
    item("rl-ca-bank-2361", "ca", "bank",
         "Telèfon de contacte: [[PHONE|(+34) 638 29 17 40]], o bé el fix [[PHONE|93.418.27.36]]. Horari d'oficina de 8:30 a 14:00.")
    item("rl-es-bank-2362", "es", "bank",
         "Atención al cliente {{OFFICE|900 10 20 30}} (gratuito). El cliente deja el [[PHONE|0034 622 918 374]].")
    # ---- e-mails --------------------------------------------------------------------------------
    item("rl-es-bank-2363", "es", "bank",
         "me dicta el correo: [[EMAIL|rocio punto beltran arroba hotmail punto com]], todo junto y en minúsculas")
    item("rl-en-bank-2364", "en", "bank",
         "Reply to [[EMAIL|liam.doherty [at] outlook [dot] ie]] once the transfer clears.")
    item("rl-ca-bank-2365", "ca", "bank",
         "El seu correu és [[EMAIL|marta.roig(arroba)gmail(punt)com]], no el de la feina.")
    item("rl-eu-bank-2366", "eu", "bank",
         "Posta elektronikoa: [[EMAIL|ane.goikoetxea AT euskalnet DOT net]]. Bulegoko helbidea {{OFFICE|info@kutxabank.es}} da.")
    item("rl-es-bank-2367", "es", "bank",
         "Para: {{OFFICE|atencion.cliente@bancosantander.es}}\nCC: {{OFFICE|reclamaciones@bankinter.com}}\n"
         "De: [[EMAIL|paco.menendez71@gmail.com]]\nAsunto: comisión indebida")
    # ---- decoys of ID shapes --------------------------------------------------------------------
    item("rl-es-law-2368", "es", "law",
         "Según el {{LAW|artículo 1902 del Código Civil}} y la {{LAW|Ley 1/2000}}, de {{DATE|7 de enero}}, el recurso {{CASE|1234/2023}} "
         "fue resuelto el {{DATE|15/09/2024}}. Versión del documento {{VERSION|2.10.4.1}}.")
    item("rl-en-clinic-2369", "en", "clinic",
         "Lab batch {{REFERENCE|48213907}} processed on {{DATE|2025-03-04}}; analyser firmware {{VERSION|10.2.0.7}}; "
         "patient [[PERSON|Ruth Abara]] (DOB [[DOB|30.08.1971]]).")
    item("rl-es-bank-2370", "es", "bank",
         "Recibo de luz: contrato {{REFERENCE|12345678Z9}}, factura {{INVOICE|FE25-00918274}}, importe {{AMOUNT|73,12 €}}, "
         "vencimiento {{DATE|05/04/2025}}. El cliente es [[PERSON|Anselmo]] y su NIE es [[NIE|" + nie("Z", 1928374) + "]].")
    # ---- precision: dates and numbers near the cues that are not personal data -----------------
    item("rl-es-clinic-2371", "es", "clinic",
         "Paciente [[PERSON|Ulises]] sin documentación. Fecha de nacimiento: no consta. Ingreso el {{DATE|03/03/2025}} por caída.")
    item("rl-en-bank-2372", "en", "bank",
         "Agent: Could you confirm your date of birth?\nCustomer: sorry, I don't have it to hand\n"
         "Customer: can we do it at the appointment on {{DATE|12/04/2025}}?\nAgent: of course.")
    item("rl-es-bank-2373", "es", "bank",
         "Importe del préstamo: {{AMOUNT|612.345.678 €}} (operación sindicada). Cajero con versión {{VERSION|4.12.0.3}} y firmware {{VERSION|v2.3.1.8}}.")
    item("rl-es-bank-2374", "es", "bank",
         "Recibo SEPA del gimnasio: identificador del acreedor {{REFERENCE|ES45ZZZB23456780}}, referencia del mandato {{REFERENCE|MND-2024-0912}}, "
         "número de seguimiento del envío {{REFERENCE|5432 1098 7654 3211}}.")
    item("rl-en-law-2375", "en", "law",
         "Under {{LAW|Article 6(1)(b) GDPR}} and {{LAW|Regulation (EU) 2016/679}}, the claim {{CASE|HC-2024-000918}} was listed for {{DATE|14.05.2025}}.")
    item("rl-ca-bank-2376", "ca", "bank",
         "Client: [[PERSON|Jordi Puigdomènech]], data de naixement [[DOB|12.05.1969]]. Compte obert el {{DATE|12.05.2001}}, targeta emesa el {{DATE|03/2023}}.")
    item("rl-gl-clinic-2377", "gl", "clinic",
         "Paciente: [[PERSON|Uxía Rodríguez Barreiro]]\nData de nacemento:\n[[DOB|14-VIII-1962]]\nData de ingreso: {{DATE|02-III-2025}}")
    item("rl-en-clinic-2378", "en", "clinic",
         "Patient list\n- [[PERSON|Tomasz Nowak]], [[DOB|1968-02-11]], bed 4\n- [[PERSON|Agnieszka Wójcik]], [[DOB|1974-09-30]], bed 6\nAudit date {{DATE|2025-03-05}}.")
    item("rl-es-law-2379", "es", "law",
         "Demandante: [[PERSON|Begoña Arrieta]], DNI [[DNI|" + dni(16283947) + "]], nacida en Bilbao el [[DOB|5/IX/1972]]. Sentencia de {{DATE|12/02/2024}}.")
    item("rl-eu-bank-2380", "eu", "bank",
         "Bezeroaren NANa: [[DNI|" + dni(72918364) + "]]. Telefonoa: [[PHONE|688 29 17 40]]. Posta: [[EMAIL|iker.agirre@gmail.com]].")

    # ======== second batch (2381-): the same forms in other words, written after the first
    # batch's rules and run before any rule for them =============================================
    item("rl-es-clinic-2381", "es", "clinic",
         "Paciente [[PERSON|Herminia Quesada]], f. nacimiento: [[DOB|3 abr. 1941]], viuda, vive con su hija. Control el {{DATE|martes}}.")
    item("rl-en-clinic-2382", "en", "clinic",
         "Pt [[PERSON|Gordon Fyfe]], year of birth [[DOB|1939]], lives alone, seen in clinic {{DATE|03/03/2025}}.")
    item("rl-es-bank-2383", "es", "bank",
         "Me dice que su año de nacimiento es el [[DOB|1962]] y que el resto de datos los trae el {{DATE|lunes}}.")
    item("rl-ca-clinic-2384", "ca", "clinic",
         "Any de naixement: [[DOB|1958]]. Data de la visita: {{DATE|04/03/2025}}. Pacient: [[PERSON|Remei Casals]].")
    item("rl-en-bank-2385", "en", "bank",
         "Agent: and your date of birth?\nCustomer: [[DOB|3rd April 79]]\nAgent: thanks, and the first line of the address?")
    item("rl-es-bank-2386", "es", "bank",
         "- Agente: ¿Fecha de nacimiento del titular?\n- Cliente: pues es el [[DOB|12 de octubre del 50]]\n- Agente: gracias")
    item("rl-eu-bank-2387", "eu", "bank",
         "Bezeroa [[PERSON|Ander Urrutia]] da, jaiotze-data: [[DOB|1981-07-14]]. Kontu berria {{DATE|2025-02-20}}an ireki zuen.")
    item("rl-gl-clinic-2388", "gl", "clinic",
         "A paciente, [[PERSON|Sabela]], naceu o [[DOB|14 de febreiro de 1990]] en Vigo; ingreso o {{DATE|1 de marzo}}.")
    item("rl-en-law-2389", "en", "law",
         "The deceased, [[PERSON|Margaret Ellis]] (born [[DOB|April 3rd, 1931]]; died {{DATE|January 9th, 2025}}), left a will dated {{DATE|June 2, 2019}}.")
    item("rl-ca-bank-2390", "ca", "bank",
         "El senyor [[PERSON|Joan Riera]] va néixer l'any [[DOB|1947]] i vol cancel·lar el dipòsit el {{DATE|28/02/2025}}.")
    item("rl-es-law-2391", "es", "law",
         f"Se persona [[PERSON|Aurelio Santamaría]], con NIF [[DNI!|{dni_bad(50821937)}]] (según él, la letra del documento es correcta), en el procedimiento {{{{CASE|88/2025}}}}.")
    item("rl-en-bank-2392", "en", "bank",
         f"The NIE on the form reads [[NIE|{nie('Y', 2938174, '{p} {n} {l}')}]]; the customer's DNI number is [[DNI|{dni(3918274, '{n7}{l}')}]].")
    item("rl-es-bank-2393", "es", "bank",
         f"log: GET /clientes?dni=[[DNI|{dni(44182937)}]]&tipo=alta 200 OK ({{{{REFERENCE|req-8812}}}})")
    item("rl-en-law-2394", "en", "law",
         "Purchaser: Mr [[PERSON|Ian Fraser]], passport no. [[PASSPORT|539201847]] (UK), and Ms [[PERSON|Carla Fraser]], passport no. [[PASSPORT|540918273]].")
    item("rl-es-bank-2395", "es", "bank",
         "Documentación recibida: nº de pasaporte: [[PASSPORT|PAB482917]] (español) y Reisepass [[PASSPORT|C5T7X9K21]] de la esposa, alemana.")
    item("rl-ca-law-2396", "ca", "law",
         "Compareix la senyora [[PERSON|Ioana Popescu]], de nacionalitat romanesa, amb passaport número [[PASSPORT|051829374]].")
    item("rl-en-clinic-2397", "en", "clinic",
         "Tourist patient [[PERSON|Pieter de Vries]], Dutch, [[PASSPORT|NX4F81K27]] (passport), insurance ref {{REFERENCE|EHIC-NL-2291}}.")
    item("rl-es-clinic-2398", "es", "clinic",
         "Historia clínica n.º [[MRN|1182736]]. Paciente derivada por su MAP. Nº SIP [[MRN|12938475]]. {{INSTITUTION|Hospital La Fe}}.")
    item("rl-en-clinic-2399", "en", "clinic",
         "MRN: [[MRN|A2918374]] | NHS number: [[MRN|485 777 3456]] | Ward: {{INSTITUTION|St Thomas' Hospital}}")
    item("rl-ca-clinic-2400", "ca", "clinic",
         "Codi CIP: [[MRN|GAMO1940312008]]. Número d'afiliació a la Seguretat Social [[NSS|" + nss(8, 29183746) + "]].")
    e5 = ES("2100", "0418", "4502000513")
    item("rl-es-bank-2401", "es", "bank",
         f"IBAN: [[IBAN|{e5[:4]}-{e5[4:8]}-{e5[8:12]}-{e5[12:16]}-{e5[16:20]}-{e5[20:]}]], titular [[PERSON|Casimiro]].")
    e6 = ES("0182", "2370", "4102016871")
    item("rl-es-bank-2402", "es", "bank",
         f"pásame a esta: [[IBAN|{e6[:4].lower()} {e6[4:8]} {e6[8:12]} {e6[12:14]} {e6[14:]}]] gracias")
    it_ = iban("IT", "X0542811101000000123456")
    gb = iban("GB", "NWBK60161331926819")
    ch = iban("CH", "00762011623852957")
    item("rl-en-bank-2403", "en", "bank",
         f"Incoming from Italy [[IBAN|{group(it_)}]], outgoing to the UK [[IBAN|{gb}]] and Switzerland [[IBAN|{group(ch)}]]. BIC {{{{BIC|UNCRITMMXXX}}}}.")
    e7 = ES("0049", "6721", "3298765432")
    item("rl-ca-bank-2404", "ca", "bank",
         f"Número de compte (antic): [[CCC|{e7[4:8]} {e7[8:12]} {e7[12:14]} {e7[14:]}]]. Import {{{{AMOUNT|1.250,00 €}}}}.")
    e8 = ES("2038", "1010", "7060012345")
    item("rl-gl-bank-2405", "gl", "bank",
         f"IBAN da conta:\n[[IBAN|{group(e8)[:14]}\n{group(e8)[15:]}]]\nTitular: [[PERSON|Breogán Lema]].")
    c9 = card_bad("401288880188188")
    item("rl-en-bank-2406", "en", "bank",
         f"Customer read out his card as [[CARD!|{group(c9, sep='-')}]] but I think he misread a digit; exp [[CARD_EXP|03/2027]], cvv [[CVV|442]].")
    c10 = card("455673829102938")
    item("rl-es-bank-2407", "es", "bank",
         f"Tarjeta: [[CARD|{c10}]]\nVencimiento: [[CARD_EXP|11-26]]\nCVV: [[CVV|019]]\nTitular: [[PERSON|Nicanor Vela]]")
    c11 = card("510510029384756")
    item("rl-es-bank-2408", "es", "bank",
         f"la tarjeta es la [[CARD|{group(c11)}]], válida hasta [[CARD_EXP|09/26]] y los tres números de detrás son [[CVV|883]]")
    c12 = card("601100293847561")
    item("rl-ca-bank-2409", "ca", "bank",
         f"Targeta de crèdit [[CARD|{group(c12)}]], MM/AA [[CARD_EXP|07/28]], codi de seguretat (CVC) [[CVV|514]].")
    item("rl-en-bank-2410", "en", "bank",
         "Dispute: parcel tracking {{REFERENCE|4021 8876 5543 2210}} (not a card), refund of {{AMOUNT|€84.50}} to the card on file.")
    item("rl-en-bank-2411", "en", "bank",
         "Italian customer, cellulare [[PHONE|347 123 4567]], home [[PHONE|+39 06 4829 1736]].")
    item("rl-es-bank-2412", "es", "bank",
         "La clienta holandesa deja el móvil [[PHONE|06-41829374]] y el fijo de Bélgica [[PHONE|0470 12 34 56]].")
    item("rl-en-law-2413", "en", "law",
         "Contact: [[PHONE|+44 (0)20 7946 0123]] (direct line of Ms [[PERSON|Okoro]]).")
    item("rl-es-bank-2414", "es", "bank",
         "El cliente argentino, celular [[PHONE|11 4567-8912]], y su hermano en México [[PHONE|55 1234 5678]].")
    item("rl-es-bank-2415", "es", "bank",
         "Nº de póliza {{REFERENCE|612 345 678}} (no es un teléfono). El teléfono del asegurado es el [[PHONE|622 48 19 37]].")
    item("rl-es-bank-2416", "es", "bank",
         "correo: [[EMAIL|juan.perez @ gmail.com]] (con el espacio lo escribió así)")
    item("rl-ca-bank-2417", "ca", "bank",
         "El correu del client és [[EMAIL|jordi.puig arrova gmail punt com]], tot en minúscules.")
    item("rl-es-bank-2418", "es", "bank",
         "mail: [[EMAIL|maria.lopez(at)gmail.com]] — y responde siempre desde {{OFFICE|noreply@bancoejemplo.es}} no, eso es el banco.")
    item("rl-en-bank-2419", "en", "bank",
         "Her address is [[EMAIL|s dot khan at btinternet dot com]], she spelled it out on the phone.")
    item("rl-gl-bank-2420", "gl", "bank",
         "Correo electrónico: [[EMAIL|uxia.barreiro arroba yahoo punto es]]. Teléfono [[PHONE|981 23 45 67]].")
    item("rl-es-law-2421", "es", "law",
         "Según el {{ARTICLE|art. 1.902}} CC y la {{LAW|STS 123/2024}}, de {{DATE|12 de marzo}}, procede la indemnización de {{AMOUNT|12.345,67 €}}.")
    item("rl-en-clinic-2422", "en", "clinic",
         "Bloods taken {{DATE|04/03/2025}} 08:15, batch {{REFERENCE|29384756}}, analyser v{{VERSION|3.2.1.0}}. DOB on the request: [[DOB|02/11/1966]].")
    item("rl-es-bank-2423", "es", "bank",
         "Matrícula del coche del cliente: [[PLATE|8412-GHK]]; la del remolque es [[PLATE|R-4821-BBC]].")
    item("rl-eu-bank-2424", "eu", "bank",
         "Bezeroaren telefono mugikorra: [[PHONE|+34 688 123 456]]. Posta elektronikoa: [[EMAIL|nerea.iriondo(a)gmail.com]].")
    item("rl-es-clinic-2425", "es", "clinic",
         "Datos: [[PERSON|Genaro Villalba]] · 71 años · FN [[DOB|02/02/1954]] · NHC [[MRN|3392817]] · alérgico a AINEs")

    # ======== third batch (2426-): more variants, written after the second batch's rules and run
    # before any rule for them ==================================================================
    item("rl-en-clinic-2426", "en", "clinic",
         "Patient [[PERSON|Lorna Baxter]], d.o.b. [[DOB|14-03-82]], presenting with chest pain. ECG at {{DATE|10:42}}.")
    item("rl-en-bank-2427", "en", "bank",
         "He said he was born in [[DOB|March 1982]] and opened the account in {{DATE|May 2010}}.")
    item("rl-es-clinic-2428", "es", "clinic",
         "{\"paciente\": \"[[PERSON|Teodoro Lusa]]\", \"fecha_nacimiento\": \"[[DOB|1982-3-14]]\", \"fecha_ingreso\": \"{{DATE|2025-03-02}}\"}")
    item("rl-ca-clinic-2429", "ca", "clinic",
         "Data de naixement: [[DOB|14 de març de 1982]]. Visita de control el {{DATE|15 de març}}.")
    item("rl-es-bank-2430", "es", "bank",
         "nacido el día [[DOB|14 del 3 de 1982]] en Jaén, según el cliente [[PERSON|Baltasar]].")
    item("rl-gl-bank-2431", "gl", "bank",
         "Pregunta: data de nacemento?\nResposta: [[DOB|14.3.82]]\nPregunta: e o enderezo?")
    item("rl-es-bank-2432", "es", "bank",
         f"Me da el DNI sin la letra: [[DNI|{dni(52918374)[:8]}]]. Luego me dice que es la {dni(52918374)[8]}.")
    item("rl-en-bank-2433", "en", "bank",
         f"Spanish ID number [[DNI|{dni(38172946)[:8]}]] (no letter given), client number {{{{REFERENCE|00418273}}}}.")
    item("rl-ca-bank-2434", "ca", "bank",
         f"El client, amb DNI [[DNI|{dni(41928374)}]] i número de client {{{{REFERENCE|87654321}}}}, vol tancar el compte.")
    item("rl-es-law-2435", "es", "law",
         f"D.N.I.: [[DNI|{dni(9182736, '{n} {l}')}]] · Domicilio a efectos de notificaciones: el despacho. Procedimiento {{{{CASE|ORD 554/2024}}}}.")
    item("rl-es-bank-2436", "es", "bank",
         "el coche del cliente es un seat con matrícula [[PLATE|4821 kfl]] y lo tiene en el parking")
    item("rl-en-bank-2437", "en", "bank",
         "Her Spanish plate is [[PLATE|9921-LMN]] and the UK one [[PLATE|AB12 CDE]].")
    c13 = card("453201928374651")
    item("rl-es-bank-2438", "es", "bank",
         f"tarjeta [[CARD|{group(c13)}]] caduca en [[CARD_EXP|marzo de 2027]], el cvv lo tengo apuntado: [[CVV|731]]")
    c14 = card("542418273645102")
    item("rl-en-bank-2439", "en", "bank",
         f"Card: [[CARD|{c14}]] | exp [[CARD_EXP|3/27]] | CVV [[CVV|402]] | name on card: [[PERSON|D. Abara]]")
    c15 = card("491718273640192")
    item("rl-es-bank-2440", "es", "bank",
         "{\"tarjeta\": {\"pan\": \"[[CARD|" + c15 + "]]\", \"caducidad\": \"[[CARD_EXP|12/29]]\", \"cvv\": \"[[CVV|118]]\"}}")
    item("rl-eu-bank-2441", "eu", "bank",
         f"Txartelaren zenbakia [[CARD|{group(card('455601928374615'))}]] da eta iraungitze data [[CARD_EXP|2027/08]].")
    item("rl-es-bank-2442", "es", "bank",
         "móvil [[PHONE|612 34 56 78]] / [[PHONE|678 90 12 34]] (el segundo es el de su hijo), fijo [[PHONE|91 234 56 78]]")
    item("rl-en-bank-2443", "en", "bank",
         "Call back on [[PHONE|00 44 7700 900123]] or [[PHONE|+1 415 555 0132]] after 6pm.")
    item("rl-es-bank-2444", "es", "bank",
         "Tlf. contacto [[PHONE|+34 612-345-678]]; WhatsApp [[PHONE|+212 6 12 34 56 78]] (Marruecos).")
    item("rl-ca-bank-2445", "ca", "bank",
         "Mòbil: [[PHONE|639 12 34 56]]. Telèfon de la feina: [[PHONE|93 412 34 56]] ext. {{REFERENCE|214}}.")
    item("rl-es-bank-2446", "es", "bank",
         "Su email es [[EMAIL|MARIA.GARCIA.LOPEZ@GMAIL.COM]] y el de la empresa {{OFFICE|administracion@reformassaez.es}}.")
    item("rl-es-bank-2447", "es", "bank",
         "correo [[EMAIL|ana.garcía83@hotmail.es]] (con tilde, así lo tiene), respuesta a <[[EMAIL|p.soler@telefonica.net]]>")
    item("rl-en-bank-2448", "en", "bank",
         "Send the statement to [[EMAIL|kobi@protonmail.com]], not to the old address.")
    item("rl-es-bank-2449", "es", "bank",
         "Accesos desde la IP [[IP|83.44.219.7]]:443 y desde [[IP|2a02:9130:8f1::1a]]. Versión de la app {{VERSION|5.12.0.1}}.")
    e9 = ES("0075", "0001", "8506012345")
    item("rl-es-bank-2450", "es", "bank",
         f"cuenta [[IBAN|{e9[:4]} {e9[4:8]} {e9[8:12]} {e9[12:14]} {e9[14:]}]] a nombre de [[PERSON|Leocadia]]. BIC {{{{BIC|POPUESMMXXX}}}}.")
    item("rl-es-law-2451", "es", "law",
         "Conforme a la {{LAW|Ley 15/1999}} y al {{LAW|RD 1720/2007}}, el cliente [[PERSON|Fulgencio Mora]], nacido el [[DOB|2/2/1960]], solicita la supresión.")
    item("rl-en-clinic-2452", "en", "clinic",
         "Hospital no. [[MRN|K1928374]], NHS [[MRN|401 023 2137]], episode {{REFERENCE|EP-2025-0091}}, admitted {{DATE|02/03/2025}}.")
    item("rl-es-clinic-2453", "es", "clinic",
         "Nº Historia: [[MRN|12-345678]]. Episodio {{REFERENCE|2025/001234}}. Cama {{REFERENCE|312-B}}.")
    item("rl-gl-law-2454", "gl", "law",
         f"O demandado, con DNI [[DNI|{dni(35182937)}]] e pasaporte [[PASSPORT|PAC918273]], reside en Ourense. Xulgado: {{{{INSTITUTION|Xulgado de Primeira Instancia n.º 2}}}}.")
    item("rl-eu-clinic-2455", "eu", "clinic",
         "Gaixoaren NANa [[DNI|" + dni(72039184) + "]] da eta TIS zenbakia [[MRN|ZUBI780312]]. Jaiotze data: [[DOB|1978/03/12]].")

    # ======== fourth batch (2456-): written after the third batch's rules, run before any rule
    # for them ===================================================================================
    item("rl-es-bank-2456", "es", "bank",
         f"me lo dicta letra a letra: [[DNI|{' '.join(dni(27193846))}]] y luego el móvil [[PHONE|6 1 2 3 4 5 6 7 8]]")
    item("rl-es-law-2457", "es", "law",
         f"NIF del arrendador: [[DNI|{dni(50293817, '{a} {b} {c} {l}')}]]; el del fiador va en el anexo.")
    item("rl-es-bank-2458", "es", "bank",
         f"vat del autónomo: [[DNI|es{dni(38291746).lower()}]], factura {{{{INVOICE|F-2025-0031}}}}")
    item("rl-es-law-2459", "es", "law",
         "El vehículo con placas [[PLATE|3391 JTK]] y el de matrículas [[PLATE|6620-HBD]] colisionaron en la {{STREET_GENERIC|rotonda}}.")
    item("rl-es-bank-2460", "es", "bank",
         f"Fecha de caducidad de la tarjeta: [[CARD_EXP|11/26]]. Número: [[CARD|{group(card('451761029384756'))}]].")
    item("rl-es-bank-2461", "es", "bank",
         f"tarjeta [[CARD|{card('554433229918273')}]] caducidad: [[CARD_EXP|11 / 26]] CVV/CVC: [[CVV|305]]")
    item("rl-es-bank-2462", "es", "bank",
         "El recibo del préstamo vence el {{DATE|05/04}} y el vencimiento final es {{DATE|12/30}}. Cuota {{AMOUNT|412,50 €}}.")
    item("rl-en-bank-2463", "en", "bank",
         "Email: [[EMAIL|tom.hughes AT gmail.com]] (he types it like that to avoid spam).")
    item("rl-es-clinic-2464", "es", "clinic",
         "paciente;fnac;sexo\n[[PERSON|Anacleto Ruiz]];[[DOB|19410312]];V\n[[PERSON|Fidela Gómez]];[[DOB|19520127]];M")
    item("rl-en-clinic-2465", "en", "clinic",
         "DOB 19820314, MRN [[MRN|M0049182]], admitted {{DATE|20250301}}.".replace("DOB 19820314", "DOB [[DOB|19820314]]"))
    item("rl-es-clinic-2466", "es", "clinic",
         "fecha nacimiento: [[DOB|14031982]] · paciente [[PERSON|Rosalía Prado]] · cita {{DATE|17/03/2025}}")
    item("rl-en-clinic-2467", "en", "clinic",
         "Date of birth (DD/MM/YYYY): [[DOB|07/11/1975]]. Date of referral: {{DATE|03/03/2025}}.")
    item("rl-en-bank-2468", "en", "bank",
         "Birthdate - [[DOB|1982.03.14]]; customer since {{DATE|2011.06.01}}.")
    item("rl-ca-clinic-2469", "ca", "clinic",
         "La pacient [[PERSON|Neus Ferrer]], nascuda el [[DOB|14 de març del 82]], consulta per mal d'esquena.")
    item("rl-en-clinic-2470", "en", "clinic",
         "DOB: [[DOB|14th Feb '82]]. NHS no: [[MRN|943 476 5870]]. GP: Dr [[PERSON|Akhtar]].")
    item("rl-es-clinic-2471", "es", "clinic",
         "NUHSA: [[MRN|AN0123456789]]. Paciente derivado desde {{INSTITUTION|Hospital Virgen Macarena}}.")
    item("rl-es-clinic-2472", "es", "clinic",
         "Número de historia: [[MRN|123.456]] · episodio {{REFERENCE|2025-0412}}")
    item("rl-en-bank-2473", "en", "bank",
         "Irish customer, mobile [[PHONE|087 123 4567]], landline [[PHONE|01 234 5678]].")
    item("rl-es-bank-2474", "es", "bank",
         "Tel.: [[PHONE|0034-612-345-678]] o bien [[PHONE|+34-91-234-56-78]].")
    item("rl-es-bank-2475", "es", "bank",
         "Visa acabada en {{REFERENCE|4242}}; la otra tarjeta terminada en {{REFERENCE|1881}}. No me da más datos.")
    item("rl-ca-bank-2476", "ca", "bank",
         f"Passaport del client: [[PASSPORT|AQ1928374]] (colombià). NIE en tràmit. Telèfon [[PHONE|+57 310 482 9173]].")
    item("rl-en-law-2477", "en", "law",
         "Indian national, passport [[PASSPORT|J8369854]], visa ref {{REFERENCE|VFS-ES-2025-11223}}.")
    item("rl-es-bank-2478", "es", "bank",
         f"NAF: [[NSS|{nss(28, 12345678, '{p}-{n}-{c}')}]] (número de afiliación). El cliente cobra la pensión desde {{{{DATE|2019}}}}.")
    item("rl-gl-bank-2479", "gl", "bank",
         f"Número da Seguridade Social: [[NSS|{nss(15, 28374619, '{p} {n} {c}')}]]. Oficina {{{{REFERENCE|2080-0301}}}}.")
    item("rl-eu-bank-2480", "eu", "bank",
         "Bezeroaren pasaportea: [[PASSPORT|PAD102938]]. Matrikula: [[PLATE|5512 LFG]].")
