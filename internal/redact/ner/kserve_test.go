package ner

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/sucursal/sucursal/internal/kserve"
	"github.com/sucursal/sucursal/internal/redact"
)

var bio = []string{"O", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC"}

// fakeOVMS is a unit-test double (not a real model server) that speaks the KServe v2 REST
// protocol: it splits the text on spaces, reports code-point offsets like a Hugging Face
// tokenizer, adds [CLS]/[SEP] with empty offsets, and labels the words in persons/orgs.
func fakeOVMS(t *testing.T, persons, orgs map[string]bool) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v2/models/ner-bert/infer" || r.Header.Get("Content-Type") != "application/json" {
			http.Error(w, "bad request line", http.StatusNotFound)
			return
		}
		var req kserve.InferRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Inputs) != 1 {
			http.Error(w, "bad body", http.StatusBadRequest)
			return
		}
		in := req.Inputs[0]
		var texts []string
		if in.Name != "text" || in.Datatype != "BYTES" || len(in.Shape) != 1 || in.Shape[0] != 1 || json.Unmarshal(in.Data, &texts) != nil || len(texts) != 1 {
			http.Error(w, "bad input tensor", http.StatusBadRequest)
			return
		}
		text := texts[0]
		type tok struct{ s, e, label int }
		toks := []tok{{0, 0, 0}} // [CLS]
		runes := []rune(text)
		prevLabel := 0
		for i := 0; i < len(runes); {
			if unicode.IsSpace(runes[i]) {
				i++
				continue
			}
			j := i
			for j < len(runes) && !unicode.IsSpace(runes[j]) {
				j++
			}
			word := strings.TrimRight(string(runes[i:j]), ",.")
			end := i + utf8.RuneCountInString(word)
			label := 0
			switch {
			case persons[word]:
				label = 1
			case orgs[word]:
				label = 3
			}
			if label != 0 && prevLabel != 0 && (prevLabel == label || prevLabel == label+1) {
				label++ // I- continues the entity
			}
			toks = append(toks, tok{i, end, label})
			prevLabel = label
			i = j
		}
		toks = append(toks, tok{0, 0, 0}) // [SEP]
		var logits []float64
		var offs []int64
		for _, tk := range toks {
			for l := range bio {
				v := -2.0
				if l == tk.label {
					v = 3.0
				}
				logits = append(logits, v)
			}
			offs = append(offs, int64(tk.s), int64(tk.e))
		}
		ld, _ := json.Marshal(logits)
		od, _ := json.Marshal(offs)
		_ = json.NewEncoder(w).Encode(kserve.InferResponse{ModelName: "ner-bert", Outputs: []kserve.Tensor{
			{Name: "logits", Shape: []int{1, len(toks), len(bio)}, Datatype: "FP32", Data: ld},
			{Name: "offsets", Shape: []int{1, len(toks), 2}, Datatype: "INT64", Data: od},
		}})
	}))
}

func TestKServeEntities(t *testing.T) {
	srv := fakeOVMS(t, map[string]bool{"José": true, "Núñez": true, "Ana": true}, map[string]bool{"Talleres": true, "Zubiri": true})
	defer srv.Close()
	k := &KServe{URL: srv.URL, Model: "ner-bert", Labels: bio, HTTP: srv.Client()}
	text := "El señor José Núñez, de Talleres Zubiri, y Ana."
	got, err := k.Entities(context.Background(), text)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ typ, text string }{{"PERSON", "José Núñez"}, {"ORG", "Talleres Zubiri"}, {"PERSON", "Ana"}}
	if len(got) != len(want) {
		t.Fatalf("got %d spans %+v, want %d", len(got), got, len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Type != w.typ || g.Text != w.text || text[g.Start:g.End] != w.text || g.Score < 0.9 {
			t.Errorf("span %d = %+v, want %s %q at its byte offsets with a high score", i, g, w.typ, w.text)
		}
	}
}

