#!/usr/bin/env python3
"""Generator of testdata/redact/realistic-dev7-ids.jsonl (issue #13, fifth round: identifier forms).

The markup, the check digits and the checks are those of dev3_ids.py (emit). Items are written in an inline markup: [[TYPE|value]] for personal data, {{TYPE|value}} for
decoys, [[TYPE!|value]] for personal data typed with a wrong check digit (valid: false). The
script computes byte offsets and the check digits of the values it builds (DNI/NIE letter mod 23,
NSS mod 97, Spanish CCC control digits, IBAN mod 97, Luhn), and checks that every decoy shaped
like a DNI or a card fails its check. All people, numbers and addresses are invented.

Run: python3 testdata/redact/gen/dev7_ids.py > testdata/redact/realistic-dev7-ids.jsonl
"""
from dev3_ids import emit
from dev7_ids_items import define  # the items, in their own file

emit(define, 6201, 6399)
