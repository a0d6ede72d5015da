package link

import (
	"context"
	"errors"
	"testing"

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

// Every operation passes the exit before anything is opened, and a refusal sends nothing.
func TestEveryOperationPassesTheExit(t *testing.T) {
	blocked := errors.New("blocked")
	ex := &recordingExit{err: blocked}
	c := New(Config{Addr: "127.0.0.1:1", Exit: ex}, nil, nil)
	ctx := context.Background()
	if _, err := c.Open(ctx, wire.Request{Op: wire.OpChatCompletions, Body: []byte(`{}`)}); !errors.Is(err, blocked) {
		t.Fatalf("Open: %v", err)
	}
	if _, err := c.Verify(ctx, "r", wire.Verify{Mode: wire.DraftModeToken, Draft: "texto del borrador", Tokens: []int32{1, 2}}); !errors.Is(err, blocked) {
		t.Fatalf("Verify: %v", err)
	}
	if _, err := c.DraftHello(ctx, wire.DraftHello{Model: "m", Modes: []string{wire.DraftModeText}}); !errors.Is(err, blocked) {
		t.Fatalf("DraftHello: %v", err)
	}
	if len(ex.reqs) != 3 || ex.reqs[1].Op != wire.OpDraft || len(ex.extra[1]) != 1 || ex.extra[1][0] != "texto del borrador" {
		t.Fatalf("the exit saw %+v / %q; a token-mode draft's text must be checked although only ids travel", ex.reqs, ex.extra)
	}
	if _, err := New(Config{Addr: "127.0.0.1:1"}, nil, nil).Open(ctx, wire.Request{Op: wire.OpModels}); !errors.Is(err, ErrNoExit) {
		t.Fatalf("a client without an exit sent: %v", err)
	}
}