func TestKServeErrorsCarryNoText(t *testing.T) {
	const secret = "Juan Perez 12345678Z"
	tests := []struct {
		name    string
		handler http.HandlerFunc
		wantErr error
	}{
		{"status", func(w http.ResponseWriter, r *http.Request) { http.Error(w, secret, http.StatusInternalServerError) }, nil},
		{"not json", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(secret)) }, ErrBadResponse},
		{"wrong label count", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(`{"outputs":[{"name":"logits","shape":[1,1,2],"datatype":"FP32","data":[1,2]},{"name":"offsets","shape":[1,1,2],"datatype":"INT64","data":[0,4]}]}`))
		}, ErrBadResponse},
		{"offsets outside text", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(`{"outputs":[{"name":"logits","shape":[1,1,7],"datatype":"FP32","data":[0,9,0,0,0,0,0]},{"name":"offsets","shape":[1,1,2],"datatype":"INT64","data":[0,400]}]}`))
		}, ErrBadResponse},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.handler)
			defer srv.Close()
			k := &KServe{URL: srv.URL, Model: "ner-bert", Labels: bio, HTTP: srv.Client()}
			_, err := k.Entities(context.Background(), secret)
			if err == nil || (tt.wantErr != nil && !errors.Is(err, tt.wantErr)) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if strings.Contains(err.Error(), "Juan") || strings.Contains(err.Error(), "12345678Z") {
				t.Fatalf("error carries the text: %v", err)
			}
		})
	}
}

func FuzzDecodeKServe(f *testing.F) {
	f.Add([]byte(`{"outputs":[{"name":"logits","shape":[1,2,7],"datatype":"FP32","data":[0,9,0,0,0,0,0,0,0,9,0,0,0,0]},{"name":"offsets","shape":[1,2,2],"datatype":"INT64","data":[0,4,5,10]}]}`), "Juan Perez")
	f.Add([]byte(`{"outputs":[]}`), "x")
	f.Fuzz(func(t *testing.T, raw []byte, text string) {
		var r kserve.InferResponse
		if json.Unmarshal(raw, &r) != nil {
			return // not the protocol: internal/kserve's fuzz target covers that
		}
		spans, err := DecodeKServe(&r, text, bio, "logits", "offsets", 0)
		if err != nil {
			return
		}
		for _, s := range spans {
			if s.Start < 0 || s.End > len(text) || s.Start >= s.End || text[s.Start:s.End] != s.Text {
				t.Fatalf("span %+v does not select its text in %q", s, text)
			}
		}
	})
}

func FuzzParseOllamaAnswer(f *testing.F) {
	f.Add(`{"entities":[{"text":"Juan Perez","type":"PERSON"}]}`)
	f.Add(`{"entities":[{"text":"","type":"ORG"},{"text":"x","type":"weird"}]}`)
	f.Add(`not json`)
	f.Fuzz(func(t *testing.T, answer string) {
		spans, err := ParseOllamaAnswer(answer)
		if err != nil {
			if !errors.Is(err, ErrBadAnswer) || (len(answer) > 8 && strings.Contains(err.Error(), answer)) {
				t.Fatalf("bad error: %v", err)
			}
			return
		}
		for _, s := range spans {
			if s.Text == "" || (s.Type != redact.TypePerson && s.Type != redact.TypeOrg && s.Type != redact.TypeLocation && s.Type != redact.TypeAddress) {
				t.Fatalf("span %+v should have been dropped", s)
			}
		}
	})
}

func TestNewFromConfig(t *testing.T) {
	tests := []struct {
		cfg    redact.NERConfig
		wantOK bool
	}{
		{redact.NERConfig{Mode: redact.NEROff}, true},
		{redact.NERConfig{Mode: redact.NERRequired, Backend: "ollama", URL: "http://127.0.0.1:11434", Model: "m"}, true},
		{redact.NERConfig{Mode: redact.NERRequired, Backend: "kserve", URL: "http://127.0.0.1:9000", Model: "m", Labels: bio}, true},
		{redact.NERConfig{Mode: redact.NERRequired, Backend: "kserve", URL: "http://127.0.0.1:9000", Model: "m"}, false},
		{redact.NERConfig{Mode: redact.NERRequired, Backend: "spacy", URL: "http://127.0.0.1:9000", Model: "m"}, false},
		{redact.NERConfig{Mode: redact.NERRequired, Backend: "ollama", URL: "127.0.0.1", Model: "m"}, false},
		{redact.NERConfig{Mode: redact.NERFallbackDegraded, Backend: "openai", URL: "http://127.0.0.1:8080/v1", Model: "m"}, true},
		{redact.NERConfig{Mode: redact.NERFallbackDegraded, Backend: "openai", URL: "http://127.0.0.1:8080/v1"}, false},
		{redact.NERConfig{Mode: redact.NERFallbackDegraded, Backend: "llamacpp", URL: "http://127.0.0.1:8080/v1", Model: "m"}, false},
	}
	for i, tt := range tests {
		_, err := New(tt.cfg, nil)
		if (err == nil) != tt.wantOK {
			t.Errorf("case %d: err = %v, want ok=%v", i, err, tt.wantOK)
		}
	}
}
