package pipeline

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/goleak"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/guard"
	"github.com/sucursal/sucursal/internal/redact"
)

// fakeClassifier answers by a function of the text and records what it was asked.
type fakeClassifier struct {
	name string
	kind guard.Kind
	fn   func(ctx context.Context, text string) (guard.Verdict, error)
	mu   sync.Mutex
	seen []string
}

func (f *fakeClassifier) Name() string     { return f.name }
func (f *fakeClassifier) Kind() guard.Kind { return f.kind }
func (f *fakeClassifier) Classify(ctx context.Context, text string) (guard.Verdict, error) {
	f.mu.Lock()
	f.seen = append(f.seen, text)
	f.mu.Unlock()
	return f.fn(ctx, text)
}

func (f *fakeClassifier) texts() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.seen...)
}

// unsafeIf is a safety classifier that calls a text unsafe (S2) when it contains marker.
func unsafeIf(marker string) *fakeClassifier {
	return &fakeClassifier{name: "fake-safety", kind: guard.KindSafety, fn: func(_ context.Context, text string) (guard.Verdict, error) {
		if strings.Contains(text, marker) {
			s2, _ := guard.LookupCategory("S2")
			return guard.Verdict{Malicious: true, Score: 1, Categories: []guard.Category{s2}}, nil
		}
		return guard.Verdict{}, nil
	}}
}

func failing() *fakeClassifier {
	return &fakeClassifier{name: "fake-down", kind: guard.KindSafety, fn: func(context.Context, string) (guard.Verdict, error) {
		return guard.Verdict{}, guard.ErrBackend
	}}
}

func newTestGuard(t testing.TB, p guard.Policy, in, out []guard.Classifier, fallback guard.Classifier) (*guard.Guard, *prometheus.Registry, *bytes.Buffer) {
	t.Helper()
	reg := prometheus.NewRegistry()
	var logs bytes.Buffer
	g, err := guard.New(p, in, out, fallback, reg, slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err != nil {
		t.Fatal(err)
	}
	return g, reg, &logs
}

func syncPolicy() guard.Policy {
	p := guard.DefaultPolicy()
	p.Output.Async = false // deterministic cuts in unit tests
	p.Output.CheckEvery, p.Output.Window = 4, 16
	return p
}

// reached records whether the terminal (the exit to the DC) was called.
type reached struct {
	mu   sync.Mutex
	seen *chat.Request
}

func (r *reached) terminal(size int) Handler {
	var seen chat.Request
	inner := echoTerminal(size, &seen)
	return HandlerFunc(func(ctx context.Context, req *Request, w ResponseWriter) error {
		err := inner.ServeChat(ctx, req, w)
		r.mu.Lock()
		r.seen = &seen
		r.mu.Unlock()
		return err
	})
}

func (r *reached) called() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.seen != nil
}

func userRequest(stream bool, text string) *Request {
	return &Request{ID: "t", Chat: &chat.Request{Model: "m", Stream: stream, Messages: []chat.Message{
		{Role: "system", Content: chat.TextContent("Eres un asistente.")},
		{Role: "user", Content: chat.TextContent(text)},
	}}}
}

func asChat(t *testing.T, err error) *chat.Error {
	t.Helper()
	var ce *chat.Error
	if !errors.As(err, &ce) {
		t.Fatalf("want a *chat.Error, got %v", err)
	}
	return ce
}

// The input verdict decides whether anything reaches the exit, streamed or not, in every
// composition Build offers.
func TestGuardStageInput(t *testing.T) {
	r := newRedactor(t)
	refusal := guard.DefaultPolicy()
	refusal.OnBlock, refusal.RefusalMessage = "refusal", "No puedo ayudar con eso."
	open := guard.DefaultPolicy()
	open.FailMode = guard.FailOpen
	flagS2 := guard.DefaultPolicy()
	flagS2.Safety.Categories["S2"] = guard.ActionFlag
	for _, tc := range []struct {
		name       string
		policy     guard.Policy
		classifier *fakeClassifier
		text       string
		wantCode   string // "" = answered
		wantStatus int
		wantHeader string
		wantAnswer string // when answered: the user's text comes back (echo) unless a refusal
	}{
		{name: "safe", policy: guard.DefaultPolicy(), classifier: unsafeIf("robar"), text: "Hola, ¿qué hora es?"},
		{name: "unsafe", policy: guard.DefaultPolicy(), classifier: unsafeIf("robar"), text: "Quiero robar un banco",
			wantCode: "content_policy_violation", wantStatus: 400},
		{name: "refusal", policy: refusal, classifier: unsafeIf("robar"), text: "Quiero robar un banco", wantAnswer: refusal.RefusalMessage},
		{name: "down-closed", policy: guard.DefaultPolicy(), classifier: failing(), text: "Hola",
			wantCode: "guard_unavailable", wantStatus: 503},
		{name: "down-open", policy: open, classifier: failing(), text: "Hola", wantHeader: "degraded"},
		{name: "flagged", policy: flagS2, classifier: unsafeIf("robar"), text: "Quiero robar un banco", wantHeader: "flagged"},
	} {
		for _, sequential := range []bool{false, true} {
			for _, stream := range []bool{false, true} {
				g, _, logs := newTestGuard(t, tc.policy, []guard.Classifier{tc.classifier}, nil, nil)
				var exit reached
				rec := &recorder{}
				h := guardedPath(r, g, sequential)(exit.terminal(3))
				err := h.ServeChat(context.Background(), userRequest(stream, tc.text), rec)
				name := tc.name
				if tc.wantCode != "" {
					ce := asChat(t, err)
					if ce.Code != tc.wantCode || ce.Status != tc.wantStatus {
						t.Fatalf("%s stream=%v seq=%v: got %d %s, want %d %s", name, stream, sequential, ce.Status, ce.Code, tc.wantStatus, tc.wantCode)
					}
					if tc.wantCode == "content_policy_violation" && !strings.Contains(ce.Message, "Non-Violent Crimes") {
						t.Errorf("%s: the message does not name the category: %q", name, ce.Message)
					}
					if tc.wantCode == "guard_unavailable" && ce.RetryAfter <= 0 {
						t.Errorf("%s: no Retry-After", name)
					}
					if exit.called() {
						t.Fatalf("%s stream=%v seq=%v: the request left the branch", name, stream, sequential)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s stream=%v seq=%v: %v", name, stream, sequential, err)
				}
				got := rec.text()
				if !stream {
					got = *rec.comp.Choices[0].Message.Content.Text
				}
				want := "Eres un asistente.|" + tc.text
				if tc.wantAnswer != "" {
					want = tc.wantAnswer
					if exit.called() {
						t.Fatalf("%s: a refused request left the branch", name)
					}
				}
				if got != want {
					t.Fatalf("%s stream=%v seq=%v: got %q, want %q", name, stream, sequential, got, want)
				}
				if h := rec.Header().Get(GuardHeader); h != tc.wantHeader {
					t.Errorf("%s: %s = %q, want %q", name, GuardHeader, h, tc.wantHeader)
				}
				if strings.Contains(logs.String(), tc.text) {
					t.Errorf("%s: the guard logged the text", name)
				}
			}
		}
	}
}

// The guard and the stages below it run at the same time: a classifier that cannot answer until
// the stage under Guard has started passes in the concurrent composition and times out (failing
// closed) in the sequential one. No clock is read: the budget only ends the sequential case.
func TestGuardRunsConcurrentlyWithTheStagesBelow(t *testing.T) {
	for _, sequential := range []bool{false, true} {
		belowStarted := make(chan struct{})
		var once sync.Once
		probe := func(next Handler) Handler {
			return HandlerFunc(func(ctx context.Context, req *Request, w ResponseWriter) error {
				once.Do(func() { close(belowStarted) })
				return next.ServeChat(ctx, req, w)
			})
		}
		waits := &fakeClassifier{name: "waits", kind: guard.KindSafety, fn: func(ctx context.Context, _ string) (guard.Verdict, error) {
			select {
			case <-belowStarted:
				return guard.Verdict{}, nil
			case <-ctx.Done():
				return guard.Verdict{}, ctx.Err()
			}
		}}
		p := guard.DefaultPolicy()
		p.Timeout = 300 * time.Millisecond
		g, _, _ := newTestGuard(t, p, []guard.Classifier{waits}, nil, nil)
		var stages Stage
		if sequential {
			stages = Chain(Guard(g), AwaitChecks(), probe, Redact(newRedactor(t)))
		} else {
			stages = Chain(Guard(g), probe, Redact(newRedactor(t)), AwaitChecks())
		}
		var exit reached
		err := stages(exit.terminal(64)).ServeChat(context.Background(), userRequest(false, "Hola"), &recorder{})
		if !sequential && err != nil {
			t.Fatalf("concurrent: %v", err)
		}
		if sequential && asChat(t, err).Code != "guard_unavailable" {
			t.Fatalf("sequential: want the check to time out waiting, got %v", err)
		}
	}
}

// When the local guard is down, the DC fallback gets the redacted text of the same message — the
// DNI never — and its verdict decides.
func TestGuardFailoverSeesRedactedTextOnly(t *testing.T) {
	const dni = "12345678Z"
	for _, tc := range []struct {
		name     string
		dc       *fakeClassifier
		wantCode string
	}{
		{"dc-safe", unsafeIf("nunca"), ""},
		{"dc-unsafe", unsafeIf("robar"), "content_policy_violation"},
	} {
		tc.dc.name = "dc"
		g, reg, logs := newTestGuard(t, guard.DefaultPolicy(), []guard.Classifier{failing()}, nil, tc.dc)
		var exit reached
		h := guardedPath(newRedactor(t), g, false)(exit.terminal(64))
		text := "Mi DNI es " + dni + " y quiero robar"
		err := h.ServeChat(context.Background(), userRequest(true, text), &recorder{})
		if tc.wantCode == "" && err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if tc.wantCode != "" && asChat(t, err).Code != tc.wantCode {
			t.Fatalf("%s: got %v, want %s", tc.name, err, tc.wantCode)
		}
		seen := tc.dc.texts()
		if len(seen) == 0 {
			t.Fatalf("%s: the DC guard was not asked", tc.name)
		}
		for _, s := range seen {
			if strings.Contains(s, dni) {
				t.Fatalf("%s: the DC guard saw the DNI", tc.name)
			}
			if !placeholderRE.MatchString(s) {
				t.Errorf("%s: the DC guard saw %q, not the redacted user message", tc.name, s)
			}
		}
		if strings.Contains(logs.String(), dni) {
			t.Errorf("%s: the DNI reached a log", tc.name)
		}
		mfs, _ := reg.Gather()
		found := false
		for _, mf := range mfs {
			found = found || mf.GetName() == "sucursal_guard_failovers_total"
		}
		if !found {
			t.Errorf("%s: no failover metric", tc.name)
		}
	}
}

// An unsafe answer is cut: streamed, the chunk whose check finds it unsafe (and everything after)
// never reaches the user and the stage returns content_policy_violation (the API turns it into a
// terminal SSE error event); not streamed, the error replaces the completion. With check_every=1
// every chunk is checked before it goes out, so the unsafe words never reach the user; with a
// larger check_every, at most check_every+chunk-1 bytes past them do (the documented trade-off).
func TestGuardStageOutput(t *testing.T) {
	const bad, chunk = "ROBAR", 3
	text := "uno dos tres cuatro " + bad + " cinco seis siete ocho nueve diez"
	for _, every := range []int{1, 4} {
		for _, stream := range []bool{true, false} {
			p := syncPolicy()
			p.Output.CheckEvery = every
			out := unsafeIf(bad)
			g, _, _ := newTestGuard(t, p, nil, []guard.Classifier{out}, nil)
			var exit reached
			rec := &recorder{}
			err := guardedPath(newRedactor(t), g, false)(exit.terminal(chunk)).ServeChat(context.Background(),
				&Request{ID: "t", Chat: &chat.Request{Model: "m", Stream: stream, Messages: []chat.Message{{Role: "user", Content: chat.TextContent(text)}}}}, rec)
			ce := asChat(t, err)
			if ce.Code != "content_policy_violation" || !strings.Contains(ce.Message, "answer") {
				t.Fatalf("every=%d stream=%v: got %v", every, stream, err)
			}
			if strings.Contains(ce.Message, bad) {
				t.Fatalf("every=%d stream=%v: the error quotes the answer", every, stream)
			}
			if !stream {
				if rec.comp != nil {
					t.Fatal("the unsafe completion reached the user")
				}
				continue
			}
			got := rec.text()
			end := strings.Index(text, bad) + len(bad)
			if !strings.HasPrefix(text, got) {
				t.Fatalf("every=%d: the user got %q, not a prefix of the answer", every, got)
			}
			if every == 1 && strings.Contains(got, bad) {
				t.Fatalf("every=1: the unsafe words reached the user: %q", got)
			}
			if past := len(got) - end; past >= every+chunk {
				t.Fatalf("every=%d: %d bytes past the unsafe words reached the user (%q)", every, past, got)
			}
		}
	}
}

// A safe answer streams through the output guard unchanged, and the final check runs before the
// last chunk.
func TestGuardStageOutputSafe(t *testing.T) {
	out := unsafeIf("nunca-aparece")
	g, _, _ := newTestGuard(t, syncPolicy(), []guard.Classifier{unsafeIf("nunca")}, []guard.Classifier{out}, nil)
	var exit reached
	rec := &recorder{}
	text := "Mi DNI es 12345678Z, gracias"
	if err := guardedPath(newRedactor(t), g, false)(exit.terminal(2)).ServeChat(context.Background(), userRequest(true, text), rec); err != nil {
		t.Fatal(err)
	}
	if want := "Eres un asistente.|" + text; rec.text() != want {
		t.Fatalf("got %q, want %q", rec.text(), want)
	}
	// The output guard sees the rehydrated answer: it runs on the NUC.
	if all := strings.Join(out.texts(), ""); !strings.Contains(all, "12345678Z") {
		t.Errorf("the output guard did not see the rehydrated answer")
	}
}

// Every goroutine the stage starts (the input check, async output checks) is waited for before it
// returns: on success, on a cut, on a blocked prompt and when the caller goes away mid-answer.
func TestGuardStageLeavesNoGoroutine(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	slowUnsafe := &fakeClassifier{name: "slow", kind: guard.KindSafety, fn: func(ctx context.Context, text string) (guard.Verdict, error) {
		<-ctx.Done() // never answers on its own: only cancellation ends it
		return guard.Verdict{}, ctx.Err()
	}}
	p := guard.DefaultPolicy()
	p.Output.CheckEvery, p.Output.Window = 2, 8 // async checks start after two bytes
	for _, tc := range []struct {
		name   string
		in     *fakeClassifier
		cancel bool
	}{
		{"answer ends while an output check hangs", unsafeIf("nunca"), false},
		{"blocked", unsafeIf("Hola"), false},
		{"caller gone mid-answer", unsafeIf("nunca"), true},
	} {
		g, _, _ := newTestGuard(t, p, []guard.Classifier{tc.in}, []guard.Classifier{slowUnsafe}, nil)
		ctx, cancel := context.WithCancel(context.Background())
		terminal := HandlerFunc(func(ctx context.Context, req *Request, w ResponseWriter) error {
			for i := range 10 {
				s := "ab"
				if err := w.WriteChunk(&chat.Chunk{ID: "x", Choices: []chat.ChunkChoice{{Delta: chat.Delta{Content: &s}}}}); err != nil {
					return err
				}
				if tc.cancel && i == 3 {
					cancel()
					return ctx.Err()
				}
			}
			return nil
		})
		if !tc.cancel {
			// Without a caller that leaves, the slow output check only ends at the request's end:
			// bound it so the final check cannot wait forever.
			var c2 context.CancelFunc
			ctx, c2 = context.WithTimeout(ctx, 200*time.Millisecond)
			defer c2()
		}
		_ = guardedPath(newRedactor(t), g, false)(terminal).ServeChat(ctx, userRequest(true, "Hola"), &recorder{})
		cancel()
	}
}

// guardedPath is the part of the request path these tests exercise, as agent.requestPath composes
// it: the guard's check runs beside redaction and is awaited above the exit (or, sequential, before
// redaction starts).
func guardedPath(r *redact.Redactor, g *guard.Guard, sequential bool) Stage {
	if sequential {
		return Chain(Guard(g), AwaitChecks(), Redact(r))
	}
	return Chain(Guard(g), Redact(r), AwaitChecks())
}
