package wire

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseVerifyResult(t *testing.T) {
	sent := Verify{Session: "s1", Round: 3, Mode: DraftModeText, Draft: "cdé"} // 4 bytes
	ok := func(r VerifyResult) VerifyResult { r.Session, r.Round = "s1", 3; return r }
	for _, tc := range []struct {
		name string
		res  any
		ok   bool
	}{
		{"all accepted with bonus", ok(VerifyResult{Accepted: 4, AcceptedTokens: 3, Next: "f", Bonus: true, CompletionTokens: 9}), true},
		{"prefix and correction", ok(VerifyResult{Accepted: 1, AcceptedTokens: 1, Next: "x"}), true},
		{"nothing accepted, correction", ok(VerifyResult{Next: "x"}), true},
		{"ended", ok(VerifyResult{Accepted: 2, AcceptedTokens: 2, Done: true, FinishReason: "stop"}), true},
		{"not JSON", "nope", false},
		{"other session", VerifyResult{Session: "s2", Round: 3, Next: "x"}, false},
		{"other round", VerifyResult{Session: "s1", Round: 2, Next: "x"}, false},
		{"accepts more than sent", ok(VerifyResult{Accepted: 5, AcceptedTokens: 4, Next: "x"}), false},
		{"negative", ok(VerifyResult{Accepted: -1, Next: "x"}), false},
		{"cuts a rune", ok(VerifyResult{Accepted: 3, AcceptedTokens: 3, Next: "x"}), false},
		{"bytes without tokens", ok(VerifyResult{Accepted: 2, Next: "x"}), false},
		{"bonus after partial", ok(VerifyResult{Accepted: 2, AcceptedTokens: 2, Next: "x", Bonus: true}), false},
		{"unknown finish", ok(VerifyResult{Done: true, FinishReason: "tool_calls"}), false},
		{"no progress", ok(VerifyResult{}), false},
		{"token id in text mode", ok(VerifyResult{Next: "x", NextToken: new(int32(7))}), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b []byte
			if s, isStr := tc.res.(string); isStr {
				b = []byte(s)
			} else {
				b, _ = json.Marshal(tc.res)
			}
			_, err := ParseVerifyResult(b, sent)
			if (err == nil) != tc.ok {
				t.Fatalf("err = %v, want ok=%v", err, tc.ok)
			}
			if err != nil && !errors.Is(err, ErrBadVerifyResult) {
				t.Fatalf("error %v does not wrap ErrBadVerifyResult", err)
			}
		})
	}
}

func TestParseVerifyResultTokenMode(t *testing.T) {
	// Three draft tokens "c", "d", "é" (4 bytes, as the edge decodes them).
	sent := Verify{Session: "s1", Round: 3, Mode: DraftModeToken, Tokens: []int32{5, 6, 7}, Draft: "cdé"}
	id := int32(9)
	ok := func(r VerifyResult) VerifyResult { r.Session, r.Round = "s1", 3; return r }
	for _, tc := range []struct {
		name string
		res  VerifyResult
		ok   bool
	}{
		{"all accepted with bonus", ok(VerifyResult{Accepted: 4, AcceptedTokens: 3, Next: "f", NextToken: &id, Bonus: true}), true},
		{"two tokens and correction", ok(VerifyResult{Accepted: 2, AcceptedTokens: 2, Next: "x", NextToken: &id}), true},
		{"next without id", ok(VerifyResult{Accepted: 2, AcceptedTokens: 2, Next: "x"}), true},
		{"more tokens than sent", ok(VerifyResult{Accepted: 4, AcceptedTokens: 4, Next: "x"}), false},
		{"bonus after partial", ok(VerifyResult{Accepted: 2, AcceptedTokens: 2, Next: "x", Bonus: true}), false},
		{"cuts a rune", ok(VerifyResult{Accepted: 3, AcceptedTokens: 3, Next: "x"}), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, _ := json.Marshal(tc.res)
			if _, err := ParseVerifyResult(b, sent); (err == nil) != tc.ok {
				t.Fatalf("err = %v, want ok=%v", err, tc.ok)
			}
		})
	}
}

// FuzzParseVerifyResult: whatever the gateway sends, an accepted result is consistent with the
// round (the accepted bytes are a valid-UTF-8 prefix of the draft) and errors never quote it.
func FuzzParseVerifyResult(f *testing.F) {
	f.Add([]byte(`{"session":"s","round":1,"accepted":2,"accepted_tokens":2,"next":"x"}`), "ab", false)
	f.Add([]byte(`{"session":"s","round":1,"done":true,"finish_reason":"stop"}`), "", false)
	f.Add([]byte(`{"session":"s","round":1,"accepted":9}`), "é", false)
	f.Add([]byte(`{"session":"s","round":1,"accepted":2,"accepted_tokens":2,"next":"x","next_token":7,"bonus":true}`), "ab", true)
	f.Fuzz(func(t *testing.T, payload []byte, draft string, tokenMode bool) {
		sent := Verify{Session: "s", Round: 1, Draft: draft, Mode: DraftModeText}
		if tokenMode {
			// One id per byte of the draft, as if each byte were a token.
			sent.Mode, sent.Tokens = DraftModeToken, make([]int32, len(draft))
		}
		r, err := ParseVerifyResult(payload, sent)
		if err != nil {
			if len(payload) > 12 && strings.Contains(err.Error(), string(payload)) {
				t.Fatalf("error quotes the payload: %v", err)
			}
			return
		}
		if r.Accepted < 0 || r.Accepted > len(draft) || !utf8.ValidString(draft[:r.Accepted]) {
			t.Fatalf("accepted %d of %q", r.Accepted, draft)
		}
		if !r.Done && r.Accepted == 0 && r.Next == "" {
			t.Fatal("a result without progress was accepted")
		}
		if tokenMode && (r.AcceptedTokens > len(sent.Tokens) || r.Bonus && r.AcceptedTokens != len(sent.Tokens)) {
			t.Fatalf("accepted %d of %d tokens (bonus %v)", r.AcceptedTokens, len(sent.Tokens), r.Bonus)
		}
		if !tokenMode && r.NextToken != nil {
			t.Fatal("a token id was accepted in a text-mode result")
		}
	})
}
