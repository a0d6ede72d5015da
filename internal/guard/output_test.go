package guard

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// bombDetector flags S9 whenever a window contains the word.
func bombDetector() *fake {
	return &fake{name: "lg-out", kind: KindSafety, fn: func(_ context.Context, w string) (Verdict, error) {
		if strings.Contains(w, "BOMB") {
			return safetySays("S9")(nil, w)
		}
		return safetySays()(nil, w)
	}}
}

// outPolicy is synchronous, so a test knows which Write saw which check; async has its own tests.
func outPolicy(every, window int) Policy {
	p := DefaultPolicy()
	p.Output.CheckEvery, p.Output.Window, p.Output.Async = every, window, false
	return p
}

func TestOutputScannerCutsUnsafeAnswer(t *testing.T) {
	det := bombDetector()
	h := newHarness(t, outPolicy(20, 60), nil, []Classifier{det}, nil)
	o := h.g.NewOutputScanner(context.Background())
	// The word arrives split across deltas; the check is due only after enough bytes.
	deltas := []string{"Here is how to make ", "a B", "OMB at home", " with common tools: first", " take the", " rest"}
	blockedAt := -1
	for i, d := range deltas {
		dec, err := o.Write(d)
		if err != nil {
			if !errors.Is(err, ErrBlocked) || dec.Action != ActionBlock {
				t.Fatalf("delta %d: decision %+v err %v", i, dec, err)
			}
			blockedAt = i
			break
		}
	}
	// Checks run at 20, 40, 60… bytes; "BOMB" is complete at byte 31, so the check at ≥40 bytes
	// (delta 3) is the first that can see it.
	cum, want := 0, -1
	for i, d := range deltas {
		cum += len(d)
		if strings.Contains(strings.Join(deltas[:i+1], ""), "BOMB") && cum >= 40 {
			want = i
			break
		}
	}
	if blockedAt != want {
		t.Fatalf("blocked at delta %d, want %d", blockedAt, want)
	}
	// Sticky: the stream stays cut.
	if _, err := o.Write("more"); !errors.Is(err, ErrBlocked) {
		t.Errorf("write after block: %v", err)
	}
	if d, err := o.Close(); !errors.Is(err, ErrBlocked) || d.Categories[0].Code != "S9" {
		t.Errorf("close after block: %+v %v", d, err)
	}
	if got := h.counter(t, "sucursal_guard_decisions_total", map[string]string{"stage": "output", "action": "block"}); got != 1 {
		t.Errorf("output block decisions = %v", got)
	}
}

func TestOutputScannerChecksEveryByteWithContext(t *testing.T) {
	answer := strings.Repeat("El saldo de la cuenta es correcto. ", 40) + "ñandú 😀 fin"
	written := 0
	var spans [][2]int // [start, end) of each checked window within the answer
	det := &fake{name: "lg-out", kind: KindSafety, fn: func(_ context.Context, w string) (Verdict, error) {
		// A check sees the end of what was written so far.
		if !strings.HasSuffix(answer[:written], w) {
			t.Errorf("window is not the tail of the answer so far")
		}
		spans = append(spans, [2]int{written - len(w), written})
		return Verdict{Kind: KindSafety}, nil
	}}
	h := newHarness(t, outPolicy(32, 96), nil, []Classifier{det}, nil)
	o := h.g.NewOutputScanner(context.Background())
	for i := 0; i < len(answer); i += 7 {
		delta := answer[i:min(i+7, len(answer))]
		written += len(delta)
		if _, err := o.Write(delta); err != nil {
			t.Fatal(err)
		}
	}
	if d, err := o.Close(); err != nil || d.Action != ActionAllow {
		t.Fatalf("decision %+v err %v", d, err)
	}
	// Writes of 7 bytes, a check every ≥32: about len/35 checks, never one per write.
	if maxChecks := len(answer)/32 + 1; len(spans) > maxChecks || len(spans) < len(answer)/40 {
		t.Errorf("%d checks for %d bytes", len(spans), len(answer))
	}
	end := 0
	for i, s := range spans {
		if s[0] > end {
			t.Fatalf("check %d: bytes %d..%d were never checked", i, end, s[0])
		}
		if s[1]-s[0] > 96+3 {
			t.Errorf("window of %d bytes, want ≤ window", s[1]-s[0])
		}
		// Each check after the first carries earlier bytes as context, not just the new ones.
		if i > 0 && end-s[0] < min(end, 96-32-3) {
			t.Errorf("check %d has %d bytes of context", i, end-s[0])
		}
		end = s[1]
	}
	if end != len(answer) {
		t.Errorf("checks ended at byte %d of %d", end, len(answer))
	}
}

