package drafter

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/ollamatest"
	"github.com/sucursal/sucursal/internal/testmodel"
)

// fakeLlamaServer answers /apply-template and /completion like llama-server (tools/server in
// ggml-org/llama.cpp) serving a generated model: greedy continuation by the spec's successor
// table, an entry in completion_probabilities per token once the text ends on a whole character
// (its bytes all text not yet sent), the end-of-generation token with empty bytes, the extra
// fields the real answer has, and response_fields applied to the top level.
type fakeLlamaServer struct {
	spec testmodel.Spec

	mu       sync.Mutex
	requests []map[string]any
	canned   *cannedAnswer // when set, every request gets this instead
}

type cannedAnswer struct {
	status int
	body   string
}

func (f *fakeLlamaServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req map[string]any
	if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&req) != nil {
		http.Error(w, `{"error":{"code":400,"message":"bad request","type":"invalid_request_error"}}`, http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.requests = append(f.requests, req)
	canned := f.canned
	f.mu.Unlock()
	if canned != nil {
		w.WriteHeader(canned.status)
		_, _ = w.Write([]byte(canned.body))
		return
	}
	var out map[string]any
	switch r.URL.Path {
	case "/apply-template":
		var b strings.Builder
		for _, m := range req["messages"].([]any) {
			m := m.(map[string]any)
			b.WriteString("<|" + m["role"].(string) + "|>" + m["content"].(string) + "\n")
		}
		out = map[string]any{"prompt": b.String()}
	case "/completion":
		out = f.complete(req["prompt"].(string), int(req["n_predict"].(float64)))
		if fields, ok := req["response_fields"].([]any); ok {
			kept := map[string]any{}
			for _, k := range fields {
				if v, ok := out[k.(string)]; ok {
					kept[k.(string)] = v
				}
			}
			out = kept
		}
	default:
		http.NotFound(w, r)
		return
	}
	_ = json.NewEncoder(w).Encode(out)
}

func (f *fakeLlamaServer) complete(prompt string, n int) map[string]any {
	ids := append([]int{testmodel.BOSID}, f.spec.TokenIDs(prompt)...)
	last := ids[len(ids)-1]
	var (
		tokens  []int
		probs   []map[string]any
		content string
		pending []byte
		stop    = "limit"
	)
	for range n {
		last = f.spec.Next(last)
		tokens = append(tokens, last)
		text := ""
		if last > testmodel.EOSID { // control tokens print as "" without --special
			text, _ = f.spec.PieceText(last)
		}
		content += text
		pending = append(pending, text...)
		if utf8.Valid(pending) {
			ints := make([]int, len(pending))
			for i, c := range pending {
				ints[i] = int(c)
			}
			entry := map[string]any{"id": last, "token": string(pending), "bytes": ints, "logprob": -0.01}
			entry["top_logprobs"] = []map[string]any{{"id": last, "token": string(pending), "bytes": ints, "logprob": -0.01}}
			probs = append(probs, entry)
			pending = nil
		}
		if last == testmodel.EOSID {
			stop = "eos"
			break
		}
	}
	return map[string]any{
		"index": 0, "content": content, "tokens": tokens, "id_slot": 0, "stop": true, "model": "tiny",
		"tokens_predicted": len(tokens), "tokens_evaluated": len(f.spec.TokenIDs(prompt)) + 1,
		"generation_settings": map[string]any{"n_predict": n, "temperature": 0}, "prompt": "<s>" + prompt,
		"has_new_line": false, "truncated": false, "stop_type": stop, "stopping_word": "", "tokens_cached": 0,
		"timings":                  map[string]any{"predicted_n": len(tokens)},
		"completion_probabilities": probs,
	}
}

func (f *fakeLlamaServer) lastRequest(t *testing.T) map[string]any {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.requests) == 0 {
		t.Fatal("llama-server was not asked")
	}
	return f.requests[len(f.requests)-1]
}

