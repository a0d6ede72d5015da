package main

import (
	"bytes"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ask sends the key as a bearer token and shows a refusal by its status and code.
func TestAskSendsTheKeyAndShowsRefusals(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Content-Type") != "application/json" {
			t.Errorf("Content-Type %q", r.Header.Get("Content-Type"))
		}
		if r.Header.Get("Authorization") != "Bearer sk-suc-good" {
			w.WriteHeader(401)
			_, _ = io.WriteString(w, `{"error":{"message":"this branch endpoint needs an API key","type":"authentication_error","code":"missing_api_key"}}`)
			return
		}
		_, _ = io.WriteString(w, `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"hola"},"finish_reason":"stop"}]}`)
	}))
	defer srv.Close()
	var out, errw bytes.Buffer
	err := ask(&out, &errw, srv.Client(), srv.URL, "", "m", "hi", 8, false)
	if err == nil || !strings.Contains(err.Error(), "401 missing_api_key") {
		t.Fatalf("without a key: %v", err)
	}
	if err := ask(&out, &errw, srv.Client(), srv.URL, "sk-suc-good", "m", "hi", 8, false); err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(out.String()) != "hola" {
		t.Fatalf("answer %q", out.String())
	}
}

// --ca-file makes ask trust an agent serving HTTPS with a branch CA's certificate.
func TestAskCAFile(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`)
	}))
	defer srv.Close()
	var out, errw bytes.Buffer
	if err := ask(&out, &errw, http.DefaultClient, srv.URL, "", "m", "hi", 8, false); err == nil {
		t.Fatal("an unknown CA was trusted")
	}
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := askClient(ca)
	if err != nil {
		t.Fatal(err)
	}
	if err := ask(&out, &errw, c, srv.URL, "", "m", "hi", 8, false); err != nil {
		t.Fatal(err)
	}
	if _, err := askClient(filepath.Join(t.TempDir(), "missing.pem")); err == nil {
		t.Fatal("a missing CA file was accepted")
	}
}
