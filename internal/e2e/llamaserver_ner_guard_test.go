package e2e

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/guard"
	"github.com/sucursal/sucursal/internal/guard/guardsetup"
	"github.com/sucursal/sucursal/internal/openaicompat"
	"github.com/sucursal/sucursal/internal/redact"
	"github.com/sucursal/sucursal/internal/redact/corpus"
	"github.com/sucursal/sucursal/internal/redact/ner"
	"github.com/sucursal/sucursal/internal/testmodel"
)

// nerAnswer is what the generated NER model answers: two entities that are in nerText, written
// as they are there, and one it invents.
const nerAnswer = `{"entities":[{"text":"Jon Arrizabalaga","type":"PERSON"},{"text":"Zumarraga","type":"LOCATION"},` +
	`{"text":"Pedro Inventado","type":"PERSON"}]}`

const nerText = "el cliente Jon Arrizabalaga, de Zumarraga, con DNI 12345678Z pide su saldo."

// writeGGUF writes spec to a temporary file for llama-server.
func writeGGUF(t *testing.T, spec testmodel.Spec) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "model.gguf")
	if err := testmodel.WriteFile(p, spec); err != nil {
		t.Fatal(err)
	}
	return p
}

// nerCompletion asks llama-server what the NER backend asks, with or without the schema, and
// returns the answer, why it ended and how many tokens it has.
func nerCompletion(t *testing.T, base, text string, schema bool) (content, finish string, tokens int) {
	t.Helper()
	temp, maxTok := 0.0, int64(ner.DefaultMaxTokens)
	req := &chat.Request{Model: "ner", Temperature: &temp, MaxTokens: &maxTok, Messages: []chat.Message{
		{Role: "system", Content: chat.TextContent(ner.Instruction)}, {Role: "user", Content: chat.TextContent(text)}}}
	if schema {
		s, err := chat.ParseJSON([]byte(ner.Schema))
		if err != nil {
			t.Fatal(err)
		}
		req.ResponseFormat = &chat.ResponseFormat{Type: "json_schema", JSONSchema: &chat.JSONSchema{Name: "entities", Schema: &s}}
	}
	c, err := openaicompat.New(base+"/v1", "").ChatCompletion(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Choices) != 1 || c.Choices[0].FinishReason == nil || c.Usage == nil {
		t.Fatalf("completion without one finished choice and usage: %+v", c)
	}
	return c.Choices[0].Message.Content.String(), *c.Choices[0].FinishReason, c.Usage.CompletionTokens
}

// newNERRedactor is the real redactor with the openai NER backend on base, built from the policy as
// the agent builds it. Names are off, so only the model finds names; the other rules stay on.
func newNERRedactor(t *testing.T, mode, base string) (*redact.Redactor, *prometheus.Registry) {
	t.Helper()
	cfg := redact.DefaultConfig()
	cfg.Names = false
	cfg.NER = redact.NERConfig{Mode: mode, Timeout: 30 * time.Second, Backend: "openai", URL: base + "/v1", Model: "ner"}
	backend, err := ner.New(cfg.NER, &http.Client{})
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	r, err := redact.New(cfg, backend, reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r, reg
}

// redactInSession redacts text in a new session and returns the text, the stats and the error.
func redactInSession(r *redact.Redactor, text string) (string, redact.Stats, error) {
	s := r.NewSession(0)
	defer s.Close()
	out, err := s.Redact(context.Background(), text)
	return out, s.Stats(), err
}

// registryCounter reads a counter from reg: the one whose label has value, or the only one when
// label is "".
func registryCounter(t *testing.T, reg *prometheus.Registry, name, label, value string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			if label == "" || slices.ContainsFunc(m.GetLabel(), func(l *dto.LabelPair) bool {
				return l.GetName() == label && l.GetValue() == value
			}) {
				return m.GetCounter().GetValue()
			}
		}
	}
	return 0
}

