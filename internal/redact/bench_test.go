package redact

import (
	"context"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/benchclock"
)

// mixedPrompt concatenates corpus prompts, alternating Spanish and English, to n bytes.
func mixedPrompt(tb testing.TB, n int) string {
	items := loadCorpus(tb)
	var es, en []string
	for _, it := range items {
		if it.Lang == "es" {
			es = append(es, it.Text)
		} else {
			en = append(en, it.Text)
		}
	}
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		if i%2 == 0 {
			b.WriteString(es[i/2%len(es)])
		} else {
			b.WriteString(en[i/2%len(en)])
		}
		b.WriteString("\n")
	}
	s := b.String()[:n]
	for !strings.HasSuffix(s, "\n") && len(s) > 0 && s[len(s)-1] >= 0x80 { // do not cut a rune
		s = s[:len(s)-1]
	}
	return s
}

// BenchmarkRedact4KiB: one session, one 4 KiB mixed ES/EN prompt, the default policy (no NER).
// Compare with BenchmarkBaselineStdRegexp4KiB, which only scans the same text with Go's regexp.
func BenchmarkRedact4KiB(b *testing.B) {
	text := mixedPrompt(b, 4096)
	r := newTestRedactor(b, DefaultConfig())
	ctx := context.Background()
	c := benchclock.New(b)
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.Start()
		s := r.NewSession(0)
		if _, err := s.Redact(ctx, text); err != nil {
			b.Fatal(err)
		}
		s.Close()
		c.Stop()
	}
	c.Report(b)
}

// stdPatterns approximate the main recognizers in RE2 syntax (no lookarounds, no validation):
// the floor of what any regex-based redactor has to pay to scan the text.
var stdPatterns = regexp.MustCompile(`\b\d{2}\.?\d{3}\.?\d{3}[ -]?[A-Za-z]\b|\b[XYZ]-?\d{7}-?[A-Z]\b|\b[A-Z]{2}\d{2}(?:[ -]?[A-Z0-9]){11,30}\b|\b\d(?:[ -]?\d){12,18}\b|(?:\+34 ?)?[6789]\d{2}[ .-]?\d{3}[ .-]?\d{3}\b|[\w.%+-]+@[\w-]+(?:\.[\w-]+)+|\b\d{1,3}(?:\.\d{1,3}){3}\b`)

func BenchmarkBaselineStdRegexp4KiB(b *testing.B) {
	text := mixedPrompt(b, 4096)
	c := benchclock.New(b)
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.Start()
		if len(stdPatterns.FindAllStringIndex(text, -1)) == 0 {
			b.Fatal("baseline found nothing")
		}
		c.Stop()
	}
	c.Report(b)
}

// answerChunks is a redacted answer cut into the small deltas a model streams (3–9 bytes).
func answerChunks(b *testing.B, s *Session) []string {
	out, err := s.Redact(context.Background(), mixedPrompt(b, 4096))
	if err != nil {
		b.Fatal(err)
	}
	var chunks []string
	for i, n := 0, 3; i < len(out); i, n = i+n, 3+(n+4)%7 {
		chunks = append(chunks, out[i:min(i+n, len(out))])
	}
	return chunks
}

// BenchmarkRehydrateChunk: one Stream.Write per op over a 4 KiB answer full of placeholders.
// BenchmarkBaselineForwardChunk is the same loop forwarding chunks untouched.
func BenchmarkRehydrateChunk(b *testing.B) {
	r := newTestRedactor(b, DefaultConfig())
	s := r.NewSession(0)
	defer s.Close()
	chunks := answerChunks(b, s)
	st := s.NewStream()
	c := benchclock.New(b)
	sink := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		chunk := chunks[i%len(chunks)]
		if i%len(chunks) == 0 {
			sink += len(st.Flush())
		}
		c.Start()
		sink += len(st.Write(chunk))
		c.Stop()
	}
	c.Report(b)
	_ = sink
}

func BenchmarkBaselineForwardChunk(b *testing.B) {
	r := newTestRedactor(b, DefaultConfig())
	s := r.NewSession(0)
	defer s.Close()
	chunks := answerChunks(b, s)
	c := benchclock.New(b)
	var sb strings.Builder
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%len(chunks) == 0 {
			sb.Reset()
		}
		c.Start()
		sb.WriteString(chunks[i%len(chunks)])
		c.Stop()
	}
	c.Report(b)
}

