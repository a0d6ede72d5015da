package dc

import (
	"context"
	"errors"
	"testing"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/link"
	"github.com/sucursal/sucursal/internal/wire"
)

type recordingExit struct {
	reqs  []wire.Request
	extra [][]string
	err   error
}

func (r *recordingExit) Check(_ context.Context, req wire.Request, extra ...string) error {
	r.reqs = append(r.reqs, req)
	r.extra = append(r.extra, extra)
	return r.err
}

// Every operation passes the exit before a stream is opened, and a refusal sends nothing: the
// link here is not even connected, so reaching it would be a dc_unavailable, not the refusal.
func TestEveryOperationPassesTheExit(t *testing.T) {
	refusal := &chat.Error{Status: 422, Code: chat.CodeEgressBlocked, Message: "blocked"}
	ex := &recordingExit{err: refusal}
	c, err := New(link.New(link.Config{Addr: "127.0.0.1:1"}, nil, nil), ex, Config{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	m := "m"
	if err := c.Chat(ctx, "r1", &chat.Request{Model: m, Messages: []chat.Message{{Role: "user", Content: chat.TextContent("x")}}}, nil); !errors.Is(err, refusal) {
		t.Fatalf("Chat: %v", err)
	}
	if _, err := c.Models(ctx); !errors.Is(err, refusal) {
		t.Fatalf("Models: %v", err)
	}
	if _, err := c.Guard(ctx, "safety", "texto"); !errors.Is(err, refusal) {
		t.Fatalf("Guard: %v", err)
	}
	if _, err := c.Verify(ctx, "r1", wire.Verify{Mode: wire.DraftModeToken, Draft: "texto del borrador", Tokens: []int32{1, 2}}); !errors.Is(err, refusal) {
		t.Fatalf("Verify: %v", err)
	}
	if _, err := c.DraftHello(ctx, wire.DraftHello{Model: m, Modes: []string{wire.DraftModeText}}); !errors.Is(err, refusal) {
		t.Fatalf("DraftHello: %v", err)
	}
	ops := []string{wire.OpChatCompletions, wire.OpModels, wire.OpGuard, wire.OpDraft, wire.OpDraftHello}
	for i, op := range ops {
		if ex.reqs[i].Op != op {
			t.Fatalf("the exit saw %v", ex.reqs)
		}
	}
	if len(ex.extra[3]) != 1 || ex.extra[3][0] != "texto del borrador" {
		t.Fatalf("a token-mode draft's text must be checked although only ids travel: %q", ex.extra[3])
	}
	if _, err := New(link.New(link.Config{Addr: "127.0.0.1:1"}, nil, nil), nil, Config{}); !errors.Is(err, ErrNoExit) {
		t.Fatalf("a client without an exit was built: %v", err)
	}
}

// With the exit passing and no connection, every operation says the DC is unavailable, in the
// user's terms for chat and models and as the link's error for the drafter.
func TestNotConnected(t *testing.T) {
	c, _ := New(link.New(link.Config{Addr: "127.0.0.1:1"}, nil, nil), &recordingExit{}, Config{})
	ctx := context.Background()
	var ce *chat.Error
	err := c.Chat(ctx, "r", &chat.Request{Model: "m", Messages: []chat.Message{{Role: "user", Content: chat.TextContent("x")}}}, nil)
	if !errors.As(err, &ce) || ce.Code != chat.CodeDCUnavailable || ce.RetryAfter != chat.DCRetryAfter {
		t.Fatalf("Chat: %v", err)
	}
	if _, err := c.Models(ctx); !errors.As(err, &ce) || ce.Code != chat.CodeDCUnavailable {
		t.Fatalf("Models: %v", err)
	}
	if _, err := c.DraftHello(ctx, wire.DraftHello{Model: "m"}); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("DraftHello: %v", err)
	}
}
