package drafter

import (
	"context"
	"strings"
	"testing"

	"github.com/sucursal/sucursal/internal/gopanic"
	"github.com/sucursal/sucursal/internal/wire"
)

// panickyModel drafts like echoModel but panics while drafting: a bug in reading the model
// server's answer.
type panickyModel struct{ echoModel }

func (panickyModel) Draft(context.Context, string, int, bool) ([]Piece, error) {
	var pieces []Piece
	return pieces[:1], nil
}

// The speculative draft runs in its own goroutine; its panic is raised again in the request's
// goroutine when the round stops or settles it (where the API answers 500 internal_error), not
// left to stop the edge agent.
func TestDraftAheadPanicReachesTheRound(t *testing.T) {
	for _, end := range []string{"stop", "settle"} {
		tm := &Terminal{model: panickyModel{}}
		a := tm.draftAhead(context.Background(), "hola", 4, false)
		var got any
		func() {
			defer func() { got = recover() }()
			if end == "stop" {
				a.stop()
			} else {
				tm.settle(a, wire.VerifyResult{Bonus: true, Next: "x"}, false)
			}
		}()
		p, ok := got.(*gopanic.Panic)
		if !ok {
			t.Fatalf("%s: recovered %T %v, want *gopanic.Panic", end, got, got)
		}
		if !strings.Contains(string(p.Stack), "drafter.panickyModel.Draft") {
			t.Fatalf("%s: the stack is not the drafting goroutine's:\n%s", end, p.Stack)
		}
		a.stop() // a second stop raises nothing: the panic is raised once
	}
}