// TestLlamaServerNER: the openai NER backend on a real llama-server (fetched by `make deps`)
// serving generated models, inside the real redactor.
//
// The NER model is testmodel.FixedOutput("", nerAnswer+"xyz"): every piece outside the answer
// leads to its first piece, `{`, and each piece of the answer to the next, so its unconstrained
// greedy answer is the JSON followed by "xyz" (Greedy computes it in Go). Under the grammar that
// llama-server makes from response_format, the first token must be `{` — the only piece of the
// vocabulary that starts with one — and from there every piece of the answer is what the grammar
// allows, until "xyz", which it does not: the constrained answer is exactly nerAnswer, whatever the
// text ends with (even a text whose unconstrained answer starts mid-answer or is empty).
func TestLlamaServerNER(t *testing.T) {
	spec := testmodel.FixedOutput("", nerAnswer+"xyz")
	base := llamaServer(t, writeGGUF(t, spec))

	// Without names, the rules find only the DNI here: the model's names come on top of that.
	rulesOnly, _, err := redactInSession(rulesOnlyRedactor(t), nerText)
	if err != nil || !strings.Contains(rulesOnly, "@@DNI-1@@") || !strings.Contains(rulesOnly, "Jon Arrizabalaga") || !strings.Contains(rulesOnly, "Zumarraga") {
		t.Fatalf("rules alone redact %q (%v): want the DNI and not the names", rulesOnly, err)
	}
	withModel := strings.NewReplacer("Jon Arrizabalaga", "@@PERSON-1@@", "Zumarraga", "@@LOCATION-1@@").Replace(rulesOnly)

	t.Run("the server applies the schema", func(t *testing.T) {
		for _, text := range []string{nerText, `el cliente escribió "hola"`, "pide cita para José"} {
			raw, _, _ := nerCompletion(t, base, text, false)
			// llama-server renders [system, user] through the pass-through template and greedy
			// decoding follows the successor table: the answer is computed, not observed.
			if want := spec.Greedy(ner.Instruction+text, ner.DefaultMaxTokens); raw != want {
				t.Fatalf("%q: unconstrained answer %q, the model's greedy answer is %q", text, raw, want)
			}
			if raw == nerAnswer {
				t.Fatalf("%q: the unconstrained answer is already the JSON; the schema would prove nothing", text)
			}
			got, finish, _ := nerCompletion(t, base, text, true)
			if strings.TrimSpace(got) != nerAnswer || finish != "stop" {
				t.Errorf("%q: with the schema the answer is %q (%s), want %q (unconstrained: %q)", text, got, finish, nerAnswer, raw)
			}
		}
	})

	t.Run("spans that are in the text are added to the rules'", func(t *testing.T) {
		for _, mode := range []string{redact.NERFallbackDegraded, redact.NERRequired} {
			r, reg := newNERRedactor(t, mode, base)
			out, st, err := redactInSession(r, nerText)
			if err != nil {
				t.Fatalf("%s: %v", mode, err)
			}
			if out != withModel {
				t.Errorf("%s: redacted %q, want %q", mode, out, withModel)
			}
			if st.Degraded || st.NERRejected != 1 || st.Entities[redact.TypePerson] != 1 || st.Entities[redact.TypeLocation] != 1 {
				t.Errorf("%s: stats %+v, want one PERSON, one LOCATION, the invented name rejected, not degraded", mode, st)
			}
			if n := registryCounter(t, reg, "sucursal_redact_ner_rejected_spans_total", "", ""); n != 1 {
				t.Errorf("%s: ner_rejected_spans_total = %v, want 1", mode, n)
			}
		}
	})

	// A model that rambles: the grammar keeps it inside a JSON string until max_tokens cuts it
	// (slots of 2048 tokens, so that the cut is max_tokens and not the context).
	endless := testmodel.Endless("", `{"entities":[{"text":"`, "ab")
	endlessBase := llamaServer(t, writeGGUF(t, endless), "-c", "8192")
	t.Run("an answer cut at max_tokens degrades or refuses", func(t *testing.T) {
		got, finish, n := nerCompletion(t, endlessBase, nerText, true)
		if want := endless.Greedy(ner.Instruction+nerText, ner.DefaultMaxTokens); got != want || finish != "length" || n != ner.DefaultMaxTokens {
			t.Fatalf("answer %q (%s, %d tokens), want %q cut at %d tokens", got, finish, n, want, ner.DefaultMaxTokens)
		}
		checkNERFallback(t, endlessBase, rulesOnly)
	})

	t.Run("the server dies", func(t *testing.T) {
		killLlamaServer(t, base)
		checkNERFallback(t, base, rulesOnly)
	})
}