func TestOutputScannerCloseChecksTheTail(t *testing.T) {
	det := bombDetector()
	h := newHarness(t, outPolicy(1000, 2000), nil, []Classifier{det}, nil)
	o := h.g.NewOutputScanner(context.Background())
	if _, err := o.Write("short answer with a BOMB"); err != nil {
		t.Fatalf("checked before check_every: %v", err)
	}
	if len(det.texts()) != 0 {
		t.Fatal("checked before check_every")
	}
	if d, err := o.Close(); !errors.Is(err, ErrBlocked) || d.Action != ActionBlock {
		t.Fatalf("close: %+v %v", d, err)
	}
	if _, err := o.Write("x"); !errors.Is(err, ErrScannerClosed) {
		t.Errorf("write after close: %v", err)
	}
}

func TestOutputScannerFailModes(t *testing.T) {
	for _, fm := range []FailMode{FailClosed, FailOpen} {
		p := outPolicy(10, 40)
		p.FailMode = FailOpen // the input side's mode must not matter
		p.Output.FailMode = fm
		h := newHarness(t, p, nil, []Classifier{&fake{name: "lg-out", kind: KindSafety, fn: down}}, nil)
		o := h.g.NewOutputScanner(context.Background())
		_, err := o.Write(strings.Repeat("a", 15))
		d, cerr := o.Close()
		if fm == FailClosed && (!errors.Is(err, ErrGuardUnavailable) || !errors.Is(cerr, ErrGuardUnavailable)) {
			t.Errorf("closed: write %v close %v", err, cerr)
		}
		if fm == FailOpen && (err != nil || cerr != nil || !d.Degraded) {
			t.Errorf("open: %+v %v %v", d, err, cerr)
		}
	}
}

func TestOutputScannerNeverFailsOver(t *testing.T) {
	dc := &fake{name: "dc", kind: KindSafety, fn: safetySays()}
	p := outPolicy(10, 40)
	p.Output.FailMode = FailOpen
	h := newHarness(t, p, nil, []Classifier{&fake{name: "lg-out", kind: KindSafety, fn: down}}, dc)
	o := h.g.NewOutputScanner(context.Background())
	o.Write("the rehydrated answer names Maria Gonzalez")
	o.Close()
	if n := len(dc.texts()); n != 0 {
		t.Fatalf("rehydrated answer sent to the DC guard %d times", n)
	}
}

func TestOutputScannerDisabledPassesThrough(t *testing.T) {
	p := outPolicy(1, 1)
	p.Output.Enabled = false
	det := bombDetector()
	h := newHarness(t, p, nil, []Classifier{det}, nil)
	o := h.g.NewOutputScanner(context.Background())
	if d, err := o.Write("BOMB"); err != nil || d.Action != ActionAllow {
		t.Fatal(d, err)
	}
	if d, err := o.Close(); err != nil || d.Action != ActionAllow || len(det.texts()) != 0 {
		t.Fatal(d, err)
	}
}

func TestOutputScannerAsyncDoesNotHoldTheStream(t *testing.T) {
	started, release := make(chan struct{}, 4), make(chan struct{})
	det := &fake{name: "lg-out", kind: KindSafety, fn: func(ctx context.Context, w string) (Verdict, error) {
		started <- struct{}{}
		<-release
		return bombDetector().fn(ctx, w)
	}}
	p := outPolicy(10, 40)
	p.Output.Async = true
	h := newHarness(t, p, nil, []Classifier{det}, nil)
	o := h.g.NewOutputScanner(context.Background())
	// This Write makes a check due; it must return while the check is still running (if it
	// waited, it would wait for release forever).
	if d, err := o.Write("a BOMB recipe"); err != nil || d.Action != ActionAllow {
		t.Fatalf("first write: %+v %v", d, err)
	}
	<-started
	// More text arrives while the check runs: forwarded at once, no second check started.
	for range 5 {
		if _, err := o.Write(" and more text"); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(det.texts()); n != 1 {
		t.Fatalf("%d checks in flight, want 1", n)
	}
	close(release)
	// Close waits for the check in flight; its block is the answer's verdict.
	d, err := o.Close()
	if !errors.Is(err, ErrBlocked) || d.Action != ActionBlock {
		t.Fatalf("close: %+v %v", d, err)
	}
	if n := len(det.texts()); n != 1 {
		t.Errorf("%d checks after a block, want no more", n)
	}
}

func TestOutputScannerAsyncChecksTheWholeAnswer(t *testing.T) {
	det := bombDetector()
	p := outPolicy(16, 64)
	p.Output.Async = true
	h := newHarness(t, p, nil, []Classifier{det}, nil)
	o := h.g.NewOutputScanner(context.Background())
	answer := strings.Repeat("todo en orden. ", 30) + "BOMB"
	for i := 0; i < len(answer); i += 5 {
		if _, err := o.Write(answer[i:min(i+5, len(answer))]); err != nil {
			break // a background check may already have cut it
		}
	}
	if d, err := o.Close(); !errors.Is(err, ErrBlocked) || d.Action != ActionBlock {
		t.Fatalf("the last bytes were not checked: %+v %v", d, err)
	}
}
