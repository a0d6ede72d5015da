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