// checkNERFallback: with the NER model on base unusable, fallback-degraded answers with what the
// rules found, marks the session degraded and counts it; required refuses and counts it.
func checkNERFallback(t *testing.T, base, rulesOnly string) {
	t.Helper()
	r, reg := newNERRedactor(t, redact.NERFallbackDegraded, base)
	out, st, err := redactInSession(r, nerText)
	if err != nil || out != rulesOnly || !st.Degraded {
		t.Errorf("fallback-degraded: %q degraded=%v err=%v, want %q degraded", out, st.Degraded, err, rulesOnly)
	}
	if n := registryCounter(t, reg, "sucursal_redact_ner_fallbacks_total", "outcome", "degraded"); n != 1 {
		t.Errorf("ner_fallbacks_total{outcome=degraded} = %v, want 1", n)
	}
	r, reg = newNERRedactor(t, redact.NERRequired, base)
	out, _, err = redactInSession(r, nerText)
	if !errors.Is(err, redact.ErrNERUnavailable) || out != "" || strings.Contains(err.Error(), "Arrizabalaga") {
		t.Errorf("required: %q err=%v, want nothing and ErrNERUnavailable without the text", out, err)
	}
	if n := registryCounter(t, reg, "sucursal_redact_ner_fallbacks_total", "outcome", "refused"); n != 1 {
		t.Errorf("ner_fallbacks_total{outcome=refused} = %v, want 1", n)
	}
}

