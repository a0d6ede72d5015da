package drafting

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/wire"
)

func TestVerifyRefusals(t *testing.T) {
	be := &scripted{t: t, prompt: "P:", tokens: []string{"a", "b", "c", "d"}}
	d, _ := NewService(Options{Backend: be, TTL: time.Hour}, nil)
	first := wire.Verify{Chat: openBody(t, 0), Round: 1, Mode: wire.DraftModeText, Draft: "a"}
	res, cerr := d.Round(context.Background(), roundBody(t, first))
	if cerr != nil {
		t.Fatal(cerr)
	}
	sampling := map[string]any{"model": "m", "temperature": 0.7, "messages": []map[string]any{{"role": "user", "content": "x"}}}
	for _, tc := range []struct {
		name string
		body []byte
		code string
	}{
		{"not JSON", []byte("{"), "protocol_error"},
		{"unknown mode", roundBody(t, wire.Verify{Chat: openBody(t, 0), Round: 1, Mode: "bytes"}), "protocol_error"},
		{"token mode with text", roundBody(t, wire.Verify{Chat: openBody(t, 0), Round: 1, Mode: wire.DraftModeToken, Draft: "a"}), "protocol_error"},
		{"token mode, target fingerprint unknown", roundBody(t, wire.Verify{Chat: openBody(t, 0), Round: 1, Mode: wire.DraftModeToken,
			Tokens: []int32{0}, Fingerprint: "x"}), "draft_tokenizer_mismatch"},
		{"mode changed mid-session", roundBody(t, wire.Verify{Session: res.Session, Round: 2, Mode: wire.DraftModeToken, Tokens: []int32{1}}), "protocol_error"},
		{"too many tokens", roundBody(t, wire.Verify{Session: res.Session, Round: 2, Mode: wire.DraftModeToken,
			Tokens: make([]int32, wire.MaxDraftTokens+1)}), "protocol_error"},
		{"no chat", roundBody(t, wire.Verify{Round: 1, Mode: wire.DraftModeText}), "protocol_error"},
		{"sampling", roundBody(t, wire.Verify{Chat: mustJSON(t, sampling), Round: 1, Mode: wire.DraftModeText}), "draft_needs_greedy"},
		{"unknown session", roundBody(t, wire.Verify{Session: "nope", Round: 2, Mode: wire.DraftModeText}), "draft_session_expired"},
		{"replayed round", roundBody(t, wire.Verify{Session: res.Session, Round: 1, Mode: wire.DraftModeText}), "draft_round_out_of_order"},
		{"skipped round", roundBody(t, wire.Verify{Session: res.Session, Round: 3, Mode: wire.DraftModeText}), "draft_round_out_of_order"},
		{"oversized draft", roundBody(t, wire.Verify{Session: res.Session, Round: 2, Mode: wire.DraftModeText,
			Draft: strings.Repeat("a", wire.MaxDraftBytes+1)}), "protocol_error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, cerr := d.Round(context.Background(), tc.body)
			if cerr == nil || cerr.Code != tc.code {
				t.Fatalf("got %v, want code %s", cerr, tc.code)
			}
		})
	}
	// The session survived the refused rounds.
	if _, cerr := d.Round(context.Background(), roundBody(t, wire.Verify{Session: res.Session, Round: 2, Mode: wire.DraftModeText})); cerr != nil {
		t.Fatalf("round 2 after refusals: %v", cerr)
	}

	// An idle session expires when the next one opens.
	d.o.TTL = time.Nanosecond
	time.Sleep(time.Millisecond)
	if _, cerr := d.Round(context.Background(), roundBody(t, first)); cerr != nil {
		t.Fatal(cerr)
	}
	_, cerr = d.Round(context.Background(), roundBody(t, wire.Verify{Session: res.Session, Round: 3, Mode: wire.DraftModeText}))
	if cerr == nil || cerr.Code != "draft_session_expired" {
		t.Fatalf("after the TTL: got %v, want draft_session_expired", cerr)
	}
}

func TestDraftHelloChoosesTheMode(t *testing.T) {
	be := &scripted{t: t, prompt: "P:", tokens: []string{"a"}, fp: "llama/n=5"}
	d, _ := NewService(Options{Backend: be}, nil)
	for _, tc := range []struct {
		name     string
		h        wire.DraftHello
		mode     string
		reason   string
		errCode  string
		targetFP string
	}{
		{"same tokenizer", wire.DraftHello{Model: "m", Fingerprint: "llama/n=5", Modes: []string{"token", "text"}}, "token", "", "", "llama/n=5"},
		{"other tokenizer, text allowed", wire.DraftHello{Model: "m", Fingerprint: "llama/n=6", Modes: []string{"token", "text"}}, "text", "", "", "llama/n=5"},
		{"other tokenizer, token only", wire.DraftHello{Model: "m", Fingerprint: "llama/n=6", Modes: []string{"token"}}, "", wire.HelloTokenizerMismatch, "", "llama/n=5"},
		{"text only", wire.DraftHello{Model: "m", Modes: []string{"text"}}, "text", "", "", "llama/n=5"},
		{"no model", wire.DraftHello{Modes: []string{"text"}}, "", "", "protocol_error", ""},
		{"no modes", wire.DraftHello{Model: "m"}, "", "", "protocol_error", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, cerr := d.Hello(context.Background(), mustJSON(t, tc.h))
			if tc.errCode != "" {
				if cerr == nil || cerr.Code != tc.errCode {
					t.Fatalf("got %v, want %s", cerr, tc.errCode)
				}
				return
			}
			if cerr != nil {
				t.Fatal(cerr)
			}
			if res.Mode != tc.mode || res.Reason != tc.reason || res.Fingerprint != tc.targetFP || res.Verifier != "scripted" {
				t.Fatalf("got %+v", res)
			}
		})
	}
	// A backend that cannot know its tokenizer offers text mode only.
	d2, _ := NewService(Options{Backend: &scripted{t: t, tokens: []string{"a"}}}, nil)
	res, cerr := d2.Hello(context.Background(), mustJSON(t, wire.DraftHello{Model: "m", Fingerprint: "x", Modes: []string{"token"}}))
	if cerr != nil || res.Mode != "" || res.Reason != wire.HelloNoTokenMode {
		t.Fatalf("got %+v %v", res, cerr)
	}
}
