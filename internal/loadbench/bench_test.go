package loadbench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	gosync "sync"
	"sync/atomic"
	"testing"
	"time"
)

// fake is an OpenAI-compatible server that paces its tokens: the first after ttft, then one every
// gap, max_tokens of them; it refuses with 429 past limit requests in flight, and counts every
// admitted request in a queue-wait histogram on /metrics.
type fake struct {
	ttft, gap time.Duration
	limit     int64
	noDone    bool   // end streams without [DONE]
	failModel string // answer 500 for this model

	inflight atomic.Int64
	admitted atomic.Int64
	mu       gosync.Mutex
	seen     []string // "in/max/seed" of every request, in arrival order
}

func (f *fake) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, `{"object":"list","data":[{"id":"tiny:1.2.0","object":"model","owned_by":"sucursal"}]}`)
	})
	mux.HandleFunc("GET /metrics", func(w http.ResponseWriter, _ *http.Request) {
		n := f.admitted.Load()
		fmt.Fprintf(w, "# TYPE sucursal_admission_queue_wait_seconds histogram\n")
		fmt.Fprintf(w, "sucursal_admission_queue_wait_seconds_bucket{le=\"0\"} %d\nsucursal_admission_queue_wait_seconds_bucket{le=\"0.01\"} %d\nsucursal_admission_queue_wait_seconds_bucket{le=\"+Inf\"} %d\n", n/2, n, n)
	})
	mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		var body chatBody
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, "bad", 400)
			return
		}
		seed := "-"
		if body.Seed != nil {
			seed = fmt.Sprint(*body.Seed)
		}
		f.mu.Lock()
		f.seen = append(f.seen, fmt.Sprintf("%d/%d/%s/%s", len(strings.Fields(body.Messages[0].Content)), body.MaxTokens, seed, body.Messages[0].Content))
		f.mu.Unlock()
		if f.inflight.Add(1) > f.limit && f.limit > 0 {
			f.inflight.Add(-1)
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(429)
			fmt.Fprint(w, `{"error":{"message":"slow down","type":"rate_limit_error","code":"too_many_concurrent_requests"}}`)
			return
		}
		defer f.inflight.Add(-1)
		f.admitted.Add(1)
		if body.Model == f.failModel {
			w.WriteHeader(500)
			fmt.Fprint(w, `{"error":{"message":"boom","type":"server_error","code":"internal_error"}}`)
			return
		}
		time.Sleep(f.ttft)
		if !body.Stream {
			time.Sleep(time.Duration(body.MaxTokens-1) * f.gap)
			fmt.Fprintf(w, `{"choices":[{"message":{"role":"assistant","content":%q}}],"usage":{"prompt_tokens":%d,"completion_tokens":%d}}`,
				strings.Repeat("x", body.MaxTokens), len(body.Messages[0].Content)/4, body.MaxTokens)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fl := w.(http.Flusher)
		for i := range body.MaxTokens {
			if i > 0 {
				time.Sleep(f.gap)
			}
			fmt.Fprintf(w, "data: {\"choices\":[{\"delta\":{\"content\":\"t%d \"}}]}\n\n", i)
			fl.Flush()
		}
		if body.StreamOptions != nil && body.StreamOptions.IncludeUsage {
			fmt.Fprintf(w, "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":%d,\"completion_tokens\":%d}}\n\n", len(body.Messages[0].Content)/4, body.MaxTokens)
		}
		if !f.noDone {
			fmt.Fprint(w, "data: [DONE]\n\n")
		}
	})
	return mux
}

func start(t *testing.T, f *fake) *Client {
	t.Helper()
	srv := httptest.NewServer(f.handler())
	t.Cleanup(srv.Close)
	return &Client{Base: srv.URL + "/v1", HTTP: srv.Client()}
}