// rulesOnlyRedactor is newNERRedactor without a model.
func rulesOnlyRedactor(t *testing.T) *redact.Redactor {
	t.Helper()
	cfg := redact.DefaultConfig()
	cfg.Names = false
	r, err := redact.New(cfg, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestLlamaServerGuard: the openai guard backend (as guardsetup builds it from the agent's config)
// on real llama-servers serving generated Llama Guard and Prompt Guard stand-ins whose greedy answer
// is fixed (testmodel.FixedOutput with no marker: the pass-through template feeds the model the
// text alone, and every piece outside the answer leads into it).
//
// The servers run with --no-prefill-assistant. By default llama-server takes a conversation that
// ends with an assistant turn — what a safety classifier sends to judge an answer — as the start
// of the answer to continue: it leaves that turn out of the chat template (a real Llama Guard would
// not see the answer it must judge) and returns it in front of the verdict. The last subtest shows
// what that does without the flag: every answer check is malformed, and the guard fails closed.
func TestLlamaServerGuard(t *testing.T) {
	const text = "¿Puedo transferir 500 euros a otra cuenta?"
	servers := map[string]string{}
	for name, out := range map[string]string{"safe": "safe", "unsafe-s2": "unsafe\nS2", "malicious": "MALICIOUS", "babble": "perhaps"} {
		servers[name] = llamaServer(t, writeGGUF(t, testmodel.FixedOutput("", out)), "--no-prefill-assistant")
	}
	classifier := func(server, kind string, logprobs bool) (in, out guard.Classifier) {
		t.Helper()
		in, out, err := guardsetup.BuildClassifier(guardsetup.ClassifierConfig{Name: "lg", Kind: kind, Stage: "both", Backend: "openai",
			URL: servers[server] + "/v1", Model: "llama-guard", Logprobs: logprobs}, &http.Client{})
		if err != nil {
			t.Fatal(err)
		}
		return in, out
	}
	tests := []struct {
		name, server, kind string
		logprobs           bool
		malicious          bool
		category           string
		errIs              error
	}{
		{name: "safe", server: "safe", kind: "safety"},
		{name: "safe with logprobs", server: "safe", kind: "safety", logprobs: true},
		{name: "unsafe S2", server: "unsafe-s2", kind: "safety", malicious: true, category: "S2"},
		{name: "unsafe S2 with logprobs", server: "unsafe-s2", kind: "safety", logprobs: true, malicious: true, category: "S2"},
		{name: "injection label", server: "malicious", kind: "injection-label", logprobs: true, malicious: true},
		{name: "not a verdict", server: "babble", kind: "safety", errIs: guard.ErrMalformedOutput},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, out := classifier(tt.server, tt.kind, tt.logprobs)
			for stage, c := range map[string]guard.Classifier{"input": in, "output": out} {
				v, err := c.Classify(context.Background(), text)
				if tt.errIs != nil {
					if !errors.Is(err, tt.errIs) {
						t.Errorf("%s: err = %v, want %v", stage, err, tt.errIs)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", stage, err)
				}
				if v.Malicious != tt.malicious || (tt.category != "" && (len(v.Categories) != 1 || v.Categories[0].Code != tt.category)) {
					t.Errorf("%s: verdict %+v", stage, v)
				}
				// With the default output scale the answer's first token has p ≈ 1 − 1e-8.
				if want := map[bool]float64{true: 1, false: 0}[tt.malicious]; tt.logprobs && (v.Score < want-1e-3 || v.Score > want+1e-3) {
					t.Errorf("%s: score %v from logprobs, want ≈ %v", stage, v.Score, want)
				}
			}
		})
	}

	t.Run("without --no-prefill-assistant answers cannot be judged", func(t *testing.T) {
		servers["safe-prefill"] = llamaServer(t, writeGGUF(t, testmodel.FixedOutput("", "safe")))
		in, out := classifier("safe-prefill", "safety", false)
		if v, err := in.Classify(context.Background(), text); err != nil || v.Malicious {
			t.Errorf("input: %+v %v, want safe", v, err)
		}
		if _, err := out.Classify(context.Background(), text); !errors.Is(err, guard.ErrMalformedOutput) {
			t.Errorf("output: err = %v, want ErrMalformedOutput (the answer came back in front of the verdict)", err)
		}
	})

	t.Run("the guard built from config blocks, allows, and fails closed", func(t *testing.T) {
		build := func(server string) *guard.Guard {
			g, err := guardsetup.Build(guardsetup.Config{Enabled: true, Classifiers: []guardsetup.ClassifierConfig{{Name: "lg", Kind: "safety",
				Stage: "input", Backend: "openai", URL: servers[server] + "/v1", Model: "llama-guard"}}}, nil, prometheus.NewRegistry(), testLogger())
			if err != nil {
				t.Fatal(err)
			}
			return g
		}
		texts := []guard.ScanText{{Source: guard.SourceUser, Text: text}}
		if d, err := build("safe").CheckInput(context.Background(), texts); err != nil || d.Action != guard.ActionAllow {
			t.Errorf("safe: %+v %v", d, err)
		}
		d, err := build("unsafe-s2").CheckInput(context.Background(), texts)
		if !errors.Is(err, guard.ErrBlocked) || d.Action != guard.ActionBlock || len(d.Categories) != 1 || d.Categories[0].Code != "S2" {
			t.Errorf("unsafe S2: %+v %v", d, err)
		}
		g := build("unsafe-s2")
		killLlamaServer(t, servers["unsafe-s2"])
		if _, err := g.CheckInput(context.Background(), texts); !errors.Is(err, guard.ErrGuardUnavailable) {
			t.Errorf("server dead, fail_mode closed: err = %v, want ErrGuardUnavailable", err)
		}
	})
}

// TestLlamaServerNERLayerOnDevCorpus measures the NER layer apart from the rules: corpus.Evaluate
// on the dev half of the realistic corpus (never the held-out half) with the default policy alone,
// then with the openai NER backend on, in the mode a configured backend gets by default
// (fallback-degraded), on llama-server with slots of 2048 tokens. The generated model has no NER
// skill — it answers nerAnswer to every text, names that are in no dev text — so this shows the
// wiring (every text reaches the model, every answer is parsed and its invented spans rejected,
// nothing degrades, the rules' result is untouched) and the cost, not recall. The tables and the
// latencies are logged (-v); docs/REDACTION.md, "The NER layer (issue #13)", has a run.
//
// NER_LAYER_CORPUS names another corpus file under testdata/redact (default realistic-dev.jsonl):
// the lead runs it once on a held-out set to report the layer beside the rules there.
func TestLlamaServerNERLayerOnDevCorpus(t *testing.T) {
	name := "realistic-dev.jsonl"
	if v := os.Getenv("NER_LAYER_CORPUS"); v != "" {
		name = filepath.Base(v)
	}
	f, err := os.Open(filepath.Join("..", "..", "testdata", "redact", name))
	if err != nil {
		t.Fatal(err)
	}
	items, err := corpus.ReadJSONL(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	rules, err := redact.New(redact.DefaultConfig(), nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	base := llamaServer(t, writeGGUF(t, testmodel.FixedOutput("", nerAnswer)), "-c", "8192")
	cfg := redact.DefaultConfig()
	cfg.NER = redact.NERConfig{Mode: redact.NERFallbackDegraded, Timeout: 30 * time.Second, Backend: "openai", URL: base + "/v1", Model: "ner"}
	backend, err := ner.New(cfg.NER, &http.Client{})
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	withNER, err := redact.New(cfg, backend, reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := withNER.Detect(context.Background(), "warm-up."); err != nil {
		t.Fatal(err)
	}
	warm := registryCounter(t, reg, "sucursal_redact_ner_rejected_spans_total", "", "")

	evaluate := func(r *redact.Redactor) (corpus.Report, string, []time.Duration) {
		var took []time.Duration
		rep, err := corpus.Evaluate(context.Background(), items, func(ctx context.Context, text string) ([]corpus.Found, error) {
			start := time.Now()
			spans, err := r.Detect(ctx, text)
			took = append(took, time.Since(start))
			found := make([]corpus.Found, len(spans))
			for i, s := range spans {
				found[i] = corpus.Found{Type: s.Type, Start: s.Start, End: s.End}
			}
			return found, err
		})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := rep.Print(&b); err != nil {
			t.Fatal(err)
		}
		slices.Sort(took)
		return rep, b.String(), took
	}
	repRules, tableRules, tookRules := evaluate(rules)
	repNER, tableNER, tookNER := evaluate(withNER)

	pct := func(d []time.Duration, p float64) time.Duration { return d[min(len(d)-1, int(p*float64(len(d))))] }
	sum := func(d []time.Duration) (s time.Duration) {
		for _, x := range d {
			s += x
		}
		return s
	}
	rejected := registryCounter(t, reg, "sucursal_redact_ner_rejected_spans_total", "", "") - warm
	degraded := registryCounter(t, reg, "sucursal_redact_ner_fallbacks_total", "outcome", "degraded")
	t.Logf("%s, %d items\n\nrules only (default policy):\n%s\nrules + NER layer (openai backend, llama-server, generated model):\n%s", name, len(items), tableRules, tableNER)
	for _, l := range []struct {
		name string
		d    []time.Duration
	}{{"rules only", tookRules}, {"rules + NER", tookNER}} {
		t.Logf("Detect per text, %s: p50 %v, p90 %v, p99 %v, max %v, total %v", l.name,
			pct(l.d, 0.5), pct(l.d, 0.9), pct(l.d, 0.99), l.d[len(l.d)-1], sum(l.d))
	}
	t.Logf("NER spans rejected (not in the text): %v; texts degraded: %v", rejected, degraded)

	if degraded != 0 {
		t.Errorf("%v texts degraded: the NER layer failed on the dev corpus", degraded)
	}
	// The model answers the same three names to every text; a name a text really holds is kept
	// (the layer checks spans against the text, not against the model's knowledge), the others
	// rejected. The dev corpora hold none of them; another corpus may (the fifth held-out set
	// has a town of the answer in two texts).
	answered := []string{"Jon Arrizabalaga", "Zumarraga", "Pedro Inventado"}
	inText := 0
	for _, it := range items {
		for _, a := range answered {
			if strings.Contains(it.Text, a) {
				inText++
			}
		}
	}
	if want := float64(len(answered)*len(items) - inText); rejected != want {
		t.Errorf("%v NER spans rejected, want %v: the model's three names for each text, less the %d a text holds", rejected, want, inText)
	}
	if inText == 0 && (tableNER != tableRules || !reflect.DeepEqual(repNER, repRules)) {
		t.Errorf("the NER layer changed the rules' result, and none of the model's names is in a text")
	}
	if inText > 0 {
		t.Logf("%d of the model's answers are in their text and were kept: the tables may differ by them", inText)
	}
}
