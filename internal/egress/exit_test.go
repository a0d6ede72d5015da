package egress

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/redact"
	"github.com/sucursal/sucursal/internal/wire"
)

func TestExitBlocksCountsAndLogsWithoutTheValue(t *testing.T) {
	r, err := redact.New(redact.DefaultConfig(), nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	reg := prometheus.NewRegistry()
	e, err := New(r, reg, slog.New(slog.NewJSONHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	clean := wire.Request{Op: wire.OpChatCompletions, RequestID: "r1", Body: []byte(`{"model":"m","messages":[{"role":"user","content":"Hola @@PERSON-1@@"}]}`)}
	if err := e.Check(ctx, clean); err != nil {
		t.Fatalf("a redacted request was blocked: %v", err)
	}
	dirty := wire.Request{Op: wire.OpGuard, RequestID: "r2", Body: []byte(`{"kind":"safety","text":"DNI 12345678Z, ana.garcia@example.com"}`)}
	err = e.Check(ctx, dirty)
	var ce *chat.Error
	if !errors.As(err, &ce) || ce.Status != 422 || ce.Code != chat.CodeEgressBlocked || !strings.Contains(ce.Message, "DNI, EMAIL") {
		t.Fatalf("got %v", err)
	}
	if got := testutil.ToFloat64(e.blocked.WithLabelValues(wire.OpGuard, "DNI")); got != 1 {
		t.Fatalf("blocked counter = %v", got)
	}
	if got := testutil.ToFloat64(e.scanned.WithLabelValues(wire.OpChatCompletions)); got != 1 {
		t.Fatalf("checked counter = %v", got)
	}
	for _, v := range []string{"12345678", "ana.garcia", "Hola"} {
		if strings.Contains(logs.String(), v) || strings.Contains(err.Error(), v) {
			t.Fatalf("a value reached the log or the error: %s / %v", logs.String(), err)
		}
	}
	if !strings.Contains(logs.String(), `"request_id":"r2"`) || !strings.Contains(logs.String(), `"op":"guard"`) {
		t.Fatalf("the log does not say which request: %s", logs.String())
	}
	// A draft's text travelling as token ids is checked as text.
	if err := e.Check(ctx, wire.Request{Op: wire.OpDraft, Body: []byte(`{"tokens":[1,2,3]}`)}, "borrador con 12345678Z"); err == nil {
		t.Fatal("a draft text with a DNI passed")
	}
}
