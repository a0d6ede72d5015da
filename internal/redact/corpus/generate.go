package corpus

import (
	"fmt"
	"slices"
	"strings"
)

// Generate returns n items made deterministically from seed, cycling through every template.
func Generate(seed uint64, n int) []Item {
	r := &rng{s: seed}
	type tpl struct{ lang, domain, text string }
	var all []tpl
	for _, lang := range []string{"es", "en"} {
		domains := make([]string, 0, len(templates[lang]))
		for d := range templates[lang] {
			domains = append(domains, d)
		}
		slices.Sort(domains)
		for _, d := range domains {
			for _, t := range templates[lang][d] {
				all = append(all, tpl{lang, d, t})
			}
		}
	}
	items := make([]Item, 0, n)
	for i := 0; i < n; i++ {
		t := all[i%len(all)]
		it := fill(r, t.lang, t.text)
		it.ID = fmt.Sprintf("%s-%s-%03d", t.lang, t.domain, i)
		it.Domain = t.domain
		items = append(items, it)
	}
	return items
}

// fill expands one template, recording the byte offsets of every value as it is written.
func fill(r *rng, lang, tpl string) Item {
	it := Item{Lang: lang, Entities: []Label{}}
	var b strings.Builder
	person := ""
	for {
		i := strings.IndexByte(tpl, '{')
		if i < 0 {
			b.WriteString(tpl)
			break
		}
		j := strings.IndexByte(tpl[i:], '}') + i
		b.WriteString(tpl[:i])
		slot := tpl[i+1 : j]
		tpl = tpl[j+1:]
		start := b.Len()
		if kind, ok := strings.CutPrefix(slot, "d:"); ok {
			v := r.decoy(kind, lang)
			b.WriteString(v)
			it.Decoys = append(it.Decoys, Label{Type: kind, Value: v, Start: start, End: b.Len()})
			continue
		}
		typ, invalid := strings.CutSuffix(slot, "!")
		var v string
		switch typ {
		case "PERSON":
			v = r.person()
			person = v
		case "DNI":
			v = r.dni(!invalid)
		case "NIE":
			v = r.nie()
		case "CIF":
			v = r.cif()
		case "NSS":
			v = r.nss()
		case "IBAN":
			v = r.iban()
		case "CARD":
			v = r.card(!invalid)
		case "PHONE":
			v = r.phone()
		case "EMAIL":
			if person == "" {
				person = r.person()
			}
			v = r.email(person)
		case "DOB":
			v = r.date(lang, 1940, 66)
		case "ADDRESS":
			v = r.address()
		case "PASSPORT":
			v = r.passport()
		case "IP":
			v = r.ip()
		default:
			panic("corpus: unknown slot " + slot)
		}
		b.WriteString(v)
		l := Label{Type: typ, Value: v, Start: start, End: b.Len()}
		if invalid {
			f := false
			l.Valid = &f
		}
		it.Entities = append(it.Entities, l)
	}
	it.Text = b.String()
	return it
}
