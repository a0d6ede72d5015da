#!/usr/bin/env python3
"""Generator of testdata/redact/realistic-dev3-ids.jsonl (issue #13, identifier forms).

Items are written in an inline markup: [[TYPE|value]] for personal data, {{TYPE|value}} for
decoys, [[TYPE!|value]] for personal data typed with a wrong check digit (valid: false). The
script computes byte offsets and the check digits of the values it builds (DNI/NIE letter mod 23,
NSS mod 97, Spanish CCC control digits, IBAN mod 97, Luhn), and checks that every decoy shaped
like a DNI or a card fails its check. All people, numbers and addresses are invented.

Run: python3 testdata/redact/gen/dev3_ids.py > testdata/redact/realistic-dev3-ids.jsonl
"""
import json
import re
import sys

LET = "TRWAGMYFPDXBNJZSQVHLCKE"


def dni(n, fmt="{n}{l}"):
    s = "%08d" % n
    return fmt.format(n=s, l=LET[n % 23], a=s[:2], b=s[2:5], c=s[5:], n7=str(n))


def dni_bad(n):
    l = LET[(n + 1) % 23]
    return "%08d%s" % (n, l)


def nie(p, n, fmt="{p}{n}{l}"):
    v = int("XYZ".index(p.upper()) * 10**7 + n)
    return fmt.format(p=p, n="%07d" % n, l=LET[v % 23])


def nss(prov, num, fmt="{p}{n}{c}"):
    v = prov * 10**7 + num if num < 10**7 else prov * 10**8 + num
    n = "%08d" % num
    return fmt.format(p="%02d" % prov, n=n, c="%02d" % (v % 97), n4a=n[:4], n4b=n[4:])


def ccc_digits(ent, off, acc):
    w = [1, 2, 4, 8, 5, 10, 9, 7, 3, 6]

    def dc(d):
        s = sum(int(c) * w[i] for i, c in enumerate(d))
        x = 11 - s % 11
        return {11: 0, 10: 1}.get(x, x)
    return "%s%s%d%d%s" % (ent, off, dc("00" + ent + off), dc(acc), acc)


def iban_raw(cc, bban):
    num = "".join(str(int(c, 36)) for c in (bban + cc + "00").upper())
    chk = 98 - int(num) % 97
    return "%s%02d%s" % (cc, chk, bban)


def group(s, n=4, sep=" "):
    return sep.join(s[i:i + n] for i in range(0, len(s), n))


def luhn_ok(s):
    d = [int(c) for c in s if c.isdigit()]
    tot = 0
    for i, x in enumerate(reversed(d)):
        if i % 2:
            x *= 2
            if x > 9:
                x -= 9
        tot += x
    return tot % 10 == 0


def card(prefix15):
    """prefix (len-1 digits) + Luhn digit."""
    for c in "0123456789":
        if luhn_ok(prefix15 + c):
            return prefix15 + c


def card_bad(prefix15):
    good = card(prefix15)
    return prefix15 + str((int(good[-1]) + 3) % 10)


ES = lambda ent, off, acc: iban_raw("ES", ccc_digits(ent, off, acc))

ITEMS = []


def item(id_, lang, domain, text):
    ITEMS.append((id_, lang, domain, text))


MARK = re.compile(r"\[\[([A-Z_]+)(!?)\|(.*?)\]\]|\{\{([A-Z_]+)\|(.*?)\}\}", re.S)


def build(id_, lang, domain, src):
    out, ents, decs = [], [], []
    pos, blen = 0, 0
    for m in MARK.finditer(src):
        pre = src[pos:m.start()]
        out.append(pre)
        blen += len(pre.encode())
        if m.group(1):
            typ, bad, val = m.group(1), m.group(2), m.group(3)
            lab = {"type": typ, "value": val, "start": blen, "end": blen + len(val.encode())}
            if bad:
                lab["valid"] = False
            ents.append(lab)
        else:
            typ, val = m.group(4), m.group(5)
            decs.append({"type": typ, "value": val, "start": blen, "end": blen + len(val.encode())})
        out.append(val)
        blen += len(val.encode())
        pos = m.end()
    out.append(src[pos:])
    text = "".join(out)
    for d in decs:  # decoys shaped like a card or a DNI must fail their check
        a = re.sub(r"[ .-]", "", d["value"])
        if re.fullmatch(r"\d{13,19}", a) and luhn_ok(a):
            sys.exit("%s: decoy %s passes Luhn" % (id_, d["value"]))
        if re.fullmatch(r"\d{8}[A-Za-z]", a) and LET[int(a[:8]) % 23] == a[8].upper():
            sys.exit("%s: decoy %s is a valid DNI" % (id_, d["value"]))
    it = {"id": id_, "lang": lang, "domain": domain, "text": text, "entities": ents}
    if decs:
        it["decoys"] = decs
    return it


def emit(define, lo, hi):
    """Builds the items that define() declares, checks their ids (lo..hi), prints JSON lines."""
    define(item, dict(dni=dni, dni_bad=dni_bad, nie=nie, nss=nss, ccc=ccc_digits, iban=iban_raw, ES=ES,
                      group=group, card=card, card_bad=card_bad))
    seen = set()
    for id_, lang, domain, src in ITEMS:
        if id_ in seen:
            sys.exit("duplicate id " + id_)
        seen.add(id_)
        n = int(id_.rsplit("-", 1)[1])
        if not (lo <= n <= hi) or not id_.startswith("rl-%s-%s-" % (lang, domain)):
            sys.exit("bad id " + id_)
        print(json.dumps(build(id_, lang, domain, src), ensure_ascii=False, separators=(",", ":")))


if __name__ == "__main__":
    from dev3_ids_items import define  # the items, in their own file
    emit(define, 2301, 2599)
