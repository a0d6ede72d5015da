package redact

import (
	"context"
	"strings"
	"testing"
)

var fuzzSeeds = []string{
	piiText,
	"",
	"@@PERSON-1@@",
	"@@ person _ 1 @@ y @@DNI-1",
	"Juan@@PERSON-1@@@",
	"@@@@@@",
	"Sra. María del Carmen Ruiz, calle Mayor 5, 3º B, 28013 Madrid; tarjeta 4111 1111 1111 1111",
	"mail a@b.co, ip 2001:db8::1, 10.0.0.1, nacida el 3 de mayo de 1980",
	"\xff\xfe@@\x00PERSON-1@@",
}

// FuzzRoundTrip: whatever the text, rehydrating its redaction gives it back exactly, and the
// only placeholder shapes in the redacted text are ones the vault issued.
func FuzzRoundTrip(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	r := newTestRedactor(f, DefaultConfig())
	f.Fuzz(func(t *testing.T, text string) {
		s := r.NewSession(0)
		defer s.Close()
		out, err := s.Redact(context.Background(), text)
		if err != nil {
			t.Fatal(err)
		}
		if back := s.Rehydrate(out); back != text {
			t.Fatalf("round trip:\n in  %q\n out %q\n back %q", text, out, back)
		}
		// Read the way Rehydrate reads: every complete placeholder shape found left to right
		// must be one the vault issued, written canonically.
		for i := 0; i < len(out); {
			j := strings.IndexByte(out[i:], '@')
			if j < 0 {
				break
			}
			i += j
			p := parsePlaceholder(out[i:])
			if p.status != phFull {
				i++
				continue
			}
			if _, ok := s.v.byKey[p.key]; !ok || !strings.HasPrefix(out[i:], placeholder(string(p.key.typ[:p.typeLen]), p.key.n)) {
				t.Fatalf("redacted text has a placeholder shape the vault did not issue at %d: %q", i, out)
			}
			i += p.length
		}
	})
}

// FuzzStreamChunking: streaming a model's answer in any chunking gives exactly what
// rehydrating the whole answer gives. The answer mixes fuzz text with real placeholders.
func FuzzStreamChunking(f *testing.F) {
	f.Add("Hola @@PERSON-1@@, su DNI @@dni-1@@ y @@ IBAN _ 1 @@@@PHONE-1", []byte{1, 5, 2, 9, 3})
	f.Add("@@PERSON-1@@@@PERSON-1@@", []byte{11, 1, 1})
	f.Add("@@PER@@PERSON-1@@", []byte{3})
	f.Add("@@PERSON-1", []byte{})
	r := newTestRedactor(f, DefaultConfig())
	f.Fuzz(func(t *testing.T, answer string, cuts []byte) {
		s := r.NewSession(0)
		defer s.Close()
		mustRedact(t, s, piiText)
		whole := s.Rehydrate(answer)
		st := s.NewStream()
		var b strings.Builder
		at := 0
		for _, c := range cuts {
			n := min(int(c)%8, len(answer)-at) // chunks of 0–7 bytes, splitting runes too
			b.WriteString(st.Write(answer[at : at+n]))
			at += n
		}
		b.WriteString(st.Write(answer[at:]))
		b.WriteString(st.Flush())
		if b.String() != whole {
			t.Fatalf("chunked %q != whole %q for answer %q cuts %v", b.String(), whole, answer, cuts)
		}
	})
}

// FuzzLookalikes: after the vault holds real values, nothing a user types can make a
// rehydrated answer (here: the model echoing the redacted text) contain a value that the user
// did not type.
func FuzzLookalikes(f *testing.F) {
	for _, s := range []string{"@@PERSON-1@@", "@@person-1@@", "@@ DNI _ 1 @@", "@PERSON-1@", "@@PHONE-1", "PHONE-1@@", "x@@IBAN-1@@@"} {
		f.Add(s)
	}
	r := newTestRedactor(f, DefaultConfig())
	values := []string{"Juan Pérez García", "12345678Z", "600 123 456", "ES91 2100 0418 4502 0005 1332"}
	f.Fuzz(func(t *testing.T, typed string) {
		s := r.NewSession(0)
		defer s.Close()
		mustRedact(t, s, piiText)
		out, err := s.Redact(context.Background(), typed)
		if err != nil {
			t.Fatal(err)
		}
		echo := s.Rehydrate(out)
		for _, v := range values {
			if strings.Count(echo, v) != strings.Count(typed, v) {
				t.Fatalf("typed %q, echo %q: a vault value appeared", typed, echo)
			}
		}
		if echo != typed {
			t.Fatalf("typed %q came back as %q", typed, echo)
		}
	})
}

