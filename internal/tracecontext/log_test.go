package tracecontext

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"
)

func TestLogHandlerAddsTheRequestsIDs(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(LogHandler(slog.NewJSONHandler(&buf, nil))).With("component", "redact")
	tp := New()
	ctx := With(WithRequestID(context.Background(), "req-1"), tp)
	log.WarnContext(ctx, "in a request", "n", 1)
	log.Warn("outside any request")
	log.WarnContext(WithRequestID(context.Background(), "req-2"), "a request without a trace")
	lines := bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n"))
	if len(lines) != 3 {
		t.Fatalf("%d lines: %s", len(lines), buf.String())
	}
	want := []map[string]any{
		{"request_id": "req-1", "trace_id": tp.TraceID, "component": "redact"},
		{"request_id": nil, "trace_id": nil, "component": "redact"},
		{"request_id": "req-2", "trace_id": nil},
	}
	for i, line := range lines {
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatal(err)
		}
		for k, v := range want[i] {
			if m[k] != v {
				t.Errorf("line %d: %s = %v, want %v (%s)", i, k, m[k], v, line)
			}
		}
	}
	if h := LogHandler(LogHandler(slog.NewJSONHandler(&buf, nil))); h == nil {
		t.Fatal("nil handler")
	} else if _, ok := h.(idHandler).Handler.(idHandler); ok {
		t.Fatal("wrapped twice: the ids would be logged twice")
	}
}
