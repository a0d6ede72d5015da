package e2e

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

type openAIError struct {
	Error struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    *string `json:"code"`
	} `json:"error"`
}

func post(t *testing.T, url string, body []byte) (*http.Response, openAIError) {
	t.Helper()
	resp, err := httpClient().Post(url+"/v1/chat/completions", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatalf("POST: %v", err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var e openAIError
	if resp.StatusCode != http.StatusOK {
		if err := json.Unmarshal(raw, &e); err != nil {
			t.Fatalf("status %d with a body that is not an OpenAI error: %q", resp.StatusCode, raw)
		}
		if e.Error.Message == "" || e.Error.Type == "" || e.Error.Code == nil {
			t.Fatalf("status %d: error lacks message/type/code: %s", resp.StatusCode, raw)
		}
	}
	return resp, e
}

// TestBadInputGetsSpecificErrors: every kind of bad input gets its own OpenAI-shaped error and the
// agent keeps serving (a good request after each bad one still works).
func TestBadInputGetsSpecificErrors(t *testing.T) {
	o := startOllama(t)
	s := newStack(t, o, 0)
	good := []byte(`{"model":"tiny","messages":[{"role":"user","content":"a"}],"max_tokens":3}`)
	tests := []struct {
		name   string
		body   []byte
		status int
		code   string
	}{
		{"malformed JSON", []byte(`{"model":"tiny","messages":[`), 400, "invalid_json"},
		{"not an object", []byte(`[1,2,3]`), 400, "invalid_json"},
		{"empty body", nil, 400, "invalid_json"},
		{"body over the 4 MiB limit", append(append([]byte(`{"model":"tiny","messages":[{"role":"user","content":"`),
			bytes.Repeat([]byte("x"), 4<<20)...), `"}]}`...), 413, "request_too_large"},
		{"invalid UTF-8", []byte("{\"model\":\"tiny\",\"messages\":[{\"role\":\"user\",\"content\":\"caf\xe9\"}]}"), 400, "invalid_utf8"},
		{"missing messages", []byte(`{"model":"tiny"}`), 400, "missing_messages"},
		{"empty messages", []byte(`{"model":"tiny","messages":[]}`), 400, "missing_messages"},
		{"missing model", []byte(`{"messages":[{"role":"user","content":"a"}]}`), 400, "missing_model"},
		{"bad role", []byte(`{"model":"tiny","messages":[{"role":"boss","content":"a"}]}`), 400, "invalid_message"},
		{"bad content type", []byte(`{"model":"tiny","messages":[{"role":"user","content":42}]}`), 400, "invalid_type"},
		{"PascalCase keys (a .NET client's default)", []byte(`{"model":"tiny","Messages":[{"Role":"user","Content":"a"}]}`), 400, "invalid_field_casing"},
		{"unknown field", []byte(`{"model":"tiny","messages":[{"role":"user","content":"a"}],"top_k":5}`), 400, "unknown_field"},
		{"duplicate field", []byte(`{"model":"tiny","messages":[{"role":"user","content":"a"}],"messages":[{"role":"user","content":"b"}]}`), 400, "duplicate_field"},
		{"image part without the operator's consent", []byte(`{"model":"tiny","messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}}]}]}`), 400, "unsupported_content"},
		{"more personal values than a request may hold", densePII(120 << 10), 422, "too_many_entities"},
		{"model name with spaces", []byte(`{"model":"tiny model","messages":[{"role":"user","content":"a"}]}`), 400, "invalid_identifier"},
		{"unknown model (the target's 404 passed through)", []byte(`{"model":"no-such-model","messages":[{"role":"user","content":"a"}]}`), 404, "model_not_found"},
		{"unknown model, streamed", []byte(`{"model":"no-such-model","stream":true,"messages":[{"role":"user","content":"a"}]}`), 404, "model_not_found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, e := post(t, s.url, tt.body)
			if resp.StatusCode != tt.status || *e.Error.Code != tt.code {
				t.Fatalf("got %d %v (%s), want %d %s", resp.StatusCode, deref(e.Error.Code), e.Error.Message, tt.status, tt.code)
			}
			if strings.Contains(e.Error.Message, "caf") || strings.Contains(e.Error.Message, "xxxx") {
				t.Fatalf("the error message quotes the request body: %q", e.Error.Message)
			}
			if resp, _ := post(t, s.url, good); resp.StatusCode != http.StatusOK {
				t.Fatalf("the agent stopped serving after %s: %d", tt.name, resp.StatusCode)
			}
		})
	}
	t.Run("unknown URL and wrong method", func(t *testing.T) {
		resp, err := httpClient().Get(s.url + "/v1/chat/completions")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Fatalf("GET chat: %d", resp.StatusCode)
		}
		resp, err = httpClient().Get(s.url + "/v1/nothing")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Fatalf("unknown URL: %d", resp.StatusCode)
		}
	})
	t.Run("health and readiness", func(t *testing.T) {
		for _, path := range []string{"/healthz", "/readyz", "/metrics"} {
			resp, err := httpClient().Get(s.url + path)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%s: %d %s", path, resp.StatusCode, body)
			}
			if path == "/metrics" && !bytes.Contains(body, []byte("sucursal_api_chat_requests_total")) {
				t.Fatalf("/metrics lacks the request counter")
			}
		}
	})
}

