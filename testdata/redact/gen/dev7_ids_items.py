# Items of realistic-dev7-ids.jsonl (see dev7_ids.py). Fifth round of issue #13: the identifier
# forms the spent third held-out set (realistic-dev6.jsonl) reported as missed, by shape and type
# only, written in new words and in ES/EN/CA/GL/EU: a card's security code after a bare "código"
# or "de atrás" word or right after the expiry, an expiry after "hasta", dotted NIEs, phones with
# a 00 prefix or typed digit by digit, dates of birth after "(*", with a month word between
# dashes, a Roman month in a year-first date, a year after a birth place, and their decoys.


def define(item, h):
    dni, dni_bad, nie, card, card_bad = h["dni"], h["dni_bad"], h["nie"], h["card"], h["card_bad"]

    def nd(p, n):  # a NIE written with dots and a dash: "Y.3018.274-L"
        v = nie(p, n)
        return "%s.%s.%s-%s" % (v[0], v[1:5], v[5:8], v[8])

    # ---- security codes and expiries next to a card ---------------------------------------
    item("rl-es-bank-6201", "es", "bank",
         f"me pasa la visa [[CARD|{card('454711203398172')}]] q caduca [[CARD_EXP|0828]] y el codigo de atras [[CVV|452]], q no le deja pagar el {{{{ORDER|pedido 77120}}}}")
    item("rl-ca-bank-6202", "ca", "bank",
         f"Targeta [[CARD|{card('523801447716029')}]], venciment [[CARD_EXP|07/29]], codi [[CVV|318]]. El client diu que no reconeix el càrrec de {{{{AMOUNT|45,20 €}}}}.")
    item("rl-en-bank-6203", "en", "bank",
         f"card no. [[CARD|{card('401288817712401')}]] exp [[CARD_EXP|03/28]] code [[CVV|902]] - customer says the payment bounced twice")
    item("rl-gl-bank-6204", "gl", "bank",
         f"a tarxeta da señora é [[CARD|{card('491761007734112')}]] [[CARD_EXP|11/27]] [[CVV|448]], non lle funciona no caixeiro")
    item("rl-es-bank-6205", "es", "bank",
         f"Tarjeta [[CARD|{card('557102938811044')}]] hasta [[CARD_EXP|1129]], código [[CVV|207]]. Código postal de envío {{{{POSTCODE|28013}}}}.")
    item("rl-en-bank-6206", "en", "bank",
         f"her card is [[CARD|{card('453201776612903')}]] valid until [[CARD_EXP|05/30]] and the three digits on the back are [[CVV|615]]")
    item("rl-es-bank-6207", "es", "bank",
         f"pago con tarjeta [[CARD|{card('400012349911230')}]], el código promocional {{{{PRODUCT|250}}}} no se aplicó")

    # ---- NIE dotted, phones ------------------------------------------------------------------
    item("rl-es-bank-6208", "es", "bank",
         f"titular [[PERSON|dumitru pavel]], nie [[NIE|{nd('Y', 3018274)}]], q le cambien el titular del recibo")
    item("rl-ca-law-6209", "ca", "law",
         "el germà, [[PERSON|Ion Munteanu]], amb NIE [[NIE|" + nd('X', 4412905) + "]], compareix també")
    item("rl-es-bank-6210", "es", "bank",
         "la clienta [[PERSON|Ilinca]] me llamo desde el [[PHONE|0040 723 118 402]] pq no le llegan los sms")
    item("rl-en-bank-6211", "en", "bank",
         "Mr [[PERSON|Duarte]] will call back from his Portuguese mobile [[PHONE|00351 912 448 302]] tomorrow")
    item("rl-es-clinic-6212", "es", "clinic",
         "la paciente dicta el movil numero a numero: [[PHONE|6 5 4 2 1 9 8 0 3]], avisar si hay hueco")
    item("rl-es-law-6213", "es", "law",
         "Para cualquier duda llame a la centralita de {{COMPANY|Seguros Ocaso}}, {{OFFICE|91 538 01 00}}, o escriba al despacho.")

    # ---- dates of birth ----------------------------------------------------------------------
    item("rl-es-clinic-6214", "es", "clinic",
         "Antecedentes: [[PERSON|Ramiro Lastra]] (*[[DOB|1947]]), exfumador, HTA desde {{DATE|2010}}.")
    item("rl-gl-law-6215", "gl", "law",
         f"comparece [[PERSON|Sabela Outeiro Pazos]], nada o [[DOB|vinte e catro de outubro de 1971]], con DNI [[DNI|{dni(35991024)}]]")
    item("rl-gl-clinic-6216", "gl", "clinic",
         "Deriva a [[PERSON|Uxía Freire]], nada o [[DOB|14-marzo-1988]], por dor abdominal.")
    item("rl-es-clinic-6217", "es", "clinic",
         "paciente [[PERSON|Teodora Ruiz]], nacida el [[DOB|9-agosto-1939]], ingresa por caída el {{DATE|28/11/2026}}")
    item("rl-eu-clinic-6218", "eu", "clinic",
         "Gaixoa: [[PERSON|Miren Etxeberria]]. Jaiotze data: [[DOB|1962/XI/23]]. Hurrengo hitzordua {{DATE|2027/01/12}}.")
    item("rl-en-clinic-6219", "en", "clinic",
         "Bay 3: Mr [[PERSON|Tadeusz Nowak]] (Polish, DOB [[DOB|'51]]), day 1 post hip repair.")
    item("rl-es-law-6220", "es", "law",
         f"Comparece doña [[PERSON|Herminia Casal Vidal]], nacida en Ourense en [[DOB|1949]], con DNI [[DNI|{dni(34221908)}]].")
    item("rl-gl-clinic-6221", "gl", "clinic",
         "a paciente [[PERSON|sabela]] di que é do [[DOB|53]], pero non trae papeis")
    item("rl-es-clinic-6222", "es", "clinic",
         "no sabe su fecha de nacimiento, el hijo dice que es del [[DOB|40]] o del [[DOB|41]]")

    # ---- decoys near the new cues --------------------------------------------------------------
    item("rl-es-law-6223", "es", "law",
         "Referencia interna (no es DNI): {{CHECKSUM|" + dni_bad(55120873) + "}}. Expediente {{CASE|412/2026}}.")
    item("rl-es-bank-6224", "es", "bank",
         f"tarjeta [[CARD|{card('454711209911048')}]], caduca [[CARD_EXP|0927]]. operacion {{{{CHECKSUM|{card_bad('400021001174221')}}}}} rechazada")