func startFakeLlama(t *testing.T, spec testmodel.Spec) (*fakeLlamaServer, string) {
	t.Helper()
	f := &fakeLlamaServer{spec: spec}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv.URL
}

func ggufFile(t testing.TB, spec testmodel.Spec) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "draft.gguf")
	if err := testmodel.WriteFile(path, spec); err != nil {
		t.Fatal(err)
	}
	return path
}

// expectedPieces is the spec's own greedy answer for prompt (testmodel computes it from the spec
// alone), with each piece's id looked up in the spec's vocabulary.
func expectedPieces(spec testmodel.Spec, prompt string, n int, ids bool) []Piece {
	var out []Piece
	for _, tok := range spec.GreedyPieces(prompt, n) {
		p := Piece{ID: -1, Text: strings.ReplaceAll(tok, testmodel.Space, " ")}
		if ids {
			p.ID = int32(slices.Index(spec.Vocab(), tok))
		}
		out = append(out, p)
	}
	return out
}

func TestLlamaServerDraftsTheModelsGreedyTokens(t *testing.T) {
	alphabet := testmodel.Alphabet()
	sentence := testmodel.Sentence("hola", "qué", "tal", "señor", "Núñez")
	for _, tc := range []struct {
		name   string
		spec   testmodel.Spec
		prompt string
		n      int
		ids    bool
	}{
		{"alphabet with ids", alphabet, "a", 5, true},
		{"alphabet text", alphabet, "a", 5, false},
		{"ends before n", alphabet, "w", 8, true},
		{"ends at once", alphabet, "?", 4, true},
		{"non-ASCII pieces with ids", sentence, "dime hola", 6, true},
		{"non-ASCII pieces text", sentence, "dime hola", 3, false},
		{"long", alphabet, "A", 32, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake, url := startFakeLlama(t, tc.spec)
			m, err := NewLlamaServer(url+"/v1/", "tiny", ggufFile(t, tc.spec), nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := m.Draft(context.Background(), tc.prompt, tc.n, tc.ids)
			if err != nil {
				t.Fatal(err)
			}
			want := expectedPieces(tc.spec, tc.prompt, tc.n, tc.ids)
			if !slices.Equal(got, want) {
				t.Fatalf("pieces %+v\nthe spec's %+v", got, want)
			}
			if joinPieces(got) != tc.spec.Greedy(tc.prompt, tc.n) {
				t.Fatalf("the pieces spell %q, the spec's answer is %q", joinPieces(got), tc.spec.Greedy(tc.prompt, tc.n))
			}
			req := fake.lastRequest(t)
			for k, v := range map[string]any{"prompt": tc.prompt, "n_predict": float64(tc.n), "temperature": 0.0, "top_k": 1.0,
				"n_probs": 1.0, "cache_prompt": true, "return_tokens": true, "stream": false, "model": "tiny",
				"repeat_penalty": 1.0, "dry_multiplier": 0.0, "xtc_probability": 0.0, "mirostat": 0.0} {
				if req[k] != v {
					t.Errorf("request %s = %v, want %v", k, req[k], v)
				}
			}
			if s, _ := req["samplers"].([]any); len(s) != 1 || s[0] != "temperature" {
				t.Errorf("samplers %v: only the temperature sampler (greedy at 0) may run", req["samplers"])
			}
		})
	}
}