func deref(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}

// TestDCUnreachable: with no gateway at the address, the agent answers 503 with Retry-After at
// once (it does not queue), /readyz says why, and the agent keeps serving.
func TestDCUnreachable(t *testing.T) {
	pkiDir := newPKI(t)
	url, _ := startAgent(t, pkiDir, "127.0.0.1:1") // nothing listens on UDP port 1
	for _, stream := range []bool{false, true} {
		body := []byte(`{"model":"tiny","messages":[{"role":"user","content":"a"}],"stream":` + map[bool]string{false: "false", true: "true"}[stream] + `}`)
		resp, e := post(t, url, body)
		if resp.StatusCode != http.StatusServiceUnavailable || deref(e.Error.Code) != "dc_unavailable" {
			t.Fatalf("stream=%v: got %d %s", stream, resp.StatusCode, deref(e.Error.Code))
		}
		if ra := resp.Header.Get("Retry-After"); ra == "" {
			t.Fatalf("stream=%v: 503 without Retry-After", stream)
		}
	}
	resp, err := httpClient().Get(url + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || !bytes.Contains(body, []byte(`"dc_link":"down"`)) {
		t.Fatalf("/readyz: %d %s", resp.StatusCode, body)
	}
	resp, err = httpClient().Get(url + "/healthz")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("/healthz: %v", err)
	}
	resp.Body.Close()
}

// TestLinkRedialsWhenTheGatewayComesBack: when the gateway goes away the agent answers 503 at
// once; the link re-dials with backoff, and once a gateway is back at the address requests succeed
// without restarting the agent.
func TestLinkRedialsWhenTheGatewayComesBack(t *testing.T) {
	o := startOllama(t)
	pkiDir := newPKI(t)
	g := startGatewayAt(t, pkiDir, o.URL+"/v1", "127.0.0.1:0")
	url, a := startAgent(t, pkiDir, g.addr)
	waitLink(t, a)
	good := []byte(`{"model":"tiny","messages":[{"role":"user","content":"a"}],"max_tokens":3}`)
	if resp, _ := post(t, url, good); resp.StatusCode != 200 {
		t.Fatalf("before: %d", resp.StatusCode)
	}
	g.stop()
	deadline := time.Now().Add(30 * time.Second)
	for up, _ := a.Link().Ready(); up; up, _ = a.Link().Ready() {
		if time.Now().After(deadline) {
			t.Fatal("the agent did not notice the gateway going away")
		}
		time.Sleep(10 * time.Millisecond)
	}
	resp, e := post(t, url, good)
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("during the outage: %d %s", resp.StatusCode, deref(e.Error.Code))
	}
	startGatewayAt(t, pkiDir, o.URL+"/v1", g.addr)
	waitLink(t, a)
	if resp, e := post(t, url, good); resp.StatusCode != 200 {
		t.Fatalf("after the gateway came back: %d %s", resp.StatusCode, deref(e.Error.Code))
	}
}
