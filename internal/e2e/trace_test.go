package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	gosync "sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/agent"
	"github.com/sucursal/sucursal/internal/gateway"
	"github.com/sucursal/sucursal/internal/openaicompat"
	"github.com/sucursal/sucursal/internal/pki"
	"github.com/sucursal/sucursal/internal/tracecontext"
)

type logBuffer struct {
	mu gosync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// lines returns the JSON log lines whose msg is msg.
func (l *logBuffer) lines(msg string) []map[string]any {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(l.b.Bytes()))
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) == nil && m["msg"] == msg {
			out = append(out, m)
		}
	}
	return out
}

// traceTarget answers like a model server and keeps the traceparent of every request.
type traceTarget struct {
	mu  gosync.Mutex
	got []string
}

func (tt *traceTarget) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	tt.mu.Lock()
	tt.got = append(tt.got, r.Header.Get(tracecontext.Header))
	tt.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, `{"id":"c","object":"chat.completion","created":1,"model":"echo","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"hola"}}]}`)
}

func (tt *traceTarget) last() string {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	if len(tt.got) == 0 {
		return ""
	}
	return tt.got[len(tt.got)-1]
}

// A request carries one trace from the branch to the model server: the edge starts its own
// trace (a branch client's traceparent is logged on the NUC as client_trace_id and goes no
// further), sends it over QUIC, the gateway logs it and hands a child of it to the target; the
// request id and the trace id are in the edge's and the gateway's log lines for the request,
// down to a line the redactor logs deep in the request path.
func TestTraceparentFromBranchToTarget(t *testing.T) {
	tt := &traceTarget{}
	srv := httptest.NewServer(tt)
	t.Cleanup(srv.Close)
	pkiDir := newPKI(t)

	var gwLog, edgeLog logBuffer
	tlsConf, err := pki.ServerTLS(pkiDir)
	if err != nil {
		t.Fatal(err)
	}
	g, err := gateway.New(gateway.Config{Target: openaicompat.New(srv.URL+"/v1", "")}, tlsConf, prometheus.NewRegistry(),
		slog.New(slog.NewJSONHandler(&gwLog, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := g.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gctx, gcancel := context.WithCancel(context.Background())
	gdone := make(chan struct{})
	go func() { defer close(gdone); _ = g.Serve(gctx, ln) }()
	t.Cleanup(func() { gcancel(); ln.Close(); <-gdone })

	cfg := agent.DefaultConfig()
	cfg.Listen, cfg.EdgeID, cfg.DC, cfg.DCServerName, cfg.PKI = "127.0.0.1:0", edgeID, ln.Addr().String(), "localhost", pkiDir
	// A NER model server that is not there: each request's redaction logs a degraded line from
	// deep in the path, which must carry the request's ids too.
	cfg.Redaction.NER.Mode, cfg.Redaction.NER.Backend = "fallback-degraded", "openai"
	cfg.Redaction.NER.URL, cfg.Redaction.NER.Model = "http://"+freeAddr(t, "tcp")+"/v1", "ner"
	a, err := agent.New(cfg, slog.New(slog.NewJSONHandler(&edgeLog, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Listen(); err != nil {
		t.Fatal(err)
	}
	actx, acancel := context.WithCancel(context.Background())
	adone := make(chan error, 1)
	go func() { adone <- a.Run(actx) }()
	t.Cleanup(func() { acancel(); <-adone })
	waitLink(t, a)

	send := func(traceparent string) string {
		t.Helper()
		req, _ := http.NewRequest("POST", "http://"+a.Addr()+"/v1/chat/completions",
			strings.NewReader(`{"model":"echo","messages":[{"role":"user","content":"hola"}]}`))
		req.Header.Set("Content-Type", "application/json")
		if traceparent != "" {
			req.Header.Set(tracecontext.Header, traceparent)
		}
		resp, err := httpClient().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("status %d", resp.StatusCode)
		}
		return resp.Header.Get("X-Request-Id")
	}
	// findLine waits for the log line of msg naming request id rid.
	findLine := func(l *logBuffer, msg, rid string) map[string]any {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			for _, m := range l.lines(msg) {
				if m["request_id"] == rid {
					return m
				}
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("no %q log line with request_id %s", msg, rid)
		return nil
	}

	const client = "00-0000000000000000000000612345678a-00f067aa0ba902b7-01" // valid, and digits a client chose
	for _, tc := range []struct {
		name, header string
		fromClient   bool
	}{
		{"client sends one", client, true},
		{"client sends none", "", false},
		{"client sends garbage", "00-not-a-trace-id-María-01", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rid := send(tc.header)
			got, ok := tracecontext.Parse(tt.last())
			if !ok {
				t.Fatalf("the target got traceparent %q", tt.last())
			}
			if strings.Contains(tt.last(), "612345678") || strings.Contains(tt.last(), "0000000000000000000000") {
				t.Fatalf("the client's trace id reached the target: %s", tt.last())
			}
			edge := findLine(&edgeLog, "request served", rid)
			if edge["trace_id"] != got.TraceID {
				t.Errorf("edge log trace_id %v, target trace %s", edge["trace_id"], got.TraceID)
			}
			if c, _ := tracecontext.Parse(client); tc.fromClient && edge["client_trace_id"] != c.TraceID {
				t.Errorf("edge log client_trace_id %v, want %s", edge["client_trace_id"], c.TraceID)
			} else if !tc.fromClient && edge["client_trace_id"] != nil {
				t.Errorf("edge log client_trace_id %v without a valid client traceparent", edge["client_trace_id"])
			}
			if deep := findLine(&edgeLog, "redact: NER backend unavailable; gazetteer only (degraded)", rid); deep["trace_id"] != got.TraceID {
				t.Errorf("the redactor's line has trace_id %v, want %s", deep["trace_id"], got.TraceID)
			}
			gw := findLine(&gwLog, "stream served", rid)
			if gw["trace_id"] != got.TraceID {
				t.Errorf("gateway log trace_id %v, target trace %s", gw["trace_id"], got.TraceID)
			}
		})
	}
}
