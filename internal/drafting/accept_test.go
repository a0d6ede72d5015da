package drafting

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/wire"
)

// scripted is a target whose greedy answer is a fixed token list, with multi-character tokens so
// acceptance at token boundaries is exercised. It checks that it is only ever asked to continue
// the rendered prompt followed by whole tokens of its own answer.
type scripted struct {
	t      *testing.T
	prompt string
	tokens []string
	passes int
	fp     string
}

var _ Backend = (*scripted)(nil)

func (s *scripted) Name() string { return "scripted" }

func (s *scripted) Fingerprint(context.Context, string) (string, error) { return s.fp, nil }

func (s *scripted) Open(context.Context, string, []chat.Turn) (*PassState, error) {
	return &PassState{Prompt: s.prompt}, nil
}

// id is a token's id in the scripted vocabulary: the index of its first occurrence.
func (s *scripted) id(tok string) int32 {
	for i, t := range s.tokens {
		if t == tok {
			return int32(i)
		}
	}
	return -1
}

func (s *scripted) Pass(_ context.Context, st *PassState, _ Draft, n int) (PassResult, error) {
	s.passes++
	out := st.OutputText()
	i, acc := 0, ""
	for acc != out {
		if i == len(s.tokens) || !strings.HasPrefix(out, acc+s.tokens[i]) {
			s.t.Fatalf("asked to continue %q, which is not a token boundary of the answer", out)
		}
		acc += s.tokens[i]
		i++
	}
	if len(st.Output) != i {
		s.t.Fatalf("the state holds %d tokens for %d of the answer", len(st.Output), i)
	}
	end := min(i+n, len(s.tokens))
	res := PassResult{Stopped: end == len(s.tokens) && end-i < n, PromptTokens: 7}
	for _, tok := range s.tokens[i:end] {
		res.Tokens = append(res.Tokens, Token{ID: s.id(tok), Text: tok})
	}
	return res, nil
}

func openBody(t *testing.T, maxTokens int) json.RawMessage {
	t.Helper()
	req := map[string]any{"model": "m", "temperature": 0, "stream": true,
		"messages": []map[string]any{{"role": "user", "content": "hi"}}}
	if maxTokens > 0 {
		req["max_tokens"] = maxTokens
	}
	b, _ := json.Marshal(req)
	return b
}