func FuzzParsePlaceholder(f *testing.F) {
	for _, s := range []string{"@@PERSON-1@@", "@@ a _ 12 @@", "@@", "@@X-0@@", "@@" + strings.Repeat("A", 30) + "-1@@"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p := parsePlaceholder(s)
		switch p.status {
		case phFull:
			if p.length < 7 || p.length > len(s) || !strings.HasPrefix(s, "@@") || s[p.length-2:p.length] != "@@" {
				t.Fatalf("full parse of %q with length %d", s, p.length)
			}
			// A full parse must survive any continuation: the closing "@@" ends it.
			if q := parsePlaceholder(s[:p.length] + "9@@"); q.status != phFull || q.length != p.length || q.key != p.key {
				t.Fatalf("parse of %q depends on what follows", s[:p.length])
			}
		case phPartial:
			if len(s) > 2+maxSpaces*4+maxTypeLn+maxDigits+3 {
				t.Fatalf("partial parse of a %d-byte input: holds would be unbounded", len(s))
			}
		}
	})
}

// FuzzWindowsEquivalent: scanning only the windows finds exactly what scanning the whole text
// finds, after thresholds — windows are a speed-up, never a change in what is redacted.
func FuzzWindowsEquivalent(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	for _, it := range loadCorpus(f)[:40] {
		f.Add(it.Text)
	}
	f.Add("nacido el 3 de septiembre de 1980; GB82 WEST 1234 5698 7654 32 y MT84 MALT 0110 0001 2345 MTLC AST0 01S")
	// Starts that only a case-insensitive regexp2 sees (the Kelvin sign folds to 'k', 'İ' to
	// 'i'), prefixes of phones, ids glued to separators, dates in every form.
	for _, s := range []string{
		"\u212Aalea Nagusia 5, 48001 Bilbao; TRAVESİA del Carmen 3; Pº de Gracia 10; C/ Mayor 5, 2º B",
		"born ABRİL 12, 1980; nacida el 3º de mayo de 1980; DOB 1980-02-29; f. nac 1/2/1980; birth: September 12th, 1980",
		"tel +34 600 123 456, + 34 600 12 34 56, 0034 600123456, +44 20 7946 0958, tel:+34600123456, ++34600123456",
		"DNI 12.345.678-Z, x1234567l, Y-1234567-X, B-1234567-J, 28/12345678/40, mail:a.b@c.es, @@x@y.es",
		"IBAN ES9121000418450200051332 es91 2100 0418 4502 0005 1332, pasaporte ABC123456, fe80::1 ::1 1.2.3.4.5 10.0.0.1",
		"tarjeta 4111-1111-1111-1111 2025, 04111111111111111, 4111 1111 1111 1111 123",
	} {
		f.Add(s)
	}
	windowed := newTestRedactor(f, DefaultConfig())
	whole := newTestRedactor(f, DefaultConfig())
	whole.wholeText = true
	f.Fuzz(func(t *testing.T, text string) {
		a, errA := windowed.Detect(context.Background(), text)
		b, errB := whole.Detect(context.Background(), text)
		if (errA == nil) != (errB == nil) {
			t.Fatalf("errors differ: %v / %v", errA, errB)
		}
		if len(a) != len(b) {
			t.Fatalf("windowed found %d spans, whole text %d:\n%+v\n%+v", len(a), len(b), a, b)
		}
		for i := range a {
			if a[i].Start != b[i].Start || a[i].End != b[i].End || a[i].Type != b[i].Type {
				t.Fatalf("span %d differs: %+v vs %+v", i, a[i], b[i])
			}
		}
	})
}