// BenchmarkRehydrateFirstChunk is the time-to-first-token the rehydrator adds: a new Stream and
// its first Write (a chunk that holds a whole placeholder).
func BenchmarkRehydrateFirstChunk(b *testing.B) {
	r := newTestRedactor(b, DefaultConfig())
	s := r.NewSession(0)
	defer s.Close()
	if _, err := s.Redact(context.Background(), piiText); err != nil {
		b.Fatal(err)
	}
	c := benchclock.New(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.Start()
		st := s.NewStream()
		_ = st.Write("Hola @@PERSON-1@@,")
		c.Stop()
	}
	c.Report(b)
}

// adversarial returns, for each built-in recognizer, a 100 KiB input made of near misses of its
// own pattern: long runs that keep the backtracking engine trying without ever matching.
var adversarialFragments = map[string]string{
	"es_dni":          "12.345.678-",
	"es_nie":          "X-1234567-",
	"es_cif":          "B-1234567-",
	"es_nss":          "28/12345678/",
	"iban":            "ES91 2100 0418 ",
	"card":            "4111 1111 ",
	"es_phone":        "+34 600 12 ",
	"e164":            "+34 6-",
	"email":           "a.b%c+d-e@f-g.",
	"ipv4":            "1.22.3.",
	"ipv6":            "a:b:c:d:e:f:1:2:3:",
	"dob":             "12 de mayo de 19 nacido 12/12/1",
	"dob_month_first": "born May 12th, 19 May 1",
	"es_address":      "Calle De La Mayor Real Nueva Vieja ",
	"es_passport":     "ABC12345 ",
	"es_dni7":         "1.234.567-",
	"es_nif_vat":      "ES1234567 ES-",
	"es_ccc":          "2100 0418 45 0200 ",
	"es_plate":        "1234 BC 1234-",
	"es_plate_old":    "M-1234-ABC GR 1234 ",
	"uk_phone":        "07700 900 12 020 7946 ",
	"nanp_phone":      "+1 (415) 555-01 (212) ",
}

func adversarial(frag string) string {
	return strings.Repeat(frag, 100<<10/len(frag)+1)[:100<<10]
}

// BenchmarkPatternAdversarial100KiB scans each recognizer's adversarial input to the end (all
// FindNextMatch calls of one text; regexp2's timeout applies to each call, so the figure is an
// upper bound for any single call). Metric timeout-%: ns/op as a share of match_timeout.
// The baseline sub-benchmark scans the same inputs with a linear-time Go regexp.
func BenchmarkPatternAdversarial100KiB(b *testing.B) {
	cfg := DefaultConfig()
	cfg.MatchTimeout = 10 * time.Second // measure, do not trip
	r := newTestRedactor(b, cfg)
	linear := regexp.MustCompile(`[0-9A-Za-z]+[@.:/+-]`)
	for _, rec := range r.recs {
		frag, ok := adversarialFragments[rec.name]
		if !ok {
			b.Fatalf("no adversarial input for recognizer %s", rec.name)
		}
		runes := []rune(adversarial(frag))
		b.Run(rec.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				m, err := rec.re.FindRunesMatch(runes)
				for ; m != nil && err == nil; m, err = rec.re.FindNextMatch(m) {
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(100*float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(DefaultConfig().MatchTimeout.Nanoseconds()), "timeout-%")
		})
		b.Run(rec.name+"/baseline-stdregexp", func(b *testing.B) {
			text := string(runes)
			for i := 0; i < b.N; i++ {
				linear.FindAllStringIndex(text, -1)
			}
		})
	}
}

// BenchmarkRedactAdversarial100KiB redacts 100 KiB made of every recognizer's near misses, with
// the default policy and timeout: the whole path (windows included) must finish, not time out.
func BenchmarkRedactAdversarial100KiB(b *testing.B) {
	var all strings.Builder
	for _, name := range slices.Sorted(maps.Keys(adversarialFragments)) {
		all.WriteString(strings.Repeat(adversarialFragments[name], 20))
		all.WriteString(" ")
	}
	text := adversarial(all.String())
	r := newTestRedactor(b, DefaultConfig())
	c := benchclock.New(b)
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.Start()
		s := r.NewSession(0)
		if _, err := s.Redact(context.Background(), text); err != nil {
			b.Fatal(err)
		}
		s.Close()
		c.Stop()
	}
	c.Report(b)
}