func roundBody(t *testing.T, v wire.Verify) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestVerifyAcceptsAtTargetTokenBoundaries(t *testing.T) {
	tokens := []string{"He", "llo", " wor", "ld", "!"}
	for _, tc := range []struct {
		draft          string
		accepted, toks int
		next           string
		bonus          bool
	}{
		{"", 0, 0, "He", false},
		{"H", 0, 0, "He", false},          // a draft ending inside a target token accepts none of it
		{"Hel", 2, 1, "llo", false},       // the target's token is the correction, not the draft's rest
		{"Hello", 5, 2, " wor", true},     // whole draft accepted on a boundary: bonus
		{"Hello w", 5, 2, " wor", false},  // partial last token is not accepted
		{"Help", 2, 1, "llo", false},      // wrong second token
		{"xyz", 0, 0, "He", false},        // all wrong
		{"Hello world", 11, 4, "!", true}, // bonus is the last token
	} {
		t.Run(fmt.Sprintf("%q", tc.draft), func(t *testing.T) {
			d, _ := NewService(Options{Backend: &scripted{t: t, prompt: "P:", tokens: tokens}}, nil)
			v := wire.Verify{Chat: openBody(t, 0), Round: 1, Mode: wire.DraftModeText, Draft: tc.draft}
			res, cerr := d.Round(context.Background(), roundBody(t, v))
			if cerr != nil {
				t.Fatal(cerr)
			}
			if res.Accepted != tc.accepted || res.AcceptedTokens != tc.toks || res.Next != tc.next || res.Bonus != tc.bonus {
				t.Fatalf("got accepted=%d tokens=%d next=%q bonus=%v", res.Accepted, res.AcceptedTokens, res.Next, res.Bonus)
			}
			if _, err := wire.ParseVerifyResult(mustJSON(t, res), v); err != nil {
				t.Fatalf("the edge would refuse this result: %v", err)
			}
		})
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestVerifyRoundsRebuildTheAnswer: whatever the drafts (right, wrong, cut mid-token, random
// bytes), the text the rounds accept is exactly the target's answer, the usage counts its tokens,
// and max_tokens cuts it where plain decoding would.
func TestVerifyRoundsRebuildTheAnswer(t *testing.T) {
	tokens := strings.SplitAfter("The quick brown fox jumps over the lazy dog and keeps running far away.", " ")
	for seed := range uint64(40) {
		for _, maxTokens := range []int{0, 5} {
			rng := rand.New(rand.NewPCG(seed, 1))
			want := tokens
			if maxTokens > 0 {
				want = tokens[:maxTokens]
			}
			answer := strings.Join(want, "")
			be := &scripted{t: t, prompt: "P:", tokens: tokens}
			d, _ := NewService(Options{Backend: be}, nil)
			v := wire.Verify{Chat: openBody(t, maxTokens), Mode: wire.DraftModeText}
			var out string
			for round := 1; ; round++ {
				if round > 100 {
					t.Fatal("no end after 100 rounds")
				}
				full := strings.Join(tokens, "")[len(out):]
				switch rng.IntN(4) {
				case 0: // a correct prefix of any length
					v.Draft = full[:rng.IntN(len(full)+1)]
				case 1: // correct, then wrong
					v.Draft = full[:rng.IntN(len(full)+1)] + "zq"
				case 2: // noise
					v.Draft = fmt.Sprintf("%x", rng.Uint64())
				default:
					v.Draft = ""
				}
				v.Round = round
				res, cerr := d.Round(context.Background(), roundBody(t, v))
				if cerr != nil {
					t.Fatalf("seed %d round %d: %v", seed, round, cerr)
				}
				if _, err := wire.ParseVerifyResult(mustJSON(t, res), v); err != nil {
					t.Fatalf("seed %d round %d: the edge would refuse the result: %v", seed, round, err)
				}
				out += v.Draft[:res.Accepted] + res.Next
				v.Session, v.Chat = res.Session, nil
				if res.Done {
					if res.CompletionTokens != len(want) {
						t.Errorf("seed %d: usage says %d tokens, the answer has %d", seed, res.CompletionTokens, len(want))
					}
					break
				}
			}
			if out != answer {
				t.Fatalf("seed %d max %d: rounds rebuilt %q, want %q", seed, maxTokens, out, answer)
			}
			if len(d.sessions) != 0 {
				t.Fatal("a finished session was kept")
			}
		}
	}
}

// TestVerifyTokenMode: a token-mode session accepts draft ids while each is the target's own
// token, and the rounds rebuild the target's answer whatever the ids proposed.
func TestVerifyTokenMode(t *testing.T) {
	tokens := []string{"He", "llo", " wor", "ld", "!"}
	be := &scripted{t: t, prompt: "P:", tokens: tokens, fp: "llama/bos=1/eos=2/n=5/sha256:ab"}
	for _, tc := range []struct {
		draft      []int32
		toks, accB int
		next       string
		bonus      bool
	}{
		{nil, 0, 0, "He", false},
		{[]int32{0}, 1, 2, "llo", true},
		{[]int32{0, 1, 3}, 2, 5, " wor", false},
		{[]int32{1}, 0, 0, "He", false},
		{[]int32{0, 1, 2, 3}, 4, 11, "!", true},
		{[]int32{9999, 0}, 0, 0, "He", false},
	} {
		t.Run(fmt.Sprint(tc.draft), func(t *testing.T) {
			d, _ := NewService(Options{Backend: be}, nil)
			v := wire.Verify{Chat: openBody(t, 0), Round: 1, Mode: wire.DraftModeToken, Tokens: tc.draft, Fingerprint: be.fp}
			res, cerr := d.Round(context.Background(), roundBody(t, v))
			if cerr != nil {
				t.Fatal(cerr)
			}
			if res.AcceptedTokens != tc.toks || res.Accepted != tc.accB || res.Next != tc.next || res.Bonus != tc.bonus {
				t.Fatalf("got tokens=%d bytes=%d next=%q bonus=%v", res.AcceptedTokens, res.Accepted, res.Next, res.Bonus)
			}
			if res.NextToken == nil || tokens[*res.NextToken] != res.Next {
				t.Fatalf("next token id %v does not name %q", res.NextToken, res.Next)
			}
			// The edge checks the result against its own decoding of the ids it sent.
			var text string
			for _, id := range tc.draft {
				if int(id) < len(tokens) {
					text += tokens[id]
				} else {
					text += "?"
				}
			}
			v.Draft = text
			if _, err := wire.ParseVerifyResult(mustJSON(t, res), v); err != nil {
				t.Fatalf("the edge would refuse this result: %v", err)
			}
		})
	}

	// Random id drafts always rebuild the answer.
	rng := rand.New(rand.NewPCG(3, 4))
	for range 30 {
		d, _ := NewService(Options{Backend: be}, nil)
		v := wire.Verify{Chat: openBody(t, 0), Mode: wire.DraftModeToken, Fingerprint: be.fp}
		var out []string
		for round := 1; round < 50; round++ {
			v.Round, v.Tokens = round, nil
			for i := len(out); i < len(tokens) && rng.IntN(3) > 0; i++ {
				id := int32(i)
				if rng.IntN(4) == 0 {
					id = int32(rng.IntN(len(tokens)))
				}
				v.Tokens = append(v.Tokens, id)
			}
			res, cerr := d.Round(context.Background(), roundBody(t, v))
			if cerr != nil {
				t.Fatal(cerr)
			}
			for _, id := range v.Tokens[:res.AcceptedTokens] {
				out = append(out, tokens[id])
			}
			if res.Next != "" {
				out = append(out, res.Next)
			}
			v.Session, v.Chat, v.Fingerprint = res.Session, nil, ""
			if res.Done {
				break
			}
		}
		if strings.Join(out, "") != strings.Join(tokens, "") {
			t.Fatalf("rebuilt %q", strings.Join(out, ""))
		}
	}
}

// TestVerifyNeverSplitsACharacter: with target tokens that split characters (byte-level pieces
// of "é" and "ñ"), whatever the drafts, every result the edge gets has an accepted part and a
// next token made of whole characters (the edge refuses anything else), and the rounds rebuild
// the answer exactly, in both modes.
func TestVerifyNeverSplitsACharacter(t *testing.T) {
	tokens := []string{"a", "\xc3", "\xa9", "b", "\xc3", "\xb1", "!", "\xe2", "\x82", "\xac", "z"}
	answer := strings.Join(tokens, "")
	if !utf8.ValidString(answer) {
		t.Fatal("the scripted answer is not valid UTF-8")
	}
	be := &scripted{t: t, prompt: "P:", tokens: tokens, fp: "fp"}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, mode := range []string{wire.DraftModeText, wire.DraftModeToken} {
		for range 60 {
			d, _ := NewService(Options{Backend: be}, nil)
			v := wire.Verify{Chat: openBody(t, 0), Mode: mode, Fingerprint: be.fp}
			var out string
			for round := 1; ; round++ {
				if round > 40 {
					t.Fatal("no end after 40 rounds")
				}
				v.Round, v.Draft, v.Tokens = round, "", nil
				rest := answer[len(out):]
				if mode == wire.DraftModeText {
					// A prefix of the rest cut at a character boundary, sometimes with junk.
					cut := rng.IntN(len(rest) + 1)
					for cut > 0 && !utf8.ValidString(rest[:cut]) {
						cut--
					}
					v.Draft = rest[:cut]
					if rng.IntN(3) == 0 {
						v.Draft += "q"
					}
				} else {
					// Ids along the answer from where it stands (when that is a token boundary),
					// sometimes wrong.
					i, acc := 0, ""
					for acc != out && i < len(tokens) {
						acc += tokens[i]
						i++
					}
					for j := i; j < len(tokens) && rng.IntN(4) > 0; j++ {
						id := int32(j)
						if rng.IntN(5) == 0 {
							id = int32(rng.IntN(len(tokens)))
						}
						v.Tokens = append(v.Tokens, id)
						v.Draft += tokens[id]
					}
				}
				onWire := v
				if mode == wire.DraftModeToken {
					onWire.Draft = ""
				}
				res, cerr := d.Round(context.Background(), roundBody(t, onWire))
				if cerr != nil {
					t.Fatalf("%s round %d: %v", mode, round, cerr)
				}
				if _, err := wire.ParseVerifyResult(mustJSON(t, res), v); err != nil {
					t.Fatalf("%s round %d: the edge would refuse the result (%v): accepted %q next %q",
						mode, round, err, v.Draft[:min(res.Accepted, len(v.Draft))], res.Next)
				}
				out += v.Draft[:res.Accepted] + res.Next
				v.Session, v.Chat, v.Fingerprint = res.Session, nil, ""
				if res.Done {
					if res.CompletionTokens != len(tokens) {
						t.Fatalf("%s: usage says %d tokens, the answer has %d", mode, res.CompletionTokens, len(tokens))
					}
					break
				}
			}
			if out != answer {
				t.Fatalf("%s: rebuilt %q, want %q", mode, out, answer)
			}
		}
	}
}
