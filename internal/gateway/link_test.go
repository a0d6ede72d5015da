package gateway

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/sucursal/sucursal/internal/openaicompat"
)

// The stateless-reset key is a function of the TLS key: the same after a restart, another for
// another key, and nothing without one.
func TestResetKeyFromTLS(t *testing.T) {
	conf := func() *tls.Config {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		return &tls.Config{Certificates: []tls.Certificate{{PrivateKey: k}}}
	}
	a, b := conf(), conf()
	ka1, err := ResetKeyFromTLS(a)
	if err != nil {
		t.Fatal(err)
	}
	ka2, _ := ResetKeyFromTLS(a)
	kb, _ := ResetKeyFromTLS(b)
	if *ka1 != *ka2 {
		t.Fatal("the key changes between two derivations from the same TLS key (a restart would not reset)")
	}
	if *ka1 == *kb {
		t.Fatal("two TLS keys give the same reset key")
	}
	if _, err := ResetKeyFromTLS(&tls.Config{}); err == nil {
		t.Fatal("a key was derived from no private key")
	}
	if _, err := ResetKeyFromSecret([]byte("short")); err == nil {
		t.Fatal("a short secret was accepted")
	}
}

// The gateway's /readyz: 200 only while not draining and the target answers; each other state
// has its reason, and no address.
func TestReadyHandler(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	tests := []struct {
		name       string
		state      string
		draining   bool
		wantCode   int
		wantReason string
	}{
		{"target up", targetUp, false, http.StatusOK, ""},
		{"not probed yet", targetUnknown, false, http.StatusServiceUnavailable, "target_unknown"},
		{"target unreachable", targetUnreachable, false, http.StatusServiceUnavailable, "target_unreachable"},
		{"target failing", targetFailing, false, http.StatusServiceUnavailable, "target_failing"},
		{"draining", targetUp, true, http.StatusServiceUnavailable, "draining"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &Server{conns: map[*edgeConn]struct{}{}, target: newTargetHealth(openaicompat.New("http://10.9.8.7:8000/v1", ""), quiet)}
			s.target.set(tt.state)
			s.draining.Store(tt.draining)
			rec := httptest.NewRecorder()
			s.ReadyHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/readyz", nil))
			body := rec.Body.String()
			if rec.Code != tt.wantCode || (tt.wantReason != "" && !strings.Contains(body, `"reason":"`+tt.wantReason+`"`)) {
				t.Fatalf("%d %s, want %d with reason %q", rec.Code, body, tt.wantCode, tt.wantReason)
			}
			if strings.Contains(body, "10.9.8.7") {
				t.Fatalf("/readyz names the target's address: %s", body)
			}
		})
	}
}

// What requests see moves the target's state; a probe confirms.
func TestTargetHealthFromOutcomes(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	h := newTargetHealth(openaicompat.New("http://127.0.0.1:1/v1", ""), quiet)
	h.observe("upstream_unreachable")
	if st, _ := h.get(); st != targetUnreachable {
		t.Fatalf("after an unreachable outcome: %s", st)
	}
	h.observe("client_gone") // says nothing about the target
	if st, _ := h.get(); st != targetUnreachable {
		t.Fatalf("client_gone changed the target state to %s", st)
	}
	h.observe("ok")
	if st, _ := h.get(); st != targetUp {
		t.Fatalf("after an answer: %s", st)
	}
}

// The tracker says "idle" only when every stream that started has ended.
func TestTracker(t *testing.T) {
	var tr tracker
	select {
	case <-tr.idle():
	default:
		t.Fatal("a fresh tracker is not idle")
	}
	tr.add()
	tr.add()
	idle := tr.idle()
	tr.done()
	select {
	case <-idle:
		t.Fatal("idle with a stream in flight")
	default:
	}
	tr.done()
	select {
	case <-idle:
	default:
		t.Fatal("not idle once every stream ended")
	}
}