func TestLlamaServerPromptAndFingerprint(t *testing.T) {
	spec := testmodel.Alphabet()
	fake, url := startFakeLlama(t, spec)
	m, err := NewLlamaServer(url, "", ggufFile(t, spec), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	prompt, err := m.Prompt(ctx, []chat.Turn{{Role: "system", Content: "sé breve"}, {Role: "user", Content: "[DNI_1] abc"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "<|system|>sé breve\n<|user|>[DNI_1] abc\n"; prompt != want {
		t.Fatalf("prompt %q, want %q", prompt, want)
	}
	if _, ok := fake.lastRequest(t)["model"]; ok {
		t.Error("a model name was sent though none is configured")
	}
	fp, err := m.Fingerprint(ctx)
	if err != nil || fp != spec.Fingerprint().String() {
		t.Fatalf("fingerprint %q, %v; the generator's %q", fp, err, spec.Fingerprint().String())
	}
	other, _ := NewLlamaServer(url, "", ggufFile(t, spec.WithPieces("bc", "def")), nil)
	if ofp, _ := other.Fingerprint(ctx); ofp == fp || ofp == "" {
		t.Fatalf("another tokenizer's fingerprint %q", ofp)
	}

	// Without a GGUF the fingerprint is unknown (text mode) and ids cannot be had.
	plain, _ := NewLlamaServer(url, "", "", nil)
	if fp, err := plain.Fingerprint(ctx); fp != "" || err != nil {
		t.Fatalf("no GGUF: fingerprint %q, %v", fp, err)
	}
	if _, err := plain.Draft(ctx, "a", 3, true); err == nil {
		t.Fatal("ids without a tokenizer")
	}
	if p, err := plain.Draft(ctx, "a", 3, false); err != nil || joinPieces(p) != "bcd" {
		t.Fatalf("text draft without a GGUF: %+v, %v", p, err)
	}
	// A missing GGUF is an error (not silently text mode), and no request is needed to find out.
	broken, _ := NewLlamaServer(url, "", filepath.Join(t.TempDir(), "missing.gguf"), nil)
	if _, err := broken.Fingerprint(ctx); err == nil {
		t.Fatal("a missing GGUF gave a fingerprint")
	}
	n := len(fake.requests)
	if p, err := m.Draft(ctx, "a", 0, true); p != nil || err != nil || len(fake.requests) != n {
		t.Fatal("a zero-token draft asked the server")
	}
	for _, bad := range []string{"", "ftp://x", "http://", "::"} {
		if _, err := NewLlamaServer(bad, "", "", nil); err == nil {
			t.Errorf("base URL %q accepted", bad)
		}
	}
}

// TestLlamaServerSplitsCharactersAcrossByteTokens: llama-server sends a character made of byte
// tokens as one entry carrying the last token's id; the tokens list splits it back.
func TestLlamaServerSplitsCharactersAcrossByteTokens(t *testing.T) {
	spec := testmodel.Alphabet()
	id := func(tok string) int { return slices.Index(spec.Vocab(), tok) }
	a, b, c3, a9 := id("a"), id("b"), id("<0xC3>"), id("<0xA9>")
	answer := func(tokens bool) string {
		m := map[string]any{"content": "aéb", "stop_type": "limit", "completion_probabilities": []map[string]any{
			{"id": a, "bytes": []int{'a'}}, {"id": a9, "bytes": []int{0xC3, 0xA9}}, {"id": b, "bytes": []int{'b'}}}}
		if tokens {
			m["tokens"] = []int{a, c3, a9, b}
		}
		out, _ := json.Marshal(m)
		return string(out)
	}
	for _, tc := range []struct {
		name   string
		tokens bool
		ids    bool
		want   []Piece
	}{
		{"with token ids", true, true, []Piece{{int32(a), "a"}, {int32(c3), "\xc3"}, {int32(a9), "\xa9"}, {int32(b), "b"}}},
		{"without return_tokens", false, true, []Piece{{int32(a), "a"}, {-1, "é"}, {int32(b), "b"}}},
		{"text mode", true, false, []Piece{{-1, "a"}, {-1, "é"}, {-1, "b"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake, url := startFakeLlama(t, spec)
			fake.canned = &cannedAnswer{http.StatusOK, answer(tc.tokens)}
			m, _ := NewLlamaServer(url, "", ggufFile(t, spec), nil)
			got, err := m.Draft(context.Background(), "x", 8, tc.ids)
			if err != nil || !slices.Equal(got, tc.want) {
				t.Fatalf("pieces %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}

// TestLlamaServerGarbage: every malformed answer is an error, and no error repeats the prompt or
// whatever the server put in its message.
func TestLlamaServerGarbage(t *testing.T) {
	spec := testmodel.Alphabet()
	const secret = "DNI 12345678Z"
	a, b := slices.Index(spec.Vocab(), "a"), slices.Index(spec.Vocab(), "b")
	for _, tc := range []struct {
		name     string
		status   int
		body     string
		ids      bool
		badShape bool
	}{
		{"server error quoting the prompt", 500, `{"error":{"code":500,"message":"` + secret + `","type":"server_error"}}`, false, false},
		{"error type not an enum", 400, `{"error":{"type":"` + secret + `"}}`, false, false},
		{"html", 200, "<html>" + secret + "</html>", false, true},
		{"truncated", 200, `{"content":"ab`, false, true},
		{"wrong type", 200, `{"content":["` + secret + `"]}`, false, true},
		{"no content", 200, `{"completion_probabilities":[{"id":1,"bytes":[97]}]}`, false, true},
		{"entry without id", 200, `{"content":"a","completion_probabilities":[{"bytes":[97]}]}`, false, true},
		{"negative id", 200, `{"content":"a","completion_probabilities":[{"id":-3,"bytes":[97]}]}`, false, true},
		{"byte out of range", 200, `{"content":"a","completion_probabilities":[{"id":1,"bytes":[300]}]}`, false, true},
		{"entries do not spell content", 200, `{"content":"` + secret + `","completion_probabilities":[{"id":1,"bytes":[97]}]}`, false, true},
		{"id beyond the vocabulary", 200, `{"content":"a","tokens":[99999],"completion_probabilities":[{"id":99999,"bytes":[97]}]}`, true, true},
		{"fewer ids than entries", 200, `{"content":"ab","tokens":[` + itoa(a) + `],"completion_probabilities":[{"id":` + itoa(a) + `,"bytes":[97]},{"id":` + itoa(b) + `,"bytes":[98]}]}`, true, true},
		{"ids of another tokenizer", 200, `{"content":"a","tokens":[` + itoa(b) + `],"completion_probabilities":[{"id":` + itoa(b) + `,"bytes":[97]}]}`, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake, url := startFakeLlama(t, spec)
			fake.canned = &cannedAnswer{tc.status, tc.body}
			m, _ := NewLlamaServer(url, "", ggufFile(t, spec), nil)
			p, err := m.Draft(context.Background(), secret, 4, tc.ids)
			if err == nil {
				t.Fatalf("garbage gave pieces %+v", p)
			}
			if errors.Is(err, ErrBadAnswer) != tc.badShape {
				t.Fatalf("error %v: ErrBadAnswer %v, want %v", err, errors.Is(err, ErrBadAnswer), tc.badShape)
			}
			if strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), "12345678") {
				t.Fatalf("the error quotes text: %v", err)
			}
		})
	}
	fake, url := startFakeLlama(t, spec)
	fake.canned = &cannedAnswer{200, `{"template":"x"}`}
	m, _ := NewLlamaServer(url, "", "", nil)
	if _, err := m.Prompt(context.Background(), []chat.Turn{{Role: "user", Content: secret}}); !errors.Is(err, ErrBadAnswer) {
		t.Fatalf("an /apply-template answer without a prompt: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Draft(ctx, secret, 2, false); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled draft: %v", err)
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// llamaServerBinEnv overrides where the llama-server executable is.
const llamaServerBinEnv = "SUCURSAL_LLAMA_SERVER_BIN"

// llamaServerBinary finds llama-server: $SUCURSAL_LLAMA_SERVER_BIN, else
// <repo root>/.cache/llama-server/bin/llama-server (what the fetch script installs). Missing is a
// failure, not a skip: this is the only test of the backend against the real server.
func llamaServerBinary(t testing.TB) string {
	t.Helper()
	if p := os.Getenv(llamaServerBinEnv); p != "" {
		return p
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		if filepath.Dir(dir) == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = filepath.Dir(dir)
	}
	p := filepath.Join(dir, ".cache", "llama-server", "bin", "llama-server")
	if fi, err := os.Stat(p); err != nil || fi.Mode().Perm()&0o111 == 0 {
		t.Fatalf("llama-server not found at %s (or set $%s): fetch it from Debian forky with scripts/fetch-llama-server.sh (part of `make deps`)", p, llamaServerBinEnv)
	}
	return p
}

// startLlamaServer runs a real llama-server on gguf and returns its base URL; it is killed when
// the test ends. A port taken between choosing and binding makes the server exit: try another.
func startLlamaServer(t testing.TB, gguf string) string {
	t.Helper()
	bin := llamaServerBinary(t)
	for attempt := 0; attempt < 3; attempt++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
		_ = l.Close()
		logPath := filepath.Join(t.TempDir(), "llama-server.log")
		logf, err := os.Create(logPath)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cmd := exec.CommandContext(ctx, bin, "-m", gguf, "--host", "127.0.0.1", "--port", port, "-c", "512", "-np", "1", "-t", "1")
		cmd.Stdout, cmd.Stderr = logf, logf
		if err := cmd.Start(); err != nil {
			cancel()
			t.Fatalf("start %s: %v", bin, err)
		}
		exited := make(chan struct{})
		go func() { _ = cmd.Wait(); _ = logf.Close(); close(exited) }()
		t.Cleanup(func() { cancel(); <-exited })
		base := "http://127.0.0.1:" + port
		if waitLlamaHealthy(base, exited) {
			return base
		}
		cancel()
		<-exited
		out, _ := os.ReadFile(logPath)
		t.Logf("llama-server did not start (attempt %d): %s", attempt+1, tail(string(out), 2000))
	}
	t.Fatal("llama-server did not start")
	return ""
}

// waitLlamaHealthy polls /health until it answers 200, the process exits, or a minute passes (a
// deadline for a hung start, not a speed check: a 0.7 MB model loads in ~0.1 s).
func waitLlamaHealthy(base string, exited <-chan struct{}) bool {
	deadline := time.After(time.Minute)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-exited:
			return false
		case <-deadline:
			return false
		case <-tick.C:
			resp, err := http.Get(base + "/health")
			if err == nil {
				_ = resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					return true
				}
			}
		}
	}
}

func tail(s string, n int) string { return s[max(0, len(s)-n):] }

// TestLlamaServerAgainstRealServer: a real llama-server (Debian forky's build) serving generated
// models drafts exactly the spec's greedy tokens, with the ids of the vocabulary read from the
// same GGUF, across cached prompts and non-ASCII pieces; its chat template renders the messages;
// an oversized prompt is an error that does not quote it.
func TestLlamaServerAgainstRealServer(t *testing.T) {
	ctx := context.Background()
	specs := map[string]testmodel.Spec{
		"alphabet": testmodel.Alphabet(),
		"sentence": testmodel.Sentence("hola", "qué", "tal", "señor", "Núñez"),
	}
	servers := map[string]*LlamaServer{}
	for name, spec := range specs {
		gguf := ggufFile(t, spec)
		m, err := NewLlamaServer(startLlamaServer(t, gguf), "", gguf, nil)
		if err != nil {
			t.Fatal(err)
		}
		servers[name] = m
		fp, err := m.Fingerprint(ctx)
		if err != nil || fp != spec.Fingerprint().String() {
			t.Fatalf("%s: fingerprint %q, %v; the generator's %q", name, fp, err, spec.Fingerprint().String())
		}
	}
	for _, tc := range []struct {
		model  string
		prompt string
		n      int
		ids    bool
	}{
		{"alphabet", "a", 5, true},
		{"alphabet", "abcdef", 5, true}, // the previous prompt plus its draft: the cached prefix
		{"alphabet", "a", 5, false},
		{"alphabet", "w", 8, true}, // ends with </s> before n
		{"alphabet", "?", 4, true}, // ends at once
		{"alphabet", "A", 32, true},
		{"alphabet", "0", 3, true},
		{"sentence", "dime hola", 6, true},
		{"sentence", "dime hola qué", 2, false},
	} {
		got, err := servers[tc.model].Draft(ctx, tc.prompt, tc.n, tc.ids)
		if err != nil {
			t.Fatalf("%s %q: %v", tc.model, tc.prompt, err)
		}
		if want := expectedPieces(specs[tc.model], tc.prompt, tc.n, tc.ids); !slices.Equal(got, want) {
			t.Fatalf("%s %q n=%d: pieces %+v\nthe spec's %+v", tc.model, tc.prompt, tc.n, got, want)
		}
	}

	m := servers["alphabet"]
	msgs := []chat.Turn{{Role: "system", Content: "sé breve"}, {Role: "user", Content: "[DNI_1] xyz"}}
	prompt, err := m.Prompt(ctx, msgs)
	if err != nil {
		t.Fatal(err)
	}
	if i, j := strings.Index(prompt, msgs[0].Content), strings.Index(prompt, msgs[1].Content); i < 0 || j < i {
		t.Fatalf("the rendered prompt %q does not hold the messages in order", prompt)
	}
	if _, err := m.Draft(ctx, prompt, 4, true); err != nil {
		t.Fatalf("drafting on the rendered prompt: %v", err)
	}

	secret := "DNI 12345678Z " + strings.Repeat("abc ", 400) // more than the 512-token context
	_, err = m.Draft(ctx, secret, 4, true)
	if err == nil || strings.Contains(err.Error(), "12345678") || strings.Contains(err.Error(), "abc") {
		t.Fatalf("an oversized prompt: %v", err)
	}
	t.Logf("oversized prompt: %v", err)
}

// BenchmarkDraftBackends: one drafting round (γ = 8 tokens with ids, on a prompt that grows by the
// drafted text each round, as the terminal's rounds do) on llama-server against the same round on
// Ollama, the existing backend, as the baseline in the same run. The model is a cyclic alphabet
// (a→…→z→a) generated for both; the prompt restarts before it nears the 512-token context.
//
//	go test -run '^$' -bench DraftBackends -benchtime 200x ./internal/drafter/
func BenchmarkDraftBackends(b *testing.B) {
	spec := testmodel.Alphabet()
	spec.Name = "sucursal-cyclic"
	spec.Successor["z"] = "a"
	gguf := ggufFile(b, spec)
	o := ollamatest.Start(b)
	o.CreateModel(b, "cyc", spec, testmodel.PromptTemplate)
	ollama, err := NewOllama(o.URL, "cyc", o.HTTPClient())
	if err != nil {
		b.Fatal(err)
	}
	llama, err := NewLlamaServer(startLlamaServer(b, gguf), "", gguf, nil)
	if err != nil {
		b.Fatal(err)
	}
	const gamma = 8
	for _, bc := range []struct {
		name string
		m    Model
	}{{"ollama", ollama}, {"llamacpp", llama}} {
		b.Run(bc.name, func(b *testing.B) {
			ctx := context.Background()
			prompt, tokens := "a", 0
			for b.Loop() {
				p, err := bc.m.Draft(ctx, prompt, gamma, true)
				if err != nil || len(p) != gamma || p[0].ID < 0 {
					b.Fatalf("draft %+v, %v", p, err)
				}
				tokens += len(p)
				if prompt += joinPieces(p); len(prompt) > 400 {
					prompt = "a"
				}
			}
			b.ReportMetric(float64(tokens)/b.Elapsed().Seconds(), "tokens/s")
		})
	}
}
