package kserve_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/kserve"
)

func client(t *testing.T, srv *httptest.Server, maxResponse int64) *kserve.Client {
	t.Helper()
	u, err := url.Parse(srv.URL + "/") // a trailing slash must not double up in paths
	if err != nil {
		t.Fatal(err)
	}
	return kserve.NewClient(u, srv.Client(), maxResponse)
}

// The request bytes are what OVMS has been receiving from the NER backend and the guard scorer
// (their own encoders before this package existed, HTML-escaping included): pinned so that a
// change shows.
func TestInferRequestEncoding(t *testing.T) {
	const text = "José <a&b> \"q\"\n\u2028"
	for _, tc := range []struct {
		name, model, version, path string
		req                        kserve.InferRequest
		golden                     string
	}{
		{"ner: two outputs requested", "ner-bert", "", "/v2/models/ner-bert/infer",
			kserve.InferRequest{Inputs: []kserve.Tensor{kserve.BytesTensor("text", text)}, Outputs: []kserve.RequestedOutput{{Name: "logits"}, {Name: "offsets"}}},
			`{"inputs":[{"name":"text","shape":[1],"datatype":"BYTES","data":["José \u003ca\u0026b\u003e \"q\"\n\u2028"]}],"outputs":[{"name":"logits"},{"name":"offsets"}]}`},
		{"guard: every output, a version", "prompt-guard", "2", "/v2/models/prompt-guard/versions/2/infer",
			kserve.InferRequest{Inputs: []kserve.Tensor{kserve.BytesTensor("text", text)}},
			`{"inputs":[{"name":"text","shape":[1],"datatype":"BYTES","data":["José \u003ca\u0026b\u003e \"q\"\n\u2028"]}]}`},
		{"guard: one output, an escaped name", "org/guard", "", "/v2/models/org%2Fguard/infer",
			kserve.InferRequest{Inputs: []kserve.Tensor{kserve.BytesTensor("text", text)}, Outputs: []kserve.RequestedOutput{{Name: "logits"}}},
			`{"inputs":[{"name":"text","shape":[1],"datatype":"BYTES","data":["José \u003ca\u0026b\u003e \"q\"\n\u2028"]}],"outputs":[{"name":"logits"}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got, path, ctype, method string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				got, path, ctype, method = string(b), r.URL.EscapedPath(), r.Header.Get("Content-Type"), r.Method
				fmt.Fprint(w, `{"model_name":"m","model_version":"2","id":"x","outputs":[{"name":"logits","shape":[1,2],"datatype":"FP32","data":[0.5,-1]}]}`)
			}))
			defer srv.Close()
			r, err := client(t, srv, 0).Infer(context.Background(), tc.model, tc.version, &tc.req)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.golden {
				t.Errorf("request body changed:\n got %s\nwant %s", got, tc.golden)
			}
			if method != http.MethodPost || path != tc.path || ctype != "application/json" {
				t.Errorf("request line %s %s (%s), want POST %s (application/json)", method, path, ctype, tc.path)
			}
			out, ok := r.Output("logits")
			if !ok || r.ModelName != "m" || r.ModelVersion != "2" || r.ID != "x" {
				t.Fatalf("response %+v", r)
			}
			if v, err := out.Float64s(); err != nil || len(v) != 2 || v[0] != 0.5 || v[1] != -1 {
				t.Errorf("logits %v, %v", v, err)
			}
		})
	}
}

// Errors carry status codes and lengths, never the request or the answer: servers echo their
// inputs, and the inputs are user text.
func TestErrorsCarryNoText(t *testing.T) {
	const secret = "Juan Perez 12345678Z"
	req := &kserve.InferRequest{Inputs: []kserve.Tensor{kserve.BytesTensor("text", secret)}}
	for _, tc := range []struct {
		name    string
		handler http.HandlerFunc
		max     int64
		check   func(error) bool
	}{
		{"status echoing the input", func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			http.Error(w, `{"error":"bad input `+string(b)+`"}`, http.StatusBadRequest)
		}, 0, func(err error) bool {
			se, ok := errors.AsType[*kserve.StatusError](err)
			return ok && se.StatusCode == http.StatusBadRequest
		}},
		{"200 that is not JSON", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, secret) }, 0,
			func(err error) bool { return errors.Is(err, kserve.ErrBadResponse) }},
		{"answer over the limit", func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, `{"outputs":[{"name":"x","shape":[1],"datatype":"BYTES","data":[%q]}]}`, secret)
		}, 40, func(err error) bool {
			return errors.Is(err, kserve.ErrBadResponse) && strings.Contains(err.Error(), "40 bytes")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(tc.handler)
			defer srv.Close()
			_, err := client(t, srv, tc.max).Infer(context.Background(), "ner", "", req)
			if err == nil || !tc.check(err) {
				t.Fatalf("err = %v", err)
			}
			if strings.Contains(err.Error(), "Juan") || strings.Contains(err.Error(), "12345678Z") {
				t.Fatalf("error carries the text: %v", err)
			}
		})
	}

	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select { // a server that never answers, until the test ends
		case <-r.Context().Done():
		case <-release:
		}
	}))
	c := client(t, srv, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := c.Infer(ctx, "ner", "", req); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("cancelled request: %v", err)
	}
	close(release)
	srv.Close()
	_, err := c.Infer(context.Background(), "ner", "", req)
	if _, isStatus := errors.AsType[*kserve.StatusError](err); err == nil || isStatus || errors.Is(err, kserve.ErrBadResponse) {
		t.Errorf("server down: %v", err)
	}
}

// ovms answers the metadata and readiness endpoints like OpenVINO Model Server does for a model
// with a built-in tokenizer (there is no OVMS on these machines; the test checks the paths).
func ovms(ready bool) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			http.Error(w, "method", http.StatusMethodNotAllowed)
			return
		}
		switch r.URL.EscapedPath() {
		case "/v2/health/live":
		case "/v2/health/ready", "/v2/models/prompt-guard/ready", "/v2/models/prompt-guard/versions/2/ready":
			if !ready {
				w.WriteHeader(http.StatusServiceUnavailable)
			}
		case "/v2/models/prompt-guard/versions/2":
			fmt.Fprint(w, `{"name":"prompt-guard","versions":["2"],"platform":"OpenVINO",`+
				`"inputs":[{"name":"text","datatype":"BYTES","shape":[-1]}],`+
				`"outputs":[{"name":"logits","datatype":"FP32","shape":[-1,2]}]}`)
		default:
			http.Error(w, `{"error":"Model with requested name is not found"}`, http.StatusNotFound)
		}
	}))
}

func TestMetadataAndReadiness(t *testing.T) {
	ctx := context.Background()
	srv := ovms(true)
	defer srv.Close()
	c := client(t, srv, 0)
	m, err := c.ModelMetadata(ctx, "prompt-guard", "2")
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "prompt-guard" || m.Platform != "OpenVINO" || len(m.Versions) != 1 || len(m.Inputs) != 1 || m.Inputs[0].Datatype != kserve.Bytes ||
		len(m.Outputs) != 1 || m.Outputs[0].Name != "logits" || fmt.Sprint(m.Outputs[0].Shape) != "[-1 2]" {
		t.Errorf("metadata %+v", m)
	}
	if _, err := c.ModelMetadata(ctx, "nope", ""); err == nil {
		t.Error("metadata of an unknown model")
	} else if se, ok := errors.AsType[*kserve.StatusError](err); !ok || se.StatusCode != http.StatusNotFound {
		t.Errorf("unknown model: %v", err)
	}

	notReady := ovms(false)
	defer notReady.Close()
	for _, tc := range []struct {
		name  string
		probe func(*kserve.Client) (bool, error)
		up    bool // answer of the ready server; the other one says no except for live
	}{
		{"server live", func(c *kserve.Client) (bool, error) { return c.ServerLive(ctx) }, true},
		{"server ready", func(c *kserve.Client) (bool, error) { return c.ServerReady(ctx) }, true},
		{"model ready", func(c *kserve.Client) (bool, error) { return c.ModelReady(ctx, "prompt-guard", "") }, true},
		{"version ready", func(c *kserve.Client) (bool, error) { return c.ModelReady(ctx, "prompt-guard", "2") }, true},
		{"unknown model", func(c *kserve.Client) (bool, error) { return c.ModelReady(ctx, "nope", "") }, false},
	} {
		if ok, err := tc.probe(c); ok != tc.up || err != nil {
			t.Errorf("%s: %v, %v; want %v", tc.name, ok, err, tc.up)
		}
		want := tc.name == "server live"
		if ok, err := tc.probe(client(t, notReady, 0)); ok != want || err != nil {
			t.Errorf("%s on a server that is not ready: %v, %v; want %v", tc.name, ok, err, want)
		}
	}
	down := httptest.NewServer(http.NotFoundHandler())
	dc := client(t, down, 0)
	down.Close()
	if ok, err := dc.ServerReady(ctx); ok || err == nil {
		t.Errorf("server down: %v, %v", ok, err)
	}
}
