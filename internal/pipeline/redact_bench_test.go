package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/benchclock"
	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/redact/corpus"
)

// firstChunkTimer records when the first chunk reached the user.
type firstChunkTimer struct {
	first time.Time
}

func (f *firstChunkTimer) Header() http.Header { return http.Header{} }
func (f *firstChunkTimer) WriteChunk(*chat.Chunk) error {
	if f.first.IsZero() {
		f.first = time.Now()
	}
	return nil
}
func (f *firstChunkTimer) WriteCompletion(*chat.Completion) error { return nil }

// prompt4K is about 4 KiB of mixed Spanish/English branch text with personal data, from the corpus.
func prompt4K() string {
	var b strings.Builder
	for _, it := range corpus.Generate(20261129, 100) {
		if b.Len() > 4096 {
			break
		}
		b.WriteString(it.Text)
		b.WriteString("\n")
	}
	return b.String()
}

// BenchmarkRedactStageTTFT: what the Redact stage adds to the time to first token: redaction of
// a 4 KiB prompt on the way down and the rehydrator on the first chunk on the way up, against the
// same terminal without the stage, in the same run. Reports p50/p99 in µs.
func BenchmarkRedactStageTTFT(b *testing.B) {
	r := newRedactor(b)
	text := prompt4K()
	first := "Claro, le ayudo con eso."
	terminal := HandlerFunc(func(_ context.Context, _ *Request, w ResponseWriter) error {
		return w.WriteChunk(&chat.Chunk{ID: "x", Choices: []chat.ChunkChoice{{Delta: chat.Delta{Content: &first}}}})
	})
	for _, tc := range []struct {
		name string
		h    Handler
	}{{"baseline-no-stage", terminal}, {"redact-stage", Chain(Redact(r))(terminal)}} {
		b.Run(tc.name, func(b *testing.B) {
			lat := make([]time.Duration, 0, b.N)
			b.SetBytes(int64(len(text)))
			for i := 0; i < b.N; i++ {
				req := &Request{Chat: &chat.Request{Model: "m", Stream: true,
					Messages: []chat.Message{{Role: "user", Content: chat.TextContent(text)}}}}
				w := &firstChunkTimer{}
				start := time.Now()
				if err := tc.h.ServeChat(context.Background(), req, w); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, w.first.Sub(start))
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds())/1e3, "ttft-p50-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds())/1e3, "ttft-p99-µs")
		})
	}
}

// BenchmarkRehydrateChunk: the cost per streamed chunk through the Redact stage's writer, for
// chunks without and with placeholders, against passing the chunk through untouched.
func BenchmarkRehydrateChunk(b *testing.B) {
	r := newRedactor(b)
	sess := r.NewSession(0)
	defer sess.Close()
	red, err := sess.Redact(context.Background(), "DNI 12345678Z, IBAN ES9121000418450200051332")
	if err != nil {
		b.Fatal(err)
	}
	ph := placeholderRE.FindString(red)
	for _, tc := range []struct{ name, delta string }{
		{"plain", " la cuenta"},
		{"with-placeholder", " su DNI " + ph},
		{"split-placeholder", ph[:4]},
	} {
		for _, wrap := range []bool{false, true} {
			name := fmt.Sprintf("%s/rehydrate=%v", tc.name, wrap)
			b.Run(name, func(b *testing.B) {
				var w ResponseWriter = &firstChunkTimer{}
				if wrap {
					w = &rehydrator{ResponseWriter: w, sess: sess}
				}
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					d := tc.delta
					c := &chat.Chunk{ID: "x", Choices: []chat.ChunkChoice{{Delta: chat.Delta{Content: &d}}}}
					if err := w.WriteChunk(c); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkEgressBoundary4KiB: the whole egress boundary for a 4 KiB prompt — the strict decode
// of the body, redaction of every text (normalised view and join pass included), encoding the
// request for the DC and the exit scan — against redacting the same text alone, which is what
// the redaction figure measured before the boundary existed, in the same run. CPU percentiles
// are this thread's CPU time per operation.
func BenchmarkEgressBoundary4KiB(b *testing.B) {
	r := newRedactor(b)
	text := prompt4K()
	lines := strings.SplitAfter(text, "\n")
	oneMsg, _ := json.Marshal(map[string]any{"model": "m", "stream": true, "temperature": 0.2,
		"messages": []any{map[string]any{"role": "user", "content": text}}})
	var msgs []any
	for i := 0; i < len(lines); i += max(1, len(lines)/8) {
		msgs = append(msgs, map[string]any{"role": "user", "content": strings.Join(lines[i:min(len(lines), i+max(1, len(lines)/8))], "")})
	}
	eightMsgs, _ := json.Marshal(map[string]any{"model": "m", "stream": true, "messages": msgs})
	ctx := context.Background()
	boundary := func(body []byte) func() error {
		return func() error {
			req, e := chat.DecodeRequest(body, chat.DecodeOptions{})
			if e != nil {
				return e
			}
			sess := r.NewSession(0)
			defer sess.Close()
			if err := redactRequest(ctx, sess, req); err != nil {
				return err
			}
			out, err := req.Encode()
			if err != nil {
				return err
			}
			return r.ScanEgress(ctx, out)
		}
	}
	for _, tc := range []struct {
		name string
		op   func() error
	}{
		{"baseline-redact-text", func() error {
			s := r.NewSession(0)
			defer s.Close()
			_, err := s.Redact(ctx, text)
			return err
		}},
		{"boundary-1-message", boundary(oneMsg)},
		{"boundary-8-messages", boundary(eightMsgs)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			c := benchclock.New(b)
			b.SetBytes(int64(len(text)))
			for i := 0; i < b.N; i++ {
				c.Start()
				if err := tc.op(); err != nil {
					b.Fatal(err)
				}
				c.Stop()
			}
			c.Report(b)
		})
	}
}