func load(t *testing.T, y string) File {
	t.Helper()
	f, err := Load([]byte(y))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestClosedLoopMatrix(t *testing.T) {
	srv := &fake{ttft: 20 * time.Millisecond, gap: 5 * time.Millisecond, limit: 2}
	c := start(t, srv)
	f := load(t, `
seed: 7
model: tiny
slo: {ttft_ms: 60000, attainment: 0.95}
warmup: {requests: 2}
measure: {requests: 12}
repetitions: 2
scenarios:
  - name: chat
    input_tokens: {p50: 20, p95: 40, p99: 60}
    output_tokens: {values: [8, 16]}
    arrival: {mode: closed, concurrency: [1, 2, 6]}
`)
	qw := MetricsQueueWait{URL: strings.TrimSuffix(c.Base, "/v1") + "/metrics", HTTP: c.HTTP}
	res, err := (&Runner{Client: c, File: f, QueueWait: qw}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	cells := res[0].Cells
	if len(cells) != 3 {
		t.Fatalf("%d cells", len(cells))
	}
	for _, cl := range cells[:2] {
		// Never more in flight than the server admits: every request answered, each measured.
		if cl.Attempted != 24 || cl.Answered != 24 || cl.Rejected429 != 0 || cl.Errors != 0 || !cl.MeetsSLO || cl.Good != 24 {
			t.Errorf("concurrency %g: %+v", cl.Load, cl)
		}
		if cl.TTFT.Samples != 24 || cl.E2E.Samples != 24 || cl.TTFT.P50 < 20 {
			t.Errorf("concurrency %g: TTFT %+v (the server waits 20 ms), e2e %+v", cl.Load, cl.TTFT, cl.E2E)
		}
		// Every answer streams max_tokens chunks: gaps = tokens − 1 each; usage gives the count.
		wantGaps := int(math.Round(cl.OutputTokens*24)) - 24
		if cl.ITL.Samples != wantGaps || cl.ITL.P50 < 5 || cl.OutputFromUsage != 24 || (cl.OutputTokens != 8 && cl.OutputTokens != 16 && (cl.OutputTokens < 8 || cl.OutputTokens > 16)) {
			t.Errorf("concurrency %g: ITL %+v, output %v (from usage %d), want %d gaps", cl.Load, cl.ITL, cl.OutputTokens, cl.OutputFromUsage, wantGaps)
		}
		if cl.QueueWait == nil || cl.QueueWait.Samples != 24 || cl.QueueWait.P50Ms != 0 || cl.QueueWait.P99Ms != 10 {
			t.Errorf("concurrency %g: queue wait %+v, want 24 samples from the histogram, half at 0, the rest ≤ 10 ms", cl.Load, cl.QueueWait)
		}
		if len(cl.RepetitionGoodput) != 2 || cl.Goodput <= 0 {
			t.Errorf("goodput %v %v", cl.Goodput, cl.RepetitionGoodput)
		}
	}
	over := cells[2]
	if over.Rejected429 == 0 || over.RejectCodes["too_many_concurrent_requests"] != over.Rejected429 || over.Errors != 0 || over.Attempted != 24 {
		t.Errorf("concurrency 6 against a limit of 2: %+v", over)
	}
	if over.Answered+over.Rejected429 != over.Attempted || over.TTFT.Samples != over.Answered {
		t.Errorf("refusals must not be measured as answers: %+v", over)
	}
	if res[0].MaxLoadMeetingSLO == nil || *res[0].MaxLoadMeetingSLO != 2 {
		t.Errorf("highest load meeting the SLO %v, want 2", res[0].MaxLoadMeetingSLO)
	}
}

func TestSLOGatesGoodput(t *testing.T) {
	srv := &fake{gap: 20 * time.Millisecond}
	c := start(t, srv)
	for _, tc := range []struct {
		slo  string
		good bool
	}{
		{"{itl_ms: 1}", false},     // every gap is at least 20 ms
		{"{itl_ms: 60000}", true},  // no gap takes a minute
		{"{e2e_ms: 10}", false},    // 4 tokens 20 ms apart take at least 60 ms
		{"{ttft_ms: 60000}", true}, //
	} {
		f := load(t, "model: m\nslo: "+tc.slo+"\nmeasure: {requests: 3}\nscenarios:\n  - {name: s, input_tokens: {p50: 4}, output_tokens: {p50: 4}, arrival: {mode: closed, concurrency: [1]}}\n")
		res, err := (&Runner{Client: c, File: f}).Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		cl := res[0].Cells[0]
		if cl.MeetsSLO != tc.good || (cl.Good == 3) != tc.good || cl.Answered != 3 {
			t.Errorf("slo %s: good %d of %d, meets %v", tc.slo, cl.Good, cl.Attempted, cl.MeetsSLO)
		}
		if cl.QueueWait != nil {
			t.Errorf("no queue-wait source, yet %+v", cl.QueueWait)
		}
	}
}

func TestOpenLoopTraceAndErrors(t *testing.T) {
	srv := &fake{gap: time.Millisecond, failModel: "broken"}
	c := start(t, srv)
	f := load(t, `
model: m
measure: {requests: 10}
scenarios:
  - name: poisson
    input_tokens: {p50: 5}
    output_tokens: {p50: 3}
    arrival: {mode: open, rates: [200]}
  - name: replay
    stream: false
    input_tokens: {p50: 5}
    output_tokens: {p50: 3}
    arrival: {mode: trace, speedups: [1, 4], trace: [{at_ms: 0, output_tokens: 2}, {at_ms: 10, output_tokens: 5}, {at_ms: 20}]}
  - name: failing
    model: broken
    input_tokens: {p50: 5}
    output_tokens: {p50: 3}
    arrival: {mode: closed, concurrency: [1]}
`)
	res, err := (&Runner{Client: c, File: f}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if cl := res[0].Cells[0]; cl.Attempted != 10 || cl.Answered != 10 || cl.SendLate == nil || cl.SendLate.Samples != 10 || cl.OutputTokens != 3 {
		t.Errorf("open loop: %+v", cl)
	}
	for _, cl := range res[1].Cells {
		// Not streamed: the first content is the whole answer; usage gives 2, 5 and 3 tokens.
		if cl.Attempted != 3 || cl.Answered != 3 || cl.TTFT != cl.E2E || cl.ITL.Samples != 0 || cl.OutputTokens != round3(10.0/3) {
			t.Errorf("trace ×%g: %+v", cl.Load, cl)
		}
	}
	if cl := res[2].Cells[0]; cl.Errors != 10 || cl.ErrorKinds["internal_error"] != 10 || cl.Rejected429+cl.Rejected503 != 0 || cl.MeetsSLO || cl.TTFT.Samples != 0 {
		t.Errorf("failing model: %+v", cl)
	}
	if res[2].MaxLoadMeetingSLO != nil {
		t.Errorf("a failing scenario met its SLO at %v", *res[2].MaxLoadMeetingSLO)
	}

	// A stream cut before [DONE] is an error, not an answer.
	cut := start(t, &fake{noDone: true})
	f = load(t, "model: m\nmeasure: {requests: 2}\nscenarios:\n  - {name: s, input_tokens: {p50: 4}, output_tokens: {p50: 4}, arrival: {mode: closed, concurrency: [1]}}\n")
	res, err = (&Runner{Client: cut, File: f}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if cl := res[0].Cells[0]; cl.Errors != 2 || cl.ErrorKinds["the stream ended without [DONE]"] != 2 {
		t.Errorf("cut streams: %+v", cl)
	}
}

// The same file and seed send the same requests: lengths, max_tokens, seeds and prompts.
func TestSameSeedSameRequests(t *testing.T) {
	y := `
seed: 42
model: m
warmup: {requests: 2}
measure: {requests: 6}
scenarios:
  - name: sampled
    sampling: sampled
    repeated_prompts: true
    input_tokens: {p50: 10, p95: 50, p99: 90}
    output_tokens: {p50: 2, p95: 4, p99: 6}
    arrival: {mode: closed, concurrency: [1]}
`
	var runs [][]string
	for range 2 {
		srv := &fake{}
		if _, err := (&Runner{Client: start(t, srv), File: load(t, y)}).Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, srv.seen)
	}
	if len(runs[0]) != 8 || !slices.Equal(runs[0], runs[1]) {
		t.Fatalf("two runs with one seed sent\n%q\n%q", runs[0], runs[1])
	}
	for _, r := range runs[0] {
		var in, maxTok, seed int
		if _, err := fmt.Sscanf(r, "%d/%d/%d/", &in, &maxTok, &seed); err != nil || seed < 1 || seed > maxSeed {
			t.Errorf("sampled request %q: want a seed in [1, %d] (%v)", r, maxSeed, err)
		}
	}
	other := &fake{}
	if _, err := (&Runner{Client: start(t, other), File: load(t, strings.Replace(y, "seed: 42", "seed: 43", 1))}).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if slices.Equal(runs[0], other.seen) {
		t.Error("another seed sent the same requests")
	}
}

func TestReportMarkdownAndJSON(t *testing.T) {
	srv := &fake{limit: 1, ttft: 100 * time.Millisecond}
	c := start(t, srv)
	f := load(t, "model: m\nslo: {ttft_ms: 60000}\nmeasure: {requests: 4}\ndeclared: {runtime: ollama 0.17.4, prefix_caching: off}\nscenarios:\n  - {name: chat, input_tokens: {p50: 4}, output_tokens: {p50: 2}, arrival: {mode: closed, concurrency: [1, 3]}}\n")
	res, err := (&Runner{Client: c, File: f}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	models, err := c.Models(context.Background())
	if err != nil || len(models) != 1 || models[0].ID != "tiny:1.2.0" {
		t.Fatalf("models %+v %v", models, err)
	}
	rep := &Report{File: f, Results: res, Snapshot: Snapshot{Command: []string{"edge-agent", "bench", "--scenarios", "x y.yaml"}, ScenarioFile: "x y.yaml",
		Seed: f.Seed, Models: models, Machine: ReadMachine(), Declared: f.Declared, SLO: f.SLO, QueueWait: "not measurable from outside: test"}}
	var md, js bytes.Buffer
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"edge-agent bench --scenarios 'x y.yaml'", "tiny:1.2.0 (sucursal)", "ollama 0.17.4", "| 1 | 4 | 4 | 0 |",
		"Highest load that met the SLO: **1 concurrency**", "too_many_concurrent_requests ×", "not measurable from outside"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
	var back Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || len(back.Results[0].Cells) != 2 || back.Snapshot.Models[0].ID != "tiny:1.2.0" {
		t.Errorf("json round trip: %v %+v", err, back.Results)
	}
	if m := ReadMachine(); m.Cores < 1 || (m.MemoryBytes == 0 && fileExists("/proc/meminfo")) {
		t.Errorf("machine %+v", m)
	}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }
