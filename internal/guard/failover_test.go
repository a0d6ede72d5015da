package guard

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
)

// redactedAs gives a ScanText whose redacted form replaces secret with a placeholder, and counts
// how often the redacted text was asked for.
func redactedAs(text, secret string, calls *atomic.Int32) ScanText {
	return ScanText{Source: SourceUser, Text: text, Redacted: func(context.Context) (string, error) {
		calls.Add(1)
		return strings.ReplaceAll(text, secret, "[PERSON_1]"), nil
	}}
}

func TestFailoverSendsOnlyRedactedText(t *testing.T) {
	const secret = "Maria Gonzalez"
	text := "transfer all of " + secret + "'s savings"
	for _, verdict := range []string{"safe", "S2"} {
		t.Run(verdict, func(t *testing.T) {
			dc := &fake{name: "dc", kind: KindSafety, fn: safetySays()}
			if verdict != "safe" {
				dc.fn = safetySays(verdict)
			}
			local := &fake{name: "lg", kind: KindSafety, fn: down}
			h := newHarness(t, DefaultPolicy(), []Classifier{local}, nil, dc)
			var calls atomic.Int32
			d, err := h.g.CheckInput(context.Background(), []ScanText{redactedAs(text, secret, &calls)})
			if verdict == "safe" {
				if err != nil || d.Action != ActionAllow || !d.FailedOver || d.Degraded {
					t.Fatalf("decision %+v err %v", d, err)
				}
			} else if !errors.Is(err, ErrBlocked) || !d.FailedOver {
				t.Fatalf("decision %+v err %v", d, err)
			}
			seen := dc.texts()
			want := []string{strings.ReplaceAll(text, secret, "[PERSON_1]")}
			if !slices.Equal(seen, want) {
				t.Fatalf("DC guard saw %q, want only the redacted text", seen)
			}
			if calls.Load() != 1 {
				t.Errorf("redacted text asked for %d times", calls.Load())
			}
			if got := h.counter(t, "sucursal_guard_failovers_total", map[string]string{"classifier": "lg", "result": "ok"}); got != 1 {
				t.Errorf("failovers ok = %v", got)
			}
			h.assertNoLeak(t, secret)
		})
	}
}

func TestNoFailoverWithoutRedactedTextOrMatchingKind(t *testing.T) {
	tests := []struct {
		name     string
		dcKind   Kind
		redacted bool
		label    string
	}{
		{"no redacted text", KindSafety, false, "no_redacted_text"},
		{"fallback of another kind", KindInjection, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dc := &fake{name: "dc", kind: tt.dcKind, fn: func(context.Context, string) (Verdict, error) {
				return Verdict{Kind: tt.dcKind}, nil
			}}
			h := newHarness(t, DefaultPolicy(), []Classifier{&fake{name: "lg", kind: KindSafety, fn: down}}, nil, dc)
			st := ScanText{Source: SourceUser, Text: "hola"}
			if tt.redacted {
				var n atomic.Int32
				st = redactedAs("hola", "zzz", &n)
			}
			_, err := h.g.CheckInput(context.Background(), []ScanText{st})
			if !errors.Is(err, ErrGuardUnavailable) {
				t.Fatalf("err = %v, want fail closed", err)
			}
			if len(dc.texts()) != 0 {
				t.Fatalf("DC guard was called with %d texts", len(dc.texts()))
			}
			if tt.label != "" {
				if got := h.counter(t, "sucursal_guard_failovers_total", map[string]string{"result": tt.label}); got != 1 {
					t.Errorf("failovers{%s} = %v", tt.label, got)
				}
			}
		})
	}
}

func TestFailoverFailureFallsBackToFailMode(t *testing.T) {
	for _, fm := range []FailMode{FailClosed, FailOpen} {
		p := DefaultPolicy()
		p.FailMode = fm
		dc := &fake{name: "dc", kind: KindSafety, fn: down}
		h := newHarness(t, p, []Classifier{&fake{name: "lg", kind: KindSafety, fn: down}}, nil, dc)
		var n atomic.Int32
		d, err := h.g.CheckInput(context.Background(), []ScanText{redactedAs("hola", "zzz", &n)})
		if fm == FailClosed && !errors.Is(err, ErrGuardUnavailable) {
			t.Errorf("closed: err = %v", err)
		}
		if fm == FailOpen && (err != nil || !d.Degraded || d.FailedOver) {
			t.Errorf("open: decision %+v err %v", d, err)
		}
		if got := h.counter(t, "sucursal_guard_failovers_total", map[string]string{"result": "error"}); got != 1 {
			t.Errorf("%s: failovers{error} = %v", fm, got)
		}
	}
}

func TestFailoverIsOneCallPerTextForAllWindows(t *testing.T) {
	var calls atomic.Int32
	text := words(3000) // many injection windows, every one failing locally
	dc := &fake{name: "dc", kind: KindInjection, fn: injectionScore(0.1)}
	p := DefaultPolicy()
	h := newHarness(t, p, []Classifier{&fake{name: "pg", kind: KindInjection, fn: down}}, nil, dc)
	d, err := h.g.CheckInput(context.Background(), []ScanText{redactedAs(text, "cliente", &calls)})
	if err != nil || !d.FailedOver {
		t.Fatalf("decision %+v err %v", d, err)
	}
	wantDC := len(Windows(strings.ReplaceAll(text, "cliente", "[PERSON_1]"), p.Injection.WindowTokens, p.Injection.WindowOverlap))
	if wantDC < 2 {
		t.Fatalf("test text makes %d windows", wantDC)
	}
	// One redaction and one pass over the redacted windows, not one per failed local window.
	if calls.Load() != 1 || len(dc.texts()) != wantDC {
		t.Errorf("redacted asked %d times, DC called %d times", calls.Load(), len(dc.texts()))
	}
}

func TestNothingLeaksIntoLogsMetricsOrErrors(t *testing.T) {
	const secret = "ES9121000418450200051332"
	text := "wire 900 EUR to " + secret
	cases := []Classifier{
		&fake{name: "lg", kind: KindSafety, fn: safetySays("S2")},
		&fake{name: "lg", kind: KindSafety, fn: down},
		NewSafetyClassifier("lg", generatorFunc(func(context.Context, []Message) (Generation, error) {
			return Generation{Text: "the text " + text + " is fine"}, nil // a model that echoes
		}), RoleUser),
		&fake{name: "pg", kind: KindInjection, fn: injectionScore(0.97)},
	}
	for _, fm := range []FailMode{FailClosed, FailOpen} {
		for _, c := range cases {
			p := DefaultPolicy()
			p.FailMode = fm
			h := newHarness(t, p, []Classifier{c}, []Classifier{c}, nil)
			_, err := h.g.CheckInput(context.Background(), user(text))
			if err != nil && strings.Contains(err.Error(), secret) {
				t.Errorf("error quotes the text")
			}
			o := h.g.NewOutputScanner(context.Background())
			o.Write(text)
			if _, err := o.Close(); err != nil && strings.Contains(err.Error(), secret) {
				t.Errorf("output error quotes the text")
			}
			h.assertNoLeak(t, secret)
		}
	}
}
